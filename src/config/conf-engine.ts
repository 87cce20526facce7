// conf, the design card's config store, as the engine that writes the config
// file: atomically (temp file + fsync + rename, mode 0600 via configFileMode),
// in conf's format. What conf does not do, and the gate around it adds:
// - every read conf makes of the store (its constructor, `.store`) goes
//   through file.ts's readConfigFile: bounded, never through a symbolic link,
//   checked member by member, a damaged file named (CONFIG_DAMAGED...). conf's
//   own read (fs.readFileSync) follows links, reads any size and throws a bare
//   SyntaxError;
// - a symbolic link at the path is refused before conf writes: conf's writer
//   (atomically) resolves links and would write the tokens where one points;
// - parseConfig is the only validator (no conf schema: its ajv errors would
//   name neither the file nor the fix, and it would repeat parseConfig);
// - the store is only ever read and written whole (`.store`), never by
//   conf's dot-paths, so a profile named "a.b" or "__proto__" is just a name.
// Opening conf is for the write path only (config.json.lock held): conf's
// constructor creates the directory, and a read-only command creates nothing.
import { join } from 'node:path';
import { dropConfSignalHooks } from './conf-signals.js';
import Conf from 'conf';
import type ConfStore from 'conf';
import { damagedConfig, parseConfig, readConfigFile, refuseSymlink, type ConfigData } from './file.js';

// conf-signals.ts is imported before conf, so it sees the listeners from before conf loaded
// (ES modules run their imports in order); conf's own are taken off once it has loaded.
export { HOOKED_SIGNALS } from './conf-signals.js';

dropConfSignalHooks();

/** conf over the gate: its reads are readConfigFile's, its writes refuse a link first. */
class GatedConf extends Conf<ConfigData> {
  override get store(): ConfigData {
    return readConfigFile(this.path);
  }

  override set store(value: ConfigData) {
    refuseSymlink(this.path);
    super.store = value;
  }
}

/**
 * conf on `${dir}/config.json`, for one change under config.json.lock. The
 * directory must exist (created private by the caller). Throws the gate's
 * named errors when the file is damaged or a link.
 */
export function openConf(dir: string): ConfStore<ConfigData> {
  return new GatedConf({
    projectName: 'partner',
    projectSuffix: '',
    cwd: dir,
    configName: 'config',
    configFileMode: 0o600,
    defaults: { profiles: {} },
    // A damaged file holding tokens is named and kept, never silently emptied.
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false,
    watch: false,
    // conf's one direct read (keeping its "__internal__" data across a write) is checked the same way.
    deserialize: (text) => {
      const r = parseConfig(text);
      if (!r.ok) throw damagedConfig(join(dir, 'config.json'), r.problem);
      return r.config;
    },
    // As the file has always been written: tabs, one member a line, a final newline.
    serialize: (value) => `${JSON.stringify(value, null, '\t')}\n`,
  });
}

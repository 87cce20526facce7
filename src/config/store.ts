import Conf from 'conf';
import { lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, ExitCode } from '../errors.js';
import { configDir } from './paths.js';
import { ensurePrivateDir, tightenIfWide } from './secure-files.js';

export interface Profile {
  baseUrl?: string;
  token?: string;
}

interface ConfigShape {
  activeProfile?: string;
  profiles: Record<string, Profile>;
}

export { DEFAULT_PROFILE } from './paths.js';

/**
 * Profiles and tokens, in one conf file (JSON, mode 0600, directory 0700).
 * `warnings` collects what the caller should tell the user (a file found
 * with wider permissions and tightened).
 */
export class ConfigStore {
  private readonly conf: Conf<ConfigShape>;
  readonly warnings: string[] = [];

  constructor(env: NodeJS.ProcessEnv) {
    const dir = configDir(env);
    ensurePrivateDir(dir);
    refuseSymlink(join(dir, 'config.json'));
    this.conf = new Conf<ConfigShape>({
      projectName: 'partner',
      projectSuffix: '',
      cwd: dir,
      configName: 'config',
      configFileMode: 0o600,
      defaults: { profiles: {} },
      // The file holds secrets: never watch, never clear on a bad read silently.
      clearInvalidConfig: false,
    });
    if (tightenIfWide(this.conf.path)) {
      this.warnings.push(`Config file ${this.conf.path} was readable by others; its permissions were tightened to 0600.`);
    }
  }

  get path(): string {
    return this.conf.path;
  }

  get activeProfile(): string | undefined {
    return this.conf.get('activeProfile');
  }

  profileNames(): string[] {
    return Object.keys(this.conf.get('profiles') ?? {}).sort();
  }

  getProfile(name: string): Profile | undefined {
    const p = (this.conf.get('profiles') ?? {})[name];
    return p ? { ...p } : undefined;
  }

  setProfile(name: string, profile: Profile, makeActive = true): void {
    const profiles = { ...(this.conf.get('profiles') ?? {}), [name]: profile };
    this.conf.set('profiles', profiles);
    if (makeActive) this.conf.set('activeProfile', name);
    tightenIfWide(this.conf.path);
  }

  /** Makes a saved profile the active one; returns false when there is none of that name. */
  setActiveProfile(name: string): boolean {
    if (!this.getProfile(name)) return false;
    this.conf.set('activeProfile', name);
    return true;
  }

  /** Removes the profile; returns false when there was none. */
  deleteProfile(name: string): boolean {
    const profiles = { ...(this.conf.get('profiles') ?? {}) };
    if (!(name in profiles)) return false;
    delete profiles[name];
    this.conf.set('profiles', profiles);
    if (this.activeProfile === name) this.conf.delete('activeProfile');
    return true;
  }
}

/**
 * The config file holds tokens: a symbolic link in its place would make every
 * save write them wherever the link points (another user's file, a shared
 * directory). Refused, never followed.
 */
function refuseSymlink(path: string): void {
  let isLink = false;
  try {
    isLink = lstatSync(path).isSymbolicLink();
  } catch {
    return; // absent: conf creates a regular file
  }
  if (!isLink) return;
  let target = '';
  try {
    target = ` (to ${readlinkSync(path)})`;
  } catch {
    // unreadable link: still refused
  }
  throw new CliError(`Refusing the config file ${path}: it is a symbolic link${target}; tokens are never written through a link`, {
    code: 'CONFIG_SYMLINK',
    exitCode: ExitCode.FAILURE,
    hint: `Remove the link and log in again (\`rm ${path} && partner auth login\`), or point PARTNER_CONFIG_DIR at a private directory.`,
  });
}

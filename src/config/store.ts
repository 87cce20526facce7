import { existsSync } from 'node:fs';
import { CliError, ExitCode } from '../errors.js';
import { errnoText, readConfigFile, refuseSymlink, type ConfigData, type Profile } from './file.js';
import { underLock } from './locked-file.js';
import { configDir, configFile } from './paths.js';
import { ensurePrivateDir, tightenIfWide } from './secure-files.js';

export type { Profile } from './file.js';
export { DEFAULT_PROFILE } from './paths.js';

const sameName = (a: string, b: string) => a === b || a.normalize('NFC') === b.normalize('NFC');

/**
 * The key of `profiles` that is `name`, exactly, or else once both are NFC;
 * otherwise `name` NFC. Profiles saved before names were compared NFC keep
 * their key as it is.
 */
function savedKey(profiles: Record<string, unknown>, name: string): string {
  if (Object.hasOwn(profiles, name)) return name;
  const nfc = name.normalize('NFC');
  if (Object.hasOwn(profiles, nfc)) return nfc;
  return Object.keys(profiles).find((k) => k.normalize('NFC') === nfc) ?? nfc;
}

/**
 * Profiles and tokens, in one JSON file (mode 0600, directory 0700), shared by
 * every partner process of the user. The file is stored by conf, the design
 * card's config store (conf-engine.ts), behind file.ts's gate: every read is
 * bounded, refuses a symbolic link and names a damaged file. Opening the store
 * only reads (through the gate): no lock, nothing created, conf not opened.
 * Reads see the file as it was when the store was opened (conf replaces it
 * atomically, so never half of one). Each change is a read-modify-write under
 * config.json.lock: conf is opened, reads the file again (through the gate),
 * the change is applied to the whole store and conf writes it, so two logins
 * at once both keep their profile.
 * `warnings` collects what the caller should tell the user (a file found
 * with wider permissions and tightened).
 */
export class ConfigStore {
  readonly path: string;
  readonly warnings: string[] = [];
  private readonly dir: string;
  private data: ConfigData;

  constructor(env: NodeJS.ProcessEnv) {
    this.dir = configDir(env);
    this.path = configFile(env);
    refuseSymlink(this.path);
    // An existing directory is tightened (0700); a missing one is created by the first save, not by a read.
    try {
      if (existsSync(this.dir)) ensurePrivateDir(this.dir);
    } catch {
      // Not ours to tighten (read-only use goes on; a save says what is wrong).
    }
    try {
      if (tightenIfWide(this.path)) this.warnings.push(`Config file ${this.path} was readable by others; its permissions were tightened to 0600.`);
    } catch (err) {
      this.warnings.push(`Config file ${this.path} is readable by others and could not be tightened (${errnoText((err as NodeJS.ErrnoException).code ?? 'error')}); run \`chmod 600 ${this.path}\` as its owner.`);
    }
    this.data = readConfigFile(this.path);
  }

  get activeProfile(): string | undefined {
    return this.data.activeProfile;
  }

  profileNames(): string[] {
    return Object.keys(this.data.profiles).sort();
  }

  /**
   * The name a profile is saved under, for a name as typed: "Zoe" with an acute accent typed
   * precomposed finds the profile saved decomposed, and the other way round
   * (names are compared NFC: how a name was typed, a shell, a terminal or an
   * OS's file names may change it). A name no profile has comes back NFC, the
   * form new profiles are saved under.
   */
  savedName(name: string): string {
    return savedKey(this.data.profiles, name);
  }

  getProfile(name: string): Profile | undefined {
    const key = savedKey(this.data.profiles, name);
    const p = Object.hasOwn(this.data.profiles, key) ? this.data.profiles[key] : undefined;
    return p ? { ...p } : undefined;
  }

  async setProfile(name: string, profile: Profile, makeActive = true): Promise<void> {
    await this.update((c) => {
      // An existing profile of that name (in any normalisation) is updated, never doubled.
      const key = savedKey(c.profiles, name);
      // Logging in again keeps the profile's settings (the audit switch) unless the change names them.
      const audit = Object.hasOwn(c.profiles, key) ? c.profiles[key]!.audit : undefined;
      c.profiles[key] = audit === undefined ? { ...profile } : { audit, ...profile };
      if (makeActive) c.activeProfile = key;
      return true;
    });
  }

  /** Makes a saved profile the active one; returns false when there is none of that name. */
  setActiveProfile(name: string): Promise<boolean> {
    return this.update((c) => {
      const key = savedKey(c.profiles, name);
      if (!Object.hasOwn(c.profiles, key)) return false;
      c.activeProfile = key;
      return true;
    });
  }

  /** Removes the profile; returns false when there was none. */
  deleteProfile(name: string): Promise<boolean> {
    return this.update((c) => {
      const key = savedKey(c.profiles, name);
      if (!Object.hasOwn(c.profiles, key)) return false;
      delete c.profiles[key];
      if (c.activeProfile !== undefined && sameName(c.activeProfile, key)) delete c.activeProfile;
      return true;
    });
  }

  /** One change: under the lock, on the file as it is now (another process may have changed it since we opened it). */
  private async update(change: (c: ConfigData) => boolean): Promise<boolean> {
    // conf (and the ajv it loads, ~150 ms) only on this path: commands that only read never pay for it.
    const { openConf } = await import('./conf-engine.js');
    try {
      ensurePrivateDir(this.dir);
    } catch (err) {
      throw this.cannotWrite(err, `cannot create the directory ${this.dir}`);
    }
    return underLock(this.path, `the config file ${this.path}`, () => {
      const conf = openConf(this.dir);
      const fresh = conf.store;
      const changed = change(fresh);
      if (changed) {
        const { activeProfile, pager, profiles } = fresh;
        try {
          // Whole: never conf's dot-paths (a profile named "a.b" stays one profile). The pager the person set stays.
          conf.store = { ...(activeProfile === undefined ? {} : { activeProfile }), ...(pager === undefined ? {} : { pager }), profiles };
        } catch (err) {
          if (err instanceof CliError) throw err;
          throw this.cannotWrite(err, `cannot write ${this.path}`);
        }
      }
      this.data = fresh;
      return changed;
    });
  }

  private cannotWrite(err: unknown, what: string): CliError {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return new CliError(`Cannot save the config: ${what}: ${errnoText(code)}; nothing was saved`, {
      code: 'CONFIG_UNWRITABLE',
      exitCode: ExitCode.FAILURE,
      hint: code === 'ENOSPC' ? 'Free some disk space and try again.' : `Check the owner and permissions of ${this.dir} (it must be yours and writable), or point PARTNER_CONFIG_DIR at a directory you own.`,
      cause: err,
    });
  }
}

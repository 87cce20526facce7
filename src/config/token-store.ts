// Where a profile's token lives, and the one place that reads, saves and
// deletes it. By default the operating system's keyring (keyring.ts); the
// config file then says only `"tokenStorage": "keyring"` and holds no token.
// With --insecure-storage, or for a profile saved before the keyring, the
// token is in the 0600 config file. Never a silent fallback from one to the
// other: a keyring that cannot be reached is an error that says what to do.
import { AuthError, CliError, ExitCode, UsageError } from '../errors.js';
import type { Profile } from './file.js';
import { KeyringError, type KeyringBackend } from './keyring.js';
import type { ConfigStore } from './store.js';
import { tokenDefect } from './token-text.js';

/** Where a saved profile's token is: the keyring, the config file, or nowhere. */
export type TokenStorage = 'keyring' | 'file' | 'none';

export interface TokenRead {
  token?: string;
  storage: TokenStorage;
  /** Why there is no usable token although the profile says where it is (keyring locked, entry gone, token damaged). */
  problem?: CliError;
}

/** How to get a keyring, for every message that says none could be used. */
export const KEYRING_HELP = 'Unlock the keyring, or start one (on Linux a Secret Service such as gnome-keyring: see "Where your token is kept" in docs/guides/security.md)';

/**
 * The keyring service of a config directory: profiles of two config
 * directories (PARTNER_CONFIG_DIR) never share an entry. The account is the
 * profile name.
 */
export function keyringService(configDir: string): string {
  return `partner:${configDir}`;
}

/** Where the saved profile says its token is (no keyring call). */
export function storageOf(profile: Profile | undefined): TokenStorage {
  if (profile?.tokenStorage === 'keyring') return 'keyring';
  return profile?.token ? 'file' : 'none';
}

/** A token that cannot be sent, named with where it came from; never shown. */
export function invalidToken(defect: string, from: string): CliError {
  if (from === 'PARTNER_TOKEN') return new UsageError(`PARTNER_TOKEN ${defect}`, 'Set it to the token alone (no line break, no "Bearer"): export PARTNER_TOKEN="$(printf %s "$TOKEN" | tr -d \'\\r\\n\')", or unset it.', 'INVALID_TOKEN');
  return new AuthError(`The token ${from} ${defect}`, 'Log in again to replace it: `partner auth login`.', 'INVALID_TOKEN');
}

/** The keyring could not be used while `doing` something. */
export function keyringUnavailable(err: KeyringError, doing: string, hint: string): CliError {
  return new CliError(`Cannot ${doing} the system keyring: ${err.message}`, {
    code: err.reason === 'timeout' ? 'KEYRING_TIMEOUT' : 'KEYRING_UNAVAILABLE',
    exitCode: ExitCode.FAILURE,
    hint,
    cause: err,
  });
}

export class TokenStore {
  constructor(
    private readonly keyring: KeyringBackend,
    /** keyringService(configDir) */
    readonly service: string,
  ) {}

  /** The token of a saved profile, from where the profile says it is; a problem instead of throwing. */
  async read(name: string, profile: Profile | undefined): Promise<TokenRead> {
    const storage = storageOf(profile);
    if (storage === 'none') return { storage };
    let token: string | null | undefined = profile?.token;
    if (storage === 'keyring') {
      try {
        token = await this.keyring.get(this.service, name);
      } catch (err) {
        if (!(err instanceof KeyringError)) throw err;
        return { storage, problem: keyringUnavailable(err, `read the token of profile "${name}" from`, `${KEYRING_HELP}, then try again; or set PARTNER_TOKEN.`) };
      }
      if (token === null) {
        return { storage, problem: new AuthError(`The token of profile "${name}" is not in the system keyring (removed outside partner?)`, 'Log in again: `partner auth login`.', 'TOKEN_NOT_IN_KEYRING') };
      }
    }
    const defect = tokenDefect(token!);
    if (defect) return { storage, problem: invalidToken(defect, storage === 'keyring' ? `of profile "${name}" in the keyring` : `of profile "${name}" in the config file`) };
    return { token: token!, storage };
  }

  /**
   * Saves a profile's base URL and token, and makes it the active one: the
   * token in the keyring (the config file gets no token), or with `insecure`
   * in the config file (0600). A keyring that cannot be reached saves nothing.
   * Returns what the caller should tell the user.
   */
  async save(config: ConfigStore, name: string, baseUrl: string, token: string, insecure: boolean): Promise<string[]> {
    const before = storageOf(config.getProfile(name));
    if (insecure) {
      await config.setProfile(name, { baseUrl, token });
      if (before !== 'keyring') return [];
      // The old keyring entry would outlive the profile's move to the file.
      return (await this.deleteEntry(name)) ? [] : [`The previous token of profile "${name}" could not be deleted from the system keyring; delete it there (service "${this.service}", account "${name}").`];
    }
    try {
      await this.keyring.set(this.service, name, token);
    } catch (err) {
      if (!(err instanceof KeyringError)) throw err;
      throw keyringUnavailable(err, 'store the token in', `${KEYRING_HELP}, then log in again; or keep the token in a 0600 file with --insecure-storage. Nothing was saved.`);
    }
    try {
      await config.setProfile(name, { baseUrl, tokenStorage: 'keyring' });
    } catch (err) {
      // A profile that never was in the keyring leaves no entry behind.
      if (before !== 'keyring') await this.deleteEntry(name);
      throw err;
    }
    return [];
  }

  /**
   * Removes a saved profile and its token. The keyring entry goes first: when
   * the keyring cannot be reached the profile is kept (and the error says so),
   * so a later logout can still find its token. False when there is no such profile.
   */
  async forget(config: ConfigStore, name: string): Promise<boolean> {
    const profile = config.getProfile(name);
    if (!profile) return false;
    if (storageOf(profile) === 'keyring') {
      try {
        await this.keyring.delete(this.service, name);
      } catch (err) {
        if (!(err instanceof KeyringError)) throw err;
        throw keyringUnavailable(err, `delete the token of profile "${name}" from`, `${KEYRING_HELP}, then run \`partner auth logout\` again. The profile is kept until its token is deleted.`);
      }
    }
    return config.deleteProfile(name);
  }

  /** Undefined when the keyring answers, else why not (doctor). Reads an entry that does not exist. */
  async probe(): Promise<KeyringError | undefined> {
    try {
      await this.keyring.get(this.service, '(partner doctor probe)');
      return undefined;
    } catch (err) {
      if (err instanceof KeyringError) return err;
      throw err;
    }
  }

  private async deleteEntry(name: string): Promise<boolean> {
    try {
      await this.keyring.delete(this.service, name);
      return true;
    } catch (err) {
      if (err instanceof KeyringError) return false;
      throw err;
    }
  }
}

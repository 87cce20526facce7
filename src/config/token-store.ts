// Where a profile's token lives, and the one place that reads, saves and
// deletes it. By default the operating system's keyring (keyring.ts); the
// config file then says only `"tokenStorage": "keyring"` and holds no token.
// With --insecure-storage, or for a profile saved before the keyring, the
// token is in the 0600 config file. Never a silent fallback from one to the
// other: a keyring that cannot be reached is an error that says what to do.
import { AuthError, CliError, ExitCode, UsageError } from '../errors.js';
import type { Profile } from './file.js';
import { KeyringError, type KeyringBackend } from './keyring.js';
import { wordsFor } from './keyring-words.js';
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

/** The account login writes and deletes to find out, before it asks for the token, whether the keyring can store one. */
export const PROBE_ACCOUNT = '(partner login probe)';

/** After a failed change: what each store was left holding, when taking the change back failed too. */
function notTakenBack(what: string, err: unknown): CliError {
  return new CliError(`${what}; the system keyring could not be put back as it was either`, {
    code: 'TOKEN_STORES_DIFFER',
    exitCode: ExitCode.FAILURE,
    hint: 'Run `partner auth status` to see what is saved, and log in again once the keyring and the config file can be written.',
    cause: err,
  });
}

/** How to delete one entry by hand with the system's own tool, for when partner could not. */
export function removeByHand(service: string, account: string, platform: NodeJS.Platform = process.platform): string {
  const q = (t: string) => `'${t.replace(/'/g, `'\\''`)}'`;
  if (platform === 'darwin') return `\`security delete-generic-password -s ${q(service)} -a ${q(account)}\``;
  if (platform === 'win32') return `Credential Manager → Windows Credentials: the generic credential "${account}.${service}"`;
  return `\`secret-tool clear service ${q(service)} username ${q(account)}\` (package libsecret-tools), or Seahorse ("Passwords and Keys")`;
}

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

/**
 * The keyring could not be used while `doing` something: what is missing and
 * what to run, in partner's words; `next` is the way on ("or set
 * PARTNER_TOKEN"). The library's text is the cause, shown with --debug.
 */
export function keyringUnavailable(err: KeyringError, doing: string, next: string): CliError {
  const words = wordsFor(err);
  return new CliError(`Cannot ${doing} the system keyring: ${words.what}`, {
    code: err.reason === 'timeout' ? 'KEYRING_TIMEOUT' : 'KEYRING_UNAVAILABLE',
    exitCode: ExitCode.FAILURE,
    hint: `${words.fix}. ${next}`,
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
        return { storage, problem: keyringUnavailable(err, `read the token of profile "${name}" from`, 'Then try again; or set PARTNER_TOKEN.') };
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
   * Whether a token can be stored, found out before login asks for it: an
   * entry written and deleted again (a locked keyring answers reads and
   * refuses writes). Throws partner's words for what is missing.
   */
  async ensureWritable(): Promise<void> {
    try {
      await this.keyring.set(this.service, PROBE_ACCOUNT, 'partner-probe');
      await this.keyring.delete(this.service, PROBE_ACCOUNT);
    } catch (err) {
      if (!(err instanceof KeyringError)) throw err;
      throw keyringUnavailable(err, 'store tokens in', 'Or keep the token in a 0600 file with --insecure-storage. Nothing was asked for or saved.');
    }
  }

  /**
   * Saves a profile's base URL and token, and makes it the active one: the
   * token in the keyring (the config file gets no token), or with `insecure`
   * in the config file (0600). Both stores change, or neither: the keyring's
   * entry as it was is read first and put back when the config file cannot
   * be written (a full disk, its lock held), so a failed login never leaves
   * another company's token under the old base URL. Returns what the caller
   * should tell the user.
   */
  async save(config: ConfigStore, name: string, baseUrl: string, token: string, insecure: boolean): Promise<string[]> {
    if (insecure) return this.saveInFile(config, name, baseUrl, token);
    const cannotStore = (err: KeyringError) => keyringUnavailable(err, 'store the token in', 'Then log in again; or keep the token in a 0600 file with --insecure-storage. Nothing was saved.');
    let previous: string | null;
    try {
      previous = await this.keyring.get(this.service, name);
      await this.keyring.set(this.service, name, token);
    } catch (err) {
      if (!(err instanceof KeyringError)) throw err;
      throw cannotStore(err);
    }
    try {
      await config.setProfile(name, { baseUrl, tokenStorage: 'keyring' });
    } catch (err) {
      await this.putBack(name, previous, err);
      throw err;
    }
    return [];
  }

  /** --insecure-storage: the file first (a failure changes nothing); an old keyring entry is then deleted, or said to remain. */
  private async saveInFile(config: ConfigStore, name: string, baseUrl: string, token: string): Promise<string[]> {
    const before = storageOf(config.getProfile(name));
    await config.setProfile(name, { baseUrl, token });
    if (before !== 'keyring') return [];
    const left = await this.deleteEntry(name);
    return left ? [`The previous token of profile "${name}" could not be deleted from the system keyring (${wordsFor(left).what}); it is no longer used. Delete it there: ${removeByHand(this.service, name)}.`] : [];
  }

  /** The keyring entry as it was before a change whose config half failed (`failure`). */
  private async putBack(name: string, previous: string | null, failure: unknown): Promise<void> {
    try {
      if (previous === null) await this.keyring.delete(this.service, name);
      else await this.keyring.set(this.service, name, previous);
    } catch (err) {
      if (!(err instanceof KeyringError)) throw err;
      const said = failure instanceof Error ? failure.message : String(failure);
      throw notTakenBack(`${said}; the new token of profile "${name}" is in the system keyring`, err);
    }
  }

  /**
   * Removes a saved profile and its token: the profile first (a config file
   * that cannot be written changes nothing), then the keyring entry. A keyring
   * that cannot be reached does not keep the profile: it is removed, and the
   * warnings say that its token may remain in the keyring and how to delete
   * it. `removed` is false when there is no such profile.
   */
  async forget(config: ConfigStore, name: string): Promise<{ removed: boolean; warnings: string[] }> {
    const profile = config.getProfile(name);
    if (!profile) return { removed: false, warnings: [] };
    const removed = await config.deleteProfile(name);
    if (!removed || storageOf(profile) !== 'keyring') return { removed, warnings: [] };
    const left = await this.deleteEntry(name);
    if (!left) return { removed, warnings: [] };
    const words = wordsFor(left);
    return {
      removed,
      warnings: [`The token of profile "${name}" may remain in the system keyring: it could not be deleted (${words.what}). Nothing uses it any more; to delete it once the keyring is back: ${removeByHand(this.service, name)}.`],
    };
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

  /** Deletes a profile's entry; the keyring's error when it could not (an entry that was not there is fine). */
  private async deleteEntry(name: string): Promise<KeyringError | undefined> {
    try {
      await this.keyring.delete(this.service, name);
      return undefined;
    } catch (err) {
      if (err instanceof KeyringError) return err;
      throw err;
    }
  }
}

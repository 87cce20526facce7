import { AuthError } from '../errors.js';
import { DEFAULT_PROFILE } from './paths.js';
import { refuseCredentialsIn } from '../api/urls.js';
import type { ConfigStore } from './store.js';
import type { CliError } from '../errors.js';
import type { Profile } from './file.js';
import { noKeyring } from './keyring.js';
import { invalidToken, TokenStore, type TokenRead, type TokenStorage } from './token-store.js';
import { tokenDefect } from './token-text.js';

export type Source = 'flag' | 'env' | 'profile' | 'sandbox' | 'none';

export interface ResolvedProfile {
  name: string;
  nameSource: Source;
  baseUrl?: string;
  baseUrlSource: Source;
  token?: string;
  tokenSource: Source;
  /** false when the profile turned the audit log off ("audit": false in its config). */
  audit?: boolean;
  /** Where the token lives: PARTNER_TOKEN, the keyring, the config file (`auth status`, doctor). */
  tokenStorage: TokenStorage | 'environment' | 'sandbox';
  /** Why there is no token although one was set or saved (a line break in PARTNER_TOKEN, a locked keyring): thrown when the token is needed. */
  tokenProblem?: CliError;
}

export interface ProfileFlags {
  profile?: string;
  baseUrl?: string;
}

/**
 * Which profile: --profile > PARTNER_PROFILE > the active one in the config
 * file > "default". A name typed in another normalisation form than the one
 * saved (`Zoé` precomposed or decomposed) is the saved profile: the name comes
 * back as it is saved (NFC for one not saved yet).
 */
export function profileName(flags: ProfileFlags, env: NodeJS.ProcessEnv, store?: ConfigStore): { name: string; source: Source } {
  const envName = env.PARTNER_PROFILE || undefined;
  const saved = (name: string) => (store ? store.savedName(name) : name.normalize('NFC'));
  if (flags.profile) return { name: saved(flags.profile), source: 'flag' };
  if (envName) return { name: saved(envName), source: 'env' };
  if (store?.activeProfile) return { name: store.activeProfile, source: 'profile' };
  return { name: DEFAULT_PROFILE, source: 'none' };
}

/** A profile was named (flag, environment, `auth switch`) that the config file does not have. */
export function unknownProfileError(name: string, store: ConfigStore, source: Source = 'flag'): AuthError {
  const known = store.profileNames();
  const where = source === 'env' ? ' (PARTNER_PROFILE)' : '';
  const create = `\`partner --profile ${name} auth login --base-url URL\``;
  return known.length === 0
    ? new AuthError(`No profile "${name}"${where}; no profiles are saved yet`, `Create it with ${create}.`, 'UNKNOWN_PROFILE')
    : new AuthError(`No profile "${name}"${where}; known: ${known.join(', ')}`, `Use one of those (\`partner auth status\` lists them), or create it with ${create}.`, 'UNKNOWN_PROFILE');
}

/**
 * Precedence, per value: flags > environment > the profile in the config file.
 * The token never comes from a flag. The store is only opened when the flags
 * and environment leave something to find (so CI with env vars never reads it,
 * nor loads the config library).
 * A profile named by --profile or PARTNER_PROFILE that the config file does not
 * have is an error when it is needed (the base URL or the token must come from
 * it), rather than a confusing "Not logged in".
 */
export async function resolveProfile(flags: ProfileFlags, env: NodeJS.ProcessEnv, openStore: () => Promise<ConfigStore>, openTokens?: () => Promise<TokenStore>): Promise<ResolvedProfile> {
  const envName = env.PARTNER_PROFILE || undefined;
  const envBase = env.PARTNER_BASE_URL || undefined;
  const envToken = env.PARTNER_TOKEN || undefined;
  const baseFromOutside = flags.baseUrl ?? envBase;
  let store: ConfigStore | undefined;
  const needStore = !(baseFromOutside && envToken) || flags.profile !== undefined || envName !== undefined;
  if (needStore) store = await openStore();
  const { name, source: nameSource } = profileName(flags, env, store);
  const stored = store?.getProfile(name);
  if (store && !stored && (nameSource === 'flag' || nameSource === 'env') && !(baseFromOutside && envToken)) throw unknownProfileError(name, store, nameSource);
  const baseUrlSource: Source = flags.baseUrl ? 'flag' : envBase ? 'env' : stored?.baseUrl ? 'profile' : 'none';
  const baseUrl = flags.baseUrl ?? envBase ?? stored?.baseUrl;
  // A password in the base URL is refused wherever it comes from (it would be shown, never sent).
  refuseCredentialsIn(baseUrl, baseUrlSource === 'flag' ? '--base-url' : baseUrlSource === 'env' ? 'PARTNER_BASE_URL' : `profile "${name}" in ${store?.path ?? 'the config file'}`);
  const base = { name, nameSource, baseUrl, baseUrlSource, ...(stored?.audit === false ? { audit: false } : {}) } satisfies Partial<ResolvedProfile>;
  // PARTNER_TOKEN wins over the keyring and the file (and is never looked up there).
  if (envToken) return { ...base, ...tokenFrom(envToken), tokenSource: 'env', tokenStorage: 'environment' };
  const read = await savedToken(name, stored, openTokens);
  return { ...base, token: read.token, tokenSource: read.token ? 'profile' : 'none', tokenStorage: read.storage, ...(read.problem ? { tokenProblem: read.problem } : {}) };
}

function tokenFrom(envToken: string): { token?: string; tokenProblem?: CliError } {
  const defect = tokenDefect(envToken);
  return defect ? { tokenProblem: invalidToken(defect, 'PARTNER_TOKEN') } : { token: envToken };
}

/** The saved profile's token, from the keyring or the file; without a token store (tests of precedence), no keyring. */
async function savedToken(name: string, stored: Profile | undefined, openTokens?: () => Promise<TokenStore>): Promise<TokenRead> {
  const tokens = openTokens ? await openTokens() : new TokenStore(noKeyring, '');
  return tokens.read(name, stored);
}

/** Where a profile's token comes from, as every command says it (`auth status`, doctor): the same words for the same store. */
export const TOKEN_STORAGE_TEXT: Record<ResolvedProfile['tokenStorage'], string> = {
  environment: 'from PARTNER_TOKEN',
  keyring: 'from the system keyring',
  file: 'from the config file',
  sandbox: 'the embedded sandbox',
  none: 'none',
};

/** Shows only the last 4 characters of a secret. */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return '(none)';
  const tail = secret.length > 8 ? secret.slice(-4) : '';
  return `••••${tail}`;
}

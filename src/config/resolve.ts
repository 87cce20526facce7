import { DEFAULT_PROFILE, type ConfigStore } from './store.js';

export type Source = 'flag' | 'env' | 'profile' | 'sandbox' | 'none';

export interface ResolvedProfile {
  name: string;
  nameSource: Source;
  baseUrl?: string;
  baseUrlSource: Source;
  token?: string;
  tokenSource: Source;
}

export interface ProfileFlags {
  profile?: string;
  baseUrl?: string;
}

/**
 * Precedence, per value: flags > environment > the profile in the config file.
 * The token never comes from a flag. The store is only opened when the flags
 * and environment leave something to find (so CI with env vars never reads it,
 * nor loads the config library).
 */
export async function resolveProfile(flags: ProfileFlags, env: NodeJS.ProcessEnv, openStore: () => Promise<ConfigStore>): Promise<ResolvedProfile> {
  const envName = env.PARTNER_PROFILE || undefined;
  const envBase = env.PARTNER_BASE_URL || undefined;
  const envToken = env.PARTNER_TOKEN || undefined;
  const baseFromOutside = flags.baseUrl ?? envBase;
  let store: ConfigStore | undefined;
  const needStore = !(baseFromOutside && envToken) || flags.profile !== undefined || envName !== undefined;
  if (needStore) store = await openStore();
  const name = flags.profile ?? envName ?? store?.activeProfile ?? DEFAULT_PROFILE;
  const nameSource: Source = flags.profile ? 'flag' : envName ? 'env' : store?.activeProfile ? 'profile' : 'none';
  const stored = store?.getProfile(name);
  return {
    name,
    nameSource,
    baseUrl: flags.baseUrl ?? envBase ?? stored?.baseUrl,
    baseUrlSource: flags.baseUrl ? 'flag' : envBase ? 'env' : stored?.baseUrl ? 'profile' : 'none',
    token: envToken ?? stored?.token,
    tokenSource: envToken ? 'env' : stored?.token ? 'profile' : 'none',
  };
}

/** Shows only the last 4 characters of a secret. */
export function maskSecret(secret: string | undefined): string {
  if (!secret) return '(none)';
  const tail = secret.length > 8 ? secret.slice(-4) : '';
  return `••••${tail}`;
}

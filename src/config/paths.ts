import { homedir } from 'node:os';
import { join } from 'node:path';

const APP = 'partner';

/** The profile used when none is named (here, not in store.ts: resolving a profile from the environment must not load the config library). */
export const DEFAULT_PROFILE = 'default';

/** Where the config (profiles, tokens) and drafts live. PARTNER_CONFIG_DIR overrides (tests, portable setups). */
export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.PARTNER_CONFIG_DIR) return env.PARTNER_CONFIG_DIR;
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP, 'Config');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Preferences', APP);
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), APP);
}

/** Where caches (the webhook key set) live. PARTNER_CACHE_DIR overrides. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env.PARTNER_CACHE_DIR) return env.PARTNER_CACHE_DIR;
  if (process.platform === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), APP, 'Cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', APP);
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), APP);
}

import { join } from 'node:path';

/** The variables a test run's environment gets (test/setup/global.ts), all under `home`. */
export function runEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_RUNTIME_DIR: join(home, 'runtime'),
  };
}

// Two saved profiles (default, staging; no token check; tokens in the config
// file, --insecure-storage) in a temp config for the auth switch and logout
// tests, which then run against the same config.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { login } from '../../../../src/commands/auth/login.js';
import { runInProcess } from '../../../helpers/command.js';

export const noEnvProfile = { PARTNER_TOKEN: undefined, PARTNER_BASE_URL: undefined };
let dir = '';
/** The temp dir holding the config (for runInProcess's `dir`). */
export const configDir = () => dir;
/** The config file as saved. */
export const config = () => JSON.parse(readFileSync(join(dir, 'config', 'config.json'), 'utf8'));

export function withTwoProfiles(): void {
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'partner-auth-'));
    for (const [profile, baseUrl] of [['default', 'https://a.example.com'], ['staging', 'https://staging.example.com']]) {
      await runInProcess(login, ['--with-token', '--no-verify', '--insecure-storage'], { withToken: true, verify: false, insecureStorage: true }, { dir, stdin: `tok_${profile}_123456789`, env: noEnvProfile, globals: { profile, baseUrl } });
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
}

import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, runOnTerminal, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { closedPort } from '../helpers/loopback-server.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;

beforeAll(async () => {
  sandbox = await startSandbox({});
  dir = tempDir();
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

let n = 0;
/** A fresh isolated environment per test (own config and cache dirs). */
function envFor(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const sub = join(dir.path, `t${n++}`);
  mkdirSync(sub);
  return isolatedEnv(sub, extra);
}

const line = (out: string, name: string) => out.split('\n').find((l) => new RegExp(`^\\S+\\s+${name}\\s`).test(l)) ?? '';

describe('partner doctor', () => {
  it('--sandbox: every check passes, exit 0', async () => {
    const r = await runMain(['--sandbox', 'doctor', '-o', 'table'], { env: envFor() });
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'Node.js')).toMatch(/^OK\s+Node\.js\s+v\d+\.\d+\.\d+ \(20\.18 or newer needed\)/);
    expect(line(r.stdout, 'base URL')).toMatch(/^OK\s+base URL\s+http:\/\/127\.0\.0\.1:\d+ \(the embedded sandbox\)/);
    expect(line(r.stdout, 'token')).toMatch(/^OK\s+token\s+••••\w{4} \(the embedded sandbox\), accepted by GET \/v1\/employees/);
    expect(line(r.stdout, 'webhook keys')).toMatch(/^OK\s+webhook keys\s+reachable, 1 key\(s\): sbx-es512-1-[0-9a-f]{8}/);
    expect(line(r.stdout, 'clock')).toMatch(/^OK\s+clock\s+/);
    expect(line(r.stdout, 'proxy')).toMatch(/^OK\s+proxy\s+none set/);
    expect(r.stdout).toMatch(/All checks passed\.\n$/);
    expect(r.stderr).toBe('');
  });

  it('-o json: checks with status, message and fix; kids of the key set', async () => {
    const r = await runMain(['doctor', '-o', 'json'], { env: envFor({ PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA }) });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.exitCode).toBe(0);
    const names = doc.checks.map((c: { name: string }) => c.name);
    expect(names).toEqual(['Node.js', 'config file', 'profile', 'base URL', 'token', 'webhook keys', 'key cache', 'clock', 'proxy', 'keyring']);
    const keys = doc.checks.find((c: { name: string }) => c.name === 'webhook keys');
    expect(keys.details.keys).toEqual([{ kid: sandbox.signer.kid, usable: true, problem: null, ageSeconds: null }]);
    expect(typeof doc.checks.find((c: { name: string }) => c.name === 'clock').details.skewSeconds).toBe('number');
    expect(r.stdout).not.toContain(sandbox.tokens.companyA);
  });

  it('a refused token fails with exit 3 and a fix; the token is never shown', async () => {
    const token = 'definitely-not-a-valid-token-9999';
    const r = await runMain(['doctor', '-o', 'table'], { env: envFor({ PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: token }) });
    expect(r.code).toBe(3);
    expect(line(r.stdout, 'token')).toMatch(/^FAIL\s+token\s+••••9999 refused: HTTP 401/);
    expect(r.stdout).toMatch(/fix: .*partner auth login/);
    expect(r.stdout + r.stderr).not.toContain(token);
    // The key set is public: still checked.
    expect(line(r.stdout, 'webhook keys')).toMatch(/^OK/);
    expect(r.stdout).toMatch(/1 problem found\.\n$/);
  });

  it('a token without permission fails with exit 4', async () => {
    const r = await runMain(['doctor', '-o', 'table'], { env: envFor({ PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.noPermission }) });
    expect(r.code).toBe(4);
    expect(line(r.stdout, 'token')).toMatch(/^FAIL\s+token\s+.*refused: HTTP 403/);
  });

  it('nothing configured: no base URL and no token, exit 3, each with a fix', async () => {
    const r = await runMain(['doctor', '-o', 'table'], { env: envFor() });
    expect(r.code).toBe(3);
    expect(line(r.stdout, 'base URL')).toMatch(/^FAIL\s+base URL\s+none configured/);
    expect(line(r.stdout, 'token')).toMatch(/^FAIL\s+token\s+none for profile "default"/);
    expect(r.stdout).toMatch(/fix: Run `partner auth login --base-url URL`, set PARTNER_BASE_URL/);
    expect(line(r.stdout, 'clock')).toMatch(/^--\s+clock\s+not checked/);
    // no token saved and no keyring reachable (no D-Bus here): a login would be refused.
    expect(line(r.stdout, 'keyring')).toMatch(/^WARN\s+keyring\s+no token saved; the system keyring cannot be reached: /);
    expect(r.stdout).toMatch(/2 problems found, 1 warning\.\n$/);
  });

  it('an http:// base URL that is not loopback fails the https rule (exit 1)', async () => {
    const r = await runMain(['doctor', '-o', 'table'], { env: envFor({ PARTNER_BASE_URL: 'http://api.example.com', PARTNER_TOKEN: 'x-token-1234' }) });
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'base URL')).toMatch(/^FAIL\s+base URL\s+http:\/\/api\.example\.com: /);
    expect(line(r.stdout, 'token')).toMatch(/^--\s+token\s+.*not checked without a valid base URL/);
  });

  it('a config file readable by others fails with the chmod to run (exit 1)', async () => {
    const env = envFor({ PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
    const file = join(env.PARTNER_CONFIG_DIR!, 'config.json');
    mkdirSync(env.PARTNER_CONFIG_DIR!, { mode: 0o700 });
    writeFileSync(file, JSON.stringify({ profiles: {} }));
    chmodSync(file, 0o644);
    const r = await runMain(['doctor', '-o', 'table'], { env });
    expect(r.code).toBe(1);
    expect(line(r.stdout, 'config file')).toMatch(/^FAIL\s+config file\s+.*the file is 0644; others can read your tokens/);
    expect(r.stdout).toContain(`fix: Run \`chmod 600 ${file}\`.`);
  });

  it('when the profile comes from the config, a wide file is tightened and reported as a warning', async () => {
    const env = envFor();
    const file = join(env.PARTNER_CONFIG_DIR!, 'config.json');
    mkdirSync(env.PARTNER_CONFIG_DIR!, { mode: 0o700 });
    writeFileSync(file, JSON.stringify({ activeProfile: 'work', profiles: { work: { baseUrl: sandbox.url, token: sandbox.tokens.companyA } } }));
    chmodSync(file, 0o644);
    const r = await runMain(['doctor', '-o', 'table'], { env });
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'config file')).toMatch(/^WARN\s+config file\s+.*was 0644; partner tightened it to 0600 just now/);
    expect(line(r.stdout, 'profile')).toMatch(/^OK\s+profile\s+"work" \(from the config file\)/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('shows the proxy variables in use with credentials masked, and whether the API bypasses them', async () => {
    const env = envFor({ PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA, HTTP_PROXY: 'http://alice:s3cretpw@127.0.0.1:9', NO_PROXY: '127.0.0.1' });
    const r = await runMain(['doctor', '-o', 'table'], { env });
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'proxy')).toMatch(/^OK\s+proxy\s+HTTP_PROXY=http:\/\/\*\*\*:\*\*\*@127\.0\.0\.1:9, NO_PROXY=127\.0\.0\.1; 127\.0\.0\.1:\d+ bypasses the proxy \(NO_PROXY\)/);
    expect(r.stdout + r.stderr).not.toMatch(/alice|s3cretpw/);
    const bad = await runMain(['doctor', '-o', 'table'], { env: envFor({ PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA, HTTPS_PROXY: 'not a url', NO_PROXY: '*' }) });
    expect(bad.code).toBe(1);
    expect(line(bad.stdout, 'proxy')).toMatch(/^FAIL\s+proxy\s+HTTPS_PROXY=\(not a URL\)/);
  });

  it('reports the age of the key-set cache that webhook verify wrote', async () => {
    const env = envFor({ PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
    const jws = await sandbox.signer.sign({ eventType: 'EMPLOYEE_CREATED', timestamp: new Date().toISOString(), data: { id: '6432d9ca-ba9d-43c7-a4d5-3e279d9058f7', customerId: '6432d9ca-ba9d-43c7-a4d5-3e279d9058f8', employeeCode: 'ACME-1', status: 'ONBOARDING', type: 'EMPLOYEE', country: 'DEU' } });
    const v = await runMain(['webhook', 'verify', jws, '-o', 'json'], { env });
    expect(v.code).toBe(0);
    const before = await runMain(['doctor', '-o', 'table'], { env: envFor({ PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA }) });
    expect(line(before.stdout, 'key cache')).toMatch(/no fresh cached copy/);
    const r = await runMain(['doctor', '-o', 'table'], { env });
    expect(r.code).toBe(0);
    expect(line(r.stdout, 'key cache')).toMatch(/^OK\s+key cache\s+1 key\(s\) cached \d+ s ago; used for up to \d+ min/);
  });

  it('a valid base URL nobody answers on fails (it is tried, not just parsed): exit 1, token and keys not checked', async () => {
    // A loopback port that was free a moment ago: connections are refused.
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}`;
    const r = await runMain(['doctor', '-o', 'table'], { env: envFor({ PARTNER_BASE_URL: url, PARTNER_TOKEN: 'tok-unreachable-1234' }), timeoutMs: 30_000 });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(line(r.stdout, 'base URL')).toMatch(new RegExp(`^FAIL\\s+base URL\\s+${url.replace(/\./g, '\\.')} \\(from the environment\\): no answer: Could not reach GET ${url.replace(/\./g, '\\.')}/v1/employees: ECONNREFUSED`));
    expect(r.stdout).toMatch(/fix: Check the base URL, your network/);
    expect(line(r.stdout, 'token')).toMatch(/^--\s+token\s+••••1234 \(from PARTNER_TOKEN\); not checked: the server could not be reached/);
    expect(line(r.stdout, 'webhook keys')).toMatch(/^--\s+webhook keys\s+not checked: the server could not be reached/);
    expect(r.stdout).not.toMatch(/^OK\s+base URL/m);
    expect(r.stdout).toMatch(/1 problem found\.\n$/);

    // Without a token, the key-set fetch is the probe.
    const noToken = await runMain(['doctor', '-o', 'json'], { env: envFor({ PARTNER_BASE_URL: url }), timeoutMs: 30_000 });
    const checks = (JSON.parse(noToken.stdout) as { checks: { name: string; status: string; message: string }[] }).checks;
    expect(checks.find((c) => c.name === 'base URL')).toMatchObject({ status: 'fail', message: expect.stringMatching(/no answer: Could not reach GET .*jwks\.json: ECONNREFUSED/) });
    expect(noToken.code).toBe(3);
  });

  it('wraps long messages at the terminal width, between words (pseudo-terminal, 60 columns)', async () => {
    const env = envFor({ HTTPS_PROXY: 'http://proxy.example.com:3128', NO_PROXY: 'localhost,127.0.0.1,.internal.example.com,.corp.example.com' });
    const out = await runOnTerminal(['--sandbox', 'doctor', '--no-color'], { env, columns: 60 });
    const lines = out.replace(/\r/g, '').split('\n');
    const proxy = lines.findIndex((l) => /^OK\s+proxy\s/.test(l));
    expect(proxy).toBeGreaterThan(0);
    // A message with a word too wide to stand beside the label starts under it, whole (text/wrap.ts:
    // a word is never split; it moves whole to the next line or stays whole and wider than the terminal).
    const beside = lines[proxy]!.search(/HTTPS_PROXY/);
    const first = beside >= 0 ? proxy : proxy + 1;
    const column = beside >= 0 ? beside : lines[first]!.search(/HTTPS_PROXY/);
    expect(column).toBeGreaterThan(0);
    // Nothing wider than the terminal, except a single word longer than the room (a path, a URL), kept whole.
    for (const l of lines) if (l.length > 60) expect(l.slice(column).trim(), l).not.toMatch(/\s/);
    // The continuation lines start under the message's first line, and no word was split.
    expect(lines[first + 1]!.search(/\S/)).toBe(column);
    expect(out.replace(/\r?\n\s+/g, ' ')).toContain('NO_PROXY=localhost,127.0.0.1,.internal.example.com,.corp.example.com');
  });
});

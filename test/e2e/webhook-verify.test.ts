import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, runCli, tempDir } from '../helpers/cli.js';
import { approval, b64, ecKey, employeeCreated, signEs, signHmac } from '../unit/webhooks/helpers.js';

// Keys and JWS made with node:crypto only (outside the project), checked offline with --jwks-file.
const k1 = ecKey('k1');
const k2 = ecKey('k2');
const p256 = ecKey('p256', 'prime256v1');
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
let jwksFile: string;

beforeAll(() => {
  dir = tempDir();
  env = isolatedEnv(dir.path);
  jwksFile = join(dir.path, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify({ keys: [k1.jwk, k2.jwk, p256.jwk] }));
});
afterAll(() => dir.cleanup());

const good = () => signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey);

describe('partner webhook verify (built CLI, offline key set)', () => {
  it('valid JWS as an argument: exit 0, JSON verdict when piped', async () => {
    const r = await runCli(['webhook', 'verify', good(), '--jwks-file', jwksFile], { env });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ valid: true, reason: null, kid: 'k1', header: { alg: 'ES512', kid: 'k1' }, payload: { eventType: 'EMPLOYEE_CREATED' }, warnings: [] });
    expect(r.stderr).toBe('');
  });

  it('reads the raw HTTP body (a JSON string) from stdin', async () => {
    const r = await runCli(['webhook', 'verify', '--jwks-file', jwksFile, '-o', 'json'], { env, input: `${JSON.stringify(good())}\n` });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).valid).toBe(true);
  });

  it('human verdict with -o table: verdict, kid, alg, event meaning, timestamp, data', async () => {
    const r = await runCli(['webhook', 'verify', good(), '--jwks-file', jwksFile, '-o', 'table'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^VALID/);
    expect(r.stdout).toMatch(/kid\s+k1/);
    expect(r.stdout).toMatch(/alg\s+ES512/);
    expect(r.stdout).toMatch(/EMPLOYEE_CREATED — an employee was created/);
    expect(r.stdout).toMatch(/timestamp\s+2025-03-01T09:30:00.000Z/);
    expect(r.stdout).toMatch(/employeeCode\s+ACME-0007/);
  });

  it('forged (tampered payload): exit 8, reason BAD_SIGNATURE', async () => {
    const [h, , s] = good().split('.');
    const forged = `${h}.${b64(JSON.stringify(employeeCreated({ employeeCode: 'EVIL' })))}.${s}`;
    const r = await runCli(['webhook', 'verify', forged, '--jwks-file', jwksFile, '-o', 'table'], { env });
    expect(r.code).toBe(8);
    expect(r.stdout).toMatch(/^INVALID\s+BAD_SIGNATURE/);
  });

  it('genuine signature, broken event shape: exit 8, told apart from a forgery', async () => {
    const jws = signEs({ alg: 'ES512', kid: 'k2' }, approval('APPROVAL_REQUEST_REJECTED', { approvedAt: '2025-03-02T10:00:00.000Z' }), k2.privateKey);
    const r = await runCli(['webhook', 'verify', jws, '--jwks-file', jwksFile, '-o', 'table'], { env });
    expect(r.code).toBe(8);
    expect(r.stdout).toMatch(/INVALID\s+EVENT_SHAPE/);
    expect(r.stdout).toMatch(/signature is genuine/);
    const j = await runCli(['webhook', 'verify', jws, '--jwks-file', jwksFile], { env });
    expect(JSON.parse(j.stdout)).toMatchObject({ valid: false, reason: 'EVENT_SHAPE', signatureValid: true });
  });

  it('terminal escapes in the payload are neutralised', async () => {
    const jws = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated({ employeeCode: 'A\u001b]0;pwned\u0007B\u001b[2J' }), k1.privateKey);
    const r = await runCli(['webhook', 'verify', jws, '--jwks-file', jwksFile, '-o', 'table'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).not.toContain('\u0007');
  });

  it('--file: one line per JWS, a summary, exit 8 when any is invalid', async () => {
    const file = join(dir.path, 'batch.jws');
    const lines = [
      good(),
      '',
      JSON.stringify(signEs({ alg: 'ES512' }, employeeCreated(), k2.privateKey)),
      signHmac({ alg: 'HS512', kid: 'k1' }, employeeCreated(), JSON.stringify(k1.jwk)),
      `  ${signEs({ alg: 'ES512', kid: 'k9' }, employeeCreated(), k1.privateKey)}  `,
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const r = await runCli(['webhook', 'verify', '--file', file, '--jwks-file', jwksFile, '-o', 'table'], { env });
    expect(r.code).toBe(8);
    const out = r.stdout.trim().split('\n');
    // Through the output layer: a header, a row per JWS line (blank lines skipped), the summary below.
    expect(out).toHaveLength(6);
    expect(out[0]).toMatch(/^LINE\s+RESULT\s+EVENT\s+SUBJECT\s+STATUS\s+KID\s+NOTE$/);
    expect(out[1]).toMatch(/^1\s+VALID\s+EMPLOYEE_CREATED\s+ACME-0007\s+ONBOARDING\s+k1\s+-$/);
    expect(out[2]).toMatch(/^3\s+VALID\s+EMPLOYEE_CREATED\s+ACME-0007\s+ONBOARDING\s+-\s+-$/);
    expect(out[3]).toMatch(/^4\s+UNSUPPORTED_ALG\s+-\s+-\s+-\s+k1\s+\S/);
    expect(out[4]).toMatch(/^5\s+UNKNOWN_KID\s+/);
    expect(out[5]).toBe('4 webhooks: 2 valid, 2 invalid (UNSUPPORTED_ALG 1, UNKNOWN_KID 1)');
    const nd = await runCli(['webhook', 'verify', '--file', file, '--jwks-file', jwksFile, '-o', 'ndjson'], { env });
    expect(nd.stdout.trim().split('\n').map((l) => JSON.parse(l).valid)).toEqual([true, true, false, false]);
    expect(nd.stderr).toMatch(/2 valid, 2 invalid/);
    // The same -o, --fields, --jq as every list.
    const fields = await runCli(['webhook', 'verify', '--file', file, '--jwks-file', jwksFile, '-o', 'ndjson', '--fields', 'line,reason'], { env });
    expect(fields.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual([
      { line: 1, reason: null },
      { line: 3, reason: null },
      { line: 4, reason: 'UNSUPPORTED_ALG' },
      { line: 5, reason: 'UNKNOWN_KID' },
    ]);
    const jq = await runCli(['webhook', 'verify', '--file', file, '--jwks-file', jwksFile, '--jq', '[.[] | select(.valid | not) | .line]'], { env });
    expect(jq.code).toBe(8);
    expect(jq.stdout).toBe('[4,5]\n');
    expect(jq.stderr).toMatch(/4 webhooks: 2 valid, 2 invalid/);
    const csv = await runCli(['webhook', 'verify', '--file', file, '--jwks-file', jwksFile, '-o', 'csv'], { env });
    const rows = csv.stdout.trim().split('\r\n');
    expect(rows[0]).toBe('line,valid,reason,message,signatureValid,kid,alg,eventType,meaning,timestamp,subject,status,warnings,errors');
    expect(rows.slice(1).map((row) => row.split(',').slice(0, 3).join(','))).toEqual(['1,true,', '3,true,', '4,false,UNSUPPORTED_ALG', '5,false,UNKNOWN_KID']);
    const tableFields = await runCli(['webhook', 'verify', '--file', file, '--jwks-file', jwksFile, '-o', 'table', '--fields', 'line,kid'], { env });
    expect(tableFields.stdout.trim().split('\n').slice(0, 3)).toEqual([expect.stringMatching(/^line\s+kid$/i), expect.stringMatching(/^1\s+k1$/), expect.stringMatching(/^3\s+-$/)]);
  });

  it('--file with only valid JWS exits 0', async () => {
    const file = join(dir.path, 'ok.jws');
    writeFileSync(file, `${good()}\n${good()}\n`);
    const r = await runCli(['webhook', 'verify', '--file', file, '--jwks-file', jwksFile, '-o', 'json'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
  });

  it('usage errors exit 2: missing --file, missing --jwks-file, both inputs, empty stdin', async () => {
    const missing = await runCli(['webhook', 'verify', '--file', join(dir.path, 'nope'), '--jwks-file', jwksFile], { env });
    expect(missing.code, missing.stderr).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read --file/);
    const noKeys = await runCli(['webhook', 'verify', good(), '--jwks-file', join(dir.path, 'nope.json')], { env });
    expect(noKeys.code, noKeys.stderr).toBe(2);
    const both = await runCli(['webhook', 'verify', good(), '--file', 'x', '--jwks-file', jwksFile], { env });
    expect(both.code, both.stderr).toBe(2);
    const empty = await runCli(['webhook', 'verify', '--jwks-file', jwksFile], { env, input: '' });
    expect(empty.code, empty.stderr).toBe(2);
    expect(empty.stderr).toMatch(/No JWS given/);
    const badUrl = await runCli(['webhook', 'verify', good(), '--jwks-url', 'http://example.com/jwks.json'], { env });
    expect(badUrl.code, badUrl.stderr).toBe(2);
  });

  it('over 1 MiB on stdin: TOO_LARGE, exit 8', async () => {
    const r = await runCli(['webhook', 'verify', '--jwks-file', jwksFile], { env, input: 'a'.repeat(1024 * 1024 + 10) });
    expect(r.code).toBe(8);
    expect(JSON.parse(r.stdout).reason).toBe('TOO_LARGE');
  });
});

describe('the embedded sandbox keeps its signing keys across commands', () => {
  it('partner --sandbox sandbox emit --print, then partner --sandbox webhook verify (and a pipe of the two): VALID; the keys file is 0600', async () => {
    const own = tempDir();
    try {
      const e = isolatedEnv(own.path);
      const emitted = await runCli(['--sandbox', 'sandbox', 'emit', 'EMPLOYEE_CREATED', '--print'], { env: e });
      expect(emitted.code).toBe(0);
      expect(emitted.stderr).toBe('');
      const jws = emitted.stdout.trim();
      const verified = await runCli(['--sandbox', 'webhook', 'verify', jws, '-o', 'json'], { env: e });
      expect(JSON.parse(verified.stdout)).toMatchObject({ valid: true, eventType: 'EMPLOYEE_CREATED', kid: expect.stringMatching(/^sbx-es512-1-/) });
      expect(verified.code).toBe(0);
      // The same through stdin, as the example in the help shows.
      const piped = await runCli(['--sandbox', 'webhook', 'verify'], { env: e, input: `${jws}\n` });
      expect(piped.code).toBe(0);
      // A rotation by one command is what the next one publishes.
      const rotated = await runCli(['--sandbox', 'sandbox', 'emit', 'EMPLOYEE_UPDATED', '--rotate-key', '--print'], { env: e });
      expect(rotated.code).toBe(0);
      expect((await runCli(['--sandbox', 'webhook', 'verify', rotated.stdout.trim()], { env: e })).code).toBe(0);
      expect((await runCli(['--sandbox', 'webhook', 'verify', jws], { env: e })).code).toBe(0);
      if (process.platform !== 'win32') expect(statSync(join(own.path, 'cache', 'sandbox-signing-keys.json')).mode & 0o777).toBe(0o600);
    } finally {
      own.cleanup();
    }
  }, 60_000);
});

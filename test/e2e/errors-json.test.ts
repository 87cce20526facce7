// when a command's data goes out as JSON or NDJSON (chosen
// with -o, or implied because stdout is a pipe), an error is one JSON object
// on stderr; the exit code is the same as with the text block. Runs the CLI
// in-process (test/helpers/main-in-process.ts), stdout a pipe as when spawned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { closedPort } from '../helpers/loopback-server.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
const BOGUS = 'bogus-token-7c1e5d9a';

beforeAll(async () => {
  sandbox = await startSandbox({ employees: 5 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: BOGUS });
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

interface ErrorLine {
  error: { code: string; status: number | null; message: string; correlationId: string | null; details: { field: string; message: string }[]; exitCode: number; hint?: string };
}

function oneJsonLine(stderr: string): ErrorLine {
  const lines = stderr.trimEnd().split('\n');
  expect(lines, stderr).toHaveLength(1);
  return JSON.parse(lines[0]!) as ErrorLine;
}

describe('errors as JSON on stderr', () => {
  for (const [label, args] of [
    ['-o json', ['employees', 'list', '-o', 'json']],
    ['-o ndjson', ['employees', 'list', '-o', 'ndjson']],
    ['piped, no -o', ['employees', 'list']],
    ['--jq', ['employees', 'list', '--jq', '.data[].id']],
  ] as const) {
    it(`${label}: a 401 is one JSON object with code, status, the sentence and the correlation id; exit 3`, async () => {
      const r = await runMain([...args], { env });
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      const { error } = oneJsonLine(r.stderr);
      expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401, message: 'Your token was refused (AUTHORIZATION_INVALID_TOKEN)', details: [], exitCode: 3 });
      expect(error.correlationId).toMatch(/^\S+$/);
      expect(error.hint).toMatch(/partner auth login/);
      expect(r.stderr).not.toContain(BOGUS);
    });
  }

  it('a usage error found before any request is JSON too (exit 2, no HTTP status)', async () => {
    const before = sandbox.requests.length;
    const r = await runMain(['employees', 'list', '--page', '0', '-o', 'ndjson'], { env });
    expect(r.code).toBe(2);
    const { error } = oneJsonLine(r.stderr);
    expect(error).toMatchObject({ code: 'INVALID_OPTION', status: null, correlationId: null, exitCode: 2 });
    expect(error.message).toMatch(/--page/);
    expect(sandbox.requests.length).toBe(before);
  });

  it('-o table (or -o csv): the text block, with the 401 headline as a sentence; same exit code', async () => {
    for (const format of ['table', 'csv']) {
      const r = await runMain(['employees', 'list', '-o', format], { env });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/^Error: Your token was refused \(AUTHORIZATION_INVALID_TOKEN\)\n {2}Server answer: UNAUTHORIZED, HTTP 401\n/);
      expect(r.stderr).toMatch(/Correlation id: \S+/);
      expect(r.stderr).not.toMatch(/^\{/m);
    }
  });

  it('profile get of several employees: one JSON line per failed employee, naming it; the others still printed', async () => {
    const good = { ...env, PARTNER_TOKEN: sandbox.tokens.companyA };
    const r = await runMain(['profile', 'get', 'ACME-00001', 'ACME-99999', 'personal', '-o', 'json'], { env: good });
    expect(r.code).toBe(5);
    const docs = JSON.parse(r.stdout) as { personal: unknown }[];
    expect(docs).toHaveLength(1);
    const { error } = oneJsonLine(r.stderr) as ErrorLine & { error: { employee: string } };
    expect(error).toMatchObject({ employee: 'ACME-99999', exitCode: 5 });
    expect(error.message).toMatch(/ACME-99999/);
  });

  it('a command that prints no data keeps the text block when piped', async () => {
    const r = await runMain(['auth', 'login', '--base-url', 'http://api.example.com', '--with-token'], { env, input: 'tok\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: Refusing base URL http:\/\/api\.example\.com/);
  });

  it('a usage error commander finds (an unknown flag) is JSON too when the output would be; text with -o table', async () => {
    const before = sandbox.requests.length;
    const json = await runMain(['employees', 'list', '--bogus'], { env });
    expect(json.code).toBe(2);
    expect(oneJsonLine(json.stderr)).toMatchObject({ error: { code: 'USAGE', exitCode: 2, message: "unknown option '--bogus'" } });
    const text = await runMain(['employees', 'list', '--bogus', '-o', 'table'], { env });
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/^Error: unknown option '--bogus'\n/);
    expect(sandbox.requests.length).toBe(before);
  });

  it('--debug shows no stack trace for an ordinary network failure', async () => {
    const refused = await closedPort();
    const r = await runMain(['--debug', '--base-url', `http://127.0.0.1:${refused}`, 'employees', 'list', '-o', 'table'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`Error: Could not reach GET http://127\\.0\\.0\\.1:${refused}/v1/employees: ECONNREFUSED`));
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('invalid form values: one JSON object whose details name each field (no text list before it)', async () => {
    const good = { ...env, PARTNER_TOKEN: sandbox.tokens.companyA };
    const r = await runMain(['gp', 'create', '--entity', 'Acme Deutschland GmbH', '--set', 'personal.firstName=Ada', '--dry-run'], { env: good });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/Invalid values/);
    const { error } = oneJsonLine(r.stderr) as { error: { code: string; details: { field: string; message: string }[] } };
    expect(error.code).toBe('FORM_INVALID');
    expect(error.details.length).toBeGreaterThan(1);
    expect(error.details.map((d) => d.field)).toContain('personal.lastName');
  });
});

describe('one rule for errors, whatever produced them', () => {
  it('an unknown command is JSON when the line asks for JSON or stdout is piped, text with -o table', async () => {
    const piped = await runMain(['employee', 'list'], { env });
    expect(piped.code).toBe(2);
    expect(oneJsonLine(piped.stderr).error).toMatchObject({ code: 'USAGE', exitCode: 2, message: expect.stringMatching(/^unknown command 'employee'/) });
    const sub = await runMain(['employees', 'lst', '-o', 'json'], { env });
    expect(sub.code).toBe(2);
    expect(oneJsonLine(sub.stderr).error.message).toMatch(/^unknown command 'lst'/);
    const text = await runMain(['employee', 'list', '-o', 'table'], { env });
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/^Error: unknown command 'employee'\n/);
  });

  it('a bad event type names the ten types once (not in the message and again in the hint)', async () => {
    const r = await runMain(['sandbox', 'emit', 'EMPLOYEE_HIRED', '-o', 'table'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: EVENT_TYPE "EMPLOYEE_HIRED" is not an event type of the spec\n/);
    expect(r.stderr.match(/APPROVAL_REQUEST_REJECTED/g)).toHaveLength(1);
  });

  it('dynamic-details submit --dry-run (a JSON switch) gives a JSON error, no text list before it; without it, text', async () => {
    const good = { ...env, PARTNER_TOKEN: sandbox.tokens.companyA };
    const dry = await runMain(['dynamic-details', 'submit', 'ACME-00001', '--set', 'legal.pan=x', '--dry-run'], { env: good });
    expect(dry.code).toBe(2);
    expect(dry.stderr).not.toMatch(/Invalid values/);
    expect(oneJsonLine(dry.stderr).error.code).toBe('FORM_INVALID');
    const text = await runMain(['dynamic-details', 'submit', 'ACME-00001', '--set', 'legal.pan=x'], { env: good });
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/Invalid values/);
    expect(text.stderr).toMatch(/^Error: /m);
  });
});

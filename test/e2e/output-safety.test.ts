// Output safety end to end, against the built CLI and the sandbox's
// adversarial employees (commas, quotes, newlines, non-ASCII, cells starting
// with = + - @, terminal escape sequences) and webhook payloads carrying
// escape sequences: nothing reaches a terminal raw, CSV round-trips. Piped
// output runs the CLI in-process (test/helpers/main-in-process.ts); the
// terminal and `webhook listen` cases spawn it.
import { spawn } from 'node:child_process';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { BIN, isolatedEnv, ROOT, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { waitFor } from '../helpers/wait-for.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

/** ESC, the other C0 controls but tab/newline (and CR), DEL, and the C1 range (incl. 8-bit CSI U+009B). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const pictured = (t: string) =>
  t
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]|\r(?!\n)/g, (c) => String.fromCharCode(0x2400 + c.charCodeAt(0)))
    .replace(/\u007f/g, '\u2421')
    .replace(/[\u0080-\u009f]/g, '\ufffd');
const FORMULA = /^[=+\-@\t\r]/;

interface Employee {
  id: string;
  employeeCode: string;
  [k: string]: unknown;
}

let page: Employee[];

beforeAll(async () => {
  sandbox = await startSandbox({ employees: 45 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
  const r = await runMain(['employees', 'list', '-o', 'json'], { env });
  expect(r.code, r.stderr).toBe(0);
  page = (JSON.parse(r.stdout) as { data: Employee[] }).data;
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

describe('the adversarial data really is adversarial (guards the tests below)', () => {
  it('page 1 holds escapes, formula starts, commas, quotes, newlines and non-ASCII', () => {
    const text = JSON.stringify(page);
    expect(text).toContain('\\u001b[31m');
    expect(text).toContain('\\u001b]0;pwned\\u0007');
    expect(page.some((e) => Object.values(e).some((v) => typeof v === 'string' && FORMULA.test(v)))).toBe(true);
    expect(page.some((e) => String(e.lastName).includes(','))).toBe(true);
    expect(page.some((e) => String(e.displayName).includes('"'))).toBe(true);
    expect(page.some((e) => String(e.middleName ?? '').includes('\n'))).toBe(true);
    expect(text).toMatch(/[^\u0000-\u007f]/);
  });
});

describe('employees list', () => {
  it('table output carries no ESC, C0 or C1 control bytes, and every row is there', async () => {
    const r = await runMain(['employees', 'list', '-o', 'table'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(CONTROL);
    for (const e of page) expect(r.stdout).toContain(e.employeeCode);
    // The text around the escapes survives (only the sequences are dropped).
    expect(r.stdout).toContain('Engineering');
    expect(r.stdout).toContain('Renée');
    expect(r.stdout).toContain('小龙');
  });

  it('table output on a terminal (a pseudo-terminal) carries no control bytes beyond its own colours', async () => {
    const out = await underPty(`node ${BIN} employees list --no-color`);
    expect(out).toContain('ACME-00015');
    expect(out.replace(/\r/g, '')).not.toMatch(CONTROL);
  });

  it('CSV round-trips through csv-parse: every row intact (controls pictured), formula cells neutralised with a leading quote', async () => {
    const r = await runMain(['employees', 'list', '-o', 'csv'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(r.stdout, { columns: true, relax_column_count: false }) as Record<string, string>[];
    expect(rows).toHaveLength(page.length);
    let neutralised = 0;
    rows.forEach((row, i) => {
      const e = page[i]!;
      expect(row.id).toBe(e.id);
      for (const [k, v] of Object.entries(row)) {
        const orig = e[k];
        // Control characters are shown as Control Pictures in a pipe or file, written out here by hand.
        const text = pictured(orig === null || orig === undefined ? '' : String(orig));
        if (typeof orig === 'string' && FORMULA.test(text)) {
          neutralised++;
          expect(v).toBe(`'${text}`);
        } else expect(v, `${e.employeeCode}.${k}`).toBe(text);
      }
    });
    expect(neutralised).toBeGreaterThanOrEqual(4);
  });

  it('--csv-raw keeps formula cells exactly as the API sent them', async () => {
    const r = await runMain(['employees', 'list', '-o', 'csv', '--csv-raw'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(page.length);
    rows.forEach((row, i) => {
      for (const [k, v] of Object.entries(row)) {
        const orig = page[i]![k];
        expect(v).toBe(orig === null || orig === undefined ? '' : String(orig));
      }
    });
    expect(rows.some((row) => row.designation === '=HYPERLINK("http://x")')).toBe(true);
  });

  it('CSV with --fields round-trips too (the columns asked for, in order)', async () => {
    const r = await runMain(['employees', 'list', '-o', 'csv', '--fields', 'displayName,middleName,department,designation'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(r.stdout) as string[][];
    expect(rows[0]).toEqual(['displayName', 'middleName', 'department', 'designation']);
    expect(rows.slice(1).every((row) => row.length === 4)).toBe(true);
    expect(rows.some((row) => row[0] === 'Mary, Ann "M.A." Van der Berg')).toBe(true);
    expect(rows.some((row) => row[1] === 'Marie\nLouise')).toBe(true);
  });

  it('NDJSON keeps the data exactly (escaped by JSON, so no raw control bytes on stdout)', async () => {
    const r = await runMain(['employees', 'list', '-o', 'ndjson'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Employee)).toEqual(page);
  });
});

describe('profile get', () => {
  const hostile = () => page.find((e) => String(e.lastName).includes('\u001b'))!;

  it('table output of an employee with escape sequences has no control bytes', async () => {
    const r = await runMain(['profile', 'get', hostile().employeeCode, '-o', 'table'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Renée');
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stderr).not.toMatch(CONTROL);
  });

  it('table output of the employee whose address has quotes and a newline has no control bytes', async () => {
    const jose = page.find((e) => e.firstName === 'José')!;
    const r = await runMain(['profile', 'get', jose.employeeCode, 'address', 'personal', '-o', 'table'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Schmidt');
    expect(r.stdout).not.toMatch(CONTROL);
  });

  it('CSV of several hostile employees round-trips, formula cells neutralised', async () => {
    const codes = page.filter((e) => /[\u001b"=,+@]|^-/.test(JSON.stringify(e))).map((e) => e.employeeCode);
    const r = await runMain(['profile', 'get', ...codes, 'personal', 'employment', '-o', 'csv'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = parseCsv(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(codes.length);
    const cells = rows.flatMap((row) => Object.values(row));
    expect(cells.filter((c) => FORMULA.test(c))).toEqual([]);
    expect(cells).toContain(`'=HYPERLINK("http://x")`);
  });
});

const hostilePayload = () => ({
  eventType: 'EMPLOYEE_UPDATED',
  timestamp: '2025-03-01T09:30:00.000Z',
  data: {
    id: '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a',
    customerId: sandbox.companies.A.id,
    employeeCode: 'ACME\u001b]0;pwned\u0007-\u001b[2J\u009b31m7',
    status: 'ACTIVE\u001b[5m',
    type: 'EMPLOYEE',
    country: 'DEU',
    updateType: 'PERSONAL_DETAILS',
    note: 'line1\nline2\u0007\u202eevil',
  },
});

describe('webhook payloads with escape sequences', () => {
  it('webhook verify (the profile\'s key set): the verdict on the terminal is neutralised', async () => {
    const jws = await sandbox.signer.sign(hostilePayload());
    const r = await runMain(['webhook', 'verify', jws, '-o', 'table'], { env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^VALID/);
    expect(r.stdout).toContain('EMPLOYEE_UPDATED');
    expect(r.stdout).not.toMatch(CONTROL);
    expect(r.stdout).not.toContain('\u202e');
    // JSON keeps the exact payload for scripts (escaped, so still no raw bytes).
    const j = await runMain(['webhook', 'verify', jws, '-o', 'json'], { env });
    expect(j.stdout).not.toMatch(CONTROL);
    expect(JSON.parse(j.stdout).payload).toEqual(hostilePayload());
  });

  it('webhook verify --file: each verdict line is neutralised', async () => {
    const { writeFileSync } = await import('node:fs');
    const file = `${dir.path}/hostile.jws`;
    writeFileSync(file, `${await sandbox.signer.sign(hostilePayload())}\n${await sandbox.signer.sign(hostilePayload())}\n`);
    const r = await runMain(['webhook', 'verify', '--file', file, '-o', 'table'], { env });
    expect(r.code, r.stderr).toBe(0);
    // The header, a row per JWS, the summary.
    expect(r.stdout.trim().split('\n')).toHaveLength(4);
    expect(r.stdout).not.toMatch(CONTROL);
  });

  it('webhook listen: the line printed for each event is neutralised', async () => {
    const child = spawn(process.execPath, [BIN, 'webhook', 'listen', '--port', '0', '-o', 'table'], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    try {
      await waitFor(() => /Listening for webhooks on (\S+)/.test(err), { timeoutMs: 15_000 });
      const url = /Listening for webhooks on (\S+)/.exec(err)![1]!;
      const jws = await sandbox.signer.sign(hostilePayload());
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: jws });
      expect(res.status).toBe(200);
      // A forged one too: its rejection line must be clean as well.
      const forged = `${jws.split('.')[0]}.${Buffer.from(JSON.stringify(hostilePayload()) + ' ').toString('base64url')}.${jws.split('.')[2]}`;
      expect((await fetch(url, { method: 'POST', body: forged })).status).toBe(401);
      await waitFor(() => out.trim().split('\n').length >= 2 || /401/.test(err + out), { what: 'two event lines or the 401' });
      await waitFor(() => (out + err).includes('401'), { what: 'the 401 line' });
      expect(out).toContain('EMPLOYEE_UPDATED');
      expect(out).not.toMatch(CONTROL);
      expect(err).not.toMatch(CONTROL);
      expect(out + err).not.toContain('\u202e');
    } finally {
      child.kill('SIGINT');
      await closed;
    }
  });
});

describe('hostile error bodies from a server', () => {
  const ESC = '\u001b]0;pwned\u0007\u001b[2J\u009b31m\u202e';
  const bodies: Record<string, { status: number; type: string; body: string; code: number }> = {
    '422 with escapes in message, details, path and correlation id': {
      status: 422,
      type: 'application/json',
      body: JSON.stringify({ code: `VALIDATION${ESC}`, message: `bad${ESC}`, path: `/v1/employees${ESC}`, correlationId: `cid${ESC}`, error: { code: 'VALIDATION_ERROR', message: `m${ESC}`, details: [{ field: `status${ESC}`, message: `nope${ESC}` }] } }),
      code: 7,
    },
    '502 HTML page with escapes': { status: 502, type: 'text/html', body: `<html><body>${ESC}Bad gateway${ESC}</body></html>`, code: 1 },
    '200 that is not JSON, with escapes': { status: 200, type: 'application/json', body: `{"data": ${ESC}`, code: 1 },
  };
  for (const [name, b] of Object.entries(bodies)) {
    it(`${name}: the error on stderr has no control bytes`, async () => {
      const { createServer } = await import('node:http');
      const server = createServer((_req, res) => res.writeHead(b.status, { 'content-type': b.type }).end(b.body));
      const serverAt = await listenOnLoopback(server);
      const port = serverAt.port;
      try {
        // The text block (-o table) and, piped, the JSON line: neither carries control bytes.
        for (const format of [['-o', 'table'], []]) {
          const r = await runMain(['employees', 'list', '--timeout', '5', ...format], { env: { ...env, PARTNER_BASE_URL: `http://127.0.0.1:${port}` }, timeoutMs: 30_000 });
          expect(r.code, r.stderr).toBe(b.code);
          if (format.length) expect(r.stderr).toMatch(/^Error: /);
          else expect(JSON.parse(r.stderr).error.exitCode).toBe(b.code);
          expect(r.stderr).not.toMatch(CONTROL);
          expect(r.stderr).not.toContain('\u202e');
          expect(r.stderr).not.toMatch(/\n\s+at /);
        }
      } finally {
        await closeServer(server);
      }
    });
  }
});

/** Runs a shell command under a pseudo-terminal (util-linux script) and returns what it wrote. */
function underPty(command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/script', ['-qfec', command, '/dev/null'], { env: { ...env, COLUMNS: '200', TERM: 'xterm' }, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

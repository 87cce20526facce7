// The output is resolved before anything is sent,
// checked by walking the whole command tree from the definitions: every
// command that offers --jq exits 2 on a filter that does not compile, and
// every command that offers --fields exits 2 on a name its record does not
// have, and the server (a real sandbox on a loopback port, which logs every
// request) received nothing. A new command needs an entry in SAMPLES: the
// test fails without one.
// Runs the CLI in-process (test/helpers/main-in-process.ts: the launcher's steps and main,
// over real HTTP to a sandbox); what needs a real process is spawned (launcher.test.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGroup, type CommandDef } from '../../src/command.js';
import { TOP_LEVEL } from '../../src/commands/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { sandboxEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

const ENTITY = 'Acme Deutschland GmbH';

let env: NodeJS.ProcessEnv;
let close: () => Promise<void>;
let sandbox: Sandbox;
let dir: string;

/**
 * The rest of a command line that would otherwise succeed and send requests
 * (required arguments and flags), for every command that prints data. Filled
 * in beforeAll (it needs the sandbox's URL and files).
 */
const SAMPLES: Record<string, () => string[]> = {
  'employees list': () => ['employees', 'list', '--all'],
  'trackers onboarding': () => ['trackers', 'onboarding'],
  'trackers offboarding': () => ['trackers', 'offboarding'],
  'profile get': () => ['profile', 'get', 'ACME-00007'],
  'gp create': () => ['gp', 'create', '--entity', ENTITY, '--from-file', join(dir, 'values.json')],
  'gp schema': () => ['gp', 'schema', '--entity', ENTITY],
  'gp template': () => ['gp', 'template', '--entity', ENTITY],
  'auth status': () => ['auth', 'status', '--all'],
  'audit list': () => ['audit', 'list'],
  'drafts list': () => ['drafts', 'list'],
  doctor: () => ['doctor'],
  api: () => ['api', '/v1/employees'],
  version: () => ['version'],
  'webhook verify': () => ['webhook', 'verify', '--jwks-url', `${sandbox.url}/v1/partner/.well-known/jwks.json`, 'eyJhbGciOiJFUzUxMiIsImtpZCI6Im5vLXN1Y2gta2lkIn0.e30.c2ln'],
  // Would listen until stopped: a bounded run below.
  'webhook listen': () => ['webhook', 'listen', '--port', '0'],
  'webhook replay': () => ['webhook', 'replay', '--spool', join(dir, 'spool'), '--to', `${sandbox.url}/hook`],
  'sandbox emit': () => ['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', `${sandbox.url}/hook`],
};

function leafDefs(): [string, CommandDef][] {
  return TOP_LEVEL.flatMap((t) => (isGroup(t) ? t.commands.map((c) => [`${t.name} ${c.name}`, c] as [string, CommandDef]) : [[t.name, t] as [string, CommandDef]]));
}

const withOutput = leafDefs().filter(([, d]) => d.output);
const offersJq = withOutput.filter(([, d]) => d.output!.jq !== false);
/**
 * Commands whose records are whatever the server answers (`api <path>`): no
 * fields to declare, and --fields is checked against the first records
 * received (test/e2e/api.test.ts), so after the request.
 */
const OPEN_RECORDS = new Set(['api']);
const offersFields = withOutput.filter(([path, d]) => d.output!.fields !== false && !OPEN_RECORDS.has(path));

beforeAll(async () => {
  ({ env, close, sandbox, dir } = await sandboxEnv());
  const { readFileSync } = await import('node:fs');
  writeFileSync(join(dir, 'values.json'), readFileSync(join(import.meta.dirname, '../fixtures/forms/deu-values.json')));
  mkdirSync(join(dir, 'spool'), { recursive: true });
});

afterAll(async () => {
  await close?.();
});

/** Runs one sample with extra flags; returns the result and the requests the sandbox received meanwhile. */
async function attempt(path: string, extra: string[]) {
  const before = sandbox.requests.length;
  const r = await runMain([...SAMPLES[path]!(), ...extra], { env, timeoutMs: 15_000 });
  return { ...r, requests: sandbox.requests.slice(before).map((q) => `${q.method} ${q.path}`) };
}

describe('the samples', () => {
  it.each(withOutput)('%s has a sample command line (add one to SAMPLES)', (path) => {
    expect(SAMPLES[path], `add ${path} to SAMPLES`).toBeDefined();
  });
  it('every command that offers --fields declares its record fields (help and the manual list them)', () => {
    for (const [path, def] of offersFields) expect(def.output!.recordFields?.length, path).toBeGreaterThan(0);
  });
});

describe.each(offersJq)('%s --jq ".["', (path) => {
  it('exits 2 (INVALID_JQ) and sends nothing', async () => {
    const r = await attempt(path, ['--jq', '.[']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/INVALID_JQ/);
    expect(r.stdout).toBe('');
    expect(r.requests).toEqual([]);
  });
});

describe.each(offersFields)('%s --fields with a name its record lacks', (path) => {
  it('exits 2 (UNKNOWN_FIELD) and sends nothing', async () => {
    const r = await attempt(path, ['--fields', 'noSuchField']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/UNKNOWN_FIELD/);
    expect(r.stderr).toMatch(/noSuchField/);
    expect(r.stdout).toBe('');
    expect(r.requests).toEqual([]);
  });
});

describe('reproductions', () => {
  it('gp create --from-file F --jq ".[" exits 2 with no POST (it created the employee, then exited 2)', async () => {
    const r = await attempt('gp create', ['--jq', '.[']);
    expect(r.code).toBe(2);
    expect(r.requests.filter((q) => q.startsWith('POST'))).toEqual([]);
  });
  it('employees list --fields fullname -o csv exits 2 with did-you-mean fullName and the list of fields, nothing written', async () => {
    const r = await attempt('employees list', ['--fields', 'fullname', '-o', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/"fullname" is not a field of this record \(did you mean fullName\?\)/);
    expect(r.stderr).toMatch(/The fields of this record: id, employeeCode, .*fullName/);
    expect(r.requests).toEqual([]);
  });
  it('10,000 unknown names: a short message naming a few and how many more', async () => {
    const fields = Array.from({ length: 10_000 }, (_, i) => `x${i}`).join(',');
    const r = await attempt('employees list', ['--fields', fields, '-o', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/10,000 names are not fields of this record: x0, x1, x2, x3, x4 and 9,995 more/);
    expect(r.stderr.length).toBeLessThan(1500);
  });
  it('dot paths keep working: the first segment is checked', async () => {
    const r = await attempt('profile get', ['--fields', 'id,personal.firstName', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout) as object)).toEqual(['id', 'personal']);
  });
  it('profile get: a section path the first answer lacks exits 2 before any row is written', async () => {
    const bad = await runMain(['profile', 'get', 'ACME-00007', 'ACME-00001', '--fields', 'id,personal.noSuchField', '-o', 'ndjson'], { env, timeoutMs: 15_000 });
    expect(bad.code, bad.stderr).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/personal\.noSuchField/);
  });
});

const offersCsv = withOutput.filter(([, d]) => d.output!.formats.includes('csv'));
/** Commands whose CSV sample runs to a successful CSV document (the others fail on purpose: a bad token, a replay target). */
const CSV_RUNS = new Set(['employees list', 'trackers onboarding', 'trackers offboarding', 'profile get', 'gp template', 'api']);

describe.each(offersCsv)('%s --bom', (path) => {
  const def = withOutput.find(([p]) => p === path)![1];
  const other = def.output!.formats.find((f) => f !== 'csv')!;
  it(`with -o ${other}, or --jq: exits 2 and sends nothing`, async () => {
    for (const extra of [['-o', other], ...(def.output!.jq !== false ? [['--jq', '.']] : [])]) {
      const r = await attempt(path, ['--bom', ...extra]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--bom applies to CSV output only, not (-o \w+|--jq)/);
      expect(r.stdout).toBe('');
      expect(r.requests).toEqual([]);
    }
  });
  it.runIf(CSV_RUNS.has(path))('with -o csv: the output starts with one UTF-8 BOM (EF BB BF), and without --bom with none', async () => {
    const withBom = await attempt(path, ['-o', 'csv', '--bom']);
    expect(withBom.code, withBom.stderr).toBe(0);
    expect([...Buffer.from(withBom.stdout, 'utf8').subarray(0, 4)].slice(0, 3)).toEqual([0xef, 0xbb, 0xbf]);
    expect(withBom.stdout.indexOf('\ufeff', 1)).toBe(-1);
    const without = await attempt(path, ['-o', 'csv']);
    expect(without.code, without.stderr).toBe(0);
    expect(without.stdout).not.toContain('\ufeff');
    expect(withBom.stdout.slice(1).split('\n')[0]).toBe(without.stdout.split('\n')[0]);
  });
});

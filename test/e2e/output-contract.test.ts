// The output contract of every command, checked by walking the command tree:
// each output flag a command offers changes its output as documented (JSON
// parses, NDJSON is one object per line, CSV parses, --jq applies, -q prints
// ids, --fields picks), piped output is never a table, and no command offers
// a flag that is not declared in its definition's output spec.
// Runs the CLI in-process (test/helpers/main-in-process.ts: the launcher's steps and main,
// over real HTTP to a sandbox); what needs a real process is spawned (launcher.test.ts).
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/program.js';
import { testIO } from '../../src/io.js';
import { TOP_LEVEL } from '../../src/commands/index.js';
import { isGroup, type CommandDef } from '../../src/command.js';
import { sandboxEnv, spawnCli, type RunningCli } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { employeeCreated } from '../unit/webhooks/helpers.js';
import { waitFor } from '../helpers/wait-for.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

const ENTITY = 'Acme Deutschland GmbH';

/** How to run each command that prints data against the sandbox (a new command with output must be added here). */
const RUNS: Record<string, string[]> = {
  'employees list': ['employees', 'list', '--page-size', '3'],
  'trackers onboarding': ['trackers', 'onboarding'],
  'trackers offboarding': ['trackers', 'offboarding'],
  'profile get': ['profile', 'get', 'ACME-00007'],
  'gp create': ['gp', 'create', '--entity', ENTITY, '--from-file', '-', '--dry-run'],
  'gp schema': ['gp', 'schema', '--entity', ENTITY],
  'auth status': ['auth', 'status'],
  // Empty in a fresh config (no write, no draft yet): their formats are checked in audit.test.ts and drafts.test.ts.
  'audit list': [],
  'drafts list': [],
  doctor: ['doctor'],
  version: ['version'],
  'gp template': ['gp', 'template', '--entity', ENTITY],
  'webhook verify': ['webhook', 'verify', 'not-a-jws'],
  api: ['api', '/v1/employees', '-f', 'pageSize=3'],
  // Long-running or need a spool: covered by the webhook blocks below.
  'webhook listen': [],
  'webhook replay': [],
  // Needs a receiver: covered by webhook-listen.test.ts (-o table) and the case below.
  'sandbox emit': [],
};

/** The field --fields picks where the first of the record's fields is not in this run's output. */
const PICK: Record<string, string> = { 'gp create': 'create', 'webhook verify': 'valid' };

/** Commands whose run needs more than argv (a values file on stdin, a receiver): their input. */
const INPUT: Record<string, string> = {};

function leafDefs(): [string, CommandDef][] {
  const out: [string, CommandDef][] = [];
  for (const t of TOP_LEVEL) {
    if (isGroup(t)) for (const c of t.commands) out.push([`${t.name} ${c.name}`, c]);
    else out.push([t.name, t]);
  }
  return out;
}

function commandAt(program: Command, path: string): Command {
  let cmd = program;
  for (const w of path.split(' ')) cmd = cmd.commands.find((c) => c.name() === w)!;
  return cmd;
}

let env: NodeJS.ProcessEnv;
let close: () => Promise<void>;
let sandbox: Sandbox;
let tmp: string;

beforeAll(async () => {
  ({ env, close, sandbox, dir: tmp } = await sandboxEnv());
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  // A valid values file for the gp create dry run.
  INPUT['gp create'] = readFileSync(join(import.meta.dirname, '../fixtures/forms/deu-values.json'), 'utf8');
});

afterAll(async () => {
  await close?.();
});

describe('the command tree', () => {
  const program = buildProgram({ io: testIO(), env: {}, signal: new AbortController().signal, exitCode: 0 }, { full: true });

  it.each(leafDefs())('%s offers exactly the output flags of its definition', (path, def) => {
    const longs = commandAt(program, path).options.map((o) => o.long);
    expect(longs.includes('--output')).toBe(def.output !== undefined);
    expect(longs.includes('--quiet')).toBe(def.output?.quiet === true);
    expect(longs.includes('--jq')).toBe(def.output !== undefined && def.output.jq !== false);
    expect(longs.includes('--fields')).toBe(def.output !== undefined && def.output.fields !== false);
    expect(longs.includes('--csv-raw')).toBe(def.output?.formats.includes('csv') === true);
    if (def.output) expect(RUNS[path], `add ${path} to RUNS`).toBeDefined();
  });
});

const run = (path: string, extra: string[]) => runMain([...RUNS[path]!, ...extra], { env, input: INPUT[path] });

describe.each(leafDefs().filter(([path, d]) => d.output && RUNS[path]!.length > 0))('%s', (path, def) => {
  const formats = def.output!.formats;

  it('piped with no -o prints JSON (or the declared file format), never a table', async () => {
    const r = await run(path, []);
    if (def.output!.default === 'csv') expect((parseCsv(r.stdout, { comment: '#' }) as string[][]).length).toBeGreaterThan(0);
    else expect(() => JSON.parse(r.stdout), r.stderr).not.toThrow();
  });

  it.runIf(formats.includes('json'))('-o json parses', async () => {
    const r = await run(path, ['-o', 'json']);
    expect(() => JSON.parse(r.stdout), r.stderr).not.toThrow();
  });

  it.runIf(formats.includes('ndjson'))('-o ndjson is one JSON object per line', async () => {
    const r = await run(path, ['-o', 'ndjson']);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(typeof JSON.parse(line)).toBe('object');
  });

  it.runIf(formats.includes('csv'))('-o csv parses with a header row', async () => {
    const r = await run(path, ['-o', 'csv']);
    const rows = parseCsv(r.stdout, { relax_column_count: false }) as string[][];
    expect(rows.length).toBeGreaterThan(def.output!.default === 'csv' ? 0 : 1);
    expect(rows.every((row) => row.length === rows[0]!.length)).toBe(true);
  });

  it.runIf(def.output!.jq !== false)('--jq applies to the JSON document', async () => {
    const r = await run(path, ['--jq', 'type']);
    expect(r.stdout.trim().split('\n')[0], r.stderr).toMatch(/^(object|array)$/);
  });

  it.runIf(def.output!.quiet === true)('-q prints ids, one per line', async () => {
    const r = await run(path, ['-q']);
    const lines = r.stdout.trimEnd().split('\n').filter(Boolean);
    for (const line of lines) expect(line).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.runIf(def.output!.fields !== false && formats.includes('json'))('--fields picks the named fields', async () => {
    // A field its output has (an unknown one is a usage error: output-resolved.test.ts).
    const field = PICK[path] ?? def.output!.recordFields?.[0] ?? 'id';
    const r = await run(path, ['-o', 'json', '--fields', field]);
    expect(r.code, r.stderr).not.toBe(2);
    const doc = JSON.parse(r.stdout) as unknown;
    const items = Array.isArray(doc) ? doc : Array.isArray((doc as { data?: unknown }).data) ? (doc as { data: unknown[] }).data : [doc];
    for (const item of items) expect(Object.keys(item as object)).toEqual([field]);
  });
});

describe('sandbox emit', () => {
  it('reports the delivery as JSON when piped, as a line with -o table; --print keeps stdout for the JWS', async () => {
    const { createServer } = await import('node:http');
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    const receiverAt = await listenOnLoopback(receiver);
    const to = `${receiverAt.url}/`;
    try {
      const json = await runMain(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', to], { env });
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ eventType: 'EMPLOYEE_CREATED', legacy: false, to, status: 200 });
      const line = await runMain(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', to, '-o', 'table'], { env });
      expect(line.stdout).toMatch(/^EMPLOYEE_CREATED signed with kid \S+ -> http:\/\/127\.0\.0\.1:\d+\/: HTTP 200\n$/);
      const printed = await runMain(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', to, '--print'], { env });
      expect(printed.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
      expect(printed.stderr).toMatch(/HTTP 200/);
      const both = await runMain(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--print', '-o', 'json'], { env });
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/--print writes the signed JWS itself/);
    } finally {
      receiver.close();
    }
  });
});

/** Lines of NDJSON, each parsed (fails on a line that is not one JSON object). */
function ndjson(text: string): Record<string, unknown>[] {
  return text
    .trimEnd()
    .split('\n')
    .map((l) => {
      const v = JSON.parse(l) as unknown;
      expect(typeof v).toBe('object');
      return v as Record<string, unknown>;
    });
}

describe('webhook verify --file (a stream of verdicts through writeList)', () => {
  let file: string;
  beforeAll(async () => {
    const { writeFileSync } = await import('node:fs');
    file = `${tmp}/contract.jws`;
    writeFileSync(file, `${await sandbox.signer.sign(employeeCreated())}\nnot-a-jws\n`);
  });
  const verify = (extra: string[]) => runMain(['webhook', 'verify', '--file', file, ...extra], { env });

  it('piped with no -o and -o json: one JSON array of {line, ...verdict}; the summary on stderr', async () => {
    for (const r of [await verify([]), await verify(['-o', 'json'])]) {
      expect(r.code, r.stderr).toBe(8);
      expect((JSON.parse(r.stdout) as { line: number; valid: boolean }[]).map((v) => [v.line, v.valid])).toEqual([[1, true], [2, false]]);
      expect(r.stderr).toBe('2 webhooks: 1 valid, 1 invalid (MALFORMED 1)\n');
    }
  }, 60_000);

  it('-o ndjson, -o csv, --jq, --fields', async () => {
    expect(ndjson((await verify(['-o', 'ndjson'])).stdout).map((v) => v.line)).toEqual([1, 2]);
    const rows = parseCsv((await verify(['-o', 'csv'])).stdout) as string[][];
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.length === rows[0]!.length)).toBe(true);
    expect((await verify(['--jq', 'type'])).stdout).toBe('array\n');
    const picked = JSON.parse((await verify(['-o', 'json', '--fields', 'line'])).stdout) as object[];
    expect(picked).toEqual([{ line: 1 }, { line: 2 }]);
  }, 60_000);
});

describe('webhook listen (each event one record, written as it happens)', () => {
  const running: RunningCli[] = [];
  afterAll(() => {
    for (const l of running) if (l.child.exitCode === null) l.child.kill('SIGKILL');
  });

  /** Starts listen with `extra`, POSTs a genuine event then a malformed body, waits for `lines` lines of stdout, stops it. */
  async function session(extra: string[], lines: number, firstShown = (l: RunningCli) => l.stdout().split('\n').filter(Boolean).length >= 1): Promise<{ stdout: string; stderr: string }> {
    const l = spawnCli(['webhook', 'listen', ...extra], { env, timeoutMs: 20_000 });
    running.push(l);
    await waitFor(() => /Listening for webhooks on (\S+)/.test(l.stderr()), { timeoutMs: 15_000 });
    const url = /Listening for webhooks on (\S+)/.exec(l.stderr())![1]!;
    expect((await fetch(url, { method: 'POST', body: await sandbox.signer.sign(employeeCreated()) })).status).toBe(200);
    // The first event is printed before the second arrives: nothing waits for the end of the stream.
    await waitFor(() => firstShown(l), { timeoutMs: 10_000 });
    expect((await fetch(url, { method: 'POST', body: 'not-a-jws' })).status).toBe(400);
    await waitFor(() => l.stdout().split('\n').filter(Boolean).length >= lines, { timeoutMs: 10_000 });
    l.child.kill('SIGINT');
    const r = await l.done;
    expect(r.code, r.stderr).toBe(130);
    return r;
  }

  it('piped with no -o (and -o ndjson): one JSON object per line, never a table', async () => {
    const events = ndjson((await session([], 2)).stdout);
    expect(events.map((e) => [e.httpStatus, e.valid, e.eventType])).toEqual([[200, true, 'EMPLOYEE_CREATED'], [400, false, null]]);
    expect(events[0]).toMatchObject({ subject: 'ACME-0007', status: 'ONBOARDING', forward: null });
  });

  it('--fields picks from each object (-o ndjson), and makes the table line of those values', async () => {
    expect(ndjson((await session(['-o', 'ndjson', '--fields', 'httpStatus,reason'], 2)).stdout)).toEqual([
      { httpStatus: 200, reason: null },
      { httpStatus: 400, reason: 'MALFORMED' },
    ]);
    expect((await session(['-o', 'table', '--fields', 'httpStatus,eventType'], 2)).stdout).toBe('200  EMPLOYEE_CREATED\n400  -\n');
  }, 60_000);

  it('--jq filters each event, as jq does over NDJSON; a filter that fails on one event does not silence the next', async () => {
    expect((await session(['--jq', '[.httpStatus, .valid]'], 2)).stdout).toBe('[200,true]\n[400,false]\n');
    const failing = await session(['--jq', 'if .valid then error("boom") else .reason end'], 1, (l) => /could not print an event/.test(l.stderr()));
    expect(failing.stdout).toBe('MALFORMED\n');
    expect(failing.stderr).toMatch(/warning: could not print an event: --jq failed: .*boom/);
    const bad = await runMain(['webhook', 'listen', '--jq', '.[[['], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Invalid --jq filter/);
  }, 60_000);
});

describe('webhook replay (a stream of outcomes through writeList)', () => {
  let spool: string;
  let to: string;
  let receiver: import('node:http').Server;
  beforeAll(async () => {
    const { createServer } = await import('node:http');
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    const receiverAt = await listenOnLoopback(receiver);
    to = `${receiverAt.url}/hooks`;
    spool = `${tmp}/spool`;
    // Two events kept by a receiver with --spool and no --forward-to.
    const l = spawnCli(['webhook', 'listen', '--spool', spool], { env, timeoutMs: 20_000 });
    await waitFor(() => /Listening for webhooks on (\S+)/.test(l.stderr()), { timeoutMs: 15_000 });
    const url = /Listening for webhooks on (\S+)/.exec(l.stderr())![1]!;
    for (const code of ['RPL-0001', 'RPL-0002']) expect((await fetch(url, { method: 'POST', body: await sandbox.signer.sign(employeeCreated({ employeeCode: code })) })).status).toBe(200);
    l.child.kill('SIGINT');
    await l.done;
  });
  afterAll(async () => {
    receiver?.closeAllConnections();
    await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  });
  const replay = (extra: string[]) => runMain(['webhook', 'replay', '--spool', spool, '--to', to, ...extra], { env });

  it('piped with no -o and -o json: one JSON array of outcomes; the count on stderr', async () => {
    for (const r of [await replay([]), await replay(['-o', 'json'])]) {
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout) as Record<string, unknown>[];
      expect(doc.map((o) => [o.to, o.status, o.error, o.delivered, o.eventType])).toEqual([
        [to, 204, null, true, 'EMPLOYEE_CREATED'],
        [to, 204, null, true, 'EMPLOYEE_CREATED'],
      ]);
      expect(r.stderr).toBe('2 events replayed: 2 delivered, 0 not delivered\n');
    }
  }, 60_000);

  it('-o ndjson, -o csv, -o table, --jq, -q, --fields', async () => {
    const nd = ndjson((await replay(['-o', 'ndjson'])).stdout);
    expect(nd).toHaveLength(2);
    const rows = parseCsv((await replay(['-o', 'csv'])).stdout) as string[][];
    expect(rows[0]).toEqual(['id', 'receivedAt', 'eventType', 'to', 'status', 'error', 'delivered']);
    expect(rows.slice(1).map((row) => [row[0], row[4], row[6]])).toEqual(nd.map((o) => [o.id, '204', 'true']));
    const table = (await replay(['-o', 'table'])).stdout.trimEnd().split('\n');
    expect(table[0]).toMatch(/^RECEIVED\s+EVENT\s+ID\s+RESULT\s+DELIVERED$/);
    // When it was received: local, with how long ago, not ISO 8601 as in JSON and CSV.
    expect(table.slice(1)).toEqual(nd.map((o) => expect.stringMatching(new RegExp(`^(just now|\\d+ min ago), \\d\\d:\\d\\d\\s+EMPLOYEE_CREATED\\s+${String(o.id)}\\s+HTTP 204\\s+yes$`))));
    expect((await replay(['--jq', 'map(.delivered)'])).stdout).toBe('[true,true]\n');
    expect((await replay(['-q'])).stdout).toBe(nd.map((o) => `${String(o.id)}\n`).join(''));
    expect(JSON.parse((await replay(['-o', 'json', '--fields', 'id'])).stdout)).toEqual(nd.map((o) => ({ id: o.id })));
  }, 60_000);

  it('nothing matches: still the output of an empty list, the note on stderr, exit 0', async () => {
    const none = await replay(['--event-type', 'EMPLOYEE_DELETED']);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual([]);
    expect(none.stderr).toMatch(/nothing replayed/);
    expect((await replay(['--event-type', 'EMPLOYEE_DELETED', '-o', 'ndjson'])).stdout).toBe('');
  });
});


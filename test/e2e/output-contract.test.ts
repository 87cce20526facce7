// The output contract of every command, checked by walking the command tree:
// each output flag a command offers changes its output as documented (JSON
// parses, NDJSON is one object per line, CSV parses, --jq applies, -q prints
// ids, --fields picks), piped output is never a table, and no command offers
// a flag that is not declared in its definition's output spec.
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/program.js';
import { testIO } from '../../src/io.js';
import { TOP_LEVEL } from '../../src/commands/index.js';
import { isGroup, type CommandDef } from '../../src/command.js';
import { runCli, sandboxEnv } from '../helpers/cli.js';

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
  doctor: ['doctor'],
  version: ['version'],
  'gp template': ['gp', 'template', '--entity', ENTITY],
  'webhook verify': ['webhook', 'verify', 'not-a-jws'],
  'webhook listen': [],
  // Needs a receiver: covered by webhook-listen.test.ts (-o table) and the case below.
  'sandbox emit': [],
};

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

beforeAll(async () => {
  ({ env, close } = await sandboxEnv());
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

const run = (path: string, extra: string[]) => runCli([...RUNS[path]!, ...extra], { env, input: INPUT[path] });

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
    const r = await run(path, ['-o', 'json', '--fields', 'id']);
    const doc = JSON.parse(r.stdout) as unknown;
    const items = Array.isArray(doc) ? doc : Array.isArray((doc as { data?: unknown }).data) ? (doc as { data: unknown[] }).data : [doc];
    for (const item of items) expect(Object.keys(item as object)).toEqual(['id']);
  });
});

describe('sandbox emit', () => {
  it('reports the delivery as JSON when piped, as a line with -o table; --print keeps stdout for the JWS', async () => {
    const { createServer } = await import('node:http');
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const to = `http://127.0.0.1:${(receiver.address() as import('node:net').AddressInfo).port}/`;
    try {
      const json = await runCli(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', to], { env });
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ eventType: 'EMPLOYEE_CREATED', legacy: false, to, status: 200 });
      const line = await runCli(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', to, '-o', 'table'], { env });
      expect(line.stdout).toMatch(/^EMPLOYEE_CREATED signed with kid \S+ -> http:\/\/127\.0\.0\.1:\d+\/: HTTP 200\n$/);
      const printed = await runCli(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', to, '--print'], { env });
      expect(printed.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
      expect(printed.stderr).toMatch(/HTTP 200/);
      const both = await runCli(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--print', '-o', 'json'], { env });
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/--print writes the signed JWS itself/);
    } finally {
      receiver.close();
    }
  });
});

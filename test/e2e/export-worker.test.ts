// An export of every page runs on a worker thread whose young generation is
// bounded when the thread is made (src/command-worker.ts): Node 24 lets a
// process's grow to 128 MiB. A preload in every thread of the CLI records, at
// the thread's end, whether it is the main one, its young generation limit and
// how many API requests it sent; lookups and a table on a terminal stay on the
// main thread. The peak memory itself is a benchmark (BENCHMARKS.md, memory).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YOUNG_GENERATION_MB } from '../../src/runtime/command-thread.js';
import { runCli, runOnTerminal, sandboxEnv } from '../helpers/cli.js';
import { csvText, person, SWE } from '../helpers/bulk-sheet.js';

let ctx: Awaited<ReturnType<typeof sandboxEnv>>;
let preload: string;
beforeAll(async () => {
  ctx = await sandboxEnv();
  preload = join(ctx.dir, 'threads-preload.cjs');
  writeFileSync(
    preload,
    `const { isMainThread, resourceLimits } = require('node:worker_threads');
const http = require('node:http');
let requests = 0;
const request = http.request;
http.request = function (...args) { requests++; return request.apply(this, args); };
process.on('exit', () => require('node:fs').appendFileSync(process.env.THREADS_LOG, JSON.stringify({ main: isMainThread, young: resourceLimits.maxYoungGenerationSizeMb ?? null, requests }) + '\\n'));
`,
  );
});
afterAll(() => ctx.close());

interface Thread {
  main: boolean;
  young: number | null;
  requests: number;
}

let runs = 0;
function threadsEnv() {
  const log = join(ctx.dir, `threads-${runs++}.ndjson`);
  writeFileSync(log, '');
  return { env: { ...ctx.env, NODE_OPTIONS: `--require=${preload}`, THREADS_LOG: log }, threads: () => readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Thread) };
}

describe('exports on a worker thread', () => {
  it('--all to a pipe: the walk runs on one worker with a bounded young generation; the output is whole', async () => {
    const t = threadsEnv();
    const r = await runCli(['employees', 'list', '--all', '--page-size', '10', '-o', 'ndjson'], { env: t.env });
    expect(r.code, r.stderr).toBe(0);
    // One line per employee of company A, from five pages.
    expect(r.stdout.trim().split('\n')).toHaveLength(45);
    const threads = t.threads();
    expect(threads.filter((x) => x.main)).toEqual([{ main: true, young: null, requests: 0 }]);
    const workers = threads.filter((x) => !x.main);
    expect(workers).toHaveLength(1);
    expect(workers[0]!.young).toBe(YOUNG_GENERATION_MB);
    expect(workers[0]!.requests).toBe(5);
  });

  it('--all --output-file from a terminal: on the worker; the file is written and said', async () => {
    const t = threadsEnv();
    const file = join(ctx.dir, 'all.json');
    const shown = await runOnTerminal(['employees', 'list', '--all', '-o', 'json', '--output-file', file], { env: t.env, columns: 100 });
    expect(shown).toContain(`Wrote 45 employees to ${file}`);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { data: unknown[] }).data).toHaveLength(45);
    expect(t.threads().filter((x) => !x.main)).toHaveLength(1);
  });

  it('one page, and every page as a table on a terminal: on the main thread', async () => {
    const page = threadsEnv();
    const r = await runCli(['employees', 'list', '-o', 'json'], { env: page.env });
    expect(r.code, r.stderr).toBe(0);
    expect(page.threads()).toEqual([{ main: true, young: null, requests: 1 }]);
    const table = threadsEnv();
    const shown = await runOnTerminal(['employees', 'list', '--all', '--page-size', '10', '--no-pager'], { env: table.env, columns: 160 });
    expect(shown).toContain('45 employees');
    const threads = table.threads();
    expect(threads).toHaveLength(1);
    expect(threads[0]!.main).toBe(true);
    expect(threads[0]!.requests).toBe(5);
  });

  it('a usage error with a worker started for it (the launcher guessed from the words): one error, from the main thread', async () => {
    const t = threadsEnv();
    const r = await runCli(['employees', 'list', '--all', '--page', '2', '-o', 'csv'], { env: t.env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.match(/Error:/g)).toHaveLength(1);
    expect(r.stderr).toContain('--page cannot be used with --all');
    // The worker, if it got as far as its own exit, sent nothing.
    expect(t.threads().filter((x) => x.requests > 0)).toEqual([]);
  });

  it('a failure on the worker is reported once, as on the main thread, with the same exit code', async () => {
    const env = { ...ctx.env, PARTNER_TOKEN: ctx.sandbox.tokens.noPermission };
    const onMain = await runCli(['employees', 'list', '-o', 'csv'], { env });
    const t = threadsEnv();
    const onWorker = await runCli(['employees', 'list', '--all', '-o', 'csv'], { env: { ...t.env, PARTNER_TOKEN: env.PARTNER_TOKEN } });
    expect(t.threads().filter((x) => !x.main)).toHaveLength(1);
    expect(onMain.code).toBe(4);
    expect(onWorker.code).toBe(onMain.code);
    // The CSV header went out before the first page was asked for, as on any walk; no row did.
    expect(onWorker.stdout.trim().split('\n')).toHaveLength(1);
    expect(onWorker.stderr.match(/Error:/g)).toHaveLength(1);
    expect(onWorker.stderr.split('\n')[0]).toBe(onMain.stderr.split('\n')[0]);
  });

  it('everything the worker wrote to stderr before it ended is there: --debug lines, then the whole error', async () => {
    const t = threadsEnv();
    // Several writes in a row: the last ones wait for the first's acknowledgement when the command ends.
    const r = await runCli(['employees', 'list', '--all', '-o', 'csv', '--debug'], { env: { ...t.env, PARTNER_TOKEN: ctx.sandbox.tokens.noPermission } });
    expect(t.threads().filter((x) => !x.main)).toHaveLength(1);
    expect(r.code).toBe(4);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/^\[debug\] GET http:\/\/127\.0\.0\.1:\d+\/v1\/employees\?page=1&pageSize=100 -> 403 in \d+ ms$/);
    expect(lines[1]).toBe('Error: Insufficient permissions (FORBIDDEN, HTTP 403)');
    expect(lines.at(-1)).toBe('The token is valid but lacks permission for this operation; ask your account manager for access.');
  });
});

// A bulk sheet is long work too (CommandDef.worker of gp create): its rows are read, checked and sent on the worker.
describe('gp create --from-csv on a worker thread', () => {
  it('a sheet from a file: checked on one worker with a bounded young generation; a sheet on stdin (-) stays on the main thread, which has it', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => person('wk', i));
    const file = join(ctx.dir, 'worker-sheet.csv');
    writeFileSync(file, csvText(rows));
    const t = threadsEnv();
    const r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--dry-run'], { env: t.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Dry run: 3 of 3 rows are valid; nothing was sent.');
    const workers = t.threads().filter((x) => !x.main);
    expect(workers).toHaveLength(1);
    expect(workers[0]!.young).toBe(YOUNG_GENERATION_MB);
    // The form was fetched there, not on the main thread.
    expect(workers[0]!.requests).toBeGreaterThan(0);
    const piped = threadsEnv();
    const s = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', '-', '--dry-run'], { env: piped.env, input: csvText(rows) });
    expect(s.code, s.stderr).toBe(0);
    expect(s.stderr).toContain('Dry run: 3 of 3 rows are valid; nothing was sent.');
    expect(piped.threads().filter((x) => !x.main)).toEqual([]);
  });
});

// Bulk onboarding at its ceiling and at its boundaries, end to end against
// the sandbox: rows in flight (--concurrency) with results in input order,
// kill -9 mid-run then the same command (every employee exactly once, none
// missing), a 429 storm, Ctrl-C letting the rows in flight finish, a
// Windows-1252 file, oversized and endless inputs, a damaged journal, a full
// disk under the journal, and a second run on the same journal.
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { expectCode, runCli, sandboxEnv, spawnCli, type CliResult } from '../helpers/cli.js';
import { csvText, person, SWE, workEmail as email } from '../helpers/bulk-sheet.js';
import { waitFor } from '../helpers/wait-for.js';


let sandbox: Sandbox;
let dir: string;
let env: NodeJS.ProcessEnv;
let close: () => Promise<void>;
let header: string[];

beforeAll(async () => {
  ({ sandbox, env, dir, close } = await sandboxEnv());
  const t = await runCli(['gp', 'template', '--entity', SWE, '-o', 'csv'], { env });
  header = (parseCsv(t.stdout) as string[][])[0];
});

afterAll(async () => {
  await close?.();
});

const BIN = fileURLToPath(new URL('../../bin/partner.js', import.meta.url));

/** A shell line (a real pipe into the CLI), its output and exit code. */
function viaShell(script: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', script, 'sh', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
}

function writeCsv(name: string, rows: Record<string, string>[]): string {
  const p = join(dir, name);
  writeFileSync(p, csvText(rows, header));
  return p;
}

const batch = (tag: string, n: number) => Array.from({ length: n }, (_, i) => person(tag, i + 1));
const posts = (mail: string) => sandbox.requests.filter((q) => q.method === 'POST' && (q.body as { employment?: { workEmail?: string } } | undefined)?.employment?.workEmail === mail);
const results = (path: string) => parseCsv(readFileSync(path, 'utf8'), { columns: true }) as Record<string, string>[];

/** Every employee of the company, by work e-mail: how many of each the server holds. */
async function employeesByEmail(): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (let page = 1; ; page++) {
    const r = (await (await fetch(`${sandbox.url}/v1/employees?pageSize=100&page=${page}`, { headers: { authorization: `Bearer ${sandbox.tokens.companyA}` } })).json()) as { data: { id: string; workEmail: string }[]; pagination: { hasNextPage: boolean } };
    for (const e of r.data) out.set(e.workEmail, [...(out.get(e.workEmail) ?? []), e.id]);
    if (!r.pagination.hasNextPage) break;
  }
  return out;
}

function waitForJournal(journal: string, enough: (text: string) => boolean, run: { stderr: () => string }): Promise<void> {
  return waitFor(() => enough(existsSync(journal) ? readFileSync(journal, 'utf8') : ''), { what: () => `the run to get far enough:\n${run.stderr()}`, intervalMs: 10 });
}

const doneCount = (text: string) => (text.match(/"state":"done"/g) ?? []).length;

describe('gp create --from-csv --concurrency', () => {
  it('keeps N rows in flight and writes the results in input order', async () => {
    const n = 24;
    const file = writeCsv('order.csv', batch('order', n));
    sandbox.setFaults({ latencyMs: 60 });
    let peak = 0;
    const timer = setInterval(() => {
      peak = Math.max(peak, sandbox.requests.filter((q) => q.status === 0 && (q.method === 'POST' || q.method === 'PATCH')).length);
    }, 5);
    try {
      const r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--concurrency', '6'], { env, timeoutMs: 60_000 });
      expectCode(r, 0);
      expect(r.stderr).toContain(`${n} created (of ${n} rows)`);
    } finally {
      clearInterval(timer);
      sandbox.setFaults({ latencyMs: 0 });
    }
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(6);
    const rows = results(join(dir, 'order.results.csv'));
    expect(rows.map((x) => x.row)).toEqual(Array.from({ length: n }, (_, i) => String(i + 2)));
    const held = await employeesByEmail();
    for (let i = 1; i <= n; i++) {
      expect(rows[i - 1].outcome).toBe('created');
      expect(held.get(email('order', i))).toEqual([rows[i - 1].employeeId]);
    }
  }, 90_000);

  it('refuses a concurrency outside 1..16 and the bulk flags without --from-csv (exit 2)', async () => {
    const file = writeCsv('flags.csv', batch('flags', 1));
    for (const bad of [['--concurrency', '0'], ['--concurrency', '17']]) {
      const r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, ...bad], { env });
      expectCode(r, 2);
      expect(r.stderr).toMatch(/--concurrency/);
    }
    const r = await runCli(['gp', 'create', '--entity', SWE, '--encoding', 'latin1', '--set', 'personal.firstName=A'], { env });
    expectCode(r, 2);
    expect(r.stderr).toContain('go with --from-csv');
  });

  it('kill -9 in the middle of a run of 8 in flight, then the same command: every employee exactly once, none missing', async () => {
    const n = 40;
    const file = writeCsv('kill.csv', batch('kill', n));
    const journal = join(dir, 'kill.results.csv.journal');
    sandbox.setFaults({ latencyMs: 80 });
    const run = spawnCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--concurrency', '8'], { env, timeoutMs: 60_000 });
    try {
      await waitForJournal(journal, (t) => doneCount(t) >= 10, run);
      run.child.kill('SIGKILL');
      expect((await run.done).signal).toBe('SIGKILL');
    } finally {
      sandbox.setFaults({ latencyMs: 0 });
    }
    const again = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--concurrency', '8'], { env, timeoutMs: 60_000 });
    expectCode(again, 0);
    const rows = results(join(dir, 'kill.results.csv'));
    const held = await employeesByEmail();
    for (let i = 1; i <= n; i++) {
      const mail = email('kill', i);
      expect(held.get(mail), mail).toHaveLength(1);
      // The server holds one; no POST was answered 409 (none sent again for an employee that existed).
      expect(posts(mail).filter((q) => q.status === 201).length, mail).toBeLessThanOrEqual(1);
      expect(posts(mail).filter((q) => q.status === 409), mail).toEqual([]);
      expect(rows[i - 1].employeeId).toBe(held.get(mail)![0]);
      expect(['created', 'already-created']).toContain(rows[i - 1].outcome);
    }
    // Rows the killed run had finished (or whose answer it lost, found by e-mail) are reported as an earlier run's.
    expect(rows.filter((x) => x.outcome === 'already-created').length).toBeGreaterThanOrEqual(10);
  }, 120_000);

  it('a row whose POST answer was lost is found by its work e-mail and reported already-created, not created', async () => {
    const file = writeCsv('lost.csv', batch('lost', 2));
    const resultsPath = join(dir, 'lost.results.csv');
    // The first run creates both; then the journal is made to look as if row 3's answer had been lost.
    expectCode(await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env }), 0);
    const lines = readFileSync(`${resultsPath}.journal`, 'utf8').trim().split('\n');
    const kept = lines.filter((l) => !(l.includes('"row":3,') && !l.includes('"posting"')));
    writeFileSync(`${resultsPath}.journal`, `${kept.join('\n')}\n`);
    expect(kept.some((l) => l.includes('"row":3,') && l.includes('"posting"'))).toBe(true);
    const before = posts(email('lost', 1)).length;
    const again = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(again, 0);
    expect(posts(email('lost', 1)).length).toBe(before);
    expect(results(resultsPath).map((x) => x.outcome)).toEqual(['already-created', 'already-created']);
    expect(again.stderr).toContain('0 created, 2 created by an earlier run (of 2 rows)');
  });

  it('a 429 storm: every row created once, the window narrowed, Retry-After honoured', async () => {
    const n = 8;
    const file = writeCsv('storm.csv', batch('storm', n));
    sandbox.setFaults({ retryAfterSeconds: 1 });
    sandbox.injectFault({ kind: '429', times: 6, method: 'POST', path: '/v1/employees/gp-employments' });
    const started = Date.now();
    let r: CliResult;
    try {
      r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--concurrency', '4', '--debug'], { env, timeoutMs: 60_000 });
    } finally {
      sandbox.setFaults({ retryAfterSeconds: 1 });
    }
    expectCode(r, 0);
    expect(r.stderr).toContain(`${n} created (of ${n} rows)`);
    expect(r.stderr).toMatch(/rows in flight: [12] \(congestion\)/);
    const storm = sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/v1/employees/gp-employments' && q.at >= started);
    expect(storm.filter((q) => q.status === 429)).toHaveLength(6);
    // Honoured: no POST of the run went out within the second after the first 429.
    const first429 = storm.find((q) => q.status === 429)!;
    const retried = storm.filter((q) => q.at > first429.at && q.status === 201);
    expect(retried.length).toBeGreaterThan(0);
    // Retry-After: 1 — no POST arrived in the second after a 429 but those already on their way: the
    // first window's four, sent before any answer (on a loaded machine they may arrive well after the
    // first 429; a time slack for them failed there).
    const inTheSecond = storm.filter((q) => q.at >= first429.at && q.at < first429.at + 900);
    expect(inTheSecond.filter((q) => storm.indexOf(q) >= 4)).toEqual([]);
    for (let i = 1; i <= n; i++) expect(posts(email('storm', i)).filter((q) => q.status === 201)).toHaveLength(1);
  }, 90_000);

  it('Ctrl-C: no row starts after it, the rows in flight finish, the results are written, exit 130', async () => {
    const n = 30;
    const file = writeCsv('int.csv', batch('int', n));
    const journal = join(dir, 'int.results.csv.journal');
    sandbox.setFaults({ latencyMs: 100 });
    const run = spawnCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--concurrency', '4'], { env, timeoutMs: 60_000 });
    let stopped: CliResult;
    try {
      await waitForJournal(journal, (t) => doneCount(t) >= 4 && /"posting"[^\n]*\n$/.test(t), run);
      run.child.kill('SIGINT');
      stopped = await run.done;
    } finally {
      sandbox.setFaults({ latencyMs: 0 });
    }
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('Run the same command again to finish');
    // The interruption is said once, at the end (not "Stopped: Interrupted. … Interrupted.").
    expect(stopped.stderr).not.toMatch(/Stopped: (Interrupted|Stopped)/);
    expect(stopped.stderr.match(/Interrupted|Stopped/g) ?? []).toHaveLength(1);
    // The rows in flight were let finish: none left half-way (posting) in the journal.
    const last = new Map<number, string>();
    for (const line of readFileSync(journal, 'utf8').trim().split('\n').slice(1)) {
      const e = JSON.parse(line) as { row: number; state: string };
      last.set(e.row, e.state);
    }
    expect([...last.values()].filter((s) => s !== 'done')).toEqual([]);
    const rows = results(join(dir, 'int.results.csv'));
    expect(rows).toHaveLength(n);
    expect(rows.filter((x) => x.outcome === 'created')).toHaveLength(last.size);
    expect(rows.filter((x) => x.outcome === 'not-run').length).toBe(n - last.size);
    const again = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env, timeoutMs: 60_000 });
    expectCode(again, 0);
    for (let i = 1; i <= n; i++) expect(posts(email('int', i)).filter((q) => q.status === 201)).toHaveLength(1);
  }, 90_000);
});

describe('gp create --from-csv: text and input boundaries', () => {
  it('a Windows-1252 file is refused (row and column named, nothing sent) unless --encoding names it; then sent as written', async () => {
    const row = person('enc', 1, 'José');
    row['personal.lastName'] = 'Müller';
    const file = join(dir, 'cp1252.csv');
    writeFileSync(file, Buffer.from(csvText([row]), 'latin1'));
    const r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(r, 2);
    expect(r.stderr).toContain(`${file} is not valid UTF-8: row 2, column personal.firstName`);
    expect(r.stderr).toContain('--encoding windows-1252');
    expect(posts(email('enc', 1))).toEqual([]);

    const ok = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--encoding', 'windows-1252'], { env });
    expectCode(ok, 0);
    const sent = posts(email('enc', 1));
    expect(sent.map((q) => (q.body as { personal: { firstName: string; lastName: string } }).personal)).toMatchObject([{ firstName: 'José', lastName: 'Müller' }]);
    expect(JSON.stringify(sent[0].body)).not.toContain('\ufffd');
  });

  it('a UTF-8 file with a BOM and accented names is sent as written', async () => {
    const row = person('bom', 1, 'Zoë');
    const file = join(dir, 'bom.csv');
    writeFileSync(file, `\ufeff${csvText([row])}`);
    const r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--dry-run'], { env });
    expectCode(r, 0);
    expect(r.stderr).toContain('Dry run: 1 of 1 rows are valid; nothing was sent.');
  });

  it('invalid UTF-8 in a --from-file values file is refused with its line and byte offset', async () => {
    const file = join(dir, 'values.json');
    writeFileSync(file, Buffer.concat([Buffer.from('{\n  "personal": {"firstName": "Jos'), Buffer.from([0xe9]), Buffer.from('"}\n}\n')]));
    const r = await runCli(['gp', 'create', '--entity', SWE, '--from-file', file, '--dry-run'], { env });
    expectCode(r, 2);
    expect(r.stderr).toContain(`--from-file ${file} is not valid UTF-8: line 2, byte offset 34 (0xe9)`);
  });

  it('/dev/zero and an oversized stdin are cut at the cap, named with the flag and the limit (exit 2)', async () => {
    const zero = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', '/dev/zero'], { env, timeoutMs: 60_000 });
    expectCode(zero, 2);
    expect(zero.stderr).toContain('--from-csv /dev/zero is too large (over 33554432 bytes; at most 33554432)');
    // Through a real pipe (the test's own stdin to a child is a socket, which /dev/stdin cannot open).
    const big = join(dir, 'big.csv');
    writeFileSync(big, Buffer.alloc(33 * 1024 * 1024, 'a,'));
    for (const target of ['/dev/stdin', '-']) {
      const piped = await viaShell(`cat "$1" | "$2" "$3" gp create --entity "${SWE}" --from-csv ${target} --results "$1.results.csv"`, [big, process.execPath, BIN]);
      expectCode(piped, 2);
      expect(piped.stderr).toContain(`--from-csv ${target === '-' ? '(stdin)' : target} is too large (over 33554432 bytes; at most 33554432)`);
    }
    const values = await runCli(['gp', 'create', '--entity', SWE, '--from-file', '/dev/zero', '--dry-run'], { env, timeoutMs: 60_000 });
    expectCode(values, 2);
    expect(values.stderr).toContain('--from-file /dev/zero is too large (over 4194304 bytes');
  }, 90_000);
});

describe('gp create --from-csv: the journal at its boundaries', () => {
  it('a flipped byte in a journal record stops the run naming the journal and line; nothing is sent', async () => {
    const file = writeCsv('flip.csv', batch('flip', 3));
    const journal = join(dir, 'flip.results.csv.journal');
    sandbox.injectFault({ kind: '500', times: 1, method: 'PATCH', path: /\/dynamic-details$/ });
    expectCode(await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--concurrency', '1'], { env }), 1);
    const text = readFileSync(journal, 'utf8');
    const lines = text.split('\n');
    // Line 3 (row 2's "created" record, with its id): one byte of the id changed.
    expect(lines[2]).toContain('"state":"created"');
    lines[2] = lines[2].replace(/"id":"(.)/, (_m, c: string) => `"id":"${c === 'a' ? 'b' : 'a'}`);
    writeFileSync(journal, lines.join('\n'));
    const before = sandbox.requests.length;
    const r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(r, 1);
    expect(r.stderr).toContain(`The journal ${journal} is damaged at line 3: that record cannot be read`);
    expect(r.stderr).not.toMatch(/unexpected|bug/i);
    expect(sandbox.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('a full disk under the journal: a clean error, the results CSV for the rows, nothing sent unjournalled', async () => {
    const file = writeCsv('full.csv', batch('full', 2));
    const resultsPath = join(dir, 'full.results.csv');
    symlinkSync('/dev/full', `${resultsPath}.journal`);
    const r = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file], { env });
    expectCode(r, 1);
    expect(r.stderr).toContain(`Cannot write the journal ${resultsPath}.journal: ENOSPC (the disk is full)`);
    expect(r.stderr).not.toMatch(/unexpected failure/i);
    expect(results(resultsPath).map((x) => x.outcome)).toEqual(['not-run', 'not-run']);
    expect(posts(email('full', 1))).toEqual([]);
  });

  it('a second run on the same journal while the first is going: BULK_BUSY, exit 1 (not a usage error)', async () => {
    // Long enough (40 rows one at a time, 200 ms a request) that the first is still going when the second starts.
    const file = writeCsv('busy.csv', batch('busy', 40));
    const journal = join(dir, 'busy.results.csv.journal');
    sandbox.setFaults({ latencyMs: 200 });
    const first = spawnCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '--concurrency', '1'], { env, timeoutMs: 60_000 });
    try {
      await waitForJournal(journal, (t) => t.includes('"posting"'), first);
      const second = await runCli(['gp', 'create', '--entity', SWE, '--from-csv', file, '-o', 'json'], { env });
      expect(first.child.exitCode).toBeNull();
      expectCode(second, 1);
      expect(second.stderr).toContain('Another run (process');
      expect(second.stderr).toContain('BULK_BUSY');
    } finally {
      first.child.kill('SIGINT');
      sandbox.setFaults({ latencyMs: 0 });
    }
    expect((await first.done).code).toBe(130);
  }, 60_000);
});

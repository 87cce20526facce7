// Exports that say what changed: `employees list --all
// --changes-since FILE` and `--state FILE`, spawned through bin/partner.js
// against the sandbox, whose company changes between two runs (sandbox.edit,
// sandbox.drift).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, runCli, spawnCli, tempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait-for.js';

let dir: { path: string; cleanup: () => void };
let s: Sandbox;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  dir = tempDir();
  s = await startSandbox({ employees: 300 });
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: s.url, PARTNER_TOKEN: s.tokens.companyA });
});
afterEach(async () => {
  await s.close();
  dir.cleanup();
});

type Row = Record<string, unknown> & { id: string; change: string; changedFields?: string[] };
const rowsOf = (ndjson: string): Row[] => ndjson.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Row);
const list = (args: string[], extra: NodeJS.ProcessEnv = {}) => runCli(['employees', 'list', '--all', ...args], { env: { ...env, ...extra }, timeoutMs: 60_000 });
const file = (name: string) => join(dir.path, name);

/** An export, then the company changes: 2 removed, 1 renamed for real, 1 renamed to the same text in NFD, 1 joiner. */
async function exportThenChange(args: string[], name: string): Promise<{ before: Row[]; removed: string[]; edited: string; renamedNfd: string; joiner: Promise<string[]> }> {
  const res = await list([...args, '--output-file', file(name)]);
  expect(res.code).toBe(0);
  const before = rowsOf((await list(['-o', 'ndjson'])).stdout);
  const [a, b, c] = [before[3]!, before[10]!, before[20]!];
  // A name whose NFD spelling differs in code units (Zoë, José…): re-sent so, it is the same text.
  const d = before.find((r, k) => k > 30 && String(r.fullName).normalize('NFD') !== String(r.fullName))!;
  s.edit({ remove: [a.id, b.id], set: [{ id: c.id, fields: { designation: 'Chief Diff Officer', department: 'Ünïcode' } }, { id: d.id, fields: { fullName: String(d.fullName).normalize('NFD') } }] });
  const joiner = s.drift({ create: 1 });
  return { before, removed: [a.id, b.id], edited: c.id, renamedNfd: d.id, joiner };
}

describe('--changes-since FILE', () => {
  it('NDJSON export: joiner added, leavers removed with their last values, an edit changed with its dot paths; NFC is no change', async () => {
    const t = await exportThenChange(['-o', 'ndjson'], 'before.ndjson');
    const res = await list(['-o', 'ndjson', '--changes-since', file('before.ndjson')]);
    expect(res.code).toBe(0);
    const rows = rowsOf(res.stdout);
    const [joinerId] = await t.joiner;
    expect(rows.filter((r) => r.change === 'added').map((r) => r.id)).toEqual([joinerId]);
    const changed = rows.filter((r) => r.change === 'changed');
    expect(changed.map((r) => [r.id, r.changedFields, r.designation])).toEqual([[t.edited, ['designation', 'department'], 'Chief Diff Officer']]);
    const removed = rows.filter((r) => r.change === 'removed');
    expect(removed.map((r) => r.id)).toEqual(t.removed);
    // A removed record carries its last known values.
    expect(removed[0]).toEqual({ change: 'removed', ...t.before.find((r) => r.id === t.removed[0]) });
    expect(rows.some((r) => r.id === t.renamedNfd)).toBe(false);
    expect(res.stderr).toContain('1 added, 1 changed, 2 removed (299 employees now, 297 unchanged).');
  });

  it('CSV export as the earlier file, and the diff as CSV, -q, --fields and --jq', async () => {
    const t = await exportThenChange(['-o', 'csv'], 'before.csv');
    const csv = await list(['-o', 'csv', '--changes-since', file('before.csv')]);
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trimEnd().split('\r\n');
    expect(lines[0]!.startsWith('change,changedFields,id,employeeCode')).toBe(true);
    expect(lines).toHaveLength(1 + 4);
    expect(lines.find((l) => l.includes(t.edited))).toMatch(/^changed,designation; department,/);
    const ids = await list(['-q', '--changes-since', file('before.csv')]);
    expect(ids.stdout.trim().split('\n').sort()).toEqual([...(await t.joiner), t.edited, ...t.removed].sort());
    const fields = await list(['-o', 'ndjson', '--fields', 'id,designation', '--changes-since', file('before.csv')]);
    expect(rowsOf(fields.stdout).find((r) => r.id === t.edited)).toEqual({ change: 'changed', changedFields: ['designation'], id: t.edited, designation: 'Chief Diff Officer' });
    const jq = await list(['--jq', '[.data[] | select(.change == "removed") | .id]', '--changes-since', file('before.csv')]);
    expect(JSON.parse(jq.stdout)).toEqual(t.removed);
  });

  it('JSON document export as the earlier file; the output is {data, pagination} of the changes', async () => {
    const t = await exportThenChange(['-o', 'json'], 'before.json');
    const res = await list(['-o', 'json', '--changes-since', file('before.json')]);
    expect(res.code).toBe(0);
    const doc = JSON.parse(res.stdout) as { data: Row[]; pagination: { totalItems: number } };
    expect(doc.data.map((r) => r.change)).toEqual(['changed', 'added', 'removed', 'removed']);
    expect(doc.pagination.totalItems).toBe(4);
    void t;
  });

  it('refuses a file from another company, a repeated id, and a diff given as the earlier file (exit 2, nothing written)', async () => {
    const other = await runCli(['employees', 'list', '--all', '-o', 'ndjson'], { env: { ...env, PARTNER_TOKEN: s.tokens.companyB }, timeoutMs: 60_000 });
    writeFileSync(file('b.ndjson'), other.stdout);
    const foreign = await list(['-o', 'ndjson', '--changes-since', file('b.ndjson')]);
    expect(foreign.code).toBe(2);
    expect(foreign.stdout).toBe('');
    expect(foreign.stderr).toContain('was taken from another company');
    const lines = other.stdout.split('\n').filter(Boolean);
    writeFileSync(file('dup.ndjson'), `${lines[0]}\n${lines[0]}\n`);
    const dup = await list(['-o', 'ndjson', '--changes-since', file('dup.ndjson')]);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain('more than once');
    writeFileSync(file('diff.ndjson'), `${JSON.stringify({ change: 'added', id: 'x' })}\n`);
    const diff = await list(['-o', 'ndjson', '--changes-since', file('diff.ndjson')]);
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain('is the output of --changes-since');
    const noAll = await runCli(['employees', 'list', '--changes-since', file('b.ndjson')], { env, timeoutMs: 30_000 });
    expect(noAll.code).toBe(2);
    expect(noAll.stderr).toContain('need --all');
  });

  it('a walk the company moved under writes no diff (exit 1, the output file untouched)', async () => {
    await list(['-o', 'ndjson', '--output-file', file('before.ndjson')]);
    writeFileSync(file('out.ndjson'), 'previous\n');
    const moved = s.drift({ create: 2, atListRequest: 2 });
    const res = await list(['-o', 'ndjson', '--page-size', '50', '--changes-since', file('before.ndjson'), '--output-file', file('out.ndjson')]);
    await moved;
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('The company changed during the export');
    expect(res.stderr).toContain('no changes written');
    expect(readFileSync(file('out.ndjson'), 'utf8')).toBe('previous\n');
  });
});

describe('--state FILE', () => {
  it('first run: everyone added and the state written; then only what changed; a run killed after the output reports the same again', async () => {
    const state = file('employees.state');
    const first = await list(['-q', '--state', state]);
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split('\n')).toHaveLength(300);
    const header = JSON.parse(readFileSync(state, 'utf8').split('\n')[0]!) as Record<string, unknown>;
    expect(header).toMatchObject({ partnerState: 1, command: 'employees list', baseUrl: s.url, records: 300 });
    const before = rowsOf((await list(['-o', 'ndjson'])).stdout);
    s.edit({ remove: [before[5]!.id], set: [{ id: before[6]!.id, fields: { lastName: 'Renamed' } }] });
    const saved = readFileSync(state);
    // Killed between the output and the state: the output is whole, the state as it was.
    const killed = await list(['-o', 'ndjson', '--state', state], { PARTNER_TEST_KILL_BEFORE_STATE: '1' });
    expect(killed.signal).toBe('SIGKILL');
    expect(readFileSync(state)).toEqual(saved);
    const again = await list(['-o', 'ndjson', '--state', state]);
    expect(again.code).toBe(0);
    expect(rowsOf(again.stdout)).toEqual(rowsOf(killed.stdout));
    expect(rowsOf(again.stdout).map((r) => [r.change, r.id, r.changedFields])).toEqual([
      ['changed', before[6]!.id, ['lastName']],
      ['removed', before[5]!.id, undefined],
    ]);
    // Now the state moved on: nothing changed since.
    const quiet = await list(['-o', 'ndjson', '--state', state]);
    expect(quiet.stdout).toBe('');
    expect(quiet.stderr).toContain('0 added, 0 changed, 0 removed');
  });

  it('a damaged state is refused and moved aside, never overwritten; a foreign one is refused', async () => {
    const state = file('s.state');
    await list(['-q', '--state', state]);
    const text = readFileSync(state, 'utf8');
    writeFileSync(state, text.slice(0, text.length - 200));
    const res = await list(['-o', 'ndjson', '--state', state]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/cut short|checksum/);
    expect(existsSync(state)).toBe(false);
    expect(readdirSync(dir.path).filter((n) => n.startsWith('s.state.damaged-'))).toHaveLength(1);
    // Taken with another filter (or from another base URL): refused, left as it is.
    await list(['-q', '--state', file('active.state'), '--status', 'ACTIVE']);
    const foreign = await list(['-q', '--state', file('active.state')]);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain('other filters');
    const moved = await runCli(['employees', 'list', '--all', '-q', '--status', 'ACTIVE', '--state', file('active.state')], { env: { ...env, PARTNER_BASE_URL: s.url.replace('127.0.0.1', 'localhost') }, timeoutMs: 60_000 });
    expect(moved.code).toBe(2);
    expect(moved.stderr).toContain('another API');
  });

  it('two runs on one state at once: the second is refused, the first finishes and writes it', async () => {
    const state = file('busy.state');
    s.setFaults({ latencyMs: 150 });
    const first = spawnCli(['employees', 'list', '--all', '-q', '--page-size', '20', '--concurrency', '1', '--state', state], { env, timeoutMs: 60_000 });
    await waitFor(() => existsSync(`${state}.lock`), 20_000);
    const second = await list(['-q', '--state', state]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/Another partner run \(pid \d+\) is using --state/);
    const done = await first.done;
    expect(done.code).toBe(0);
    expect(existsSync(state)).toBe(true);
    expect(existsSync(`${state}.lock`)).toBe(false);
  });
});

describe('trackers --state', () => {
  it('onboarding: a joiner is added, a removed employee removed; CSV of the offboarding tracker compares its document list', async () => {
    const state = file('onb.state');
    const first = await runCli(['trackers', 'onboarding', '-q', '--state', state], { env, timeoutMs: 30_000 });
    expect(first.code).toBe(0);
    const before = first.stdout.trim().split('\n');
    s.edit({ remove: [before[0]!] });
    const joiner = s.drift({ create: 1 });
    // The drift hook runs before an employee list is answered.
    await runCli(['employees', 'list', '-q'], { env, timeoutMs: 30_000 });
    const res = await runCli(['trackers', 'onboarding', '-o', 'ndjson', '--state', state], { env, timeoutMs: 30_000 });
    expect(res.code).toBe(0);
    expect(rowsOf(res.stdout).map((r) => [r.change, r.id])).toEqual([
      ['added', (await joiner)[0]],
      ['removed', before[0]],
    ]);
    const off = await runCli(['trackers', 'offboarding', '-o', 'csv', '--output-file', file('off.csv'), '--changes-since', file('missing.csv')], { env, timeoutMs: 30_000 });
    expect(off.code).toBe(2);
    const plain = await runCli(['trackers', 'offboarding', '-o', 'csv'], { env, timeoutMs: 30_000 });
    writeFileSync(file('off.csv'), plain.stdout);
    const same = await runCli(['trackers', 'offboarding', '-o', 'csv', '--changes-since', file('off.csv')], { env, timeoutMs: 30_000 });
    expect(same.code).toBe(0);
    expect(same.stdout.trim()).toBe('change,changedFields,id,employeeCode,stage,pendingDocuments');
    expect(same.stderr).toContain('0 added, 0 changed, 0 removed');
  });
});

// A company that changes while it is exported: the sandbox's drift
// hook and `sandbox start --drift-rate` create and end employees while the
// built CLI walks the pages.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { BIN, isolatedEnv, ROOT, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { waitFor } from '../helpers/wait-for.js';

const EMPLOYEES = 2000;
let dir: { path: string; cleanup: () => void };

beforeAll(() => {
  dir = tempDir();
});
afterAll(() => dir?.cleanup());

const idsOf = (ndjson: string) => ndjson.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: string }).id);

async function withSandbox<T>(fn: (s: Sandbox, env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  const s = await startSandbox({ employees: EMPLOYEES, latencyMs: 5 });
  try {
    return await fn(s, isolatedEnv(dir.path, { PARTNER_BASE_URL: s.url, PARTNER_TOKEN: s.tokens.companyA }));
  } finally {
    await s.close();
  }
}

describe('employees list --all while the company changes', () => {
  it('3 created and 1 ended mid-walk of ACTIVE employees: exit 1, says what changed, previous file untouched', async () => {
    await withSandbox(async (s, env) => {
      const d = join(dir.path, 'strict');
      mkdirSync(d);
      const out = join(d, 'active.ndjson');
      writeFileSync(out, 'previous\n');
      const changed = s.drift({ create: 3, end: 1, atListRequest: 4 });
      const res = await runMain(['employees', 'list', '--all', '--status', 'ACTIVE', '-o', 'ndjson', '--page-size', '50', '--output-file', out], { env, timeoutMs: 60_000 });
      expect((await changed).length).toBe(4);
      expect(res.code).toBe(1);
      // Created employees start ONBOARDING, so the ACTIVE list lost one: everything after it shifted left.
      expect(res.stderr).toMatch(/The company changed during the export: its total went from [\d,]+ to [\d,]+ employees \(0 appeared, 1 disappeared\); [\d,]+ rows fetched, .*active\.ndjson left untouched\. Re-run to get a consistent snapshot\./);
      expect(res.stderr).toContain('--allow-drift');
      expect(readFileSync(out, 'utf8')).toBe('previous\n');
      expect(readdirSync(d)).toEqual(['active.ndjson']);
    });
  });

  it('--allow-drift: every ACTIVE employee listed now is in the file exactly once, plus at most the one ended mid-walk', async () => {
    await withSandbox(async (s, env) => {
      const out = join(dir.path, 'allowed.ndjson');
      const ended = s.drift({ end: 1, atListRequest: 6 });
      const res = await runMain(['employees', 'list', '--all', '--status', 'ACTIVE', '-o', 'ndjson', '--page-size', '50', '--allow-drift', '--output-file', out], { env, timeoutMs: 60_000 });
      expect(res.code).toBe(0);
      expect(res.stderr).toContain('1 disappeared');
      expect(res.stderr).toContain('Kept as seen (--allow-drift).');
      const ids = idsOf(readFileSync(out, 'utf8'));
      expect(new Set(ids).size).toBe(ids.length);
      // What the server lists now, read after the walk with nothing moving.
      const now = await runMain(['employees', 'list', '--all', '--status', 'ACTIVE', '-o', 'ndjson'], { env, timeoutMs: 60_000 });
      const current = idsOf(now.stdout);
      const [gone] = await ended;
      // The shifted employee was picked up by the re-read: nobody listed now is missing.
      expect(current.filter((id) => !ids.includes(id))).toEqual([]);
      // The ended one is in the file only if its page was read before it was ended.
      expect([[], [gone]]).toContainEqual(ids.filter((id) => !current.includes(id)));
      expect(res.stderr).toMatch(new RegExp(`Wrote ${ids.length.toLocaleString('en-US')} employees to .*allowed\\.ndjson`));
    });
  });

  it('employees created during an unfiltered walk are picked up once; the change is still reported', async () => {
    await withSandbox(async (s, env) => {
      const created = s.drift({ create: 5, atListRequest: 3 });
      const res = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--page-size', '100'], { env, timeoutMs: 60_000 });
      const ids = idsOf(res.stdout);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(EMPLOYEES + 5);
      for (const id of await created) expect(ids).toContain(id);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('The company changed during the export: its total went from 2,000 to 2,005 employees (5 appeared, 0 disappeared); 2,005 rows written.');
    });
  });
});

describe('what a drift run reports is true of the company', () => {
  it('one created before page 1 was answered and one during the walk: the totals are said, and the rows match the one at the end', async () => {
    const s = await startSandbox({ employees: 45, latencyMs: 5 });
    try {
      const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: s.url, PARTNER_TOKEN: s.tokens.companyA });
      // The first before page 1 is answered (the walk sees a company of 46), the second before page 3.
      const early = s.drift({ create: 1, atListRequest: 1 });
      const during = s.drift({ create: 1, atListRequest: 3 });
      const out = join(dir.path, 'grown.ndjson');
      const strict = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--page-size', '10', '--output-file', out], { env, timeoutMs: 60_000 });
      expect([...(await early), ...(await during)]).toHaveLength(2);
      expect(strict.code).toBe(1);
      expect(strict.stderr).toContain('The company changed during the export: its total went from 46 to 47 employees (1 appeared, 0 disappeared); 47 rows fetched, ');
      // Kept: the 47 rows are the 47 employees listed now, each once (rows read again are not counted again).
      const kept = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--page-size', '10', '--allow-drift', '--output-file', out], { env, timeoutMs: 60_000 });
      expect(kept.code).toBe(0);
      const now = idsOf((await runMain(['employees', 'list', '--all', '-o', 'ndjson'], { env })).stdout);
      expect(now).toHaveLength(47);
      expect(idsOf(readFileSync(out, 'utf8')).sort()).toEqual([...now].sort());
    } finally {
      await s.close();
    }
  });
});

describe('sandbox start --drift-rate', () => {
  it('moves the company under an export: never exit 0 with a row missing or doubled', async () => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--employees', '3000', '--drift-rate', '0.3', '--seed', '7'], {
      cwd: ROOT,
      env: isolatedEnv(dir.path),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    try {
      await waitFor(() => /listening on (http:\/\/\S+)/.test(out) && /Acme Corporation token:\s+\S+/.test(out), { timeoutMs: 15_000 });
      const url = /listening on (http:\/\/\S+)/.exec(out)![1]!;
      const token = /Acme Corporation token:\s+(\S+)/.exec(out)![1]!;
      const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: url, PARTNER_TOKEN: token });
      const res = await runMain(['employees', 'list', '--all', '--status', 'ACTIVE', '-o', 'ndjson', '--page-size', '100'], { env, timeoutMs: 60_000 });
      const ids = idsOf(res.stdout);
      expect(new Set(ids).size).toBe(ids.length);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/The company changed during the export: its total went from [\d,]+ to [\d,]+ employees \([\d,]+ appeared, [\d,]+ disappeared\); [\d,]+ rows written/);
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    }
  });

  it('refuses a rate outside 0 to 1 (exit 2)', async () => {
    const res = await runMain(['sandbox', 'start', '--drift-rate', '2'], { env: isolatedEnv(dir.path) });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--drift-rate must be a number from 0 to 1');
  });
});

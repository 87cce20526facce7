// --bom: Excel on Windows reads a UTF-8 CSV without a byte order
// mark as cp1252 ("JosÃ©"). With --bom the CSV starts with EF BB BF, once,
// on stdout and in an --output-file written through its temporary file;
// any other format is a usage error before anything is sent or created.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { expectCode, sandboxEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

let env: NodeJS.ProcessEnv;
let dir: string;
let sandbox: Sandbox;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ env, dir, sandbox, close } = await sandboxEnv());
});
afterAll(() => close());

const BOM = [0xef, 0xbb, 0xbf];

describe('employees list --all -o csv --bom --output-file', () => {
  it('writes one BOM at the start of the file, however many pages, and the same rows as without it', async () => {
    const withBom = join(dir, 'with.csv');
    const without = join(dir, 'without.csv');
    const a = await runMain(['employees', 'list', '--all', '--page-size', '7', '-o', 'csv', '--bom', '--output-file', withBom], { env });
    expectCode(a, 0);
    const b = await runMain(['employees', 'list', '--all', '--page-size', '7', '-o', 'csv', '--output-file', without], { env });
    expectCode(b, 0);
    const bytes = readFileSync(withBom);
    expect([...bytes.subarray(0, 3)]).toEqual(BOM);
    expect(bytes.indexOf(Buffer.from(BOM), 1)).toBe(-1);
    expect(bytes.subarray(3).equals(readFileSync(without))).toBe(true);
    expect([...readFileSync(without).subarray(0, 3)]).not.toEqual(BOM);
    // More than one page was written, and no temporary file is left behind.
    expect(bytes.toString('utf8').split('\r\n').length).toBeGreaterThan(9);
    expect(readdirSync(dir).filter((f) => f.includes('with.csv'))).toEqual(['with.csv']);
  });
  it('with -o ndjson: exit 2, no file created, nothing sent', async () => {
    const file = join(dir, 'never.ndjson');
    const before = sandbox.requests.length;
    const r = await runMain(['employees', 'list', '--all', '-o', 'ndjson', '--bom', '--output-file', file], { env });
    expectCode(r, 2);
    expect(r.stderr).toMatch(/--bom applies to CSV output only, not -o ndjson/);
    expect(existsSync(file)).toBe(false);
    expect(sandbox.requests.length).toBe(before);
  });
  it('without -o, into a file (JSON by default there): exit 2, saying to use -o csv', async () => {
    const file = join(dir, 'never.json');
    const r = await runMain(['employees', 'list', '--bom', '--output-file', file], { env });
    expectCode(r, 2);
    expect(r.stderr).toMatch(/--bom applies to CSV output only, not json output/);
    expect(r.stderr).toMatch(/-o csv/);
    expect(existsSync(file)).toBe(false);
  });
});

describe('trackers -o csv --bom', () => {
  it.each(['onboarding', 'offboarding'])('%s: a BOM, then the same CSV', async (kind) => {
    const a = await runMain(['trackers', kind, '-o', 'csv', '--bom'], { env });
    const b = await runMain(['trackers', kind, '-o', 'csv'], { env });
    expectCode(a, 0);
    expectCode(b, 0);
    expect(a.stdout).toBe(`\ufeff${b.stdout}`);
  });
});

// Every cell and every line of a sheet read, or refused: `gp create
// --from-csv --dry-run` against the sandbox. A row with a cell past the last
// column is refused with its row number and the count (it used to be dropped:
// "1 of 1 rows are valid"); a CRLF file with LF lines from another editor,
// a BOM, a last line without a newline and a quoted line break read as the
// spreadsheet wrote them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { expectCode, runCli, sandboxEnv } from '../helpers/cli.js';
import { csvText, person, SWE, SWE_COLUMNS } from '../helpers/bulk-sheet.js';

let env: NodeJS.ProcessEnv;
let dir: string;
let sandbox: Sandbox;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ env, dir, sandbox, close } = await sandboxEnv());
});
afterAll(() => close());

const line = (i: number) => SWE_COLUMNS.map((c) => person('cells', i)[c]).join(',');

async function dryRun(name: string, text: string | Buffer) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const before = sandbox.requests.filter((r) => r.method !== 'GET').length;
  const r = await runCli(['--sandbox', 'gp', 'create', '--entity', SWE, '--from-csv', file, '--dry-run'], { env });
  // A dry run sends nothing, whatever it finds.
  expect(sandbox.requests.filter((r) => r.method !== 'GET').length).toBe(before);
  return r;
}

describe('gp create --from-csv: every cell and line read, or refused', () => {
  it('a row with one cell more than the header: refused, naming its row and the count; nothing sent', async () => {
    const r = await dryRun('extra.csv', `${SWE_COLUMNS.join(',')}\r\n${line(1)}\r\n${line(2)},stray\r\n`);
    expectCode(r, 2);
    expect(r.stderr).toContain(`row 3, cell ${SWE_COLUMNS.length + 1}: the row has ${SWE_COLUMNS.length + 1} cells but the header names ${SWE_COLUMNS.length} columns`);
    expect(r.stderr).toMatch(/1 row is invalid; nothing was sent/);
    expect(r.stderr).not.toMatch(/rows are valid/);
  });

  it('mixed line endings (CRLF, then LF lines), a BOM and no newline at the end: every row read', async () => {
    const text = `\uFEFF${SWE_COLUMNS.join(',')}\r\n${line(1)}\n${line(2)}\r\n${line(3)}\n${line(4)}`;
    const r = await dryRun('mixed.csv', text);
    expectCode(r, 0);
    expect(r.stderr).toContain('Dry run: 4 of 4 rows are valid; nothing was sent.');
  });

  it('a quoted line break inside a cell is the cell’s text, not a new row', async () => {
    const p = { ...person('cells', 5), 'custom.costCenter': 'CC-4100' };
    const text = csvText([p, person('cells', 6)]).replace('Engineer', '"Senior\nEngineer"');
    const r = await dryRun('quoted.csv', text);
    expectCode(r, 0);
    expect(r.stderr).toContain('Dry run: 2 of 2 rows are valid; nothing was sent.');
  });
});

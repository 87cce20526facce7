// Issue 12 item 1, end to end through a pseudo-terminal (util-linux script)
// at 80 and 120 columns, and piped: tables that fit, like gh's.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import stringWidth from 'string-width';
import type { Sandbox } from '../../src/sandbox/server.js';
import { sanitizeCell } from '../../src/output/sanitize.js';
import { runCli, runOnTerminal, sandboxEnv } from '../helpers/cli.js';
import { sliceCells, wcswidth } from '../helpers/wcwidth.js';

let sandbox: Sandbox;
let dir: { path: string };
let close: () => Promise<void>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  let path: string;
  ({ sandbox, env, dir: path, close } = await sandboxEnv());
  dir = { path };
});
afterAll(async () => {
  await close();
});

/** stdout and stderr of the CLI on a terminal `columns` wide. */
const onTerminal = (columns: number, args: string[], extra: Record<string, string | undefined> = {}) => runOnTerminal(args, { env: { ...env, TERM: 'xterm', ...extra }, columns });

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe.skipIf(!existsSync('/usr/bin/script'))('tables on a terminal', () => {
  for (const columns of [80, 120]) {
    it(`employees list at ${columns} columns: nothing wider than the terminal; codes, statuses, dates whole; no borders`, async () => {
      const out = await onTerminal(columns, ['employees', 'list']);
      const lines = out.trimEnd().split('\n');
      for (const l of lines) expect(stringWidth(l), l).toBeLessThanOrEqual(columns);
      expect(out).not.toMatch(/[│┌└─]/);
      const rows = lines.filter((l) => /^ACME-\d{5} /.test(l));
      expect(rows).toHaveLength(20);
      for (const r of rows) {
        expect(r).toMatch(/ (ACTIVE|ONBOARDING|OFFBOARDING|ENDED|DELETED) /);
        expect(r).toMatch(/ \d{4}-\d{2}-\d{2}$/);
        expect(r).not.toMatch(/ACME-\d{0,4}…|\d{4}-\d{0,2}…|ONBOAR…/);
      }
      if (columns === 80) {
        expect(lines[0]).toMatch(/^CODE +NAME +EMAIL +STATUS +COUNTRY +START$/);
        expect(out).toContain('2 columns hidden; widen the terminal or use -o csv');
      } else {
        expect(lines[0]).toMatch(/^CODE +NAME +EMAIL +DESIGNATION +DEPARTMENT +STATUS +COUNTRY +START$/);
        expect(out).not.toContain('hidden');
      }
      expect(out).toContain('Page 1 of 3 · 45 employees');
    });
  }

  it('trackers offboarding at 80 columns: the stage whole, the id the first to go, and named', async () => {
    // Changed on purpose: the stage and pending documents are what people read first; the
    // 36-character id used to stay whole while the stage was cut (KNOWLEDGE_TRA…).
    const out = await onTerminal(80, ['trackers', 'offboarding']);
    const rows = out.split('\n').filter((l) => /^ACME-\d{5} /.test(l));
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r).toMatch(/^ACME-\d{5} {2}[A-Z_]+[A-Z](?: |$)/);
      expect(r).not.toContain('…  ');
      expect(stringWidth(r)).toBeLessThanOrEqual(80);
    }
    expect(out.replace(/\s+/g, ' ')).toMatch(/1 column hidden; widen the terminal or use -o csv \(?hidden: ID\)?/);
    const wide = await onTerminal(140, ['trackers', 'offboarding']);
    for (const r of wide.split('\n').filter((l) => /^ACME-\d{5} /.test(l))) expect(r).toMatch(new RegExp(`  ${UUID.source}$`));
  });

  it('gp schema at 80 columns: field paths whole, REQUIRED not padded to its longest condition, the hint names -o json', async () => {
    const out = await onTerminal(80, ['gp', 'schema', '--entity', 'Acme Deutschland GmbH']);
    const lines = out.split('\n');
    const header = lines[0]!;
    expect(header).toMatch(/^FIELD +KIND +REQUIRED +DETAILS$/);
    expect(lines.some((l) => /^employment\.endDate +date +yes, when/.test(l))).toBe(true);
    // "yes" does not sit in a column as wide as its longest condition.
    expect(lines.find((l) => l.startsWith('personal.firstName '))).toMatch(/ text +yes {2,14}\S/);
    for (const l of lines.filter((x) => /^[a-z]+[.\w]* /.test(x))) expect(stringWidth(l), l).toBeLessThanOrEqual(80);
    expect(out).toContain('1 column hidden; widen the terminal or use -o json');
  });

  for (const columns of [80, 120]) {
    it(`gp schema at ${columns} columns: KIND and REQUIRED as wide as their usual values, DETAILS the rest, wrapped within its column, nothing lost`, async () => {
      const entity = ['gp', 'schema', '--entity', 'Acme Deutschland GmbH'];
      const out = await onTerminal(columns, entity);
      const piped = await runCli([...entity, '-o', 'table'], { env });
      expect(piped.code, piped.stderr).toBe(0);
      const names = columns === 80 ? ['FIELD', 'KIND', 'REQUIRED', 'DETAILS'] : ['FIELD', 'TITLE', 'KIND', 'REQUIRED', 'DETAILS'];
      const table = (text: string, names: string[]) => {
        const lines = text.split('\n');
        const header = lines[0]!;
        expect(header).toMatch(new RegExp(`^${names.join(' +')}$`));
        const starts = names.map((n) => header.indexOf(n));
        // Rows of cells; a line whose FIELD is blank continues the row above.
        const rows: string[][][] = [];
        for (const line of lines.slice(1)) {
          if (line === '' || /hidden|^Values files|^ {2}partner/.test(line)) break;
          const cells = sliceCells(line, starts).map((c) => c.trimEnd());
          if (cells[0] !== '') rows.push([]);
          rows.at(-1)!.push(cells);
        }
        return { starts, rows, lines, at: (n: string) => names.indexOf(n) };
      };
      const screen = table(out, names);
      // Piped: every column, values whole, one line a row.
      const full = table(piped.stdout, ['FIELD', 'TITLE', 'KIND', 'REQUIRED', 'DETAILS']);
      expect(full.rows.every((r) => r.length === 1)).toBe(true);
      for (const l of screen.lines) expect(wcswidth(l), l).toBeLessThanOrEqual(columns);
      expect(screen.rows.map((r) => r[0]![0])).toEqual(full.rows.map((r) => r[0]![0]));
      const at = screen.at;
      // KIND 11 cells ("multiselect"), REQUIRED 10 ("yes, when"), DETAILS the rest of the line.
      expect(screen.starts[at('REQUIRED')]! - screen.starts[at('KIND')]!).toBe(11 + 2);
      expect(screen.starts[at('DETAILS')]! - screen.starts[at('REQUIRED')]!).toBe(10 + 2);
      expect(columns - screen.starts[at('DETAILS')]!).toBeGreaterThanOrEqual(columns === 80 ? 17 : 25);
      const squeeze = (s: string) => s.replace(/\s+/g, '');
      screen.rows.forEach((stack, i) => {
        const whole = full.rows[i]![0]!;
        for (const n of names.slice(1)) {
          const shown = squeeze(stack.map((c) => c[at(n)] ?? '').join(''));
          const expected = squeeze(whole[full.at(n)]!);
          // At most 8 lines a cell; a longer one ends with … (the whole text is in -o json).
          if (shown.endsWith('…')) expect(expected.startsWith(shown.slice(0, -1)), `${whole[0]} ${n}`).toBe(true);
          else expect(shown, `${whole[0]} ${n}`).toBe(expected);
        }
      });
    });
  }

  it('colour on (no NO_COLOR): bold headers and statuses in colour', async () => {
    const out = await onTerminal(120, ['employees', 'list'], { NO_COLOR: undefined });
    expect(out).toMatch(/\u001b\[1mCODE/);
    expect(out).toContain('\u001b[32mACTIVE\u001b[39m');
    expect(out).toContain('\u001b[36mONBOARDING\u001b[39m');
  });
});

describe('tables piped or to a file', () => {
  it('-o table piped: complete values, nothing hidden or cut, no borders', async () => {
    const json = JSON.parse((await runCli(['employees', 'list', '-o', 'json'], { env })).stdout) as { data: { employeeCode: string; fullName: string; workEmail: string; department: string }[] };
    const r = await runCli(['employees', 'list', '-o', 'table'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('…');
    expect(r.stdout).not.toContain('hidden');
    expect(r.stdout).not.toMatch(/[│┌└─]/);
    for (const e of json.data) for (const v of [e.employeeCode, e.workEmail, e.department]) expect(r.stdout).toContain(sanitizeCell(v));
  });
});

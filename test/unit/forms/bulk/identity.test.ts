// Which journal record is a row's: identities (work e-mail, values, values
// but the e-mail), the record a row starts from, duplicates, and the sent
// rows that changed (values, or the work e-mail alone) whatever their place.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { identities, priorOf, rowsChanged, SheetMatch, wasSent } from '../../../../src/forms/bulk/identity.js';
import { Journal, rowHash, type JournalEntry, type RowState } from '../../../../src/forms/bulk/journal.js';
import { ExitCode, UsageError } from '../../../../src/errors.js';

const COLUMNS = ['name', 'mail', 'title'];
const identify = identities(COLUMNS, 1);

let dir: string;
let journals: Journal[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-identity-'));
  journals = [];
});
afterEach(async () => {
  for (const j of journals) await j.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A journal holding these records (written, then read back as a re-run reads it). */
async function journalOf(records: JournalEntry[]): Promise<Journal> {
  const path = join(dir, `j${journals.length}.journal`);
  const w = Journal.open(path, 'E');
  for (const r of records) w.record(r);
  await w.close();
  const j = Journal.open(path, 'E');
  journals.push(j);
  return j;
}

const sent = (row: number, cells: string[], state: RowState = 'done', extra: Partial<JournalEntry> = {}): JournalEntry => ({ row, ...identify(cells), state, ...extra });

describe('identities', () => {
  it('knows a row by its work e-mail (trimmed, any case), its values whatever the column order, and its values but the e-mail', () => {
    const a = identify(['Ann', ' Ann@Acme.example ', 'Engineer']);
    expect(a.key).toMatch(/^mail:[0-9a-f]{32}$/);
    expect(a.hash).toMatch(/^[0-9a-f]{32}$/);
    expect(a.rest).toMatch(/^[0-9a-f]{32}$/);
    expect(identify(['Bob', 'ann@acme.example', 'Other']).key).toBe(a.key);
    expect(identify(['Ann', 'bob@acme.example', 'Engineer']).key).not.toBe(a.key);
    // Blank space around a value, columns moved: the same values.
    const moved = identities(['title', 'name', 'mail'], 2)(['Engineer ', ' Ann', 'Ann@Acme.example']);
    expect(moved).toEqual(a);
    // The key is the journal's word for the employee across versions: a hash of the e-mail in lower case.
    expect(a.key).toBe(`mail:${createHash('sha256').update('ann@acme.example').digest('hex').slice(0, 32)}`);
    expect(identify([' Ann ', 'Ann@Acme.example', 'Engineer'])).toEqual(identify(['Ann', 'Ann@Acme.example', 'Engineer']));
    // The e-mail's case is a change of its values (the row as sent), not of who it is.
    expect(identify(['Ann', 'ann@acme.example', 'Engineer']).hash).not.toBe(identify(['Ann', 'Ann@acme.example', 'Engineer']).hash);
    expect(moved.hash).toBe(identities(['title', 'name', 'mail'], 2)(['Engineer', 'Ann', 'Ann@Acme.example']).hash);
    // Any other value is another hash; the e-mail alone changes the hash, not the rest.
    const b = identify(['Ann', 'ann2@acme.example', 'Engineer']);
    expect(b.hash).not.toBe(a.hash);
    expect(b.rest).toBe(a.rest);
    expect(identify(['Ann', 'ann@acme.example', 'Architect']).rest).not.toBe(a.rest);
    expect(a.rest).not.toBe(a.hash);
  });

  it('names each value by its column, leaves blank and missing cells out, ignores cells past the header', () => {
    const h = (columns: string[], cells: string[]) => identities(columns, undefined)(cells).hash;
    expect(h(['a', 'b'], ['x', ''])).toBe(h(['a', 'b'], ['x']));
    // A column added (empty in this row) changes nothing.
    expect(h(['a', 'b'], ['x', ''])).toBe(h(['a'], ['x']));
    expect(h(['a', 'b'], ['x', '  '])).toBe(h(['a', 'b'], ['x']));
    expect(h(['a', 'b'], ['x', 'y', 'z'])).toBe(h(['a', 'b'], ['x', 'y']));
    expect(h(['a', 'b'], ['x', ''])).not.toBe(h(['a', 'b'], ['', 'x']));
    expect(h(['a'], ['x,y'])).not.toBe(h(['a', 'b'], ['x', 'y']));
    expect(h(['a', 'c'], ['x', 'y'])).not.toBe(h(['a', 'b'], ['x', 'y']));
  });

  it('without a work e-mail column (or with it blank) a row is known by its values, and all of them are its rest', () => {
    const byValues = identities(COLUMNS, undefined)(['Ann', 'ann@acme.example', 'Engineer']);
    expect(byValues.key).toBe(`values:${byValues.hash}`);
    expect(byValues.rest).toBe(byValues.hash);
    const blank = identify(['Ann', ' ', 'Engineer']);
    expect(blank.key).toBe(`values:${blank.hash}`);
    expect(identify(['Ann']).key).toBe(`values:${identify(['Ann']).hash}`);
    // The e-mail column may be the first.
    const first = identities(['mail', 'name'], 0)(['a@acme.example', 'Ann']);
    expect(first.rest).toBe(identities(['mail', 'name'], 0)(['b@acme.example', 'Ann']).rest);
    expect(first.rest).not.toBe(first.hash);
  });
});

describe('the record of a row', () => {
  it('the employee of a posting, created, patch-failed or done record exists (or may); of a rejected or conflict one not', () => {
    const states: RowState[] = ['posting', 'created', 'patch-failed', 'done', 'rejected', 'conflict'];
    expect(states.map((state) => wasSent({ row: 1, key: 'k', hash: 'h', state }))).toEqual([true, true, true, true, false, false]);
  });

  it('is found by the row key; a version 1 or 2 record by the hash of the cells in place, and only in such a journal', async () => {
    const cells = ['Ann', 'ann@acme.example', 'Engineer'];
    const id = identify(cells);
    const j = await journalOf([sent(7, cells, 'created', { id: 'e1' })]);
    expect(priorOf(j, id, cells)).toMatchObject({ row: 7, state: 'created', id: 'e1' });
    expect(priorOf(j, identify(['Bob', 'bob@acme.example', 'X']), ['Bob', 'bob@acme.example', 'X'])).toBeUndefined();

    const path = join(dir, 'v2.journal');
    writeFileSync(path, `{"kind":"partner-bulk-journal","version":1,"entity":"E"}\n{"row":3,"hash":"${rowHash(cells)}","state":"done","id":"old"}\n`);
    const old = Journal.open(path, 'E');
    journals.push(old);
    expect(priorOf(old, id, cells)).toMatchObject({ row: 3, state: 'done', id: 'old' });
    // Another row's cells, or these cells in another order, are another row there.
    expect(priorOf(old, id, [cells[1], cells[0], cells[2]])).toBeUndefined();
    // A newer record of the row, by its key, comes first.
    old.record({ row: 2, ...id, state: 'done', id: 'new' });
    expect(priorOf(old, id, cells)).toMatchObject({ id: 'new' });
    // A journal of this version has no records by cells: never looked up so.
    const j3 = await journalOf([{ row: 3, key: `cells:${rowHash(cells)}`, hash: 'h', state: 'done' }]);
    expect(j3.legacy).toBe(false);
    expect(priorOf(j3, id, cells)).toBeUndefined();
  });
});

describe('matching the rows of a sheet', () => {
  const ann = ['Ann', 'ann@acme.example', 'Engineer'];
  const bob = ['Bob', 'bob@acme.example', 'Engineer'];
  const cid = ['Cid', 'cid@acme.example', 'Engineer'];
  const see = (m: SheetMatch, row: number, cells: string[], id = identify) => m.see(row, id(cells), cells);

  it('a second row of one employee (its e-mail in any case, or the same values without one) is a duplicate of the first', () => {
    const m = new SheetMatch(undefined);
    expect(see(m, 2, ann)).toEqual({});
    expect(see(m, 3, bob)).toEqual({});
    expect(see(m, 4, ['Other', 'ANN@acme.example', 'x'])).toEqual({ duplicateOf: 2 });
    expect(see(m, 5, bob)).toEqual({ duplicateOf: 3 });
    expect(m.changedRows()).toEqual([]);
    const byValues = new SheetMatch(undefined);
    const none = identities(COLUMNS, undefined);
    expect(byValues.see(2, none(ann), ann)).toEqual({});
    expect(byValues.see(3, none(['Ann', ' ann@acme.example', 'Engineer']), ann)).toEqual({ duplicateOf: 2 });
    expect(byValues.see(4, none(['Ann', 'ann@acme.example', 'Architect']), ann)).toEqual({});
  });

  it('a row starts from its own record wherever it moved: sent and unchanged, or refused before (whatever its values now)', async () => {
    const j = await journalOf([sent(2, ann, 'rejected'), sent(3, bob, 'done', { id: 'b' }), sent(4, cid, 'conflict')]);
    const m = new SheetMatch(j);
    expect(see(m, 2, bob)).toEqual({ prior: expect.objectContaining({ row: 3, state: 'done', id: 'b' }) });
    expect(see(m, 3, ['Cid', 'cid@acme.example', 'Fixed'])).toEqual({ prior: expect.objectContaining({ row: 4, state: 'conflict' }) });
    expect(see(m, 4, ['Dan', 'dan@acme.example', 'Engineer'])).toEqual({});
    expect(m.changedRows()).toEqual([]);
  });

  it('a sent row whose values changed, or whose work e-mail alone was edited, is named with the row it was; in sheet order', async () => {
    const states: RowState[] = ['posting', 'created', 'patch-failed', 'done'];
    const people = states.map((_, i) => [`P${i}`, `p${i}@acme.example`, 'Engineer']);
    const j = await journalOf(people.map((cells, i) => sent(i + 2, cells, states[i])));
    const m = new SheetMatch(j);
    // P3 (done, row 5) now row 2 with another title; P0 (posting, row 2) row 3 with another e-mail;
    // P1 (created, row 3) row 4 unchanged; P2 (patch-failed, row 4) row 5 with another title.
    expect(see(m, 2, ['P3', 'p3@acme.example', 'Architect'])).toEqual({});
    expect(see(m, 3, ['P0', 'other@acme.example', 'Engineer'])).toEqual({});
    expect(see(m, 4, people[1])).toEqual({ prior: expect.objectContaining({ state: 'created' }) });
    expect(see(m, 5, ['P2', 'p2@acme.example', 'Architect'])).toEqual({});
    expect(m.changedRows()).toEqual([
      { row: 2, was: 5, email: false, fields: ['title'] },
      { row: 3, was: 2, email: true },
      { row: 5, was: 4, email: false, fields: ['title'] },
    ]);
  });

  describe('a form without a work e-mail: known by its values, an edit found by its place and content', () => {
    const NO_MAIL = ['first', 'last', 'start', 'dept'];
    const byValues = identities(NO_MAIL, undefined);
    const ada = ['Ada', 'Lovelase', '2025-01-01', 'Data'];
    const bob = ['Bob', 'Babbage', '2025-01-01', 'Data'];
    const sentNoMail = (row: number, cells: string[]): JournalEntry => ({ row, ...byValues(cells), state: 'done' });

    it('cells compared in NFC and trimmed: a sheet re-saved in NFD is the same sheet', async () => {
      const nfc = ['Zoë', 'Ångström', '2025-01-01', 'Data'];
      const j = await journalOf([sentNoMail(2, nfc)]);
      const m = new SheetMatch(j, true);
      expect(see(m, 2, nfc.map((c) => ` ${c.normalize('NFD')} `), byValues)).toEqual({ prior: expect.objectContaining({ state: 'done' }) });
      expect(m.changedRows()).toEqual([]);
    });

    it('a typo fixed in a sent row (Lovelase -> Lovelace) is that row changed, naming the field; rows inserted above do not hide it', async () => {
      const j = await journalOf([sentNoMail(2, ada), sentNoMail(3, bob)]);
      const m = new SheetMatch(j, true);
      expect(see(m, 2, ['Ada', 'Lovelace', '2025-01-01', 'Data'], byValues)).toEqual({});
      expect(see(m, 3, bob, byValues)).toEqual({ prior: expect.objectContaining({ state: 'done' }) });
      expect(m.changedRows()).toEqual([{ row: 2, was: 2, email: false, fields: ['last'] }]);
      // Moved down by a new row above, and edited: two fields of its own still tell it.
      const k = await journalOf([sentNoMail(2, ['Ada', 'Lovelase', '1815-12-10', 'Data'])]);
      const n = new SheetMatch(k, true);
      see(n, 2, ['Carl', 'Gauss', '2025-01-01', 'Data'], byValues);
      see(n, 3, ['Ada', 'Lovelace', '1815-12-10', 'Data'], byValues);
      expect(n.changedRows()).toEqual([{ row: 3, was: 2, email: false, fields: ['last'] }]);
    });

    it('a new person is not an edit: nothing of a sent row of its own is shared (a start date all rows have is not)', async () => {
      const j = await journalOf([sentNoMail(2, ada), sentNoMail(3, bob)]);
      const m = new SheetMatch(j, true);
      see(m, 2, ada, byValues);
      see(m, 3, bob, byValues);
      expect(see(m, 4, ['Carl', 'Gauss', '2025-01-01', 'Data'], byValues)).toEqual({});
      expect(m.changedRows()).toEqual([]);
    });

    it('rowsChanged names the row, the fields and the row when sent', () => {
      const e = rowsChanged('s.csv', 's.csv.results.csv.journal', [{ row: 2, was: 2, email: false, fields: ['personal.lastName'] }]);
      expect(e.code).toBe('BULK_ROWS_CHANGED');
      expect(e.message).toContain('row 2 (personal.lastName; row 2 when sent)');
    });
  });

  it('the same values under another e-mail are another employee while the sent row is still in the sheet, or was refused', async () => {
    const j = await journalOf([sent(2, ann, 'done'), sent(3, bob, 'rejected')]);
    const m = new SheetMatch(j);
    expect(see(m, 2, ['Ann', 'ann.two@acme.example', 'Engineer'])).toEqual({});
    expect(see(m, 3, ['Bob', 'bob.two@acme.example', 'Engineer'])).toEqual({});
    expect(see(m, 4, ann)).toEqual({ prior: expect.objectContaining({ state: 'done' }) });
    expect(m.changedRows()).toEqual([]);
    // Without Ann's row, the first is Ann with her e-mail edited.
    const gone = new SheetMatch(j);
    expect(see(gone, 2, ['Ann', 'ann.two@acme.example', 'Engineer'])).toEqual({});
    expect(gone.changedRows()).toEqual([{ row: 2, was: 2, email: true }]);
  });

  it('of two sent records with the same other values, the one no row has is the row whose e-mail was edited', async () => {
    const twin = ['Ann', 'ann.twin@acme.example', 'Engineer'];
    const j = await journalOf([sent(2, ann, 'done'), sent(3, twin, 'done')]);
    const m = new SheetMatch(j);
    expect(see(m, 2, twin)).toEqual({ prior: expect.objectContaining({ row: 3 }) });
    expect(see(m, 3, ['Ann', 'ann.edited@acme.example', 'Engineer'])).toEqual({});
    expect(m.changedRows()).toEqual([{ row: 3, was: 2, email: true }]);
  });

  it('a version 1 or 2 record, found by the cells in place, is that row unchanged', async () => {
    const path = join(dir, 'v1.journal');
    writeFileSync(path, `{"kind":"partner-bulk-journal","version":1,"entity":"E"}\n{"row":3,"hash":"${rowHash(ann)}","state":"done","id":"old"}\n`);
    const old = Journal.open(path, 'E');
    journals.push(old);
    const m = new SheetMatch(old);
    expect(see(m, 2, ann)).toEqual({ prior: expect.objectContaining({ id: 'old', state: 'done' }) });
    expect(see(m, 3, ['Ann', 'ann.two@acme.example', 'Engineer'])).toEqual({});
    expect(m.changedRows()).toEqual([]);
  });
});

describe('BULK_ROWS_CHANGED', () => {
  it('names the rows (the first 20), says nothing was sent and what to do; a usage error (exit 2)', () => {
    const one = rowsChanged('s.csv', 's.results.csv.journal', [{ row: 2, was: 3, email: false }]);
    expect(one).toBeInstanceOf(UsageError);
    expect(one.code).toBe('BULK_ROWS_CHANGED');
    expect(one.exitCode).toBe(ExitCode.USAGE);
    expect(one.message).toBe('1 row of s.csv changed after the run recorded in s.results.csv.journal sent it: row 2 (row 3 when sent); nothing was sent');
    expect(one.hint).toBe(
      'Each of those rows is an employee that exists (or may) as it was sent: put the row back as it was, or delete it from the sheet (change an existing employee with partner dynamic-details submit, not here). A new employee is a new row; to send the file as a new run, pass another --results path.',
    );
    const many = rowsChanged('s.csv', 'j', Array.from({ length: 22 }, (_, i) => ({ row: i + 2, was: i + 3, email: i === 1 })));
    expect(many.message).toMatch(/^22 rows of s\.csv changed after the run recorded in j sent them: row 2 \(row 3 when sent\), row 3 \(its work e-mail; row 4 when sent\), row 4 /);
    expect(many.message).toContain('row 21 (row 22 when sent), and 2 more; nothing was sent');
    expect(many.message).not.toContain('row 22 (');
    const twenty = rowsChanged('s.csv', 'j', Array.from({ length: 20 }, (_, i) => ({ row: i + 2, was: i + 2, email: false })));
    expect(twenty.message).toMatch(/row 21 \(row 21 when sent\); nothing was sent$/);
  });
});

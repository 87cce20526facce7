// Which journal record is a row's. Between two runs of one sheet the
// operator deletes, inserts and moves rows, so a row is known by what it is,
// never by its place: by its work e-mail (the server's own identity of an
// employee), or, in a form without one, by its values. Its values (column
// by column, whatever the columns' order; blank cells left out) tell whether
// it changed since a run sent it; its values but the work e-mail tell a
// created row whose e-mail alone was edited. Only hashes: the journal holds
// no cell values.
//
// Cells are compared as the operator means them: trimmed (as the reader
// does) and in Unicode NFC, so a sheet re-saved in NFD (it looks the same)
// is the same sheet.
//
// A form without a work e-mail knows a row only by its values, so an edited
// row (a typo fixed) would look like a new employee. Each record therefore
// also keeps a short digest of each field (`fields`), and a sent row that no
// row of the sheet holds any more is recognised in the row that took its
// place and kept its content: a row not sent before that shares a field that
// only that record has (a name, an id number; not a start date every row
// shares), at its place or by two such fields anywhere, is that record
// edited. It stops the run, naming the fields that differ.
//
// The rules (checked for every row before anything is sent):
// - Two rows of one sheet with one work e-mail (or, without one, the same
//   values) are one employee: the later ones are invalid.
// - A row whose record says it was sent (posting, created, patch-failed,
//   done) and whose values changed since, or a row that is such a row with
//   its work e-mail edited, stops the run (BULK_ROWS_CHANGED): the employee
//   exists, or may, as it was sent.
// - Any other row (new, or refused before: rejected, conflict) is sent.
import { createHash } from 'node:crypto';
import { UsageError } from '../../errors.js';
import { legacyKey, rowHash, type Journal, type JournalEntry, type RowState } from './journal.js';

export interface RowIdentity {
  /** What the journal knows the row by: its work e-mail (lower case), or without one its values. */
  key: string;
  /** Its values. */
  hash: string;
  /** Its values but the work e-mail. */
  rest: string;
  /** A short digest of each non-blank field, `column=digest` joined by "\n", columns in name order (a record keeps only the digests). */
  fields: string;
}

function digest(text: string, length = 32): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

/** A cell as the operator means it: without the blank space around it, in NFC (an NFD re-save is the same text). */
export function cellValue(cell: string | undefined): string {
  return (cell ?? '').trim().normalize('NFC');
}

/** A row's fields as it holds them: `column=digest` lines (FIELD_SEP); a record keeps only the digests, comma-separated (journal.ts). */
const FIELD_SEP = '\n';

/** The digests of `fields`, in either form. */
function digestsOf(fields: string): string[] {
  if (fields === '') return [];
  return fields.includes('=') ? fields.split(FIELD_SEP).map((p) => p.slice(p.lastIndexOf('=') + 1)) : fields.split(',');
}

/** The columns of the row (`current`, named) whose values the record (`recorded`, either form) did not have, in name order. */
export function changedFields(recorded: string, current: string): string[] {
  const had = new Set(digestsOf(recorded));
  const out: string[] = [];
  for (const part of current === '' ? [] : current.split(FIELD_SEP)) {
    const eq = part.lastIndexOf('=');
    if (eq > 0 && !had.has(part.slice(eq + 1))) out.push(part.slice(0, eq));
  }
  return out.sort();
}

/** The columns in name order, once: a sheet whose columns were moved holds the same rows. */
function nameOrder(columns: readonly string[]): number[] {
  return columns.map((_, i) => i).sort((a, b) => (columns[a] < columns[b] ? -1 : 1));
}

/** The key of a row by its work e-mail (lower case, not blank) or, without one, by the digest of its values. */
function keyOf(email: string, hash: () => string): string {
  return email ? `mail:${digest(email)}` : `values:${hash()}`;
}

/** The row's work e-mail as a key holds it: trimmed, NFC, lower case ('' without one). */
function emailOf(cells: readonly string[], emailColumn: number | undefined): string {
  return emailColumn === undefined ? '' : cellValue(cells[emailColumn]).toLowerCase();
}

/** `column, value` pairs of the row's non-blank cells, in name order (the text its values digest is of). */
function valuesOf(columns: readonly string[], order: readonly number[], cells: readonly string[]): string[] {
  const values: string[] = [];
  for (const i of order) {
    const text = cellValue(cells[i]);
    if (text !== '') values.push(columns[i], text);
  }
  return values;
}

/** The key of each row alone (RowIdentity.key): a check with no journal needs nothing else (nor, with a work e-mail, a digest of the values). */
export function rowKeys(columns: readonly string[], emailColumn: number | undefined): (cells: readonly string[]) => string {
  const order = nameOrder(columns);
  return (cells) => keyOf(emailOf(cells, emailColumn), () => digest(JSON.stringify(valuesOf(columns, order, cells))));
}

/** The identity of each row of a sheet with these columns; `emailColumn`: the index of the work e-mail column, if any. */
export function identities(columns: readonly string[], emailColumn: number | undefined): (cells: readonly string[]) => RowIdentity {
  const order = nameOrder(columns);
  return (cells) => {
    const values: string[] = [];
    const rest: string[] = [];
    for (const i of order) {
      const text = cellValue(cells[i]);
      if (text === '') continue;
      values.push(columns[i], text);
      if (i !== emailColumn) rest.push(columns[i], text);
    }
    const hash = digest(JSON.stringify(values));
    const id = { key: keyOf(emailOf(cells, emailColumn), () => hash), hash, rest: digest(JSON.stringify(rest)) } as RowIdentity;
    // Worked out when first needed (a record to write, a row to compare): a digest per cell is not free.
    let fields: string | undefined;
    Object.defineProperty(id, 'fields', {
      enumerable: true,
      get: () => {
        if (fields === undefined) {
          const list: string[] = [];
          // The column's name in the digest too: one value in two columns is two facts.
          for (let k = 0; k < values.length; k += 2) list.push(`${values[k]}=${digest(JSON.stringify([values[k], values[k + 1]]), 8)}`);
          fields = list.join(FIELD_SEP);
        }
        return fields;
      },
    });
    return id;
  };
}

/** The employee of a record in this state exists, or may (its POST was sent and no refusal came back). */
export function wasSent(e: JournalEntry): boolean {
  return (['posting', 'created', 'patch-failed', 'done'] as RowState[]).includes(e.state);
}

/** The latest record of the row (a version 1 or 2 journal's by the row's cells, which it hashed in place). */
export function priorOf(journal: Journal, id: RowIdentity, cells: readonly string[]): JournalEntry | undefined {
  return journal.get(id.key) ?? (journal.legacy ? journal.get(legacyKey(rowHash(cells))) : undefined);
}

/** A row sent by an earlier run that has changed since. */
export interface ChangedRow {
  row: number;
  /** Its row when it was sent. */
  was: number;
  /** Only its work e-mail changed (it is known by its other values). */
  email: boolean;
  /** The columns that changed, when the record kept its fields. */
  fields?: string[];
}

export interface Seen {
  /** The earlier row of this sheet that is the same employee. */
  duplicateOf?: number;
  /** What an earlier run recorded of this row (unchanged, or refused by the server before). */
  prior?: JournalEntry;
}

/**
 * Goes over the rows of a sheet once (the check pass), matching each with
 * its record: duplicates, the record to start from, and the sent rows that
 * changed (asked for once every row was seen).
 */
export class SheetMatch {
  /** Key -> the first row of the sheet with it. */
  private readonly rows = new Map<string, number>();
  private readonly changed: ChangedRow[] = [];
  /** Rows not sent before whose other values are those of a sent record: their e-mail may be what changed. */
  private readonly maybeEdited: { row: number; rest: string }[] = [];
  /** Sent records by their values but the work e-mail. */
  private readonly sentByRest = new Map<string, JournalEntry[]>();
  /** Without a work e-mail: rows not sent before, with their fields (an edited sent row is among them). */
  private readonly unsent: { row: number; fields: string }[] = [];
  /** Some sent record keeps its fields: only then can an edited one be looked for. */
  private readonly sentFields: boolean;

  /** `byContent`: the form has no work e-mail, so an edited sent row is found by its place and content (see the top). */
  constructor(
    private readonly journal: Journal | undefined,
    private readonly byContent = false,
  ) {
    let sentFields = false;
    for (const e of journal?.entries() ?? []) {
      if (wasSent(e) && e.fields !== undefined) sentFields = true;
      if (!wasSent(e) || e.rest === undefined) continue;
      const list = this.sentByRest.get(e.rest);
      if (list) list.push(e);
      else this.sentByRest.set(e.rest, [e]);
    }
    this.sentFields = sentFields;
  }

  /** The earlier row of the sheet with this key, if any (the row is then a duplicate); else this row is the first with it. */
  firstWith(row: number, key: string): number | undefined {
    const first = this.rows.get(key);
    if (first === undefined) this.rows.set(key, row);
    return first;
  }

  see(row: number, id: RowIdentity, cells: readonly string[]): Seen {
    const first = this.firstWith(row, id.key);
    if (first !== undefined) return { duplicateOf: first };
    const journal = this.journal;
    if (!journal) return {};
    const prior = priorOf(journal, id, cells);
    if (prior && wasSent(prior)) {
      if (prior.key === id.key && prior.hash !== id.hash) {
        this.changed.push({ row, was: prior.row, email: false, fields: prior.fields === undefined ? undefined : changedFields(prior.fields, id.fields) });
        return {};
      }
      return { prior };
    }
    if (this.sentByRest.has(id.rest)) this.maybeEdited.push({ row, rest: id.rest });
    if (this.byContent && this.sentFields) this.unsent.push({ row, fields: id.fields });
    return { prior };
  }

  /** The sent rows that changed, in sheet order: a sent record no row of the sheet has is one whose e-mail, or (without one) other values, were edited. */
  changedRows(): ChangedRow[] {
    const out = [...this.changed];
    for (const m of this.maybeEdited) {
      const gone = this.sentByRest.get(m.rest)!.find((e) => !this.rows.has(e.key));
      if (gone) out.push({ row: m.row, was: gone.row, email: true });
    }
    const seen = new Set(out.map((c) => c.row));
    for (const c of this.editedByContent()) if (!seen.has(c.row)) out.push(c);
    return out.sort((a, b) => a.row - b.row);
  }

  /**
   * Sent records that no row of the sheet holds, each matched with the row
   * not sent before that kept its content: a field only that record has
   * (among the sent records), at the record's place, or two such fields
   * anywhere (rows above it were inserted or deleted).
   */
  private editedByContent(): ChangedRow[] {
    if (!this.byContent || !this.journal || this.unsent.length === 0) return [];
    const gone = [...this.journal.entries()].filter((e) => wasSent(e) && e.fields !== undefined && !this.rows.has(e.key));
    if (gone.length === 0) return [];
    // How many sent records hold each field digest: one that a single record has is that record's own.
    const holders = new Map<string, number>();
    for (const e of this.journal.entries()) if (wasSent(e) && e.fields !== undefined) for (const f of digestsOf(e.fields)) holders.set(f, (holders.get(f) ?? 0) + 1);
    const own = new Map<string, JournalEntry>();
    for (const e of gone) for (const f of digestsOf(e.fields!)) if (holders.get(f) === 1) own.set(f, e);
    // Every pairing that qualifies, the closest first: each record and each row is paired once.
    const pairs: { u: { row: number; fields: string }; e: JournalEntry; score: number }[] = [];
    for (const u of this.unsent) {
      const shared = new Map<JournalEntry, number>();
      for (const f of digestsOf(u.fields)) {
        const e = own.get(f);
        if (e) shared.set(e, (shared.get(e) ?? 0) + 1);
      }
      for (const [e, n] of shared) {
        const score = n + (e.row === u.row ? 1 : 0);
        if (score >= 2) pairs.push({ u, e, score });
      }
    }
    pairs.sort((a, b) => b.score - a.score || a.u.row - b.u.row);
    const out: ChangedRow[] = [];
    const rowsTaken = new Set<number>();
    const taken = new Set<JournalEntry>();
    for (const { u, e } of pairs) {
      if (rowsTaken.has(u.row) || taken.has(e)) continue;
      rowsTaken.add(u.row);
      taken.add(e);
      out.push({ row: u.row, was: e.row, email: false, fields: changedFields(e.fields!, u.fields) });
    }
    return out;
  }
}

const MAX_NAMED = 20;

/** BULK_ROWS_CHANGED: nothing is sent (exit 2, like every other refusal of the sheet). */
export function rowsChanged(csvPath: string, journalPath: string, changed: ChangedRow[]): UsageError {
  const n = changed.length;
  const named = changed
    .slice(0, MAX_NAMED)
    .map((c) => `row ${c.row} (${c.email ? 'its work e-mail; ' : c.fields?.length ? `${c.fields.slice(0, 8).join(', ')}${c.fields.length > 8 ? ', …' : ''}; ` : ''}row ${c.was} when sent)`)
    .join(', ');
  return new UsageError(
    `${n === 1 ? '1 row' : `${n} rows`} of ${csvPath} changed after the run recorded in ${journalPath} sent ${n === 1 ? 'it' : 'them'}: ${named}${n > MAX_NAMED ? `, and ${n - MAX_NAMED} more` : ''}; nothing was sent`,
    'Each of those rows is an employee that exists (or may) as it was sent: put the row back as it was, or delete it from the sheet (change an existing employee with partner dynamic-details submit, not here). A new employee is a new row; to send the file as a new run, pass another --results path.',
    'BULK_ROWS_CHANGED',
  );
}

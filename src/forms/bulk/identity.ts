// Which journal record is a row's. Between two runs of one sheet the
// operator deletes, inserts and moves rows, so a row is known by what it is,
// never by its place: by its work e-mail (the server's own identity of an
// employee), or, in a form without one, by its values. Its values (column
// by column, whatever the columns' order; blank cells left out) tell whether
// it changed since a run sent it; its values but the work e-mail tell a
// created row whose e-mail alone was edited. Only hashes: the journal holds
// no cell values.
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
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** The identity of each row of a sheet with these columns; `emailColumn`: the index of the work e-mail column, if any. */
export function identities(columns: readonly string[], emailColumn: number | undefined): (cells: readonly string[]) => RowIdentity {
  // The columns in name order, once: a sheet whose columns were moved holds the same rows.
  const order = columns.map((_, i) => i).sort((a, b) => (columns[a] < columns[b] ? -1 : 1));
  return (cells) => {
    const values: string[] = [];
    const rest: string[] = [];
    for (const i of order) {
      const text = (cells[i] ?? '').trim();
      if (text === '') continue;
      values.push(columns[i], text);
      if (i !== emailColumn) rest.push(columns[i], text);
    }
    const hash = digest(JSON.stringify(values));
    const email = emailColumn === undefined ? '' : (cells[emailColumn] ?? '').trim().toLowerCase();
    return { key: email ? `mail:${digest(email)}` : `values:${hash}`, hash, rest: digest(JSON.stringify(rest)) };
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

  constructor(private readonly journal: Journal | undefined) {
    for (const e of journal?.entries() ?? []) {
      if (!wasSent(e) || e.rest === undefined) continue;
      const list = this.sentByRest.get(e.rest);
      if (list) list.push(e);
      else this.sentByRest.set(e.rest, [e]);
    }
  }

  see(row: number, id: RowIdentity, cells: readonly string[]): Seen {
    const first = this.rows.get(id.key);
    if (first !== undefined) return { duplicateOf: first };
    this.rows.set(id.key, row);
    const journal = this.journal;
    if (!journal) return {};
    const prior = priorOf(journal, id, cells);
    if (prior && wasSent(prior)) {
      if (prior.key === id.key && prior.hash !== id.hash) {
        this.changed.push({ row, was: prior.row, email: false });
        return {};
      }
      return { prior };
    }
    if (this.sentByRest.has(id.rest)) this.maybeEdited.push({ row, rest: id.rest });
    return { prior };
  }

  /** The sent rows that changed, in sheet order: a sent record no row of the sheet has is one whose e-mail was edited. */
  changedRows(): ChangedRow[] {
    const out = [...this.changed];
    for (const m of this.maybeEdited) {
      const gone = this.sentByRest.get(m.rest)!.find((e) => !this.rows.has(e.key));
      if (gone) out.push({ row: m.row, was: gone.row, email: true });
    }
    return out.sort((a, b) => a.row - b.row);
  }
}

const MAX_NAMED = 20;

/** BULK_ROWS_CHANGED: nothing is sent (exit 2, like every other refusal of the sheet). */
export function rowsChanged(csvPath: string, journalPath: string, changed: ChangedRow[]): UsageError {
  const n = changed.length;
  const named = changed
    .slice(0, MAX_NAMED)
    .map((c) => `row ${c.row} (${c.email ? 'its work e-mail; ' : ''}row ${c.was} when sent)`)
    .join(', ');
  return new UsageError(
    `${n === 1 ? '1 row' : `${n} rows`} of ${csvPath} changed after the run recorded in ${journalPath} sent ${n === 1 ? 'it' : 'them'}: ${named}${n > MAX_NAMED ? `, and ${n - MAX_NAMED} more` : ''}; nothing was sent`,
    'Each of those rows is an employee that exists (or may) as it was sent: put the row back as it was, or delete it from the sheet (change an existing employee with partner dynamic-details submit, not here). A new employee is a new row; to send the file as a new run, pass another --results path.',
    'BULK_ROWS_CHANGED',
  );
}

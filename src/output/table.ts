import { colors, type Colors } from './colors.js';
import { sanitizeCell } from '../text/sanitize.js';
import { cellWidth, padCell, truncateCell, wrapCells } from './cells.js';
import { countOf } from '../text/count.js';

export { displayText } from './cells.js';

/**
 * How a column behaves when the table does not fit the terminal:
 * - `key` and `short` (codes, ids, status, dates, country) are never truncated;
 * - `free` (names, e-mail, titles; the default) share what is left and are cut with `…`
 *   (or wrapped onto the lines below, for a column with `wrap`).
 */
export type ColumnKind = 'key' | 'short' | 'free';

export interface Column {
  /** Dot path into the item, also the header when none is given. */
  key: string;
  header?: string;
  /** Computes the cell instead of reading `key` (pending documents as "2: A, B"). */
  value?: (item: unknown) => unknown;
  /** Truncation rule on a terminal; `free` when absent. */
  kind?: ColumnKind;
  /**
   * Drop order when even the narrowest free columns do not fit: columns with a
   * priority go first, lowest number first. Columns without one are kept
   * (dropped last, from the right, and never the first column).
   */
  priority?: number;
  /** `status`: employee statuses coloured when colour is on. */
  style?: 'status';
  /**
   * A free column that gives up room first: when the table is too wide it is
   * narrowed to this many cells before the other free columns are (short
   * columns such as KIND or REQUIRED, beside long prose that should get the rest).
   */
  maxWidth?: number;
  /**
   * On a terminal, a value wider than the column continues on the lines below,
   * within the column (at most WRAP_MAX_LINES), instead of being cut with `…`.
   * Piped output is unchanged: one line per row, values whole.
   */
  wrap?: boolean;
}

export interface TableOptions {
  /** Terminal width; absent when not a terminal: complete values, nothing dropped. */
  columns?: number;
  color?: boolean;
  /** What the hidden-columns note suggests besides widening: `-o csv` unless said. */
  fullOutput?: string;
}

/** Space between two columns (gh uses two). */
export const GAP = 2;
/** A free column is not squeezed below this (or its natural width, when smaller). */
export const MIN_FREE_WIDTH = 12;
/** Lines a wrapped cell may take; the last is cut with `…` (a server's 10 kB description is not a screenful). */
export const WRAP_MAX_LINES = 8;

/** Which columns are shown and how wide each is: decided once, from the first rows. */
export interface TableLayout {
  columns: Column[];
  /** Indexes into the original columns, in order. */
  shown: number[];
  /** Width of each shown column, in terminal cells. */
  widths: number[];
  /** Headers of the dropped columns. */
  hidden: string[];
  /** The terminal width fitted to; undefined when not a terminal. */
  width?: number;
  fullOutput?: string;
  fit: boolean;
  colors: Colors;
}

const headerOf = (c: Column) => sanitizeCell(c.header ?? c.key);
const isFree = (c: Column) => (c.kind ?? 'free') === 'free';

/**
 * Lays the table out. Without a width: natural widths. With one: key and
 * short columns keep their natural width; free columns shrink, widest first,
 * down to MIN_FREE_WIDTH; when even that does not fit, columns are dropped in
 * their declared order and the layout tried again.
 */
export function layoutTable(columns: Column[], rows: string[][], opts: TableOptions): TableLayout {
  const natural = columns.map((c, i) => Math.max(cellWidth(headerOf(c)), ...rows.map((r) => cellWidth(r[i] ?? ''))));
  const c = colors(Boolean(opts.color));
  const all = columns.map((_, i) => i);
  if (!opts.columns) return { columns, shown: all, widths: natural, hidden: [], fit: false, colors: c };
  const width = opts.columns;
  const order = dropOrder(columns);
  let shown = all;
  for (let dropped = 0; ; dropped++) {
    shown = all.filter((i) => !order.slice(0, dropped).includes(i));
    const widths = fitFree(shown.map((i) => columns[i]!), shown.map((i) => natural[i]!), width - GAP * (shown.length - 1));
    if (widths || dropped >= order.length) {
      return {
        columns,
        shown,
        // Nothing more to drop: free columns at their minimum, key columns whole (the line may overflow).
        widths: widths ?? shown.map((i) => (isFree(columns[i]!) ? Math.min(natural[i]!, MIN_FREE_WIDTH) : natural[i]!)),
        hidden: all.filter((i) => !shown.includes(i)).map((i) => headerOf(columns[i]!)),
        width,
        fullOutput: opts.fullOutput,
        fit: true,
        colors: c,
      };
    }
  }
}

/** Columns with a priority, lowest first; then the others from the right, never the first. */
function dropOrder(columns: Column[]): number[] {
  const withPriority = columns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => c.priority !== undefined)
    .sort((a, b) => a.c.priority! - b.c.priority! || b.i - a.i)
    .map(({ i }) => i);
  const rest = columns.map((_, i) => i).filter((i) => i > 0 && !withPriority.includes(i)).reverse();
  return [...withPriority, ...rest];
}

/**
 * Widths that fit `budget`, or undefined when they cannot. Over budget, room is
 * taken, widest column first, from: free columns wider than their maxWidth
 * (down to it), then free columns without one (down to MIN_FREE_WIDTH), then
 * every free column (down to MIN_FREE_WIDTH): long prose keeps what the short
 * columns do not need.
 */
function fitFree(cols: Column[], natural: number[], budget: number): number[] | undefined {
  const widths = [...natural];
  const floor = natural.map((w, i) => (isFree(cols[i]!) ? Math.min(w, MIN_FREE_WIDTH, cols[i]!.maxWidth ?? Infinity) : w));
  if (floor.reduce((a, b) => a + b, 0) > budget) return undefined;
  let total = widths.reduce((a, b) => a + b, 0);
  const steps: ((i: number) => number)[] = [
    (i) => (cols[i]!.maxWidth === undefined ? widths[i]! : Math.max(floor[i]!, cols[i]!.maxWidth!)),
    (i) => (cols[i]!.maxWidth === undefined ? floor[i]! : widths[i]!),
    (i) => floor[i]!,
  ];
  for (const limit of steps) {
    while (total > budget) {
      let widest = -1;
      for (let i = 0; i < widths.length; i++) {
        if (widths[i]! > limit(i) && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
      }
      if (widest < 0) break;
      widths[widest]! -= 1;
      total -= 1;
    }
  }
  return widths;
}

/** The header line: bold when colour is on. */
export function renderHeader(layout: TableLayout): string {
  return renderLines(
    layout,
    [layout.shown.map((i) => headerOf(layout.columns[i]!))],
    (text) => layout.colors.bold(text),
  );
}

/** Data lines laid out as `layout` says (values wider than a free column cut with `…`). */
export function renderRows(layout: TableLayout, rows: string[][]): string {
  return rows.length === 0 ? '' : renderLines(layout, rows.map((r) => layout.shown.map((i) => r[i] ?? '')), undefined);
}

/**
 * Lines of the table, written from the layout: each cell measured once (by
 * grapheme cluster, cells.ts), free text cut (or, in a `wrap` column, wrapped)
 * to its column, padded to the column's width, GAP spaces between columns,
 * nothing after the last one. A row whose cells wrap takes as many lines as
 * its tallest cell; the other cells are blank on the lines below.
 * (cli-table3 drew them before: it measured and cut every cell again with its
 * own older string-width, misaligning combining marks and new emoji and
 * cutting key columns, and built a regular expression per measure.)
 */
function renderLines(layout: TableLayout, rows: string[][], style: ((text: string) => string) | undefined): string {
  const gap = ' '.repeat(GAP);
  const last = layout.shown.length - 1;
  const cols = layout.shown.map((i) => layout.columns[i]!);
  let out = '';
  for (const cells of rows) {
    const stacks = cols.map((col, k) => cellLines(cells[k] ?? '', col, layout.fit ? layout.widths[k]! : undefined, style === undefined));
    const height = Math.max(...stacks.map((s) => s.length));
    for (let j = 0; j < height; j++) {
      let line = '';
      for (let k = 0; k <= last; k++) {
        const text = stacks[k]![j] ?? '';
        const col = cols[k]!;
        const painted = style ? style(text) : col.style === 'status' ? paintStatus(text, layout.colors) : text;
        line += k === last ? painted : `${padCell(painted, text, layout.widths[k]!)}${gap}`;
      }
      // No trailing spaces (a last cell that ends in spaces, or empty last cells).
      out += `${line.trimEnd()}\n`;
    }
  }
  return out;
}

/** A cell as the lines it takes: whole (key and short columns, or no terminal), cut (headers too), or wrapped. */
function cellLines(raw: string, col: Column, width: number | undefined, mayWrap: boolean): string[] {
  if (width === undefined || !isFree(col)) return [raw];
  if (!col.wrap || !mayWrap) return [truncateCell(raw, width)];
  // Only what can be shown is wrapped (a server may send megabytes): 8 code units a cell is
  // more than any grapheme but a pathological one needs, and a shortened text is always marked.
  const limit = (WRAP_MAX_LINES + 1) * width * 8;
  const text = raw.length > limit ? raw.slice(0, /[\ud800-\udbff]/.test(raw[limit - 1]!) ? limit - 1 : limit) : raw;
  const lines = wrapCells(text, width, { breakWords: true });
  if (lines.length <= WRAP_MAX_LINES && text === raw) return lines;
  const tail = lines.slice(WRAP_MAX_LINES - 1).join(' ');
  return [...lines.slice(0, WRAP_MAX_LINES - 1), truncateCell(cellWidth(tail) < width ? `${tail}…` : `${tail} …`, width)];
}

function paintStatus(text: string, c: Colors): string {
  switch (text) {
    case 'ACTIVE':
      return c.green(text);
    case 'ONBOARDING':
      return c.cyan(text);
    case 'OFFBOARDING':
      return c.yellow(text);
    case 'ENDED':
    case 'DELETED':
      return c.dim(text);
    default:
      return text;
  }
}

/** The footer line for dropped columns, or undefined when none were. */
export function hiddenNote(layout: TableLayout): string | undefined {
  const n = layout.hidden.length;
  if (n === 0) return undefined;
  const note = `${countOf(n, 'column')} hidden; widen the terminal or use ${layout.fullOutput ?? '-o csv'}`;
  const named = `${note} (hidden: ${layout.hidden.join(', ')})`;
  // Too wide for one line: the names go on a line of their own (never left out).
  return layout.width !== undefined && cellWidth(named) > layout.width ? `${note}\nhidden: ${layout.hidden.join(', ')}` : named;
}

/**
 * Renders rows (already text) as a borderless table: headers, rows, and the
 * hidden-columns note when columns were dropped to fit `opts.columns`.
 */
export function renderTable(columns: Column[], rows: string[][], opts: TableOptions): string {
  const cells = rows.map((r) => r.map(sanitizeCell));
  const layout = layoutTable(columns, cells, opts);
  const note = hiddenNote(layout);
  return `${renderHeader(layout)}${renderRows(layout, cells)}${note ? `${layout.colors.dim(note)}\n` : ''}`;
}

export { renderKeyValue } from './key-value.js';

// Key/value blocks (`profile get`, `auth status`, `doctor`, webhook payloads):
// aligned labels, values wrapped at the terminal width between words.
import { sanitizeCell } from '../text/sanitize.js';
import { cellWidth, displayText, padCell, wrapCells } from './cells.js';
import { MAX_DEPTH, nestedTooDeep } from './depth.js';
import { isScalar } from '../json/lossless-number.js';

export interface KeyValueOptions {
  /** Rewrites a value before it is shown (masking account numbers); `path` is the dot path of the value. */
  mask?: (path: string, v: unknown) => unknown;
  /** Terminal width: values wrap to it (never mid-word). Absent: one line per value. */
  width?: number;
  /** `human`: "workEmail" shown as "Work email". Default `raw`: the keys as they are. */
  labels?: 'raw' | 'human';
}

/** Labels whose words alone would read wrongly. */
const LABELS: Record<string, string> = {
  baseUrl: 'Base URL',
  baseUrlSource: 'Base URL from',
  profileSource: 'Profile from',
  tokenSource: 'Token from',
  dateOfBirth: 'Date of birth',
  ifscCode: 'IFSC code',
  panNumber: 'PAN',
  ctc: 'CTC',
};

const ACRONYMS = new Map([...['id', 'url', 'uri', 'uuid', 'iban', 'ifsc', 'bic', 'swift', 'pan', 'ssn', 'api', 'http', 'jwks', 'utc', 'ctc', 'gp', 'pf', 'uan', 'json', 'csv'].map((w) => [w, w.toUpperCase()] as const), ['ids', 'IDs'] as const]);

/** "workEmail" → "Work email", "employeeId" → "Employee ID", "address_line1" → "Address line 1". */
export function humanLabel(key: string): string {
  const known = Object.hasOwn(LABELS, key) ? LABELS[key] : undefined;
  if (known) return known;
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(key)) return key;
  const words = key
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .split(' ')
    .filter(Boolean)
    .map((w) => ACRONYMS.get(w.toLowerCase()) ?? (/^[A-Z]{2,}$/.test(w) ? w : w.toLowerCase()));
  const [first = key, ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(' ');
}

/**
 * Aligned "label  value" lines. With a width, each value wraps by display
 * width to what is left of the line (cells.ts wrapCells: between words, and
 * between the characters of East Asian text), continuation lines under the
 * value; a word longer than that (a token, an IBAN, a URL) stays whole.
 */
export function formatPairs(pairs: readonly (readonly [label: string, value: string])[], opts: { indent?: number; width?: number; labelWidth?: number } = {}): string {
  if (pairs.length === 0) return '';
  const pad = '  '.repeat(opts.indent ?? 0);
  const labelWidth = opts.labelWidth ?? Math.max(...pairs.map(([l]) => cellWidth(l)));
  const lead = pad.length + labelWidth + 2;
  // Too little room beside the labels: wrap at a readable minimum instead.
  const room = opts.width ? Math.max(opts.width - lead, 20) : undefined;
  let out = '';
  // A value with a word too wide for the room beside the labels (an id at 40 columns) goes under its
  // label, where it fits whole, rather than being cut by the terminal's edge.
  const under = opts.width ? opts.width - pad.length - 2 : undefined;
  for (const [label, value] of pairs) {
    const lines = room ? wrapCells(value, room) : [value];
    if (room && under && lines.some((l) => cellWidth(l) > room && cellWidth(l) <= under)) {
      out += `${pad}${label}\n${wrapCells(value, under).map((l) => `${pad}  ${l}\n`).join('')}`;
      continue;
    }
    out += `${pad}${padCell(label, label, labelWidth)}  ${lines[0] ?? ''}\n`;
    for (const line of lines.slice(1)) out += `${' '.repeat(lead)}${line}\n`;
  }
  return out;
}

/**
 * A key/value block for one record, nested values indented as sub-blocks;
 * at most MAX_DEPTH levels (NESTED_TOO_DEEP). `path` is the record's dot path.
 */
export function renderKeyValue(value: unknown, indent = 0, opts: KeyValueOptions = {}, path = ''): string {
  return block(value, indent, opts, path, MAX_DEPTH);
}

/** `room`: the levels of arrays and objects still allowed, `value` included. */
function block(value: unknown, indent: number, opts: KeyValueOptions, path: string, room: number): string {
  const pad = '  '.repeat(indent);
  if (isScalar(value)) return `${pad}${sanitizeCell(displayText(value, path))}\n`;
  const entries = Array.isArray(value) ? value.map((v, i) => [`[${i + 1}]`, v, String(i)] as const) : Object.entries(value as object).map(([k, v]) => [k, v, k] as const);
  if (entries.length === 0) return `${pad}-\n`;
  const label = (key: string) => sanitizeCell(opts.labels === 'human' ? humanLabel(key) : key);
  const labelWidth = Math.max(...entries.map(([name]) => cellWidth(label(name))));
  let out = '';
  // Runs of plain values are aligned together; a nested block starts a new run.
  let run: [string, string][] = [];
  const flush = () => {
    out += formatPairs(run, { indent, width: opts.width, labelWidth });
    run = [];
  };
  for (const [name, raw, key] of entries) {
    const childPath = path ? `${path}.${key}` : key;
    const v = opts.mask ? opts.mask(childPath, raw) : raw;
    const nested = !isScalar(v);
    // A list of plain values is shown on one line, but is a level all the same.
    if (nested && room === 1) throw nestedTooDeep(childPath);
    if (nested && !(Array.isArray(v) && v.every(isScalar))) {
      flush();
      out += `${pad}${label(name)}:\n${block(v, indent + 1, opts, childPath, room - 1)}`;
    } else {
      run.push([label(name), sanitizeCell(displayText(v, childPath))]);
    }
  }
  flush();
  return out;
}

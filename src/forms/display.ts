// How questions and answers are shown: titles with their hints, answers as
// the person reads them (choice titles, Yes/No, money with its currency,
// secrets masked, several lines on one), where an answer sits by titles, and
// the section and object headings as their questions start.
import { truncateCell } from '../output/cells.js';
import { sanitizeCell, sanitizeTerminal } from '../text/sanitize.js';
import type { Field } from './questions.js';
import { SECRET_MASK } from './secrets.js';
import { isObj } from './schema.js';
import type { Wizard } from './wizard.js';


/** Shown value of an answer: choice titles, Yes/No, money with its currency, secrets masked. */
export function displayValue(f: Field, value: unknown): string {
  if (f.kind === 'object') return isObj(value) ? 'filled in' : 'left empty';
  if (value === undefined || value === null || value === '') return '-';
  if (f.kind === 'secret') return SECRET_MASK;
  if (f.kind === 'boolean') return value ? 'Yes' : 'No';
  if (f.kind === 'select') return f.choices?.find((c) => c.value === value)?.title ?? String(value);
  if (f.kind === 'multiselect' && Array.isArray(value)) return value.map((v) => f.choices?.find((c) => c.value === v)?.title ?? String(v)).join(', ') || '-';
  if (f.kind === 'list' && Array.isArray(value)) return value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ') || '(none)';
  if (f.kind === 'group' && Array.isArray(value)) return `${value.length} entr${value.length === 1 ? 'y' : 'ies'}`;
  if (typeof value === 'string' && /[\r\n]/.test(value)) return multiLine(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return f.currency ? `${typeof value === 'number' ? groupDigits(value) : String(value)} ${f.currency}` : String(value);
}

/**
 * An amount with its thousands grouped by spaces (`85 000`, `2 400 000.5`):
 * the one grouping no locale reads as a decimal mark (85,000 and 85.000 each
 * mean 85 somewhere), and one that --set and the wizard read back.
 */
export function groupDigits(n: number): string {
  const text = String(n);
  const m = /^(-?)(\d+)(\.\d+)?$/.exec(text);
  if (!m) return text; // 1e+21 and the like: as JavaScript writes them
  return `${m[1]}${m[2].replace(/\B(?=(\d{3})+$)/g, ' ')}${m[3] ?? ''}`;
}

/** Text of several lines on one line of the review or change list: `first ↵ second (2 lines)`, cut at 60 terminal cells. */
function multiLine(text: string): string {
  const lines = text.split(/\r\n|\r|\n/).length;
  return `${cutLine(text)} (${lines} lines)`;
}

/**
 * Text on one line, made safe and cut to `width` terminal cells with `…`:
 * whole grapheme clusters only (an emoji sequence, a letter with its marks, a
 * Hangul syllable are never split), wide characters counted as two.
 */
export function cutLine(text: string, width = 60): string {
  return truncateCell(sanitizeCell(text), width);
}

/**
 * The text the change list filters on for an answer: its label and the real
 * answer (not the made-safe text shown, which may differ), so typing the
 * answer exactly finds it. Secrets, choices, numbers and lists as shown.
 */
export function matchText(w: Pick<Wizard, 'form'>, f: Field, value: unknown): string {
  const real = typeof value === 'string' && f.kind !== 'secret' && f.kind !== 'select' ? value : displayValue(f, value);
  return `${labelOf(w, f)}: ${real}`;
}

/** `Section › Object › Entry #2 › Field`: where an answer sits, by titles, never raw keys. */
export function labelOf(w: Pick<Wizard, 'form'>, f: Field): string {
  const section = w.form.sections.find((s) => s.key === f.section);
  const parts = [section?.title ?? f.section, ...f.trail];
  if (f.path.length > 1 || !section) parts.push(f.title);
  return parts.join(' › ');
}

export function title(f: Field): string {
  const hint = f.kind === 'date' ? 'YYYY-MM-DD' : f.kind === 'list' ? (f.required && !(Number(f.schema.minItems) > 0) ? 'comma-separated; Enter for none' : 'comma-separated') : f.kind === 'json' ? 'JSON' : f.currency;
  return sanitizeTerminal(`${f.title}${f.required ? '' : ' (optional)'}${hint ? ` [${hint}]` : ''}`);
}

export function helpOf(f: Field, extra?: string): string | undefined {
  return [f.description, extra].filter(Boolean).map((t) => sanitizeTerminal(t!)).join(' ') || undefined;
}

export function shown(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function announceSection(w: Wizard, key: string): void {
  if (w.shown?.section === key) return;
  w.shown = { section: key };
  const section = w.form.sections.find((s) => s.key === key);
  if (!section) return;
  w.prompter.note(`\n${w.colors.bold(sanitizeTerminal(section.title))}${section.description ? `\n${w.colors.dim(sanitizeTerminal(section.description))}` : ''}`);
}

/** Shows the title and description of the nested object a question belongs to, when its questions start. */
export function announceObject(w: Wizard, f: Field): void {
  const o = f.kind === 'object' ? { id: f.id, title: f.title, description: f.description } : f.parent;
  announceSection(w, f.section);
  if (!o || w.shown?.object === o.id) return;
  w.shown = { section: f.section, object: o.id };
  if (/\.\d+$/.test(o.id)) return; // a list entry: askGroup shows "Title #n"
  const depth = '  '.repeat(f.trail.length);
  w.prompter.note(`${depth}${w.colors.bold(sanitizeTerminal(o.title))}${o.description ? `\n${depth}${w.colors.dim(sanitizeTerminal(o.description))}` : ''}`);
}

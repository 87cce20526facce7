// Values from scripts: a JSON file shaped like the schema (sections nested)
// and `--set section.field=value` pairs coerced by the field's type.
import { dateProblem } from '../text/calendar-date.js';
import { isExact, withExactNumbers } from '../json/lossless-number.js';
import { rememberSpelling } from './spelled-numbers.js';
import { parseJsonExact } from '../json/parse-exact.js';
import { own, put, unsafeKeyPath, UNSAFE_NAMES_HINT } from '../safe-keys.js';
import { UsageError } from '../errors.js';
import { setAt } from './paths.js';
import { choicesOf, kindOf, merge, type Choice } from './questions.js';
import { childSchemas, isObj, resolveRef, type FormSchema, type JsonSchema } from './schema.js';
import { asciiDigits, sameText, sameTextIgnoringCase } from './typed-text.js';
import { issue, type FieldIssue } from './validate.js';

export { parseSetFlag, type SetPair } from './set-flag.js';
import type { SetPair } from './set-flag.js';

/**
 * Parses a values file; it must be a JSON object of sections. A number is
 * sent as written: one that a double cannot carry (12345678901234567890,
 * sent as 12345678901234567000) is refused, never rounded.
 */
export function parseValuesText(text: string, source: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = parseJsonExact(text);
  } catch (err) {
    throw new UsageError(`${source} is not valid JSON: ${(err as Error).message}`, 'The file holds one JSON object with a key per section, as `partner gp schema --entity NAME` shows.', 'INVALID_VALUES_FILE');
  }
  if (!isObj(v)) throw new UsageError(`${source} must hold a JSON object of sections, e.g. {"personal": {"firstName": "Ada"}}`, undefined, 'INVALID_VALUES_FILE');
  const unsafe = unsafeKeyPath(v);
  if (unsafe !== undefined) throw new UsageError(`${source}: "${unsafe.slice(0, 120)}" is not a field of any form`, UNSAFE_NAMES_HINT, 'INVALID_VALUES_FILE');
  // The number is not quoted in the error: the field may be a secret.
  return withExactNumbers(v, source, (number, path) => new UsageError(`${path} in ${source} ${Number.isFinite(Number(number)) ? `has more digits than can be sent exactly: ${TOO_PRECISE}` : 'is past the largest number that can be sent'}`, 'Check the number; a value longer than that is usually text (an account or card number): write it in quotes.', 'INVALID_VALUES_FILE'));
}

/** Every schema that may describe `path`, conditions ignored (for coercion only). */
export function schemasAt(form: FormSchema, path: string[]): JsonSchema[] {
  let current: unknown[] = [form.root];
  for (const part of path) {
    current = childSchemas(form, current, part);
    if (current.length === 0) return [];
  }
  return current.filter(isObj);
}

const TRUE = /^(true|yes|y|1|on)$/i;
const FALSE = /^(false|no|n|0|off)$/i;

/** What text became: the value (undefined for empty text), or the words saying what was expected. */
export type Converted = { ok: true; value: unknown } | { ok: false; message: string };

const TOO_PRECISE = 'a number has at most 15 to 17 significant digits, and partner never sends one rounded';
const NUMBER_FORM = 'must be a number such as 2400000 or 1234.56 (a dot marks decimals; digits may be grouped with commas: 2,400,000 or 24,00,000)';
const INTEGER_FORM = 'must be a whole number such as 2400000 (digits may be grouped with commas: 2,400,000 or 24,00,000)';

// Plain JavaScript-style decimals (no hex, no Infinity), and the grouped forms
// a person types: thousands (2,400,000) or lakh/crore (24,00,000), with one
// kind of separator (comma, space, underscore or apostrophe) used throughout.
const PLAIN = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
const GROUPED = /^[+-]?(\d{1,3}(S\d{3})+|\d{1,2}(S\d{2})*S\d{3})(\.\d+)?$/.source;
const SEPARATORS = [',', ' ', '_', "'", '\u00a0', '\u202f'];
// None of the separators is special in a regular expression.
const grouped = new Map(SEPARATORS.map((sep) => [sep, new RegExp(GROUPED.replace(/S/g, sep))]));

// One dot or one comma followed by exactly three digits, after one to three
// digits that do not start with 0: `85.000`, `85,000`, `1.234`. In English
// that is a thousands separator, in German (and most of Europe) a decimal
// mark: eighty-five thousand or eighty-five. Neither reading is taken.
const TWO_WAYS = /^([+-]?)([1-9]\d{0,2})([.,])(\d{3})$/;

/** The two readings of an ambiguous number (`85.000`: 85 and 85000), or undefined when it reads one way only. */
export function ambiguousNumber(text: string): { decimal: number; thousands: number } | undefined {
  const m = TWO_WAYS.exec(text.trim());
  if (!m) return undefined;
  const [, sign, whole, , part] = m;
  return { decimal: Number(`${sign}${whole}.${part}`), thousands: Number(`${sign}${whole}${part}`) };
}

/**
 * A number typed by a person. Grouping separators are accepted where the
 * grouping is unambiguous (every group in place, and more than one group or
 * a separator that is never a decimal mark); a comma is never a decimal mark,
 * so `1,5` and `2.400.000` are refused with the expected form, and `85.000`
 * or `85,000` (85 or 85000?) as ambiguous (see ambiguousNumber).
 */
export function parseNumberText(text: string): number | undefined {
  const token = numberToken(text);
  const n = Number(token); // NaN for no token
  return Number.isFinite(n) ? n : undefined;
}

/** The number a person typed as a JSON number token (no sign +, no grouping, 0 before a leading dot), or undefined. */
function numberToken(text: string): string | undefined {
  const t = text.trim();
  if (ambiguousNumber(t)) return undefined;
  let token: string | undefined;
  if (PLAIN.test(t)) token = t;
  else for (const [sep, re] of grouped) if (t.includes(sep) && re.test(t)) token = t.split(sep).join('');
  return token?.replace(/^\+/, '').replace(/^(-?)\./, '$10.').replace(/\.(?=$|e)/i, '');
}

function numberValue(t: string, integer: boolean): Converted {
  const two = ambiguousNumber(t);
  if (two) {
    // The decimal reading typed so that it reads one way only: 85, or 1.2340 (a fourth decimal).
    const decimal = Number.isInteger(two.decimal) ? String(two.decimal) : two.decimal.toFixed(4);
    return { ok: false, message: `is ambiguous: "${t}" could be ${two.decimal} or ${two.thousands}. Type ${two.thousands} for ${two.thousands}, or ${decimal} for ${two.decimal} (digits only; a dot marks decimals)` };
  }
  const token = numberToken(t);
  const n = Number(token); // NaN for no token
  if (token === undefined || !Number.isFinite(n)) return { ok: false, message: integer ? INTEGER_FORM : NUMBER_FORM };
  // Sent as typed or not at all: 12345678901234567890 would go as 12345678901234567000.
  // The value is not quoted: the field may be a secret (an account number typed as a number).
  if (!isExact(token)) return { ok: false, message: `has more digits than can be sent exactly: ${TOO_PRECISE}` };
  if (integer && !Number.isInteger(n)) return { ok: false, message: 'must be a whole number' };
  return { ok: true, value: n };
}

function primary(s: JsonSchema): string | undefined {
  return Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') as string | undefined) : typeof s.type === 'string' ? s.type : undefined;
}

/**
 * The one text -> value conversion, for typed answers, `--set` and CSV cells
 * alike, ruled by the field's schema: numbers (grouping allowed, see
 * parseNumberText; digits of any script read as ASCII), yes/no for booleans,
 * choices by value or title (NFC or NFD alike), comma-separated or JSON
 * lists, JSON for objects, dates with digits of any script. Empty text is no
 * value; other text is kept exactly as typed.
 */
export function toValue(form: FormSchema, s: JsonSchema, text: string): Converted {
  const t = text.trim();
  if (t === '') return { ok: true, value: undefined };
  const kind = kindOf(form, s);
  // A numeric secret is masked when asked, and still a number.
  const type = primary(s);
  if (kind === 'secret' && (type === 'number' || type === 'integer')) return numberValue(asciiDigits(t), type === 'integer');
  switch (kind) {
    case 'number':
    case 'integer':
      return numberValue(asciiDigits(t), kind === 'integer');
    case 'boolean':
      if (TRUE.test(t)) return { ok: true, value: true };
      if (FALSE.test(t)) return { ok: true, value: false };
      return { ok: false, message: 'must be yes or no (also y/n, true/false, 1/0)' };
    case 'select': {
      const choices = choicesOf(form, s) ?? [];
      // The choice's own spelling is sent, whichever normal form was typed.
      const hit = choices.find((c) => sameText(String(c.value), t)) ?? choices.find((c) => sameTextIgnoringCase(String(c.value), t)) ?? choices.find((c) => sameTextIgnoringCase(c.title, t)) ?? byTitleHead(choices, t);
      if (hit) return { ok: true, value: hit.value };
      // Not an option: keep it typed so validation names the options.
      const type = primary(s);
      const n = type === 'number' || type === 'integer' ? parseNumberText(asciiDigits(t)) : undefined;
      if (n !== undefined) return { ok: true, value: n };
      return { ok: true, value: text };
    }
    case 'multiselect':
    case 'list': {
      if (t.startsWith('[')) return json(t, 'must be a JSON list or comma-separated values');
      const items = resolveRef(form.root, s.items);
      const itemSchema = isObj(items) ? items : {};
      const out: unknown[] = [];
      for (const part of t.split(',').map((x) => x.trim()).filter((x) => x !== '')) {
        const c = toValue(form, itemSchema, part);
        if (!c.ok) return { ok: false, message: `has "${part.slice(0, 40)}", which ${c.message}` };
        out.push(c.value);
      }
      return { ok: true, value: out };
    }
    case 'group':
    case 'json':
      return json(t, 'must be JSON (a list or an object)');
    case 'date': {
      const d = asciiDigits(t);
      const problem = dateProblem(d);
      return problem === undefined ? { ok: true, value: d } : { ok: false, message: problem };
    }
    default:
      if (primary(s) === 'null' && t === 'null') return { ok: true, value: null };
      return { ok: true, value: text };
  }
}

/**
 * A choice named by the head of its title, the part before a dash ("I" for
 * "I — single"), when exactly one choice's title starts that way: people
 * write the short name a form shows first.
 */
function byTitleHead(choices: Choice[], t: string): Choice | undefined {
  const hits = choices.filter((c) => {
    const m = /^(.+?)\s+[\u2014\u2013-]\s+/.exec(c.title);
    return m !== null && sameTextIgnoringCase(m[1]!, t);
  });
  return hits.length === 1 ? hits[0] : undefined;
}

function json(t: string, message: string): Converted {
  try {
    return { ok: true, value: JSON.parse(t) };
  } catch {
    return { ok: false, message };
  }
}

/** The value of one --set, typed by the schema at its path. */
export function coerce(form: FormSchema, path: string[], text: string): { value: unknown } | { error: string } {
  const list = schemasAt(form, path);
  if (list.length === 0) {
    // Not in the schema: validation will say so; keep JSON literals typed.
    if (/^(-?\d+(\.\d+)?|true|false|null|\[.*\]|\{.*\})$/s.test(text.trim())) {
      try {
        return { value: JSON.parse(text) };
      } catch {
        /* plain text */
      }
    }
    return { value: text };
  }
  const c = toValue(form, merge(form, list), text);
  return c.ok ? { value: c.value } : { error: c.message };
}

/** Applies --set pairs in order; an empty value removes the field. Returns coercion problems. */
export function applySets(form: FormSchema, doc: Record<string, unknown>, pairs: SetPair[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const pair of pairs) {
    if (pair.text === '') {
      setAt(doc, pair.path, undefined);
      continue;
    }
    const c = coerce(form, pair.path, pair.text);
    if ('error' in c) issues.push(issue(form, pair.path.join('.'), c.error));
    else {
      setAt(doc, pair.path, c.value);
      // Sent with its digits as written (1.0, 100000000000000000000000), not as JavaScript prints the number.
      rememberSpelling(doc, pair.path, pair.text, c.value);
    }
  }
  return issues;
}

/** Deep merge for values files and drafts: objects merge, everything else replaces. */
export function mergeValues(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) {
    const here = own(out, k);
    put(out, k, isObj(v) && isObj(here) ? mergeValues(here, v) : v);
  }
  return out;
}

/**
 * Choices in a values file given by title ("taxClass": "I — single" or "I"),
 * as CSV cells and --set take them: replaced by the choice's value, which is
 * what is sent. A value that is already a choice's value, or that names no
 * choice, is left for validation to judge.
 */
export function choicesByTitle(form: FormSchema, doc: Record<string, unknown>): void {
  const visit = (holder: Record<string, unknown> | unknown[], key: string, path: string[], depth: number) => {
    const v = own(holder, key);
    if (depth > 16 || v === undefined || v === null) return;
    if (Array.isArray(v) || isObj(v)) {
      for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) visit(v as Record<string, unknown>, String(k), [...path, String(k)], depth + 1);
      return;
    }
    if (typeof v !== 'string') return;
    const list = schemasAt(form, path);
    if (list.length === 0) return;
    const s = merge(form, list);
    if (kindOf(form, s) !== 'select' || (choicesOf(form, s) ?? []).some((c) => c.value === v)) return;
    const c = toValue(form, s, v);
    if (c.ok && c.value !== undefined) put(holder as Record<string, unknown>, key, c.value);
  };
  for (const key of Object.keys(doc)) visit(doc, key, [key], 0);
}

/** Marks a field of a values skeleton (`gp template --values`) that the operator has not filled in. */
export const PLACEHOLDER_START = '<fill in: ';

export function placeholder(description: string): string {
  return `${PLACEHOLDER_START}${description}>`;
}

function isPlaceholder(v: unknown): boolean {
  return typeof v === 'string' && v.startsWith(PLACEHOLDER_START) && v.endsWith('>');
}

/**
 * A filled-in skeleton: placeholders left in are fields not given (an
 * optional one stays out; a required one is then reported missing by
 * validation, field by field), and a list entry, object or section holding
 * only placeholders goes with them. Returns the paths of the placeholders removed.
 */
export function dropPlaceholders(doc: Record<string, unknown>): string[] {
  const dropped: string[] = [];
  const clean = (v: unknown, path: string, depth: number): { keep: boolean; value: unknown } => {
    if (isPlaceholder(v)) {
      dropped.push(path);
      return { keep: false, value: undefined };
    }
    if (depth > 32 || v === null || typeof v !== 'object') return { keep: true, value: v };
    const before = dropped.length;
    if (Array.isArray(v)) {
      const items = v.map((x, i) => clean(x, `${path}.${i}`, depth + 1)).filter((x) => x.keep).map((x) => x.value);
      return { keep: items.length > 0 || dropped.length === before, value: items };
    }
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const c = clean(x, path ? `${path}.${k}` : k, depth + 1);
      if (c.keep) put(out, k, c.value);
    }
    // An object emptied by placeholders goes, a section too (validation still reports a required section's fields).
    return { keep: Object.keys(out).length > 0 || dropped.length === before, value: out };
  };
  for (const [k, v] of Object.entries(doc)) {
    const c = clean(v, k, 1);
    if (c.keep) put(doc, k, c.value);
    else delete doc[k];
  }
  return dropped;
}

// Values from scripts: a JSON file shaped like the schema (sections nested)
// and `--set section.field=value` pairs coerced by the field's type.
import { UsageError } from '../errors.js';
import { choicesOf, kindOf, merge, setAt } from './questions.js';
import { childSchemas, isObj, resolveRef, type FormSchema, type JsonSchema } from './schema.js';
import { issue, type FieldIssue } from './validate.js';

export { parseSetFlag, type SetPair } from './set-flag.js';
import type { SetPair } from './set-flag.js';

/** Parses a values file; it must be a JSON object of sections. */
export function parseValuesText(text: string, source: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${source} is not valid JSON: ${(err as Error).message}`, 'The file holds one JSON object with a key per section, as `partner gp schema --entity NAME` shows.', 'INVALID_VALUES_FILE');
  }
  if (!isObj(v)) throw new UsageError(`${source} must hold a JSON object of sections, e.g. {"personal": {"firstName": "Ada"}}`, undefined, 'INVALID_VALUES_FILE');
  return v;
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

function coerceOne(form: FormSchema, s: JsonSchema, text: string): unknown {
  const choices = choicesOf(form, s);
  if (choices) {
    const hit = choices.find((c) => String(c.value) === text) ?? choices.find((c) => String(c.value).toLowerCase() === text.toLowerCase()) ?? choices.find((c) => c.title.toLowerCase() === text.toLowerCase());
    if (hit) return hit.value;
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if ((type === 'number' || type === 'integer') && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'boolean') {
    if (TRUE.test(text)) return true;
    if (FALSE.test(text)) return false;
  }
  if (type === 'null' && text === 'null') return null;
  return text;
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
  const s = merge(form, list);
  const kind = kindOf(form, s);
  if (kind === 'group' || kind === 'json' || ((kind === 'multiselect' || kind === 'list') && text.trim().startsWith('['))) {
    try {
      return { value: JSON.parse(text) };
    } catch {
      return { error: 'must be JSON (a list or an object)' };
    }
  }
  if (kind === 'multiselect' || kind === 'list') {
    const items = resolveRef(form.root, s.items);
    const itemSchema = isObj(items) ? items : {};
    return { value: text.split(',').map((t) => t.trim()).filter((t) => t !== '').map((t) => coerceOne(form, itemSchema, t)) };
  }
  return { value: coerceOne(form, s, text) };
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
    else setAt(doc, pair.path, c.value);
  }
  return issues;
}

/** Deep merge for values files and drafts: objects merge, everything else replaces. */
export function mergeValues(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(extra)) out[k] = isObj(v) && isObj(out[k]) ? mergeValues(out[k] as Record<string, unknown>, v) : v;
  return out;
}

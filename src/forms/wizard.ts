// The interactive wizard: section by section, one question at a time,
// conditions re-evaluated after every answer (hidden answers dropped), a
// draft saved after every answer, then a review where any answer can be
// changed before submitting. Server field errors come back here as issues
// and are asked again at their questions.
import type { Colors } from '../output/colors.js';
import { sanitizeTerminal } from '../output/sanitize.js';
import { allFields, compact, getAt, itemFields, pruneHidden, sectionFields, setAt, type Field } from './questions.js';
import type { Prompter } from './prompter.js';
import { isObj, type FormSchema } from './schema.js';
import { validateDoc, validateValue, type FieldIssue } from './validate.js';

export interface Wizard {
  form: FormSchema;
  /** The answers, `{section: {field: value}}`; edited in place. */
  doc: Record<string, unknown>;
  /** Dot paths of the questions already asked (answered or skipped). */
  asked: Set<string>;
  /** The sections this wizard asks (all, or only the dynamic ones). */
  sections: string[];
  prompter: Prompter;
  colors: Colors;
  /** Persists the draft; called after every answer. */
  save(): void;
}

const MASK = '********';

/** Asks every question not yet asked, section by section, until nothing visible is left unasked. */
export async function askAll(w: Wizard): Promise<void> {
  for (const key of w.sections) {
    const section = w.form.sections.find((s) => s.key === key);
    if (!section) continue;
    let announced = false;
    if (!section.required && !w.asked.has(`section:${key}`) && w.doc[key] === undefined && pending(w, key)) {
      // An optional section: ask whether to fill it at all.
      w.prompter.note(`\n${w.colors.bold(sanitizeTerminal(section.title))}${section.description ? `\n${w.colors.dim(sanitizeTerminal(section.description))}` : ''}`);
      announced = true;
      const fill = await w.prompter.confirm({ message: `Fill in ${sanitizeTerminal(section.title)}? (optional)`, default: true });
      w.asked.add(`section:${key}`);
      if (!fill) w.asked.add(`skip:${key}`);
      w.save();
    }
    if (w.asked.has(`skip:${key}`)) continue;
    for (let guard = 0; guard < 1000; guard++) {
      prune(w);
      const next = pending(w, key);
      if (!next) break;
      if (!announced && !next.fixed) {
        announced = true;
        w.prompter.note(`\n${w.colors.bold(sanitizeTerminal(section.title))}${section.description ? `\n${w.colors.dim(sanitizeTerminal(section.description))}` : ''}`);
      }
      await askField(w, next);
    }
  }
  prune(w);
  w.save();
}

/** The first question of a section not asked yet, including new questions inside items of a group already asked. */
function pending(w: Wizard, key: string): Field | undefined {
  for (const f of sectionFields(w.form, key, w.doc)) {
    if (!w.asked.has(f.id)) return f;
    if (f.kind !== 'group') continue;
    const arr = getAt(w.doc, f.path);
    if (!Array.isArray(arr)) continue;
    for (let i = 0; i < arr.length; i++) {
      const inner = itemFields(w.form, f, i, w.doc).find((x) => !w.asked.has(x.id));
      if (inner) return inner;
    }
  }
  return undefined;
}

function prune(w: Wizard): void {
  const dropped = pruneHidden(w.form, w.doc, w.sections);
  for (const p of dropped) for (const a of [...w.asked]) if (a === p || a.startsWith(`${p}.`)) w.asked.delete(a);
  // A question that became hidden must be asked again if it comes back.
  const visible = new Set(allFields(w.form, w.doc, w.sections).map((f) => f.id));
  for (const a of [...w.asked]) if (!visible.has(a) && !isGroupItemPath(a) && !/^(section|skip):/.test(a)) w.asked.delete(a);
}

function isGroupItemPath(id: string): boolean {
  return /\.\d+(\.|$)/.test(id);
}

/** Shown value of an answer: choice titles, Yes/No, secrets masked. */
export function displayValue(f: Field, value: unknown): string {
  if (value === undefined || value === null || value === '') return '-';
  if (f.kind === 'secret') return MASK;
  if (f.kind === 'boolean') return value ? 'Yes' : 'No';
  if (f.kind === 'select') return f.choices?.find((c) => c.value === value)?.title ?? String(value);
  if (f.kind === 'multiselect' && Array.isArray(value)) return value.map((v) => f.choices?.find((c) => c.value === v)?.title ?? String(v)).join(', ') || '-';
  if (f.kind === 'group' && Array.isArray(value)) return `${value.length} entr${value.length === 1 ? 'y' : 'ies'}`;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Checks one answer: required, then the field's own schema. Returns true or the words to show. */
export function checkValue(w: Pick<Wizard, 'form'>, f: Field, value: unknown): true | string {
  if (value === undefined) return f.required ? `${f.title} is required` : true;
  const issues = validateValue(w.form, f.id, f.schema, value).filter((i) => !/ is required$/.test(i.text) || i.path === f.id);
  return issues.length ? `${f.title} ${issues[0].message}` : true;
}

/** Text -> the value the schema wants (number, integer, list…); undefined for empty. */
export function parseText(f: Field, text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const t = text.trim();
  if (t === '') return { ok: true, value: undefined };
  switch (f.kind) {
    case 'number':
    case 'integer': {
      const n = Number(t.replace(/[_\s]/g, ''));
      if (!Number.isFinite(n)) return { ok: false, message: `${f.title} must be a number` };
      if (f.kind === 'integer' && !Number.isInteger(n)) return { ok: false, message: `${f.title} must be a whole number` };
      return { ok: true, value: n };
    }
    case 'list': {
      return { ok: true, value: t.split(',').map((s) => s.trim()).filter((s) => s !== '').map((s) => coerceScalar(itemType(f), s)) };
    }
    case 'json':
      try {
        return { ok: true, value: JSON.parse(t) };
      } catch {
        return { ok: false, message: `${f.title} must be JSON` };
      }
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}$/.test(t)) return { ok: false, message: `${f.title} must be a date (YYYY-MM-DD)` };
      return { ok: true, value: t };
    default:
      return { ok: true, value: text };
  }
}

function itemType(f: Field): string | undefined {
  const items = f.schema.items;
  if (!isObj(items)) return undefined;
  return typeof items.type === 'string' ? items.type : undefined;
}

function coerceScalar(type: string | undefined, s: string): unknown {
  if ((type === 'number' || type === 'integer') && s !== '' && Number.isFinite(Number(s))) return Number(s);
  if (type === 'boolean' && /^(true|false)$/i.test(s)) return s.toLowerCase() === 'true';
  return s;
}

function title(f: Field): string {
  return sanitizeTerminal(`${f.title}${f.required ? '' : ' (optional)'}`);
}

function helpOf(f: Field): string | undefined {
  return f.description ? sanitizeTerminal(f.description) : undefined;
}

/** Asks one question (showing `error` first, when it is asked again) and stores the answer. */
export async function askField(w: Wizard, f: Field, error?: string): Promise<void> {
  if (error) w.prompter.note(w.colors.red(`✗ ${sanitizeTerminal(error)}`));
  if (f.fixed) {
    setAt(w.doc, f.path, f.fixed.value);
    w.asked.add(f.id);
    w.save();
    return;
  }
  w.asked.delete(`skip:${f.section}`);
  const current = getAt(w.doc, f.path);
  const initial = current ?? f.default;
  const p = w.prompter;
  let value: unknown;
  switch (f.kind) {
    case 'select': {
      const choices = (f.choices ?? []).map((c, i) => ({ name: sanitizeTerminal(c.title), value: i, description: c.description ? sanitizeTerminal(c.description) : undefined }));
      if (!f.required) choices.push({ name: '(leave empty)', value: -1, description: undefined });
      const def = (f.choices ?? []).findIndex((c) => c.value === initial);
      const i = await p.select<number>({ message: title(f), help: helpOf(f), choices, default: def >= 0 ? def : undefined });
      value = i < 0 ? undefined : f.choices?.[i]?.value;
      break;
    }
    case 'multiselect': {
      const chosen = Array.isArray(initial) ? initial : [];
      const idx = await p.checkbox<number>({
        message: title(f),
        help: helpOf(f),
        choices: (f.choices ?? []).map((c, i) => ({ name: sanitizeTerminal(c.title), value: i, checked: chosen.includes(c.value) })),
        validate: (list) => {
          const v = list.map((i) => f.choices?.[i]?.value);
          return checkValue(w, f, v.length === 0 && !f.required ? undefined : v);
        },
      });
      const v = idx.map((i) => f.choices?.[i]?.value);
      value = v.length === 0 && !f.required ? undefined : v;
      break;
    }
    case 'boolean':
      value = await p.confirm({ message: title(f), help: helpOf(f), default: typeof initial === 'boolean' ? initial : false });
      break;
    case 'secret': {
      const keep = current !== undefined;
      const text = await p.secret({
        message: title(f),
        help: [helpOf(f), keep ? 'Press Enter to keep the current value.' : undefined].filter(Boolean).join(' ') || undefined,
        validate: (t) => {
          if (t === '' && keep) return true;
          const parsed = parseText(f, t);
          return parsed.ok ? checkValue(w, f, parsed.value) : parsed.message;
        },
      });
      value = text === '' && keep ? current : (parseText(f, text) as { value: unknown }).value;
      break;
    }
    case 'group':
      await askGroup(w, f);
      w.asked.add(f.id);
      w.save();
      return;
    default: {
      const def = initial === undefined ? undefined : Array.isArray(initial) ? initial.join(', ') : typeof initial === 'object' ? JSON.stringify(initial) : String(initial);
      const hint = f.kind === 'date' ? 'YYYY-MM-DD' : f.kind === 'list' ? 'comma-separated' : f.kind === 'json' ? 'JSON' : undefined;
      const text = await p.input({
        message: hint ? `${title(f)} [${hint}]` : title(f),
        help: helpOf(f),
        default: def,
        validate: (t) => {
          const parsed = parseText(f, t);
          return parsed.ok ? checkValue(w, f, parsed.value) : parsed.message;
        },
      });
      const parsed = parseText(f, text);
      value = parsed.ok ? parsed.value : undefined;
    }
  }
  setAt(w.doc, f.path, value);
  w.asked.add(f.id);
  w.save();
}

async function askGroup(w: Wizard, f: Field): Promise<void> {
  const noun = sanitizeTerminal(f.title);
  const list = () => (Array.isArray(getAt(w.doc, f.path)) ? (getAt(w.doc, f.path) as unknown[]) : []);
  if (f.description) w.prompter.note(w.colors.dim(`  ${sanitizeTerminal(f.description)}`));
  // Finish items left half-done (a resumed draft), then offer more.
  for (let i = 0; i < list().length; i++) await askItem(w, f, i);
  for (;;) {
    const n = list().length;
    if (f.maxItems !== undefined && n >= f.maxItems) break;
    const mustAdd = n < (f.minItems ?? 0);
    if (!mustAdd) {
      const message = n === 0 ? `${sanitizeTerminal(f.addText ?? `Add an entry to ${noun}`)}?` : `Add another entry to ${noun}? (${n} so far)`;
      const add = await w.prompter.confirm({ message, default: false });
      if (!add) break;
    }
    setAt(w.doc, [...f.path, String(n)], {});
    w.prompter.note(w.colors.dim(`  ${noun} #${n + 1}`));
    await askItem(w, f, n);
  }
  if (list().length === 0) setAt(w.doc, f.path, f.required ? [] : undefined);
}

async function askItem(w: Wizard, f: Field, index: number): Promise<void> {
  for (let guard = 0; guard < 500; guard++) {
    prune(w);
    const next = itemFields(w.form, f, index, w.doc).find((x) => !w.asked.has(x.id));
    if (!next) return;
    await askField(w, next);
  }
}

/** The review screen: every answer of the wizard's sections, secrets masked. */
export function reviewText(w: Wizard): string {
  const lines: string[] = [w.colors.bold('\nReview your answers')];
  for (const key of w.sections) {
    const section = w.form.sections.find((s) => s.key === key);
    if (!section) continue;
    const fields = allFields(w.form, w.doc, [key]).filter((f) => !f.fixed || getAt(w.doc, f.path) !== undefined);
    if (fields.length === 0) continue;
    lines.push(w.colors.bold(sanitizeTerminal(section.title)));
    for (const f of fields) {
      const depth = f.path.length - 2;
      const label = isGroupItemPath(f.id) ? `${f.title} (#${Number(f.path[f.path.length - 2]) + 1})` : f.title;
      lines.push(`${'  '.repeat(Math.max(1, depth + 1))}${sanitizeTerminal(label)}: ${sanitizeTerminal(displayValue(f, getAt(w.doc, f.path)))}`);
    }
  }
  return lines.join('\n');
}

/** Client-side validation of the wizard's sections against the whole schema. */
export function issuesOf(w: Wizard): FieldIssue[] {
  const doc = (compact(w.doc) ?? {}) as Record<string, unknown>;
  return validateDoc(w.form, doc, w.sections);
}

/** The question an issue belongs to: the field whose path is the longest prefix of the issue's path. */
export function fieldForIssue(fields: Field[], path: string): Field | undefined {
  const normalised = path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
  let best: Field | undefined;
  for (const f of fields) {
    if (normalised === f.id || normalised.startsWith(`${f.id}.`)) {
      if (!best || f.id.length > best.id.length) best = f;
    }
  }
  return best;
}

/**
 * Asks again the questions that issues (client-side or from a 422) point at,
 * showing each issue's words. Issues no question owns are shown and returned.
 */
export async function fixIssues(w: Wizard, issues: FieldIssue[]): Promise<FieldIssue[]> {
  const unowned: FieldIssue[] = [];
  const done = new Set<string>();
  for (const i of issues) {
    const field = fieldForIssue(allFields(w.form, w.doc, w.sections), i.path);
    if (!field || done.has(field.id)) {
      if (!field) unowned.push(i);
      continue;
    }
    done.add(field.id);
    await askField(w, field, i.text);
  }
  if (done.size) await askAll(w);
  for (const i of unowned) w.prompter.note(w.colors.red(`✗ ${sanitizeTerminal(`${i.path}: ${i.message}`)}`));
  return unowned;
}

export type ReviewResult = 'submit' | 'quit';

/**
 * Review until the person submits (with no client-side issues left) or quits.
 * Issues found by validation are asked again first.
 */
export async function review(w: Wizard, submitLabel = 'Submit'): Promise<ReviewResult> {
  for (;;) {
    await askAll(w);
    const issues = issuesOf(w);
    w.prompter.note(reviewText(w));
    if (issues.length) {
      w.prompter.note(w.colors.red(`\n${issues.length} answer${issues.length === 1 ? ' needs' : 's need'} attention:`));
      for (const i of issues) w.prompter.note(w.colors.red(`  ✗ ${sanitizeTerminal(i.text)}`));
    }
    const choices = [
      ...(issues.length ? [{ name: 'Fix these answers', value: 'fix' as const }] : [{ name: submitLabel, value: 'submit' as const }]),
      { name: 'Change an answer', value: 'change' as const },
      { name: 'Save the draft and quit', value: 'quit' as const },
    ];
    const action = await w.prompter.select<'fix' | 'submit' | 'change' | 'quit'>({ message: 'What next?', choices });
    if (action === 'submit') return 'submit';
    if (action === 'quit') return 'quit';
    if (action === 'fix') {
      await fixIssues(w, issues);
      continue;
    }
    const fields = allFields(w.form, w.doc, w.sections).filter((f) => !f.fixed);
    const pick = await w.prompter.select<number>({
      message: 'Which answer?',
      choices: fields.map((f, i) => ({ name: sanitizeTerminal(`${f.id.split('.')[0]} › ${f.title}: ${displayValue(f, getAt(w.doc, f.path))}`), value: i })),
    });
    const field = fields[pick];
    if (field) await askField(w, field);
  }
}

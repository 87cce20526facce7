// The interactive wizard: section by section, one question at a time,
// conditions re-evaluated after every answer (hidden answers dropped), a
// draft saved after every answer, then a review where any answer can be
// changed before submitting (review.ts). Server field errors come back as
// issues and are asked again at their questions.
import type { Colors } from '../output/colors.js';
import { sanitizeCell, sanitizeTerminal } from '../output/sanitize.js';
import { pruneHidden } from './answers.js';
import { getAt, setAt } from './paths.js';
import { allFields, itemFields, sectionFields, type Field } from './questions.js';
import { isObj } from './schema.js';
import { GoBack, type Prompter } from './prompter.js';
import type { FormSchema } from './schema.js';
import { validateValue } from './validate.js';
import { toValue } from './values.js';

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
  /** Steps answered, newest last (kept in the draft, so a resumed wizard goes back past where it stopped): Esc goes back through them. */
  history?: string[];
  /** The section and nested object whose titles were shown last. */
  shown?: { section?: string; object?: string };
}

const MASK = '********';
export const BACK_HINT = 'Esc goes back one question; Ctrl-C keeps the answers as a draft.';

type Step = { id: string; section: string; field?: Field };

/** The next thing to ask: an optional section's "fill it in?", or the first question not asked yet. */
function nextStep(w: Wizard): Step | undefined {
  for (const key of w.sections) {
    const section = w.form.sections.find((s) => s.key === key);
    if (!section) continue;
    const gate = `section:${key}`;
    if (!section.required && !w.asked.has(gate) && w.doc[key] === undefined && pending(w, key)) return { id: gate, section: key };
    if (w.asked.has(`skip:${key}`)) continue;
    const next = pending(w, key);
    if (next) return { id: next.id, section: key, field: next };
  }
  return undefined;
}

/**
 * Asks every question not yet asked, section by section, until nothing
 * visible is left unasked. Esc at a question goes back to the one before.
 */
export async function askAll(w: Wizard): Promise<void> {
  w.history ??= [];
  let back: string | undefined;
  for (let guard = 0; guard < 5000; guard++) {
    prune(w);
    // After Esc, the step gone back to comes first, even when an earlier question is still open (a secret asked again on resume).
    const step = (back !== undefined ? stepFor(w, back) : undefined) ?? nextStep(w);
    back = undefined;
    if (!step) break;
    try {
      if (step.field) await askField(w, step.field);
      else await askSection(w, step.section);
      if (!step.field?.fixed) w.history.push(step.id);
    } catch (err) {
      if (!(err instanceof GoBack)) throw err;
      back = stepBack(w);
    }
  }
  prune(w);
  w.save();
}

/** The step with this id, if it is still to be asked. */
function stepFor(w: Wizard, id: string): Step | undefined {
  if (w.asked.has(id)) return undefined;
  if (id.startsWith('section:')) return { id, section: id.slice('section:'.length) };
  const field = allFields(w.form, w.doc, w.sections).find((f) => f.id === id);
  return field ? { id, section: field.section, field } : undefined;
}

function announceSection(w: Wizard, key: string): void {
  if (w.shown?.section === key) return;
  w.shown = { section: key };
  const section = w.form.sections.find((s) => s.key === key);
  if (!section) return;
  w.prompter.note(`\n${w.colors.bold(sanitizeTerminal(section.title))}${section.description ? `\n${w.colors.dim(sanitizeTerminal(section.description))}` : ''}`);
}

/** An optional section: ask whether to fill it at all. */
async function askSection(w: Wizard, key: string): Promise<void> {
  const section = w.form.sections.find((s) => s.key === key)!;
  announceSection(w, key);
  const fill = await w.prompter.confirm({ message: `Fill in ${sanitizeTerminal(section.title)}? (optional)`, default: !w.asked.has(`skip:${key}`), back: true });
  w.asked.add(`section:${key}`);
  if (fill) w.asked.delete(`skip:${key}`);
  else w.asked.add(`skip:${key}`);
  w.save();
}

/** Un-asks the newest step still on screen, so it is asked again next; returns its id. */
function stepBack(w: Wizard): string | undefined {
  const history = w.history ?? [];
  while (history.length) {
    const id = history.pop()!;
    if (id.startsWith('section:')) {
      const key = id.slice('section:'.length);
      if (w.doc[key] !== undefined) continue; // already has answers: go further back
      w.asked.delete(id);
      w.asked.delete(`skip:${key}`);
      w.save();
      return id;
    }
    if (!allFields(w.form, w.doc, w.sections).some((f) => f.id === id && !f.fixed)) continue; // hidden since
    w.asked.delete(id);
    w.save();
    return id;
  }
  w.prompter.note(w.colors.dim('  This is the first question: there is nothing to go back to.'));
  return undefined;
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

/** Shown value of an answer: choice titles, Yes/No, money with its currency, secrets masked. */
export function displayValue(f: Field, value: unknown): string {
  if (f.kind === 'object') return isObj(value) ? 'filled in' : 'left empty';
  if (value === undefined || value === null || value === '') return '-';
  if (f.kind === 'secret') return MASK;
  if (f.kind === 'boolean') return value ? 'Yes' : 'No';
  if (f.kind === 'select') return f.choices?.find((c) => c.value === value)?.title ?? String(value);
  if (f.kind === 'multiselect' && Array.isArray(value)) return value.map((v) => f.choices?.find((c) => c.value === v)?.title ?? String(v)).join(', ') || '-';
  if (f.kind === 'group' && Array.isArray(value)) return `${value.length} entr${value.length === 1 ? 'y' : 'ies'}`;
  if (typeof value === 'string' && /[\r\n]/.test(value)) return multiLine(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return f.currency ? `${String(value)} ${f.currency}` : String(value);
}

/** Text of several lines on one line of the review or change list: `first ↵ second (2 lines)`, cut at 60 characters. */
function multiLine(text: string): string {
  const lines = text.split(/\r\n|\r|\n/).length;
  const flat = sanitizeCell(text);
  return `${flat.length > 60 ? `${flat.slice(0, 59)}…` : flat} (${lines} lines)`;
}

/** `Section › Object › Entry #2 › Field`: where an answer sits, by titles, never raw keys. */
export function labelOf(w: Pick<Wizard, 'form'>, f: Field): string {
  const section = w.form.sections.find((s) => s.key === f.section);
  const parts = [section?.title ?? f.section, ...f.trail];
  if (f.path.length > 1 || !section) parts.push(f.title);
  return parts.join(' › ');
}

/** Checks one answer: required, then the field's own schema. Returns true or the words to show. */
export function checkValue(w: Pick<Wizard, 'form'>, f: Field, value: unknown): true | string {
  if (value === undefined) return f.required ? `${f.title} is required` : true;
  const issues = validateValue(w.form, f.id, f.schema, value).filter((i) => !/ is required$/.test(i.text) || i.path === f.id);
  return issues.length ? `${f.title} ${issues[0].message}` : true;
}

/** Text -> the value the field's schema wants (the one converter, shared with --set); undefined for empty. */
export function parseText(w: Pick<Wizard, 'form'>, f: Field, text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const c = toValue(w.form, f.schema, text);
  if (c.ok && c.value === undefined && f.required && f.kind === 'list' && !(Number(f.schema.minItems) > 0)) return { ok: true, value: [] }; // Enter: a required list may be empty
  return c.ok ? c : { ok: false, message: `${f.title} ${c.message}` };
}

export function title(f: Field): string {
  const hint = f.kind === 'date' ? 'YYYY-MM-DD' : f.kind === 'list' ? (f.required && !(Number(f.schema.minItems) > 0) ? 'comma-separated; Enter for none' : 'comma-separated') : f.kind === 'json' ? 'JSON' : f.currency;
  return sanitizeTerminal(`${f.title}${f.required ? '' : ' (optional)'}${hint ? ` [${hint}]` : ''}`);
}

function helpOf(f: Field, extra?: string): string | undefined {
  return [f.description, extra].filter(Boolean).map((t) => sanitizeTerminal(t!)).join(' ') || undefined;
}

export function shown(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Shows the title and description of the nested object a question belongs to, when its questions start. */
function announceObject(w: Wizard, f: Field): void {
  const o = f.kind === 'object' ? { id: f.id, title: f.title, description: f.description } : f.parent;
  announceSection(w, f.section);
  if (!o || w.shown?.object === o.id) return;
  w.shown = { section: f.section, object: o.id };
  if (/\.\d+$/.test(o.id)) return; // a list entry: askGroup shows "Title #n"
  const depth = '  '.repeat(f.trail.length);
  w.prompter.note(`${depth}${w.colors.bold(sanitizeTerminal(o.title))}${o.description ? `\n${depth}${w.colors.dim(sanitizeTerminal(o.description))}` : ''}`);
}

/**
 * Asks one question (showing `error` first, when it is asked again) and
 * stores the answer. Esc rejects with GoBack and changes nothing.
 * Optional questions start empty (a schema default is only suggested), so
 * Enter leaves them out of the request.
 */
export async function askField(w: Wizard, f: Field, error?: string): Promise<void> {
  if (f.fixed) {
    setAt(w.doc, f.path, f.fixed.value);
    w.asked.add(f.id);
    w.save();
    return;
  }
  announceObject(w, f);
  if (error) w.prompter.note(w.colors.red(`✗ ${sanitizeTerminal(error)}`));
  const current = getAt(w.doc, f.path);
  const initial = current ?? (f.required ? f.default : undefined);
  const suggest = !f.required && current === undefined && f.default !== undefined && f.kind !== 'secret' ? `Suggested: ${displayValue(f, f.default)}; left empty, it is not sent.` : undefined;
  const p = w.prompter;
  let value: unknown;
  switch (f.kind) {
    case 'object': {
      const fill = await p.confirm({ message: `Fill in ${sanitizeTerminal(f.title)}? (optional)`, default: isObj(current) || !w.asked.has(f.id), back: true });
      value = fill ? (isObj(current) ? current : {}) : undefined;
      break;
    }
    case 'select': {
      const choices = (f.choices ?? []).map((c, i) => ({ name: sanitizeTerminal(c.title), value: i, description: c.description ? sanitizeTerminal(c.description) : undefined }));
      if (!f.required) choices.unshift({ name: '(leave empty)', value: -1, description: undefined });
      const def = (f.choices ?? []).findIndex((c) => c.value === initial);
      const i = await p.select<number>({ message: title(f), help: helpOf(f, suggest), choices, default: def >= 0 ? def : f.required ? undefined : -1, back: true });
      value = i < 0 ? undefined : f.choices?.[i]?.value;
      break;
    }
    case 'multiselect': {
      const chosen = Array.isArray(initial) ? initial : [];
      const idx = await p.checkbox<number>({
        message: title(f),
        help: helpOf(f, suggest),
        choices: (f.choices ?? []).map((c, i) => ({ name: sanitizeTerminal(c.title), value: i, checked: chosen.includes(c.value) })),
        validate: (list) => {
          const v = list.map((i) => f.choices?.[i]?.value);
          return checkValue(w, f, v.length === 0 && !f.required ? undefined : v);
        },
        back: true,
      });
      const v = idx.map((i) => f.choices?.[i]?.value);
      value = v.length === 0 && !f.required ? undefined : v;
      break;
    }
    case 'boolean':
      if (f.required) {
        value = await p.confirm({ message: title(f), help: helpOf(f), default: typeof initial === 'boolean' ? initial : false, back: true });
      } else {
        // An optional yes/no can stay unanswered: a confirm would always store true or false.
        const i = await p.select<number>({
          message: title(f),
          help: helpOf(f, suggest),
          choices: [
            { name: '(leave empty)', value: 0 },
            { name: 'Yes', value: 1 },
            { name: 'No', value: 2 },
          ],
          default: current === true ? 1 : current === false ? 2 : 0,
          back: true,
        });
        value = i === 1 ? true : i === 2 ? false : undefined;
      }
      break;
    case 'secret': {
      const keep = current !== undefined;
      const text = await p.secret({
        message: title(f),
        help: helpOf(f, keep ? 'Press Enter to keep the current value.' : undefined),
        validate: (t) => {
          if (t === '' && keep) return true;
          const parsed = parseText(w, f, t);
          return parsed.ok ? checkValue(w, f, parsed.value) : parsed.message;
        },
        back: true,
      });
      value = text === '' && keep ? current : (parseText(w, f, text) as { value: unknown }).value;
      break;
    }
    case 'group':
      w.asked.delete(`skip:${f.section}`);
      await askGroup(w, f);
      w.asked.add(f.id);
      w.save();
      return;
    default: {
      const validate = (t: string) => {
        const parsed = parseText(w, f, t);
        return parsed.ok ? checkValue(w, f, parsed.value) : parsed.message;
      };
      const o = { message: title(f), help: helpOf(f, suggest), default: shown(initial), validate, back: true };
      const text = f.kind === 'textarea' ? await p.multiline(o) : await p.input(o);
      const parsed = parseText(w, f, text);
      value = parsed.ok ? parsed.value : undefined;
    }
  }
  w.asked.delete(`skip:${f.section}`);
  setAt(w.doc, f.path, value);
  w.asked.add(f.id);
  w.save();
}

/** One line per entry of a list: its answers, secrets masked. */
function entrySummary(w: Wizard, f: Field, index: number): string {
  const parts = itemFields(w.form, f, index, w.doc)
    .filter((x) => x.kind !== 'object' && getAt(w.doc, x.path) !== undefined)
    .map((x) => displayValue(x, getAt(w.doc, x.path)));
  const text = parts.join(', ');
  return `#${index + 1} ${text.length > 70 ? `${text.slice(0, 69)}…` : text || '(empty)'}`;
}

/** Removes entry `index` of a list, renumbering what was asked in the entries after it. */
export function removeEntry(w: Pick<Wizard, 'doc' | 'asked'>, f: Field, index: number): void {
  setAt(w.doc, [...f.path, String(index)], undefined);
  const prefix = `${f.id}.`;
  const next = new Set<string>();
  for (const a of w.asked) {
    const m = a.startsWith(prefix) ? /^(\d+)(.*)$/.exec(a.slice(prefix.length)) : null;
    if (!m) next.add(a);
    else if (Number(m[1]) < index) next.add(a);
    else if (Number(m[1]) > index) next.add(`${prefix}${Number(m[1]) - 1}${m[2]}`);
  }
  w.asked.clear();
  for (const a of next) w.asked.add(a);
}

/**
 * A list of objects: entries left half-done are finished (a resumed draft),
 * then entries are added or removed until the person is done. Esc at a new
 * entry's first question drops that entry; Esc at "add another?" goes back
 * into the last entry.
 */
async function askGroup(w: Wizard, f: Field): Promise<void> {
  const noun = sanitizeTerminal(f.title);
  const list = () => (Array.isArray(getAt(w.doc, f.path)) ? (getAt(w.doc, f.path) as unknown[]) : []);
  // Changed from the review: a full list still offers removing an entry.
  const revisiting = w.asked.has(f.id);
  announceSection(w, f.section);
  if (f.description) w.prompter.note(w.colors.dim(`  ${sanitizeTerminal(f.description)}`));
  for (let i = 0; i < list().length; i++) await askItem(w, f, i);
  for (let guard = 0; guard < 1000; guard++) {
    const n = list().length;
    const mustAdd = n < (f.minItems ?? 0);
    const full = f.maxItems !== undefined && n >= f.maxItems;
    if (full && !revisiting) break;
    let action: 'add' | 'remove' | 'done';
    try {
      if (mustAdd) action = 'add';
      else if (n === 0) action = (await w.prompter.confirm({ message: `${sanitizeTerminal(f.addText ?? `Add an entry to ${noun}`)}?`, default: false, back: true })) ? 'add' : 'done';
      else {
        action = await w.prompter.select<'add' | 'remove' | 'done'>({
          message: full ? `${noun}: ${n} entries, the most allowed.` : `Add another entry to ${noun}? (${n} so far)`,
          choices: [{ name: full ? 'Continue' : 'No, continue', value: 'done' as const }, ...(full ? [] : [{ name: 'Yes, add another', value: 'add' as const }]), { name: 'Remove an entry…', value: 'remove' as const }],
          default: 'done',
          back: true,
        });
      }
    } catch (err) {
      if (!(err instanceof GoBack) || n === 0) throw err;
      // Back into the last entry: its last question is asked again.
      const last = itemFields(w.form, f, n - 1, w.doc).filter((x) => w.asked.has(x.id) && !x.fixed).pop();
      if (last) w.asked.delete(last.id);
      try {
        await askItem(w, f, n - 1);
      } catch (inner) {
        if (!(inner instanceof GoBack)) throw inner;
      }
      continue;
    }
    if (action === 'done') break;
    if (action === 'remove') {
      const pick = await pickEntry(w, f);
      if (pick !== undefined) {
        removeEntry(w, f, pick);
        w.save();
        w.prompter.note(w.colors.dim(`  Removed ${noun} #${pick + 1}${list().length > pick ? `; the entries after it moved up` : ''}.`));
      }
      continue;
    }
    setAt(w.doc, [...f.path, String(n)], {});
    w.prompter.note(w.colors.dim(`  ${noun} #${n + 1}`));
    try {
      await askItem(w, f, n);
    } catch (err) {
      if (!(err instanceof GoBack)) throw err;
      removeEntry(w, f, n);
      w.save();
      if (mustAdd && n === 0) throw err;
    }
  }
  if (list().length === 0) setAt(w.doc, f.path, f.required ? [] : undefined);
}

async function pickEntry(w: Wizard, f: Field): Promise<number | undefined> {
  const n = Array.isArray(getAt(w.doc, f.path)) ? (getAt(w.doc, f.path) as unknown[]).length : 0;
  const choices = Array.from({ length: n }, (_, i) => ({ name: sanitizeTerminal(entrySummary(w, f, i)), value: i }));
  try {
    const i = await w.prompter.select<number>({ message: `Remove which entry of ${sanitizeTerminal(f.title)}?`, choices: [...choices, { name: 'None, keep them all', value: -1 }], back: true });
    return i < 0 ? undefined : i;
  } catch (err) {
    if (err instanceof GoBack) return undefined;
    throw err;
  }
}

/** Asks the questions of one entry; Esc steps back within the entry, and out of it at its first question. */
async function askItem(w: Wizard, f: Field, index: number): Promise<void> {
  const done = itemFields(w.form, f, index, w.doc).filter((x) => w.asked.has(x.id) && !x.fixed).map((x) => x.id);
  for (let guard = 0; guard < 500; guard++) {
    prune(w);
    const next = itemFields(w.form, f, index, w.doc).find((x) => !w.asked.has(x.id));
    if (!next) return;
    try {
      await askField(w, next);
      if (!next.fixed) done.push(next.id);
    } catch (err) {
      const prev = err instanceof GoBack ? done.pop() : undefined;
      if (prev === undefined) throw err;
      w.asked.delete(prev);
    }
  }
}

// Asking one question: the prompt its kind needs, the text converted and
// checked against the field's schema, the answer stored and the draft saved.
import { sanitizeTerminal } from '../text/sanitize.js';
import { announceObject, displayValue, helpOf, shown, title } from './display.js';
import { askGroup } from './groups.js';
import { getAt, setAt } from './paths.js';
import type { Field } from './questions.js';
import { isObj } from './schema.js';
import { validateValue } from './validate.js';
import { toValue } from './values.js';
import type { Wizard } from './wizard.js';

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

/** What a question starts from: the answer so far, the value shown first, and the suggestion of an optional field's default. */
interface Start {
  current: unknown;
  initial: unknown;
  suggest: string | undefined;
}

async function askObject(w: Wizard, f: Field, { current }: Start): Promise<unknown> {
  const fill = await w.prompter.confirm({ message: `Fill in ${sanitizeTerminal(f.title)}? (optional)`, default: isObj(current) || !w.asked.has(f.id), back: true });
  return fill ? (isObj(current) ? current : {}) : undefined;
}

async function askSelect(w: Wizard, f: Field, { initial, suggest }: Start): Promise<unknown> {
  const choices = (f.choices ?? []).map((c, i) => ({ name: sanitizeTerminal(c.title), value: i, description: c.description ? sanitizeTerminal(c.description) : undefined }));
  if (!f.required) choices.unshift({ name: '(leave empty)', value: -1, description: undefined });
  const def = (f.choices ?? []).findIndex((c) => c.value === initial);
  const i = await w.prompter.select<number>({ message: title(f), help: helpOf(f, suggest), choices, default: def >= 0 ? def : f.required ? undefined : -1, back: true });
  return i < 0 ? undefined : f.choices?.[i]?.value;
}

async function askMultiselect(w: Wizard, f: Field, { initial, suggest }: Start): Promise<unknown> {
  const chosen = Array.isArray(initial) ? initial : [];
  const idx = await w.prompter.checkbox<number>({
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
  return v.length === 0 && !f.required ? undefined : v;
}

async function askBoolean(w: Wizard, f: Field, { current, initial, suggest }: Start): Promise<unknown> {
  if (f.required) return w.prompter.confirm({ message: title(f), help: helpOf(f), default: typeof initial === 'boolean' ? initial : false, back: true });
  // An optional yes/no can stay unanswered: a confirm would always store true or false.
  const i = await w.prompter.select<number>({
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
  return i === 1 ? true : i === 2 ? false : undefined;
}

async function askSecret(w: Wizard, f: Field, { current }: Start): Promise<unknown> {
  const keep = current !== undefined;
  const text = await w.prompter.secret({
    message: title(f),
    help: helpOf(f, keep ? 'Press Enter to keep the current value.' : undefined),
    validate: (t) => {
      if (t === '' && keep) return true;
      const parsed = parseText(w, f, t);
      return parsed.ok ? checkValue(w, f, parsed.value) : parsed.message;
    },
    back: true,
  });
  return text === '' && keep ? current : (parseText(w, f, text) as { value: unknown }).value;
}

/** Text, a number, a date…: typed on one line (or several, for a textarea), converted by the field's schema. */
async function askText(w: Wizard, f: Field, { initial, suggest }: Start): Promise<unknown> {
  const validate = (t: string) => {
    const parsed = parseText(w, f, t);
    return parsed.ok ? checkValue(w, f, parsed.value) : parsed.message;
  };
  const o = { message: title(f), help: helpOf(f, suggest), default: shown(initial), validate, back: true };
  const text = f.kind === 'textarea' ? await w.prompter.multiline(o) : await w.prompter.input(o);
  const parsed = parseText(w, f, text);
  return parsed.ok ? parsed.value : undefined;
}

/** The prompt of each kind of question (a group is asked as its own questions: askField). */
const ASKERS: Partial<Record<Field['kind'], (w: Wizard, f: Field, start: Start) => Promise<unknown>>> = {
  object: askObject,
  select: askSelect,
  multiselect: askMultiselect,
  boolean: askBoolean,
  secret: askSecret,
};

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
  if (f.kind === 'group') {
    w.asked.delete(`skip:${f.section}`);
    await askGroup(w, f, askField);
    w.asked.add(f.id);
    w.save();
    return;
  }
  const current = getAt(w.doc, f.path);
  const initial = current ?? (f.required ? f.default : undefined);
  const suggest = !f.required && current === undefined && f.default !== undefined && f.kind !== 'secret' ? `Suggested: ${displayValue(f, f.default)}; left empty, it is not sent.` : undefined;
  const value = await (ASKERS[f.kind] ?? askText)(w, f, { current, initial, suggest });
  w.asked.delete(`skip:${f.section}`);
  setAt(w.doc, f.path, value);
  w.asked.add(f.id);
  w.save();
}

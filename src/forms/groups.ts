// Lists of objects in the wizard: entries finished, added and removed
// (renumbering what was asked), Esc stepping back within an entry.
import { sanitizeTerminal } from '../text/sanitize.js';
import { pruneAnswers } from './answers.js';
import { announceSection, displayValue } from './display.js';
import { getAt, setAt } from './paths.js';
import { itemFields, type Field } from './questions.js';
import { GoBack } from './prompter.js';
import type { Wizard } from './wizard.js';

/** Asks one question of an entry (ask.ts's askField, passed in so the two modules do not import each other). */
export type AskField = (w: Wizard, f: Field) => Promise<void>;

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
export async function askGroup(w: Wizard, f: Field, askField: AskField): Promise<void> {
  const noun = sanitizeTerminal(f.title);
  const list = () => (Array.isArray(getAt(w.doc, f.path)) ? (getAt(w.doc, f.path) as unknown[]) : []);
  // Changed from the review: a full list still offers removing an entry.
  const revisiting = w.asked.has(f.id);
  announceSection(w, f.section);
  if (f.description) w.prompter.note(w.colors.dim(`  ${sanitizeTerminal(f.description)}`));
  for (let i = 0; i < list().length; i++) await askItem(w, f, i, askField);
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
        await askItem(w, f, n - 1, askField);
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
      await askItem(w, f, n, askField);
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
async function askItem(w: Wizard, f: Field, index: number, askField: AskField): Promise<void> {
  const done = itemFields(w.form, f, index, w.doc).filter((x) => w.asked.has(x.id) && !x.fixed).map((x) => x.id);
  for (let guard = 0; guard < 500; guard++) {
    pruneAnswers(w);
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

// The interactive wizard's flow: section by section, one question at a time
// (ask.ts), conditions re-evaluated after every answer (hidden answers
// dropped), a draft saved after every answer, Esc going back one question
// through the history (kept in the draft), then a review where any answer can
// be changed before submitting (review.ts).
import type { Colors } from '../output/colors.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import { pruneAnswers } from './answers.js';
import { askField } from './ask.js';
import { announceSection } from './display.js';
import { getAt } from './paths.js';
import { allFields, itemFields, sectionFields, type Field } from './questions.js';
import { GoBack, type Prompter } from './prompter.js';
import type { FormSchema } from './schema.js';

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

export const BACK_HINT = 'Esc goes back one question. Answers are saved as a draft after each one: after Ctrl-C, --resume continues.';

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
    pruneAnswers(w);
    // After Esc, the step gone back to comes first, even when an earlier question is still open (a secret asked again on resume).
    const step = (back !== undefined ? stepFor(w, back) : undefined) ?? nextStep(w);
    back = undefined;
    if (!step) break;
    // On the history before it is asked, so the draft saved with its answer has it too; off again if it is not answered.
    const tracked = !step.field?.fixed;
    if (tracked) w.history.push(step.id);
    try {
      if (step.field) await askField(w, step.field);
      else await askSection(w, step.section);
    } catch (err) {
      if (tracked) w.history.pop();
      if (!(err instanceof GoBack)) throw err;
      back = stepBack(w);
    }
  }
  pruneAnswers(w);
  w.save();
}

/** The step with this id, if it is still to be asked. */
function stepFor(w: Wizard, id: string): Step | undefined {
  if (w.asked.has(id)) return undefined;
  if (id.startsWith('section:')) return { id, section: id.slice('section:'.length) };
  const field = allFields(w.form, w.doc, w.sections).find((f) => f.id === id);
  return field ? { id, section: field.section, field } : undefined;
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

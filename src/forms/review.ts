// The review of the wizard's answers: every answer under its section and
// object titles, the filterable change list, fixing refused answers.
import { sanitizeTerminal } from '../text/sanitize.js';
import { requestDoc } from './answers.js';
import { getAt, setAt } from './paths.js';
import { allFields, type Field } from './questions.js';
import { isObj } from './schema.js';
import { GoBack } from './prompter.js';
import { validateDoc, type FieldIssue } from './validate.js';
import { askField } from './ask.js';
import { displayValue, labelOf, matchText } from './display.js';
import { askAll, BACK_HINT, type Wizard } from './wizard.js';

/** The review screen: every answer of the wizard's sections under its section and object titles, entries numbered, secrets masked. */
export function reviewText(w: Wizard): string {
  const lines: string[] = [w.colors.bold('\nReview your answers')];
  for (const key of w.sections) {
    const section = w.form.sections.find((s) => s.key === key);
    if (!section) continue;
    const fields = allFields(w.form, w.doc, [key]).filter((f) => (!f.fixed || getAt(w.doc, f.path) !== undefined) && !(f.kind === 'object' && isObj(getAt(w.doc, f.path))));
    if (fields.length === 0) continue;
    lines.push(w.colors.bold(sanitizeTerminal(section.title)));
    let trail: string[] = [];
    for (const f of fields) {
      // A heading for each object or entry the field is in, when it changes.
      f.trail.forEach((t, i) => {
        if (trail[i] !== t || trail.length > f.trail.length) lines.push(`${'  '.repeat(i + 1)}${sanitizeTerminal(t)}`);
      });
      trail = f.trail;
      const name = f.path.length > 1 ? f.title : section.title;
      lines.push(`${'  '.repeat(f.trail.length + 1)}${sanitizeTerminal(name)}: ${sanitizeTerminal(displayValue(f, getAt(w.doc, f.path)))}`);
    }
  }
  return lines.join('\n');
}

/** Client-side validation of the wizard's sections against the whole schema. */
export function issuesOf(w: Wizard): FieldIssue[] {
  return validateDoc(w.form, requestDoc(w.form, w.doc, w.sections), w.sections);
}

/**
 * The question an issue belongs to: the field whose path is the longest
 * prefix of the issue's path; for an issue about a whole nested object that
 * is asked field by field (`minProperties`, an `anyOf` of its fields), its
 * first question, so "Fix these answers" always has something to ask.
 */
export function fieldForIssue(fields: Field[], path: string): Field | undefined {
  const normalised = path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
  let best: Field | undefined;
  for (const f of fields) {
    if (normalised === f.id || normalised.startsWith(`${f.id}.`)) {
      if (!best || f.id.length > best.id.length) best = f;
    }
  }
  return best ?? fields.find((f) => f.id.startsWith(`${normalised}.`) && !f.fixed);
}

/**
 * Asks again the questions that issues (client-side or from a 422) point at,
 * showing each issue's words. Issues no question owns are shown and returned.
 * Esc at one of them leaves that answer as it is.
 */
export async function fixIssues(w: Wizard, issues: FieldIssue[]): Promise<FieldIssue[]> {
  const unowned: FieldIssue[] = [];
  const done = new Set<string>();
  for (const i of issues) {
    const field = fieldForIssue(allFields(w.form, w.doc, w.sections), i.path);
    if (!field || done.has(field.id)) {
      if (!field && !dropStray(w, i)) unowned.push(i);
      continue;
    }
    done.add(field.id);
    try {
      await askField(w, field, i.text);
    } catch (err) {
      if (!(err instanceof GoBack)) throw err;
    }
  }
  if (done.size || unowned.length < issues.length) await askAll(w);
  for (const i of unowned) w.prompter.note(w.colors.red(`✗ ${sanitizeTerminal(`${i.path}: ${i.message}`)}`));
  return unowned;
}

/**
 * An answer no question owns that the form refuses (an old draft or a values
 * file naming a field the form no longer has): dropped with a note, since
 * no question could ever fix it and "Fix these answers" would loop.
 */
function dropStray(w: Wizard, i: FieldIssue): boolean {
  if (!/ is not (a field|a section) of this form$| is not allowed here/.test(i.text)) return false;
  const path = i.path.replace(/\[(\d+)\]/g, '.$1').split('.');
  if (getAt(w.doc, path) === undefined) return false;
  setAt(w.doc, path, undefined);
  w.save();
  w.prompter.note(w.colors.dim(`  Removed ${sanitizeTerminal(i.path)}: it ${sanitizeTerminal(i.message)}.`));
  return true;
}

export type ReviewResult = 'submit' | 'quit';

/**
 * Review until the person submits (with no client-side issues left) or quits.
 * Issues found by validation are asked again first.
 */
export async function review(w: Wizard, submitLabel = 'Submit'): Promise<ReviewResult> {
  w.prompter.note(w.colors.dim(BACK_HINT));
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
    try {
      const pick = await w.prompter.search<number>({
        message: 'Which answer? (type to filter)',
        help: 'Esc returns to the review.',
        // Shown made safe; typing filters on the real answer too, so an answer typed exactly is found.
        choices: fields.map((f, i) => ({ name: sanitizeTerminal(`${labelOf(w, f)}: ${displayValue(f, getAt(w.doc, f.path))}`), value: i, match: matchText(w, f, getAt(w.doc, f.path)) })),
        back: true,
      });
      const field = fields[pick];
      if (field) await askField(w, field);
    } catch (err) {
      if (!(err instanceof GoBack)) throw err;
    }
  }
}

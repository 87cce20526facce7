// A Prompter that answers from a script, for prompt-level tests. Each step
// matches a question by its message; a refused answer (validate) is recorded
// and the next step for the same question is used, like a person retyping.
import { filterChoices, GoBack, type Prompter, type PromptChoice } from '../../../src/forms/prompter.js';

/** An answer that presses Esc: the prompt rejects with GoBack (only where the prompt allows it). */
export const BACK = Symbol('Esc');

/** A search answer: type `filter`, then pick `pick` among what is left. */
export interface Filtered {
  filter: string;
  pick: string;
}

export type Step = [RegExp, unknown];

export interface Scripted extends Prompter {
  asked: string[];
  refused: { message: string; answer: unknown; error: string }[];
  notes: string[];
  /** For each search prompt: the choice names left after the filter. */
  filtered: string[][];
  left(): Step[];
}

export function scripted(steps: Step[], opts: { onAsk?: (message: string) => void } = {}): Scripted {
  const queue = [...steps];
  const asked: string[] = [];
  const refused: Scripted['refused'] = [];
  const notes: string[] = [];
  const choicesSeen: string[][] = [];
  const take = (message: string): unknown => {
    opts.onAsk?.(message);
    const i = queue.findIndex(([re]) => re.test(message));
    if (i < 0) throw new Error(`unexpected question: ${message}`);
    return queue.splice(i, 1)[0][1];
  };
  const answer = <T>(message: string, validate: ((v: T) => true | string) | undefined, convert: (raw: unknown) => T, back?: boolean): T => {
    asked.push(message);
    for (;;) {
      const raw = take(message);
      if (raw instanceof Error) throw raw;
      if (raw === BACK) {
        if (!back) throw new Error(`Esc pressed at "${message}", which does not allow going back`);
        throw new GoBack();
      }
      const v = convert(raw);
      const ok = validate ? validate(v) : true;
      if (ok === true) return v;
      refused.push({ message, answer: raw, error: ok });
    }
  };
  const pick = <T>(choices: PromptChoice<T>[], name: unknown): T => {
    const c = choices.find((x) => x.name === name);
    if (!c) throw new Error(`no choice "${String(name)}" in ${choices.map((x) => x.name).join(' | ')}`);
    return c.value;
  };
  return {
    asked,
    refused,
    notes,
    left: () => queue,
    input: async (o) => answer(o.message, o.validate, (raw) => (raw === undefined ? (o.default ?? '') : String(raw)), o.back),
    multiline: async (o) => answer(o.message, o.validate, (raw) => (raw === undefined ? (o.default ?? '') : Array.isArray(raw) ? raw.join('\n') : String(raw)), o.back),
    secret: async (o) => answer(o.message, o.validate, (raw) => String(raw ?? ''), o.back),
    select: async (o) => answer(o.message, undefined, (raw) => (raw === undefined ? (o.default ?? o.choices[0].value) : pick(o.choices, typeof raw === 'boolean' ? (raw ? 'Yes' : 'No') : raw)), o.back),
    search: async (o) =>
      answer(o.message, undefined, (raw) => {
        const { filter, pick: name } = typeof raw === 'string' ? { filter: '', pick: raw } : (raw as Filtered);
        const left = filterChoices(o.choices, filter);
        choicesSeen.push(left.map((c) => c.name));
        return pick(left, name);
      }, o.back),
    checkbox: async (o) => answer(o.message, o.validate, (raw) => (raw as string[]).map((n) => pick(o.choices, n)), o.back),
    confirm: async (o) => answer(o.message, undefined, (raw) => (raw === undefined ? (o.default ?? false) : Boolean(raw)), o.back),
    filtered: choicesSeen,
    note: (text) => {
      notes.push(text);
    },
  };
}

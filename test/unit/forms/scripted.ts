// A Prompter that answers from a script, for prompt-level tests. Each step
// matches a question by its message; a refused answer (validate) is recorded
// and the next step for the same question is used, like a person retyping.
import type { Prompter, PromptChoice } from '../../../src/forms/prompter.js';

export type Step = [RegExp, unknown];

export interface Scripted extends Prompter {
  asked: string[];
  refused: { message: string; answer: unknown; error: string }[];
  notes: string[];
  left(): Step[];
}

export function scripted(steps: Step[], opts: { onAsk?: (message: string) => void } = {}): Scripted {
  const queue = [...steps];
  const asked: string[] = [];
  const refused: Scripted['refused'] = [];
  const notes: string[] = [];
  const take = (message: string): unknown => {
    opts.onAsk?.(message);
    const i = queue.findIndex(([re]) => re.test(message));
    if (i < 0) throw new Error(`unexpected question: ${message}`);
    return queue.splice(i, 1)[0][1];
  };
  const answer = <T>(message: string, validate: ((v: T) => true | string) | undefined, convert: (raw: unknown) => T): T => {
    asked.push(message);
    for (;;) {
      const raw = take(message);
      if (raw instanceof Error) throw raw;
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
    input: async (o) => answer(o.message, o.validate, (raw) => (raw === undefined ? (o.default ?? '') : String(raw))),
    secret: async (o) => answer(o.message, o.validate, (raw) => String(raw ?? '')),
    select: async (o) => answer(o.message, undefined, (raw) => (raw === undefined ? (o.default as never) : pick(o.choices, raw))),
    checkbox: async (o) => answer(o.message, o.validate, (raw) => (raw as string[]).map((n) => pick(o.choices, n))),
    confirm: async (o) => answer(o.message, undefined, (raw) => (raw === undefined ? (o.default ?? false) : Boolean(raw))),
    note: (text) => {
      notes.push(text);
    },
  };
}

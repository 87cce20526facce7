// The only place that talks to @inquirer/prompts. Everything else asks
// through the Prompter interface, so tests can script the answers.
import type { Context } from '../context.js';
import { CancelledError, InterruptedError } from '../errors.js';
import { sanitizeTerminal } from '../output/sanitize.js';

export interface PromptChoice<T> {
  name: string;
  value: T;
  description?: string;
  checked?: boolean;
}

export interface Prompter {
  /** A line of text; `validate` returns true or the words to show. */
  input(o: { message: string; default?: string; help?: string; validate?: (v: string) => true | string }): Promise<string>;
  /** Masked input. */
  secret(o: { message: string; help?: string; validate?: (v: string) => true | string }): Promise<string>;
  select<T>(o: { message: string; help?: string; choices: PromptChoice<T>[]; default?: T }): Promise<T>;
  checkbox<T>(o: { message: string; help?: string; choices: PromptChoice<T>[]; validate?: (v: T[]) => true | string }): Promise<T[]>;
  confirm(o: { message: string; help?: string; default?: boolean }): Promise<boolean>;
  /** Text for the person at the terminal (stderr): help, review, errors. */
  note(text: string): void;
}

const CANCEL_NAMES = new Set(['ExitPromptError', 'AbortPromptError', 'CancelPromptError']);

/** Ctrl-C or Ctrl-D at a prompt (ExitPromptError), or an aborted signal (AbortPromptError) -> CancelledError ("Cancelled.", exit 130). */
export function mapPromptError(err: unknown): unknown {
  if (err instanceof Error && CANCEL_NAMES.has(err.name)) return new CancelledError();
  return err;
}

export function inquirerPrompter(ctx: Pick<Context, 'io' | 'signal' | 'errColors'>): Prompter {
  const context: { input: typeof ctx.io.stdin; output: typeof ctx.io.stderr; signal: AbortSignal; clearPromptOnDone: boolean } = { input: ctx.io.stdin, output: ctx.io.stderr, signal: ctx.signal, clearPromptOnDone: false };
  const lib = () => import('@inquirer/prompts');
  const help = (text?: string) => {
    if (text) ctx.io.stderr.write(`${ctx.errColors.dim(`  ${sanitizeTerminal(text)}`)}\n`);
  };
  const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (ctx.signal.aborted) throw new InterruptedError();
    // Ctrl-D cancels every prompt, a picker too (which would ignore the key): abort this prompt on it.
    const eof = new AbortController();
    const onKey = (_s: unknown, key?: { ctrl?: boolean; name?: string }) => {
      if (key?.ctrl && key.name === 'd') eof.abort();
    };
    ctx.io.stdin.on('keypress', onKey);
    context.signal = AbortSignal.any([ctx.signal, eof.signal]);
    try {
      return await fn();
    } catch (err) {
      throw mapPromptError(err);
    } finally {
      ctx.io.stdin.off('keypress', onKey);
      context.signal = ctx.signal;
    }
  };
  return {
    input: (o) =>
      guard(async () => {
        help(o.help);
        const { input } = await lib();
        return input({ message: o.message, default: o.default, validate: o.validate }, context);
      }),
    secret: (o) =>
      guard(async () => {
        help(o.help);
        const { password } = await lib();
        return password({ message: o.message, mask: '*', validate: o.validate }, context);
      }),
    select: <T>(o: { message: string; help?: string; choices: PromptChoice<T>[]; default?: T }) =>
      guard(async () => {
        help(o.help);
        const { select } = await lib();
        return select<T>({ message: o.message, choices: o.choices.map((c) => ({ name: c.name, value: c.value, description: c.description })), default: o.default, pageSize: 12 }, context);
      }),
    checkbox: <T>(o: { message: string; help?: string; choices: PromptChoice<T>[]; validate?: (v: T[]) => true | string }) =>
      guard(async () => {
        help(o.help);
        const { checkbox } = await lib();
        const validate = o.validate;
        return checkbox<T>(
          {
            message: o.message,
            choices: o.choices.map((c) => ({ name: c.name, value: c.value, checked: c.checked })),
            validate: validate ? (chosen) => validate(chosen.map((c) => c.value)) : undefined,
            pageSize: 12,
          },
          context,
        );
      }),
    confirm: (o) =>
      guard(async () => {
        help(o.help);
        const { confirm } = await lib();
        return confirm({ message: o.message, default: o.default }, context);
      }),
    note: (text) => {
      ctx.io.stderr.write(`${text}\n`);
    },
  };
}

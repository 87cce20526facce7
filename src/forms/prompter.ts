// The only place that talks to @inquirer/prompts. Everything else asks
// through the Prompter interface, so tests can script the answers.
import type { FormContext } from './form-context.js';
import { CancelledError, InterruptedError } from '../errors.js';
import { cellWidth } from '../output/cells.js';
import { sanitizeCell, sanitizeTerminal } from '../text/sanitize.js';
import { wrapMessage } from '../text/wrap.js';
import { cutLine } from './display.js';
import { nfc, restOfCluster, safeToEdit } from './typed-text.js';

export interface PromptChoice<T> {
  name: string;
  value: T;
  description?: string;
  checked?: boolean;
  /** What typing filters on in a search, when it is not the name shown (the real text behind a made-safe name). */
  match?: string;
}

/** `back: true` lets Esc leave the prompt: it then rejects with GoBack (the wizard steps back one question). */
interface Common {
  message: string;
  help?: string;
  back?: boolean;
}

export interface Prompter {
  /** A line of text; `validate` returns true or the words to show. */
  input(o: Common & { default?: string; validate?: (v: string) => true | string }): Promise<string>;
  /** Several lines (a blank line ends them); `default` is kept when the first line is left empty. */
  multiline(o: Common & { default?: string; validate?: (v: string) => true | string }): Promise<string>;
  /** Masked input. */
  secret(o: Common & { validate?: (v: string) => true | string }): Promise<string>;
  select<T>(o: Common & { choices: PromptChoice<T>[]; default?: T }): Promise<T>;
  /** A long list filtered by what is typed (case-insensitive, NFC or NFD alike, anywhere in the name or its `match` text). */
  search<T>(o: Common & { choices: PromptChoice<T>[] }): Promise<T>;
  checkbox<T>(o: Common & { choices: PromptChoice<T>[]; validate?: (v: T[]) => true | string }): Promise<T[]>;
  confirm(o: Common & { default?: boolean }): Promise<boolean>;
  /** Text for the person at the terminal (stderr): help, review, errors. */
  note(text: string): void;
}

/** Esc at a prompt that allows it: go back one question. Not an error for the person. */
export class GoBack extends Error {
  constructor() {
    super('went back one question');
    this.name = 'GoBack';
  }
}

const CANCEL_NAMES = new Set(['ExitPromptError', 'AbortPromptError', 'CancelPromptError']);

/** Ctrl-C or Ctrl-D at a prompt (ExitPromptError), or an aborted signal (AbortPromptError) -> CancelledError ("Cancelled.", exit 130). */
export function mapPromptError(err: unknown): unknown {
  if (err instanceof Error && CANCEL_NAMES.has(err.name)) return new CancelledError();
  return err;
}

/** Text compared by a search: NFC, lower-cased. */
const searchable = (text: string) => nfc(text).toLowerCase();

/**
 * Choices whose name or match text contains every word of `term`
 * (case-insensitive, NFC and NFD alike); all when the term is empty.
 */
export function filterChoices<T>(choices: PromptChoice<T>[], term: string | undefined): PromptChoice<T>[] {
  const words = searchable(term ?? '').split(/\s+/).filter((x) => x !== '');
  return choices.filter((c) => {
    const name = searchable(c.name);
    const match = c.match === undefined ? '' : searchable(c.match);
    return words.every((w) => name.includes(w) || match.includes(w));
  });
}

/** How a picked value shows on its answer line: the choice's name. */
function nameOf<T>(choices: PromptChoice<T>[]): (v: T) => string {
  return (v) => choices.find((c) => c.value === v)?.name ?? String(v);
}

/** The help of a text prompt whose current value cannot go on screen as it is. */
export const UNSHOWABLE = 'The current value holds characters a terminal must not show (shown as \ufffd or left out): Enter keeps it exactly; an edit starts from the text shown.';

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
}

/**
 * Backspace deletes a whole grapheme cluster (an emoji sequence such as
 * 👩🏽‍💻, a flag, a letter and its combining marks) in one press, where
 * Node's readline, under @inquirer/input, deletes one code point. Neither
 * exposes the line being edited, so: the prompt's transformer (a search's
 * style of its term) sees the line after every key, a keypress listener that runs before readline's keeps the
 * line as it was, and one that runs after the prompt's own handler compares
 * the two and sends readline as many more Backspaces as the cluster has code
 * points left before the cursor (restOfCluster), before the next key is read.
 * The transformer shows the line as the prompt would (`answer` styles the
 * final one, as the prompt's theme does).
 */
function graphemeBackspace(stdin: NodeJS.ReadableStream, answer: (text: string) => string): { transformer: (value: string, o: { isFinal: boolean }) => string; see(value: string): void; started(): void; stop(): void } {
  let line = '';
  let before: string | undefined;
  let synthetic = false;
  const isBackspace = (key?: Key) => key?.name === 'backspace' && !key.ctrl && !key.meta;
  const pre = (_s: unknown, key?: Key) => {
    before = !synthetic && isBackspace(key) ? line : undefined;
  };
  const post = (_s: unknown, key?: Key) => {
    if (synthetic || before === undefined || !isBackspace(key)) return;
    const more = restOfCluster(before, line);
    before = undefined;
    synthetic = true;
    try {
      for (let i = 0; i < more; i++) stdin.emit('keypress', '\x7f', { sequence: '\x7f', name: 'backspace', ctrl: false, meta: false, shift: false });
    } finally {
      synthetic = false;
    }
  };
  stdin.on('keypress', pre);
  return {
    transformer: (value, { isFinal }) => {
      line = value;
      return isFinal ? answer(value) : value;
    },
    see: (value) => {
      line = value;
    },
    started: () => void stdin.on('keypress', post),
    stop: () => {
      stdin.off('keypress', pre);
      stdin.off('keypress', post);
    },
  };
}

type PromptContext = Pick<FormContext, 'io' | 'signal' | 'errColors'>;
const lib = () => import('@inquirer/prompts');

/**
 * The screen the prompts share: their help lines, and what may be erased
 * when Esc goes back. `guard` runs one prompt.
 */
class PromptScreen {
  /**
   * The prompts answered since other text was written, newest last: the
   * lines each left on screen (help and answer line). Esc erases the newest
   * too, since that question is asked again next; text in between (a note,
   * a section title) ends what can be erased safely.
   */
  private answered: number[] = [];

  constructor(private readonly ctx: PromptContext) {}

  /**
   * Prose (descriptions, notes) wraps at word boundaries to the terminal, not mid-word at its edge;
   * a suggested command in a note stays whole on its line (text/wrap.ts).
   */
  fit(text: string): string {
    return wrapMessage(text, this.ctx.io.stderrColumns, '');
  }

  /**
   * A question as the prompt library is given it: already broken between words, leaving room for its
   * "? " and what follows it (" (Y/n)", a default), so that the library's own hard wrap at the
   * terminal's edge (which cuts words) has nothing to cut.
   */
  asked(message: string): string {
    return this.ctx.io.stderrColumns ? wrapMessage(message, this.ctx.io.stderrColumns - 10) : message;
  }

  /** Other text was written: nothing above it is erased. */
  forget(): void {
    this.answered = [];
  }

  /** The lines of a done prompt's answer line (the done mark, the message and the answer), 0 when it may wrap (then nothing above it is erased). */
  private answerLines(message: string, answer: string): number {
    const columns = this.ctx.io.stderrColumns ?? 80;
    return 2 + cellWidth(message) + 1 + cellWidth(answer) < columns && !/[\r\n]/.test(answer) ? 1 : 0;
  }

  /** Writes a question's help above it; returns how many lines it took (0 without help). */
  private help(text?: string): number {
    if (!text) return 0;
    const shown = this.fit(`  ${sanitizeTerminal(text)}`);
    this.ctx.io.stderr.write(`${this.ctx.errColors.dim(shown)}\n`);
    return shown.split('\n').length;
  }

  /**
   * Runs one prompt. Ctrl-D cancels every prompt, a picker too (which would
   * ignore the key); with `back`, Esc aborts it as GoBack. Both are seen as
   * readline keypresses on stdin. A prompt left with Esc is erased, its help
   * lines too: the question gone back to is asked next, and a choice list
   * left on screen would read as still open.
   */
  async guard<T>(o: Common, fn: (context: object) => Promise<T>, show: (v: T) => string = String): Promise<T> {
    const { ctx } = this;
    if (ctx.signal.aborted) throw new InterruptedError();
    const helpLines = this.help(o.help);
    const eof = new AbortController();
    const back = new AbortController();
    // Read by the prompt when it is done (after an abort too): set on Esc only.
    const context = { input: ctx.io.stdin, output: ctx.io.stderr, signal: AbortSignal.any([ctx.signal, eof.signal, back.signal]), clearPromptOnDone: false };
    const onKey = (_s: unknown, key?: { ctrl?: boolean; name?: string }) => {
      if (key?.ctrl && key.name === 'd') eof.abort();
      else if (o.back && key?.name === 'escape') {
        context.clearPromptOnDone = ctx.io.stderrIsTTY;
        back.abort();
      }
    };
    ctx.io.stdin.on('keypress', onKey);
    try {
      const value = await fn(context);
      const lines = this.answerLines(o.message, show(value));
      if (lines === 0) this.answered = [];
      else this.answered.push(helpLines + lines);
      return value;
    } catch (err) {
      if (back.signal.aborted && !eof.signal.aborted && !ctx.signal.aborted) {
        // The prompt erased itself; its help lines, and the answer now asked again, sit just above the cursor.
        const up = context.clearPromptOnDone ? helpLines + (this.answered.pop() ?? 0) : 0;
        if (up > 0) ctx.io.stderr.write(`\x1b[${up}A\x1b[0J`);
        throw new GoBack();
      }
      this.answered = [];
      throw mapPromptError(err);
    } finally {
      ctx.io.stdin.off('keypress', onKey);
    }
  }
}

type TextOptions = Common & { default?: string; validate?: (v: string) => true | string };

/**
 * A line of text. The default goes on screen and, with Tab, onto the line being edited. Printable text (joiners and
 * variation selectors inside a letter or emoji included) goes there exactly as it is, so an edit
 * starts from the real value. Text that holds controls, escapes or other invisible characters (a
 * draft, a values file, a server's schema) is shown made safe and on one line; Enter still keeps
 * the value itself, but an edit starts from the text shown, which the help line says.
 */
function inputPrompt(ctx: PromptContext, screen: PromptScreen, o: TextOptions): Promise<string> {
  const real = o.default;
  const seen = real === undefined || safeToEdit(real) ? real : sanitizeCell(real);
  const back = (v: string) => (seen !== real && v === seen ? real! : v);
  const help = seen === real ? o.help : [o.help, UNSHOWABLE].filter(Boolean).join(' ');
  return screen.guard({ ...o, help }, async (c) => {
    const validate = o.validate;
    const input = (await lib()).input;
    const backspace = graphemeBackspace(ctx.io.stdin, ctx.errColors.cyan);
    try {
      const answer = input({ message: screen.asked(o.message), default: seen, validate: validate ? (v) => validate(back(v)) : undefined, transformer: backspace.transformer }, c);
      backspace.started();
      return back(await answer);
    } finally {
      backspace.stop();
    }
  });
}

/** Several lines, line by line through `input`, so Esc, Ctrl-C and the pty behave as everywhere else. */
async function multilinePrompt(ctx: PromptContext, screen: PromptScreen, input: Prompter['input'], o: TextOptions): Promise<string> {
  for (;;) {
    const lines: string[] = [];
    for (;;) {
      const first = lines.length === 0;
      const line = await input({
        message: first ? o.message : '…',
        help: first ? [o.help, `Several lines: a blank line ends the text${o.default ? `; Enter on the first line keeps the current text (${cutLine(o.default)})` : ''}.`].filter(Boolean).join(' ') : undefined,
        back: o.back,
      });
      if (line === '') break;
      lines.push(line);
    }
    const text = lines.length === 0 && o.default !== undefined ? o.default : lines.join('\n');
    const ok = o.validate ? o.validate(text) : true;
    if (ok === true) return text;
    screen.forget();
    ctx.io.stderr.write(`${ctx.errColors.red(screen.fit(`✗ ${sanitizeTerminal(ok)}`))}\n`);
  }
}

/** A long list filtered by what is typed; the typed filter is deleted by grapheme. */
function searchPrompt<T>(ctx: PromptContext, screen: PromptScreen, o: Common & { choices: PromptChoice<T>[] }): Promise<T> {
  return screen.guard(o, async (c) => {
    const search = (await lib()).search;
    const backspace = graphemeBackspace(ctx.io.stdin, ctx.errColors.cyan);
    try {
      const answer = search<T>(
        {
          message: screen.asked(o.message),
          source: (term) => filterChoices(o.choices, term).map((x) => ({ name: x.name, value: x.value, description: x.description })),
          pageSize: 12,
          // Styled as the prompt's theme does; seen to delete the typed filter by grapheme.
          theme: {
            style: {
              searchTerm: (term: string) => {
                backspace.see(term);
                return ctx.errColors.cyan(term);
              },
            },
          },
        },
        c,
      );
      backspace.started();
      return await answer;
    } finally {
      backspace.stop();
    }
  }, nameOf(o.choices));
}

function checkboxPrompt<T>(screen: PromptScreen, o: Common & { choices: PromptChoice<T>[]; validate?: (v: T[]) => true | string }): Promise<T[]> {
  return screen.guard(o, async (c) => {
    const validate = o.validate;
    return (await lib()).checkbox<T>(
      {
        message: screen.asked(o.message),
        choices: o.choices.map((x) => ({ name: x.name, value: x.value, checked: x.checked })),
        validate: validate ? (chosen) => validate(chosen.map((x) => x.value)) : undefined,
        pageSize: 12,
      },
      c,
    );
  }, (v) => v.map(nameOf(o.choices)).join(', '));
}

export function inquirerPrompter(ctx: PromptContext): Prompter {
  const screen = new PromptScreen(ctx);
  const p: Prompter = {
    input: (o) => inputPrompt(ctx, screen, o),
    multiline: (o) => multilinePrompt(ctx, screen, p.input, o),
    secret: (o) => screen.guard(o, async (c) => (await lib()).password({ message: screen.asked(o.message), mask: '*', validate: o.validate }, c), (v) => '*'.repeat(v.length)),
    select: <T>(o: Common & { choices: PromptChoice<T>[]; default?: T }) =>
      screen.guard(o, async (c) => (await lib()).select<T>({ message: screen.asked(o.message), choices: o.choices.map((x) => ({ name: x.name, value: x.value, description: x.description })), default: o.default, pageSize: 12 }, c), nameOf(o.choices)),
    search: (o) => searchPrompt(ctx, screen, o),
    checkbox: (o) => checkboxPrompt(screen, o),
    confirm: (o) => screen.guard(o, async (c) => (await lib()).confirm({ message: screen.asked(o.message), default: o.default }, c), (v) => (v ? 'Yes' : 'No')),
    note: (text) => {
      screen.forget();
      ctx.io.stderr.write(`${screen.fit(text)}\n`);
    },
  };
  return p;
}

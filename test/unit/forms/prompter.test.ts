// The @inquirer implementation of the Prompter, driven through streams:
// Esc becomes GoBack only where a prompt allows it, multi-line text, and the
// filtered search list.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { filterChoices, GoBack, inquirerPrompter, UNSHOWABLE } from '../../../src/forms/prompter.js';
import { CancelledError, InterruptedError } from '../../../src/errors.js';
import { colors } from '../../../src/output/colors.js';

const ENTER = '\r';
const ESC = '\x1b';
const streams: PassThrough[] = [];

function setup(stderrColumns?: number) {
  const stdin = new PassThrough();
  const stderr = new PassThrough();
  let err = '';
  // Every write is kept, also those after a prompt closed its piped output.
  const write = stderr.write.bind(stderr);
  stderr.write = ((c: string | Buffer, ...rest: never[]) => {
    err += c.toString();
    return stderr.writableEnded ? true : write(c, ...rest);
  }) as typeof stderr.write;
  streams.push(stdin, stderr);
  const abort = new AbortController();
  const io = { stdin, stdout: new PassThrough(), stderr, stdinIsTTY: true, stdoutIsTTY: true, stderrIsTTY: true, color: false, columns: 100, stderrColumns, canPrompt: true };
  const p = inquirerPrompter({ io, signal: abort.signal, errColors: colors(false) } as never);
  /** Types keys one chunk at a time, letting the prompt render in between (a lone Esc needs readline's escape timeout). */
  const type = async (...chunks: string[]) => {
    for (const c of chunks) {
      await new Promise((r) => setTimeout(r, 40));
      stdin.write(c);
      // A lone Esc is told from an escape sequence by readline's 500 ms escape timeout.
      if (c === ESC) await new Promise((r) => setTimeout(r, 600));
    }
  };
  return { p, type, abort, err: () => err };
}

afterEach(() => {
  for (const s of streams.splice(0)) s.destroy();
});

describe('inquirerPrompter', () => {
  it('notes wrap at word boundaries to the terminal width (stderr), and are left whole when it is unknown', () => {
    const text = 'Esc goes back one question. Answers are saved as a draft after each one: after Ctrl-C, --resume continues.';
    const narrow = setup(40);
    narrow.p.note(text);
    const lines = narrow.err().trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(2);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(40);
    expect(lines.join(' ')).toBe(text);
    const unknown = setup();
    unknown.p.note(text);
    expect(unknown.err()).toBe(`${text}\n`);
  });

  it('Esc rejects with GoBack where back is allowed', async () => {
    const { p, type } = setup();
    const answer = expect(p.input({ message: 'Name', back: true })).rejects.toBeInstanceOf(GoBack);
    await type(ESC);
    await answer;
  });

  it('a default is shown safe and on one line (no escape reaches the terminal); Enter keeps the value itself', async () => {
    const { p, type, err } = setup();
    const value = 'Line one\u001b]52;c;Zm9v\u0007\nLine \u001b[2Jtwo';
    const answer = p.input({ message: 'Notes', default: value, validate: (v) => (v === value ? true : 'not the default') });
    await type(ENTER);
    await expect(answer).resolves.toBe(value);
    expect(err()).not.toMatch(/\u001b\]52|\u001b\[2J/);
    expect(err()).toContain('Line one ↵ Line two');
  });

  it('Esc is ignored where back is not allowed', async () => {
    const { p, type } = setup();
    const answer = p.input({ message: 'Name' });
    await type(ESC, 'Ada', ENTER);
    await expect(answer).resolves.toMatch(/Ada$/);
  });

  it('Ctrl-D cancels a prompt that allows going back: Cancelled, not a step back', async () => {
    const { p, type } = setup();
    const answer = expect(p.select({ message: 'Pick', choices: [{ name: 'a', value: 1 }], back: true })).rejects.toBeInstanceOf(CancelledError);
    await type('\x04');
    await answer;
  });

  it('an aborted signal (SIGINT) is an interruption, not a step back', async () => {
    const { p, abort } = setup();
    const answer = p.input({ message: 'Name', back: true });
    await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    await expect(answer).rejects.toBeInstanceOf(InterruptedError);
  });

  it('multi-line text: lines until a blank one; the current text is kept on an empty first line; validation asks again', async () => {
    const { p, type, err } = setup();
    const text = p.multiline({ message: 'Notes', validate: (t) => (t.includes('bad') ? 'Notes must not say bad' : true) });
    await type('bad', ENTER, ENTER, 'line one', ENTER, 'line two', ENTER, ENTER);
    await expect(text).resolves.toBe('line one\nline two');
    expect(err()).toContain('✗ Notes must not say bad');
    expect(err()).toContain('Several lines: a blank line ends the text.');
    const { p: p2, type: type2 } = setup();
    const kept = p2.multiline({ message: 'Notes', default: 'old\ntext' });
    await type2(ENTER);
    await expect(kept).resolves.toBe('old\ntext');
  });

  it('search: typing filters the choices, Enter picks the first one left', async () => {
    const { p, type, err } = setup();
    const pick = p.search<number>({ message: 'Which answer?', choices: [{ name: 'Personal details › First name: Ada', value: 1 }, { name: 'Employment terms › Job title: Analyst', value: 2 }, { name: 'Employment terms › Start date: 2025-01-01', value: 3 }] });
    await type('job', ' title');
    await new Promise((r) => setTimeout(r, 50));
    await type(ENTER);
    await expect(pick).resolves.toBe(2);
    expect(err()).toContain('Job title: Analyst');
  });

  it('a default of printable text with joiners goes onto the line exactly: Tab, then typing, edits the real value', async () => {
    const { p, type, err } = setup();
    const real = 'علی\u200cرضا 👩🏽\u200d💻';
    const answer = p.input({ message: 'First name', default: real });
    await type('\t', ' Jr', ENTER);
    await expect(answer).resolves.toBe(`${real} Jr`);
    expect(err()).not.toContain(UNSHOWABLE);
    expect(err()).not.toContain('\ufffd');
  });

  it('a default holding escapes is shown made safe, the help says an edit starts from the text shown, Enter keeps it exactly', async () => {
    const value = 'Ada\u001b[2J\u202eLovelace';
    const kept = setup();
    const answer = kept.p.input({ message: 'Name', default: value });
    await kept.type(ENTER);
    await expect(answer).resolves.toBe(value);
    expect(kept.err()).toContain(UNSHOWABLE);
    expect(kept.err()).not.toMatch(/\u001b\[2J|\u202e/);
    const edited = setup();
    const changed = edited.p.input({ message: 'Name', default: value });
    await edited.type('\t', '!', ENTER);
    const text = await changed;
    expect(text).not.toMatch(/\u001b|\u202e/);
    expect(text.endsWith('Lovelace!')).toBe(true);
  });
});

describe('Backspace by grapheme cluster', () => {
  const BACKSPACE = '\x7f';
  it('one press deletes an emoji ZWJ sequence, a flag, or a letter with its combining mark', async () => {
    for (const [typed, left] of [
      ['Ada 👩🏽\u200d💻', 'Ada '],
      ['Berlin 🇩🇪', 'Berlin '],
      ['Cafe\u0301', 'Caf'],
      ['東京', '東'],
    ]) {
      const { p, type } = setup();
      const answer = p.input({ message: 'Name' });
      await type(typed, BACKSPACE, ENTER);
      await expect(answer, typed).resolves.toBe(left);
    }
  });

  it('several Backspaces in one read (held down, or pasted) each take one cluster; the cursor may be inside the text', async () => {
    const { p, type } = setup();
    const answer = p.input({ message: 'Name' });
    await type('x🇩🇪👍🏽y', '\x1b[D', BACKSPACE.repeat(2), ENTER); // left over y, then two presses
    await expect(answer).resolves.toBe('xy');
  });

  it('in a search, Backspace over a flag typed last deletes it whole, and the filter matches again', async () => {
    const { p, type } = setup();
    const pick = p.search<number>({ message: 'Which answer?', choices: [{ name: 'Berlin', value: 1 }, { name: 'Bern', value: 2 }] });
    await type('Berli', '🇩🇪', BACKSPACE);
    await new Promise((r) => setTimeout(r, 50));
    await type(ENTER);
    // Bounded: with half a flag left the filter matches nothing and Enter picks nothing.
    await expect(Promise.race([pick, new Promise((r) => setTimeout(() => r('nothing picked'), 3000))])).resolves.toBe(1);
  });

  it('editing the default taken with Tab: Backspace removes the last emoji whole, then typing continues', async () => {
    const { p, type } = setup();
    const answer = p.input({ message: 'Name', default: 'علی\u200cرضا 👩🏽\u200d💻' });
    await type('\t', BACKSPACE, '🧑\u200d🚀', ENTER);
    await expect(answer).resolves.toBe('علی\u200cرضا 🧑\u200d🚀');
  });
});

describe('filterChoices', () => {
  const choices = [
    { name: 'Personal › First name: Jos\u00e9', value: 1 },
    { name: 'Personal › Last name: \ufffd\ufffd', value: 2, match: 'Personal › Last name: علی\u200cرضا' },
    { name: 'Personal › Nickname: 👩🏽\ufffd💻', value: 3, match: 'Personal › Nickname: 👩🏽\u200d💻' },
  ];
  it('matches NFC and NFD spellings alike, and the real text behind a made-safe name', () => {
    expect(filterChoices(choices, 'JOSE\u0301').map((c) => c.value)).toEqual([1]);
    expect(filterChoices(choices, 'علی\u200cرضا').map((c) => c.value)).toEqual([2]);
    expect(filterChoices(choices, '👩🏽\u200d💻').map((c) => c.value)).toEqual([3]);
    expect(filterChoices(choices, 'personal name').map((c) => c.value)).toEqual([1, 2, 3]);
    expect(filterChoices(choices, 'nobody')).toEqual([]);
  });
});

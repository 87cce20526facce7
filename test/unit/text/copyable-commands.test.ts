// every command partner suggests can be copied. Each one stands on
// a line of its own (suggestion()), which wrapMessage never wraps, at 40, 80
// and 200 columns; a `quoted command` in prose is never broken inside. Then
// the walk: every command suggested in the sources (suggestion()'s commands,
// and `partner …` quoted in messages) is pasted back into partner's own
// argument parser: it names a real command, and every flag it gives is one
// that command (or every command) takes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagName, isGroup, type CommandDef } from '../../../src/command.js';
import { TOP_LEVEL } from '../../../src/commands/index.js';
import { GLOBAL_FLAG_NAMES } from '../../../src/commands/globals.js';
import { helpRequest, outputItems } from '../../../src/help.js';
import { isCommandLine, partnerCommand, q, suggestion } from '../../../src/text/command-line.js';
import { wrapMessage } from '../../../src/text/wrap.js';
import { secretsNotKeptHint } from '../../../src/forms/secrets.js';

const SRC = join(import.meta.dirname, '../../../src');
const WIDTHS = [40, 80, 200];

/** Words as a POSIX shell splits them (double and single quotes, backslash escapes inside double quotes). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let cur: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ') {
      if (cur !== undefined) words.push(cur);
      cur = undefined;
    } else if (c === '"') {
      cur ??= '';
      for (i++; i < line.length && line[i] !== '"'; i++) cur += line[i] === '\\' ? line[++i] : line[i];
    } else if (c === "'") {
      cur ??= '';
      for (i++; i < line.length && line[i] !== "'"; i++) cur += line[i];
    } else cur = (cur ?? '') + c;
  }
  if (cur !== undefined) words.push(cur);
  return words;
}

/** What partner's parser makes of `partner …`: the command it names, and its flags that no command takes (should be none). */
function parse(command: string): { target: string; unknown: string[] } {
  const words = shellWords(command);
  expect(words[0], command).toBe('partner');
  const args = words.slice(1);
  const target = helpRequest([...args, '--help'], TOP_LEVEL);
  expect(target, `${command}: names no command`).toBeDefined();
  const def: CommandDef | undefined = target!.kind === 'command' ? target!.def : undefined;
  const known = new Set<string>([...GLOBAL_FLAG_NAMES, '--help', '-h', '--version', '-V']);
  if (def) {
    for (const [k, f] of Object.entries(def.flags ?? {})) {
      known.add(flagName(k, f));
      if (f.short) known.add(`-${f.short}`);
    }
    if (def.output) for (const i of outputItems(def.output)) for (const m of i.term.matchAll(/-{1,2}[a-z-]+/g)) known.add(m[0]);
  }
  const unknown = args.filter((a) => a.startsWith('-')).map((a) => a.split('=')[0]!).filter((a) => !known.has(a));
  return { target: target!.kind === 'command' ? target!.path.join(' ') : target!.kind, unknown };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** A template's placeholders as a person would fill them: `${q(entity)}` → "Acme Deutschland GmbH", anything else → X. */
function filled(template: string): string {
  return template.replace(/\$\{q\([^}]*\)\}/g, '"Acme Deutschland GmbH"').replace(/\$\{[^}]*\}/g, 'X').replace(/\\`/g, '`').replace(/\\$/, '').replace(/ …$/, '');
}

/** Every command the sources suggest: suggestion()'s command argument, and `partner …` quoted in a message. */
function suggestedCommands(): { where: string; command: string }[] {
  const out: { where: string; command: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      const where = `${file.slice(SRC.length + 1)}:${i + 1}`;
      for (const m of line.matchAll(/suggestion\([^,]+,\s*(['`])(partner [^'`]*)\1\)/g)) out.push({ where, command: filled(m[2]!) });
      // `partner …` quoted inside a string: \`partner …\` in a template, `partner …` in a '…' string.
      for (const m of line.matchAll(/\\`(partner [^`\\]+)\\`|'[^']*`(partner [^`]+)`[^']*'/g)) out.push({ where, command: filled(m[1] ?? m[2]!) });
    });
  }
  // A command whose name is itself filled in (help's synonyms, the manual's pages) is not a suggestion of one command.
  return out.filter((f) => !/^partner (?:help )?(?:X|<)/.test(f.command));
}

describe('a suggested command stands on its own line, whatever the width', () => {
  const commands = [
    partnerCommand({ sandbox: false }, `gp create --entity ${q('Acme Deutschland GmbH')} --resume`),
    partnerCommand({ sandbox: false, profile: 'ops team', baseUrl: 'https://api.example.com/partner' }, `dynamic-details submit 75e3f0c2-9a1b-4c2d-8e3f-0a1b2c3d4e5f --resume`),
    'partner drafts list',
  ];
  it.each(WIDTHS)('at %i columns: the command line is whole and parses back to the same words', (width) => {
    for (const cmd of commands) {
      const text = wrapMessage(`Error: something went wrong and the answers were kept for later.\n${suggestion('Your answers are saved. Continue with:', cmd)}`, width);
      const lines = text.split('\n');
      const line = lines.find((l) => isCommandLine(l))!;
      expect(line.trim()).toBe(cmd);
      expect(shellWords(line.trim())).toEqual(shellWords(cmd));
      // Prose around it wraps between words only.
      for (const l of lines.filter((x) => !isCommandLine(x))) expect(l.length <= width || !l.trim().includes(' '), l).toBe(true);
    }
  });

  it.each(WIDTHS)('at %i columns: the note after a failed PATCH starts its own line, after the command', (width) => {
    const form = { root: {}, sections: [], format: 'json-schema' } as never;
    const hint = secretsNotKeptHint(form, {});
    const cmd = 'partner dynamic-details submit 75e3f0c2-9a1b-4c2d-8e3f-0a1b2c3d4e5f --resume';
    const text = wrapMessage(`${suggestion('Your answers for them are kept. Finish with:', cmd)}${hint || '\nSecret values are not kept in drafts: give them again when asked, or with --set legal.taxId=….'}`, width);
    const lines = text.split('\n');
    const at = lines.findIndex((l) => isCommandLine(l));
    expect(lines[at]!.trim()).toBe(cmd);
    expect(lines[at + 1]).toMatch(/^Secret values/);
  });

  it.each(WIDTHS)('at %i columns: a `quoted command` in prose is one word, never broken inside', (width) => {
    const text = wrapMessage('Error: not logged in. Run `partner auth login --base-url https://api.example.com` first, or set PARTNER_TOKEN, or add --sandbox to try.', width);
    expect(text).toContain('`partner auth login --base-url https://api.example.com`');
    // And a word is never cut: every word of the input is whole in the output.
    for (const w of text.split(/\s+/)) expect('Error: not logged in. Run `partner auth login --base-url https://api.example.com` first, or set PARTNER_TOKEN, or add --sandbox to try.').toContain(w);
  });
});

describe('every command the sources suggest parses back into a real command', () => {
  const found = suggestedCommands();
  it('finds the suggestions (the walk sees them)', () => {
    expect(found.length).toBeGreaterThan(15);
    expect(found.some((f) => f.command === 'partner drafts list')).toBe(true);
  });

  it.each(found.map((f) => [f.where, f.command] as const))('%s: %s', (_where, command) => {
    for (const part of command.split(' | ')) {
      const { unknown } = parse(part.trim());
      expect(unknown, `${part}: flags no command takes`).toEqual([]);
    }
  });

  it('a known-bad command is caught (the walk can fail)', () => {
    expect(parse('partner drafts list --bogus').unknown).toEqual(['--bogus']);
    expect(() => parse('partner employee list')).toThrow();
  });
});

describe('commands suggested are real leaves of the tree', () => {
  it('every leaf has a path helpRequest resolves', () => {
    for (const t of TOP_LEVEL) {
      if ('hidden' in t && t.hidden) continue;
      const leaves = isGroup(t) ? t.commands.map((c) => `partner ${t.name} ${c.name}`) : [`partner ${t.name}`];
      for (const l of leaves) expect(parse(l).unknown).toEqual([]);
    }
  });
});

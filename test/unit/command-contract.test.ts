// The parse contract of every command, walked from the definitions: every
// allowed value of every choice flag parses (in any case) to its canonical
// spelling, anything else is a usage error naming the flag, and every
// command's run module exists.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagName, isGroup, parseCommand, type CommandDef, type Flag } from '../../src/command.js';
import { TOP_LEVEL } from '../../src/commands/index.js';
import { GLOBAL_FLAGS } from '../../src/commands/globals.js';
import { UsageError } from '../../src/errors.js';
import { resolveOutput } from '../../src/output/options.js';
import { streamColor } from '../../src/io.js';

const defs: [string, CommandDef][] = TOP_LEVEL.flatMap((t) => (isGroup(t) ? t.commands.map((c) => [`${t.name} ${c.name}`, c] as [string, CommandDef]) : [[t.name, t] as [string, CommandDef]]));
const choiceFlags = defs.flatMap(([path, def]) => Object.entries(def.flags ?? {}).filter(([, f]) => f.choices).map(([key, f]) => [path, key, f] as [string, string, Flag<unknown>]));

describe('every choice flag', () => {
  it.each(choiceFlags)('%s --%s accepts exactly its allowed values', (_path, key, flag) => {
    const name = flagName(key, flag);
    for (const v of flag.choices!) {
      expect(flag.parse(v, name)).toBe(v);
      expect(flag.parse(v.toLowerCase(), name)).toBe(v);
    }
    expect(() => flag.parse('NOT-A-VALUE', name)).toThrow(UsageError);
    expect(() => flag.parse('NOT-A-VALUE', name)).toThrow(new RegExp(`${name}.*Allowed choices are ${flag.choices!.join(', ')}`));
  });
});

describe('every output spec', () => {
  it.each(defs.filter(([, d]) => d.output))('%s: -o accepts its formats and nothing else', (_path, def) => {
    const piped = { stdoutIsTTY: false, stderrIsTTY: false };
    for (const f of def.output!.formats) expect(resolveOutput({ output: f }, def.output!, piped).format).toBe(f);
    for (const f of ['table', 'json', 'ndjson', 'csv'].filter((x) => !def.output!.formats.includes(x as never))) {
      expect(() => resolveOutput({ output: f }, def.output!, piped)).toThrow(/Allowed choices are/);
    }
  });
});

describe('every command', () => {
  it.each(defs)('%s parses its defaults and has a run module', async (_path, def) => {
    const required = Object.values(def.args ?? {}).some((a) => !a.optional && !a.variadic);
    if (!required && !def.refine) expect(() => parseCommand(def, [], {}, {})).not.toThrow();
    const mod = (await def.load()) as { run?: unknown };
    expect(typeof mod.run).toBe('function');
  });
});

describe('the output contract (one output object, resolved in the parse path)', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
  const src = join(import.meta.dirname, '../../src');

  it('no command resolves output itself: no format decided, no jq compiled, no error format chosen in src/commands', () => {
    for (const f of files(join(src, 'commands'))) {
      const text = readFileSync(f, 'utf8');
      expect(text, f).not.toMatch(/\b(outputOptions|resolveOutput|checkJqFilter|compileOutput|decideFormat|errorFormat|errorFormatOf|parseOutputFlags)\b/);
      // A refine keeps only its own flags: the output flags reach run as opts.out.
      if (!f.endsWith('.run.ts')) expect(text, f).not.toMatch(/\b[op]\.(output|fields|quiet|csvRaw|jq)\b/);
    }
  });

  it('the output layer does not import the command layer (command.ts imports output/, not the reverse)', () => {
    for (const f of files(join(src, 'output'))) expect(readFileSync(f, 'utf8'), f).not.toMatch(/from '\.\.\/(command|command-tree|program|commands\/[^']*)\.js'/);
  });

  it.each(defs.filter(([, d]) => d.output))('%s: run receives opts.out; its refine returns no output flags', (_path, def) => {
    let opts: Record<string, unknown>;
    try {
      opts = parseCommand(def, [], {}, {}) as Record<string, unknown>;
    } catch (err) {
      // Needs arguments or flags to parse: its refine was checked by the source scan above.
      expect(err).toBeInstanceOf(UsageError);
      return;
    }
    expect(opts.out).toMatchObject({ format: expect.any(String), quiet: false, csvRaw: false, errors: expect.any(String) });
    for (const k of ['output', 'fields', 'quiet', 'csvRaw', 'jq']) expect(opts, k).not.toHaveProperty(k);
  });
});

describe('global flags', () => {
  it('--timeout takes seconds above 0 up to an hour; --base-url only https or loopback', () => {
    expect(GLOBAL_FLAGS.timeout.parse(undefined, '--timeout')).toBe(30);
    expect(GLOBAL_FLAGS.timeout.parse('0.5', '--timeout')).toBe(0.5);
    expect(GLOBAL_FLAGS.timeout.parse('3600', '--timeout')).toBe(3600);
    for (const bad of ['0', '3601', '-1', 'soon', '']) expect(() => GLOBAL_FLAGS.timeout.parse(bad, '--timeout')).toThrow(/greater than 0 and at most 3600/);
    expect(GLOBAL_FLAGS.baseUrl.parse('https://api.example.com', '--base-url')).toBe('https://api.example.com');
    expect(GLOBAL_FLAGS.baseUrl.parse('http://127.0.0.1:8080', '--base-url')).toBe('http://127.0.0.1:8080');
    expect(() => GLOBAL_FLAGS.baseUrl.parse('http://api.example.com', '--base-url')).toThrow(/only https/);
  });
});

describe('colour per stream', () => {
  it('a terminal gets colour unless --no-color, a non-empty NO_COLOR or TERM=dumb', () => {
    expect(streamColor({}, {}, true)).toBe(true);
    expect(streamColor({}, {}, false)).toBe(false);
    expect(streamColor({}, { color: false }, true)).toBe(false);
    expect(streamColor({ NO_COLOR: '1' }, {}, true)).toBe(false);
    // no-color.org: an empty NO_COLOR does not count.
    expect(streamColor({ NO_COLOR: '' }, {}, true)).toBe(true);
    expect(streamColor({ TERM: 'dumb' }, {}, true)).toBe(false);
  });

  it('FORCE_COLOR turns it on when piped (not over NO_COLOR or --no-color); FORCE_COLOR=0 turns it off', () => {
    expect(streamColor({ FORCE_COLOR: '1' }, {}, false)).toBe(true);
    expect(streamColor({ FORCE_COLOR: '' }, {}, false)).toBe(true);
    expect(streamColor({ FORCE_COLOR: '0' }, {}, true)).toBe(false);
    expect(streamColor({ FORCE_COLOR: '1', NO_COLOR: '1' }, {}, false)).toBe(false);
    expect(streamColor({ FORCE_COLOR: '1' }, { color: false }, false)).toBe(false);
  });
});

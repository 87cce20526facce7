import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/program.js';
import type { Runtime } from '../../../src/program.js';
import { testIO } from '../../../src/io.js';
import { EMPLOYEE_STATUSES, PROFILE_SECTIONS, SORT_ORDERS } from '../../../src/api/types.js';
import { EVENT_TYPES } from '../../../src/webhooks/events.js';
import { allCommands, describeProgram, type CommandSpec } from '../../../src/completion/spec.js';
import { EXTRA_VALUES } from '../../../src/completion/values.js';
import { completionScript } from '../../../src/completion/index.js';
import { closest } from '../../../src/text/suggest.js';

const runtime: Runtime = { io: testIO(), env: {}, signal: new AbortController().signal, exitCode: 0 };
const program = buildProgram(runtime, { full: true });
const spec = describeProgram(program);
const byPath = new Map(allCommands(spec).map((c) => [c.path.join(' '), c] as const));
const cmd = (path: string): CommandSpec => {
  const c = byPath.get(path);
  if (!c) throw new Error(`no command ${path}`);
  return c;
};

describe('completion model', () => {
  it('has every visible command of the tree, and not the hidden __complete', () => {
    expect(cmd('').subcommands.map((c) => c.name)).toEqual(expect.arrayContaining(['employees', 'gp', 'auth', 'sandbox', 'webhook', 'doctor', 'completion', 'help']));
    expect(cmd('').subcommands.map((c) => c.name)).not.toContain('__complete');
    expect(cmd('employees').subcommands.map((c) => c.name)).toEqual(['list']);
    expect(cmd('auth').subcommands.map((c) => c.name)).toEqual(['login', 'status', 'token', 'switch', 'logout']);
  });

  it('takes flag values from commander choices', () => {
    const list = cmd('employees list');
    const status = list.options.find((o) => o.long === '--status');
    expect(status?.takesValue).toBe(true);
    expect(status?.values).toEqual({ kind: 'words', words: [...EMPLOYEE_STATUSES] });
    expect(list.options.find((o) => o.long === '--sort-order')?.values).toEqual({ kind: 'words', words: [...SORT_ORDERS] });
    const output = list.options.find((o) => o.long === '--output');
    expect(output?.short).toBe('-o');
    expect(output?.values).toEqual({ kind: 'words', words: ['table', 'json', 'ndjson', 'csv'] });
    expect(list.options.find((o) => o.long === '--all')?.takesValue).toBe(false);
    expect(cmd('completion').args[0]).toEqual({ kind: 'words', words: ['bash', 'zsh', 'fish'] });
  });

  it('takes the rest from the EXTRA_VALUES table: event types, profiles, sections', () => {
    expect(cmd('sandbox emit').args[0]).toEqual({ kind: 'words', words: EVENT_TYPES });
    expect(cmd('webhook listen').options.find((o) => o.long === '--events')?.values).toEqual({ kind: 'list', words: EVENT_TYPES });
    expect(spec.globals.find((o) => o.long === '--profile')?.values).toEqual({ kind: 'profiles' });
    if (byPath.has('profile get')) expect(cmd('profile get').rest).toEqual({ from: 1, values: { kind: 'words', words: PROFILE_SECTIONS } });
  });

  it('completes file paths for file flags only (not --path, a URL path)', () => {
    expect(cmd('webhook verify').options.find((o) => o.long === '--jwks-file')?.values).toEqual({ kind: 'files' });
    expect(cmd('gp create').options.find((o) => o.long === '--from-file')?.values).toEqual({ kind: 'files' });
    expect(cmd('webhook listen').options.find((o) => o.long === '--path')?.values).toBeUndefined();
  });

  it('global flags are listed once, --version only at the root', () => {
    expect(spec.globals.map((o) => o.long)).toEqual(expect.arrayContaining(['--profile', '--base-url', '--sandbox', '--debug', '--timeout', '--no-color', '--no-input', '--help']));
    expect(spec.globals.map((o) => o.long)).not.toContain('--version');
    expect(cmd('').options.map((o) => o.long)).toEqual(['--version']);
    expect(cmd('employees list').options.map((o) => o.long)).not.toContain('--profile');
  });

  it('every EXTRA_VALUES entry names a command and a flag or argument that exists', () => {
    for (const [path, entries] of Object.entries(EXTRA_VALUES)) {
      // Commands still being written may be absent; the ones present must match.
      if (path !== '' && !byPath.has(path)) {
        expect(['profile get'], `EXTRA_VALUES names a missing command: ${path}`).toContain(path);
        continue;
      }
      const c = cmd(path);
      const flags = path === '' ? spec.globals : c.options;
      for (const key of Object.keys(entries)) {
        if (key.startsWith('#')) {
          const n = Number.parseInt(key.slice(1), 10);
          const registered = program.commands.length > 0 && path !== '' ? findCommander(path).registeredArguments : [];
          const last = registered[registered.length - 1];
          expect(n < registered.length || (last?.variadic ?? false), `${path} ${key}: no such argument`).toBe(true);
        } else {
          expect(flags.map((o) => o.long), `${path}: no flag ${key}`).toContain(key);
        }
      }
    }
  });

  it('renders scripts that mention the real values', () => {
    const bash = completionScript('bash', program);
    expect(bash).toContain("'employees list|--status') _partner_r='w:ONBOARDING ACTIVE OFFBOARDING ENDED DELETED'");
    expect(bash).toContain('complete -F _partner partner');
    expect(completionScript('zsh', program).startsWith('#compdef partner\n')).toBe(true);
    expect(completionScript('fish', program)).toContain("complete -c partner -n '__partner_in \\'employees list\\'' -l status -x -a 'ONBOARDING ACTIVE OFFBOARDING ENDED DELETED'");
  });
});

function findCommander(path: string) {
  let c = program;
  for (const w of path.split(' ')) c = c.commands.find((x) => x.name() === w)!;
  return c;
}

describe('help suggestions', () => {
  it('suggests the closest command name for a typo, nothing for a far one', () => {
    expect(closest('employes', ['employees', 'gp', 'auth'])).toBe('employees');
    expect(closest('lst', ['list'])).toBe('list');
    expect(closest('atuh', ['auth', 'gp'])).toBe('auth');
    expect(closest('zzzzzz', ['employees', 'gp'])).toBeUndefined();
  });
});

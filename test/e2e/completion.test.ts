import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/program.js';
import type { Runtime } from '../../src/program.js';
import { testIO } from '../../src/io.js';
import { COMPLETION_FILES, completionScript, SHELLS } from '../../src/completion/index.js';
import { BIN, ROOT, isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

const TOKENS = ['tok-work-SECRET-111', 'tok-staging-SECRET-222'];
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  dir = tempDir();
  // `partner` on PATH (the scripts call "${COMP_WORDS[0]}" __complete profiles) and two saved profiles.
  mkdirSync(join(dir.path, 'bin'));
  symlinkSync(BIN, join(dir.path, 'bin', 'partner'));
  mkdirSync(join(dir.path, 'config'), { mode: 0o700 });
  writeFileSync(
    join(dir.path, 'config', 'config.json'),
    JSON.stringify({ activeProfile: 'work', profiles: { work: { baseUrl: 'https://api.example.com', token: TOKENS[0] }, 'acme-staging': { token: TOKENS[1] } } }),
    { mode: 0o600 },
  );
  env = isolatedEnv(dir.path, { PATH: `${join(dir.path, 'bin')}:${process.env.PATH}` });
});
afterAll(() => dir.cleanup());

function hasShell(name: string): boolean {
  return spawnSync(name, ['-c', 'exit 0']).status === 0;
}

describe('checked-in completion scripts', () => {
  it('are up to date with the command tree (regenerated in memory)', async () => {
    const runtime: Runtime = { io: testIO(), env: {}, signal: new AbortController().signal, exitCode: 0 };
    const program = buildProgram(runtime, { full: true });
    for (const shell of SHELLS) {
      const fresh = completionScript(shell, program);
      const checkedIn = readFileSync(join(ROOT, COMPLETION_FILES[shell]), 'utf8');
      expect(checkedIn, `${COMPLETION_FILES[shell]} is stale: run \`npm run completions\``).toBe(fresh);
    }
  });

  it('`partner completion <shell>` prints the same scripts', async () => {
    for (const shell of SHELLS) {
      const r = await runMain(['completion', shell], { env });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(readFileSync(join(ROOT, COMPLETION_FILES[shell]), 'utf8'));
    }
    const bad = await runMain(['completion', 'powershell'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bash, zsh, fish|Allowed choices/i);
  });

  it('`partner __complete profiles` prints profile names only, never tokens, and is hidden from help', async () => {
    const r = await runMain(['__complete', 'profiles'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('acme-staging\nwork\n');
    for (const t of TOKENS) expect(r.stdout + r.stderr).not.toContain(t);
    const help = await runMain(['--help'], { env });
    expect(help.stdout).not.toContain('__complete');
  });
});

describe('bash completion', () => {
  const complete = (words: string[]): string[] => {
    const script = `source ${JSON.stringify(join(ROOT, COMPLETION_FILES.bash))}
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
_partner
printf '%s\\n' "\${COMPREPLY[@]}"`;
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', script, 'bash', ...words], { env, encoding: 'utf8' });
    return out.split('\n').filter((l) => l !== '');
  };

  it('completes commands and subcommands', () => {
    expect(complete(['partner', ''])).toEqual(expect.arrayContaining(['employees', 'gp', 'auth', 'webhook', 'sandbox', 'doctor', 'completion', 'help']));
    expect(complete(['partner', 'emp'])).toEqual(['employees']);
    expect(complete(['partner', 'auth', ''])).toEqual(['login', 'status', 'token', 'switch', 'logout']);
    expect(complete(['partner', '--sandbox', '--timeout', '5', 'webhook', ''])).toEqual(['verify', 'listen', 'replay']);
  });

  it('completes flags of the command under the cursor, global flags included', () => {
    const flags = complete(['partner', 'employees', 'list', '--']);
    expect(flags).toEqual(expect.arrayContaining(['--status', '--sort-order', '--all', '--output', '--fields', '--profile', '--sandbox', '--help']));
    expect(flags).not.toContain('--entity');
    expect(complete(['partner', 'employees', 'list', '--sort-'])).toEqual(['--sort-by', '--sort-order']);
  });

  it('completes flag values: statuses, sort orders, output formats, event types', () => {
    expect(complete(['partner', 'employees', 'list', '--status', ''])).toEqual(['ONBOARDING', 'ACTIVE', 'OFFBOARDING', 'ENDED', 'DELETED']);
    expect(complete(['partner', 'employees', 'list', '--status', 'OFF'])).toEqual(['OFFBOARDING']);
    expect(complete(['partner', 'employees', 'list', '--sort-order', ''])).toEqual(['ASC', 'DESC']);
    expect(complete(['partner', 'employees', 'list', '-o', ''])).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(complete(['partner', 'employees', 'list', '--sort-order=D'])).toEqual(['--sort-order=DESC']);
    expect(complete(['partner', 'sandbox', 'emit', 'APPROVAL_REQUEST_R'])).toEqual(['APPROVAL_REQUEST_REJECTED']);
    expect(complete(['partner', 'webhook', 'listen', '--events', 'EMPLOYEE_CREATED,CONTRACT_'])).toEqual(['EMPLOYEE_CREATED,CONTRACT_CREATED', 'EMPLOYEE_CREATED,CONTRACT_ACTIVATED']);
    expect(complete(['partner', 'employees', 'list', '--fields', 'id,work'])).toEqual(['id,workEmail']);
    expect(complete(['partner', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
    // A flag value is not taken for a subcommand.
    expect(complete(['partner', '--profile', 'employees', ''])).toEqual(expect.arrayContaining(['employees', 'auth']));
  });

  it('--flag=<TAB>: bash splits "=" into its own word; the candidates do not repeat it (no --status==)', () => {
    expect(complete(['partner', 'employees', 'list', '--status', '='])).toEqual(['ONBOARDING', 'ACTIVE', 'OFFBOARDING', 'ENDED', 'DELETED']);
    expect(complete(['partner', 'employees', 'list', '--status', '=', 'OFF'])).toEqual(['OFFBOARDING']);
    expect(complete(['partner', '--profile', '='])).toEqual(['acme-staging', 'work']);
  });

  it.skipIf(!existsSync('/usr/bin/script'))('in a real interactive bash (pseudo-terminal): --status=<TAB> completes the value, never --status==', async () => {
    const typed = await interactiveBash(['partner employees list --status=OFF\t', 'partner employees list --status=\t\t']);
    expect(typed).toContain('--status=OFFBOARDING');
    // Two tabs on an empty value list the statuses.
    expect(typed).toMatch(/ACTIVE\s+DELETED\s+ENDED\s+OFFBOARDING\s+ONBOARDING/);
    expect(typed).not.toContain('--status==');
  });

  it('completes profile names from the config, never tokens', () => {
    expect(complete(['partner', '--profile', ''])).toEqual(['acme-staging', 'work']);
    expect(complete(['partner', 'auth', 'switch', ''])).toEqual(['acme-staging', 'work']);
    expect(complete(['partner', 'employees', 'list', '--profile', 'w'])).toEqual(['work']);
  });

  it('completes the sections of profile get after the employee', () => {
    const sections = complete(['partner', 'profile', 'get', 'ACME-00007', '']);
    if (sections.length === 0) return; // profile get not registered in this tree
    expect(sections).toEqual(['personal', 'contact', 'address', 'bank', 'education', 'employment', 'compensation']);
    expect(complete(['partner', 'profile', 'get', 'ACME-00007', 'personal', 'b'])).toEqual(['bank']);
  });
});

describe('zsh and fish completion', () => {
  it.skipIf(!hasShell('zsh'))('zsh (skipped when zsh is not installed): the script parses (zsh -n) and completes statuses and profiles (compsys stubbed)', () => {
    execFileSync('zsh', ['-n', join(ROOT, COMPLETION_FILES.zsh)]);
    const drive = (words: string[]) =>
      execFileSync(
        'zsh',
        [
          '-f',
          '-c',
          `compdef() { :; }; compset() { return 0; }
_describe() { local -a arr; arr=("\${(@P)\${@[-1]}}"); print -l -- \${arr%%:*}; }
compadd() { local -a a; while [[ $1 == -* ]]; do case $1 in -a) a=("\${(@P)2}"); shift 2;; -S) shift 2;; --) shift; a+=("$@"); break;; *) shift;; esac; done; print -l -- $a; }
source ${JSON.stringify(join(ROOT, COMPLETION_FILES.zsh))}
words=("$@"); CURRENT=$#; _partner`,
          'zsh',
          ...words,
        ],
        { env, encoding: 'utf8' },
      )
        .split('\n')
        .filter(Boolean);
    expect(drive(['partner', 'employees', 'list', '--status', ''])).toEqual(['ONBOARDING', 'ACTIVE', 'OFFBOARDING', 'ENDED', 'DELETED']);
    expect(drive(['partner', '--profile', ''])).toEqual(['acme-staging', 'work']);
    expect(drive(['partner', 'auth', ''])).toEqual(['login', 'status', 'token', 'switch', 'logout']);
  });

  it.skipIf(!hasShell('fish'))('fish (skipped when fish is not installed): the script parses (fish -n) and completes statuses and profiles (complete -C)', () => {
    execFileSync('fish', ['-n', join(ROOT, COMPLETION_FILES.fish)]);
    const drive = (line: string) =>
      execFileSync('fish', ['--no-config', '-c', `source ${JSON.stringify(join(ROOT, COMPLETION_FILES.fish))}; complete -C ${JSON.stringify(line)}`], { env, encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    expect(drive('partner employees list --status ').sort()).toEqual(['ACTIVE', 'DELETED', 'ENDED', 'OFFBOARDING', 'ONBOARDING']);
    expect(drive('partner --profile ')).toEqual(['acme-staging', 'work']);
    expect(drive('partner auth ').sort()).toEqual(['login', 'logout', 'status', 'switch', 'token']);
  });
});

/**
 * Types each line into an interactive bash under a pseudo-terminal (util-linux
 * script) with the completion script loaded, and returns what the terminal
 * showed: readline's own handling of COMP_WORDBREAKS, which the COMP_WORDS
 * harness above cannot show.
 */
function interactiveBash(lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/script', ['-qfec', 'bash --norc --noprofile -i', '/dev/null'], { env: { ...env, PS1: '$ ', INPUTRC: '/dev/null', TERM: 'dumb' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(out.replace(/\r/g, ''));
    });
    const steps = [`source ${JSON.stringify(join(ROOT, COMPLETION_FILES.bash))}\n`, ...lines.flatMap((l) => [l, '\u0005\u0015\n']), 'exit\n'];
    // One step at a time: readline must see each TAB after the text before it.
    const next = (i: number) => {
      if (i >= steps.length) return child.stdin.end();
      child.stdin.write(steps[i]);
      setTimeout(() => next(i + 1), 400);
    };
    setTimeout(() => next(0), 300);
  });
}

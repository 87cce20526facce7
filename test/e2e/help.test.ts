// Help as a person reads it: every command's help at 80 columns (no line
// wider, no word split), global options once, the examples that run against
// the sandbox really run, and unknown commands suggest the right one.
// Runs the CLI in-process (test/helpers/main-in-process.ts: the launcher's steps and main,
// over real HTTP to a sandbox); what needs a real process is spawned (launcher.test.ts).
import { mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGroup, type CommandDef } from '../../src/command.js';
import { TOP_LEVEL } from '../../src/commands/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { ROOT, runOnTerminal, sandboxEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

const paths: [string, CommandDef | undefined][] = [['', undefined]];
for (const t of TOP_LEVEL) {
  if ('hidden' in t && t.hidden) continue;
  if (isGroup(t)) {
    paths.push([t.name, undefined]);
    for (const c of t.commands) paths.push([`${t.name} ${c.name}`, c]);
  } else paths.push([t.name, t]);
}

let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
let dirPath: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ sandbox, env, dir: dirPath, close } = await sandboxEnv());
  mkdirSync(join(dirPath, 'work'));
  copyFileSync(join(ROOT, 'test/fixtures/forms/deu-values.json'), join(dirPath, 'work', 'values.json'));
});

afterAll(async () => {
  await close?.();
});

describe.each(paths)('partner %s --help', (path, def) => {
  it('fits 80 columns, splits no word, and lists the global options once', async () => {
    const r = await runMain([...path.split(' ').filter(Boolean), '--help'], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    // Every word of every flag description is there whole (wrapping happens between words only).
    const text = r.stdout.replace(/\s+/g, ' ');
    for (const flag of Object.values(def?.flags ?? {})) for (const word of flag.description.split(/\s+/)) expect(text).toContain(word);
    // The global flags are listed once, in `partner --help` (and `partner help globals`); a
    // command's help ends with a one-line pointer naming only those that matter for it.
    expect(r.stdout).not.toContain('Inherited flags');
    if (path === '') expect(r.stdout.match(/--no-input/g)?.length).toBe(1);
    else {
      expect(r.stdout.match(/--no-color/g)).toBeNull();
      expect(r.stdout.trimEnd().split('\n').at(-1)).toContain('partner help globals');
      if (def && def.needsToken !== false) expect(r.stdout).toMatch(/Global flags: --sandbox, --profile/);
    }
    expect(r.stdout).not.toContain('(default: [])');
  });
});

/** Examples that need more than the sandbox (a login, a server left running, a JWS from elsewhere, a shell pipe or redirect) are parsed, not run. */
const NOT_RUN = /auth switch|--body-file|--from-csv|auth login|sandbox start|webhook listen|webhook verify|webhook replay|\||>|--resume|completion|\$\{|dynamic-details submit ACME-00042 --from-file|gp create --entity "[^"]+"$|gp create --entity "[^"]+" --resume|dynamic-details submit ACME-00042$|sandbox emit|drafts discard [0-9a-f]{8}/;

const examples = paths.flatMap(([path, def]) => (def?.examples ?? []).map((e) => [path, e] as const));

describe('help examples', () => {
  it.each(examples.filter(([, e]) => !NOT_RUN.test(e)))('%s: `%s` runs against the sandbox', async (_path, example) => {
    const words = (example.replace(/\s+#.*$/, '').match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^["']|["']$/g, ''));
    expect(words[0]).toBe('partner');
    const r = await runMain(words.slice(1).filter((w) => w !== '--sandbox'), { env, cwd: join(dirPath, 'work') });
    expect(r.code, `${example}\n${r.stderr}`).toBe(0);
    expect(r.stdout.length + r.stderr.length).toBeGreaterThan(0);
  });
});

describe('unknown commands', () => {
  it.each([
    [['employees', 'get', 'ACME-00007'], /Did you mean `partner profile get`\?/],
    [['employes', 'list'], /Did you mean employees\?/],
    [['webhooks', 'verify'], /Did you mean `partner webhook`\?/],
    [['help', 'employes'], /Did you mean employees\?/],
  ])('%j suggests the right one (exit 2, nothing sent)', async (args, message) => {
    const before = sandbox.requests.length;
    const r = await runMain(args, { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(sandbox.requests.length).toBe(before);
  });

  it('partner alone and a group alone print their help (exit 0)', async () => {
    const root = await runMain([], { env });
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/^Lookups:$/m);
    const group = await runMain(['trackers'], { env });
    expect(group.code).toBe(0);
    expect(group.stdout).toMatch(/partner trackers <command>/);
  });
});

describe('help topics', () => {
  it.each(['globals', 'environment', 'exit-codes', 'formats', 'configuration'])('partner help %s fits 80 columns', async (topic) => {
    const r = await runMain(['help', topic], { env });
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(r.stdout.length).toBeGreaterThan(200);
  });

  it('partner help globals lists every global flag; partner --help names the topics', async () => {
    const g = await runMain(['help', 'globals'], { env });
    for (const flag of ['--profile', '--base-url', '--sandbox', '--debug', '--timeout', '--no-color', '--no-input']) expect(g.stdout).toContain(flag);
    const root = await runMain(['--help'], { env });
    expect(root.stdout.replace(/\s+/g, ' ')).toContain('partner help <topic>');
    for (const topic of ['globals', 'environment', 'exit-codes', 'formats', 'configuration']) expect(root.stdout).toMatch(new RegExp(`^  ${topic} `, 'm'));
  });
});

describe('small things a person reads', () => {
  it('auth login --token says to use --with-token (the token is never a flag)', async () => {
    const r = await runMain(['auth', 'login', '--token', 'abc'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--token'");
    expect(r.stderr).toContain('--with-token');
    expect(r.stderr).not.toContain('abc');
  });

  it('--set says (repeatable) once, and --results names the file --from-csv really writes', async () => {
    for (const path of [['gp', 'create'], ['dynamic-details', 'submit']]) {
      const r = await runMain([...path, '--help'], { env });
      const at = r.stdout.indexOf('--set <');
      const set = r.stdout.slice(at, r.stdout.indexOf('\n  -', at));
      expect(set.match(/repeatable/g), set).toHaveLength(1);
    }
    const r = await runMain(['gp', 'create', '--help'], { env });
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('NAME.results.csv beside NAME.csv');
  });

  it('an error message wraps at the terminal width between words (a pseudo-terminal of 50 columns)', async () => {
    const out = await runOnTerminal(['employees', 'list', '--status', 'BOGUS'], { env: { ...env, TERM: 'xterm' }, columns: 50 });
    const lines = out.replace(/\r/g, '').split('\n');
    for (const line of lines) expect(line.replace(/\x1b\[[0-9;]*m/g, '').length, line).toBeLessThanOrEqual(50);
    expect(out).toContain('OFFBOARDING');
    expect(out).toContain('Error:');
  });
});


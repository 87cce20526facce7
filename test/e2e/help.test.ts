// Help as a person reads it: every command's help at 80 columns (no line
// wider, no word split), global options once, the examples that run against
// the sandbox really run, and unknown commands suggest the right one.
import { mkdirSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGroup, type CommandDef } from '../../src/command.js';
import { TOP_LEVEL } from '../../src/commands/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { ROOT, runCli, sandboxEnv } from '../helpers/cli.js';

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
    const r = await runCli([...path.split(' ').filter(Boolean), '--help'], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    // Every word of every flag description is there whole (wrapping happens between words only).
    const text = r.stdout.replace(/\s+/g, ' ');
    for (const flag of Object.values(def?.flags ?? {})) for (const word of flag.description.split(/\s+/)) expect(text).toContain(word);
    expect(r.stdout.match(/--no-input/g)?.length ?? 0).toBe(path.includes(' ') || def ? 1 : path === '' ? 1 : 0);
    expect(r.stdout).not.toContain('(default: [])');
  });
});

/** Examples that need more than the sandbox (a login, a server left running, a JWS from elsewhere, a shell pipe or redirect) are parsed, not run. */
const NOT_RUN = /auth switch|--body-file|--from-csv|auth login|sandbox start|webhook listen|webhook verify|webhook replay|\||>|--resume|completion|\$\{|dynamic-details submit ACME-00042 --from-file|gp create --entity "[^"]+"$|gp create --entity "[^"]+" --resume|dynamic-details submit ACME-00042$|sandbox emit/;

const examples = paths.flatMap(([path, def]) => (def?.examples ?? []).map((e) => [path, e] as const));

describe('help examples', () => {
  it.each(examples.filter(([, e]) => !NOT_RUN.test(e)))('%s: `%s` runs against the sandbox', async (_path, example) => {
    const words = (example.replace(/\s+#.*$/, '').match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((w) => w.replace(/^["']|["']$/g, ''));
    expect(words[0]).toBe('partner');
    const r = await runCli(words.slice(1).filter((w) => w !== '--sandbox'), { env, cwd: join(dirPath, 'work') });
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
    const r = await runCli(args, { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(sandbox.requests.length).toBe(before);
  });

  it('partner alone and a group alone print their help (exit 0)', async () => {
    const root = await runCli([], { env });
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/^Lookups:$/m);
    const group = await runCli(['trackers'], { env });
    expect(group.code).toBe(0);
    expect(group.stdout).toMatch(/partner trackers <command>/);
  });
});

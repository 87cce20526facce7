// `partner help -o json`: the whole command tree as one
// documented document, from the same definitions as the help text.
// Runs the CLI in-process (test/helpers/main-in-process.ts: the launcher's steps);
// the launcher itself is spawned in launcher.test.ts.
import { describe, expect, it } from 'vitest';
import { isGroup, type CommandDef } from '../../src/command.js';
import { TOP_LEVEL } from '../../src/commands/index.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

async function helpJson(args: string[]) {
  const d = tempDir();
  try {
    return await runMain(args, { env: isolatedEnv(d.path), timeoutMs: 15_000 });
  } finally {
    d.cleanup();
  }
}

const leaves = TOP_LEVEL.flatMap((t) => (isGroup(t) ? (t.hidden ? [] : t.commands.filter((c) => !c.hidden).map((c) => [`${t.name} ${c.name}`, c] as [string, CommandDef])) : t.hidden ? [] : [[t.name, t] as [string, CommandDef]]));

describe('partner help -o json', () => {
  it('prints every visible command with its flags, output and exit codes (schemaVersion 1)', async () => {
    const r = await helpJson(['help', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc.schemaVersion).toBe(1);
    expect(doc.program).toBe('partner');
    expect(doc.commands.map((c: { name: string }) => c.name).sort()).toEqual(leaves.map(([n]) => n).sort());
    expect(doc.exitCodes.find((e: { code: number }) => e.code === 5).meaning).toMatch(/not found/);
    const list = doc.commands.find((c: { name: string }) => c.name === 'employees list');
    expect(list.path).toEqual(['employees', 'list']);
    expect(list.summary).toBe(leaves.find(([n]) => n === 'employees list')![1].summary);
    const status = list.flags.find((f: { name: string }) => f.name === '--status');
    expect(status).toMatchObject({ type: 'string', choices: ['ONBOARDING', 'ACTIVE', 'OFFBOARDING', 'ENDED', 'DELETED'], default: null });
    expect(list.flags.find((f: { name: string }) => f.name === '--page-size').type).toBe('integer');
    expect(list.flags.find((f: { name: string }) => f.name === '--all')).toMatchObject({ type: 'boolean', default: false });
    expect(list.flags.find((f: { name: string }) => f.name === '--no-progress')).toMatchObject({ type: 'boolean', default: true });
    expect(list.output.formats).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(list.output.recordFields).toContain('fullName');
    expect(list.output.flags.map((f: { name: string }) => f.name)).toEqual(['--output', '--fields', '--quiet', '--jq', '--csv-raw', '--bom']);
    expect(list.exitCodes).toEqual(expect.arrayContaining([0, 1, 2, 3, 5]));
    const api = doc.commands.find((c: { name: string }) => c.name === 'api');
    expect(api.arguments).toEqual([expect.objectContaining({ name: 'path', required: true })]);
    expect(api.flags.find((f: { name: string }) => f.name === '--header')).toMatchObject({ short: 'H', type: 'string[]', repeatable: true });
    expect(doc.globalFlags.find((f: { name: string }) => f.name === '--profile')).toMatchObject({ env: 'PARTNER_PROFILE', type: 'string' });
    expect(doc.globalFlags.find((f: { name: string }) => f.name === '--timeout')).toMatchObject({ type: 'number', default: 30 });
  });

  it('is the same document whatever the global flags, and narrows to a command path', async () => {
    const whole = await helpJson(['help', '-o', 'json']);
    const withGlobals = await helpJson(['--sandbox', 'help', '--output=json']);
    expect(withGlobals.stdout).toBe(whole.stdout);
    const one = JSON.parse((await helpJson(['help', 'employees', 'list', '-o', 'json'])).stdout);
    expect(one.commands.map((c: { name: string }) => c.name)).toEqual(['employees list']);
  });

  it('without -o json the help stays text', async () => {
    const r = await helpJson(['help']);
    expect(r.code).toBe(0);
    expect(() => JSON.parse(r.stdout)).toThrow();
  });
});

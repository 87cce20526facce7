// and an output never replaces an input of
// the command or one of partner's own files, and no input flag reads partner's
// own files (every saved token would be sent). Refused with exit 2 before
// anything is sent: the sandbox (which logs every request) sees nothing, and
// the file is left byte for byte. The last block walks the command tree: every
// path flag says how it is used, and every file flag refuses partner's config.
import { linkSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isGroup, kebab, type CommandDef } from '../../src/command.js';
import { TOP_LEVEL } from '../../src/commands/index.js';
import type { Sandbox } from '../../src/sandbox/server.js';
import { expectCode, sandboxEnv } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

const ENTITY = 'Acme Deutschland GmbH';
let env: NodeJS.ProcessEnv;
let close: () => Promise<void>;
let sandbox: Sandbox;
let dir: string;
let config: string;

beforeAll(async () => {
  ({ env, close, sandbox, dir } = await sandboxEnv());
  // A real config file, holding a token, as `auth login` writes it.
  const login = await runMain(['--profile', 'other', 'auth', 'login', '--base-url', sandbox.url, '--with-token', '--insecure-storage'], { env, input: `${sandbox.tokens.companyA}\n` });
  expectCode(login, 0);
  config = join(env.PARTNER_CONFIG_DIR!, 'config.json');
  expect(readFileSync(config, 'utf8')).toContain(sandbox.tokens.companyA);
  writeFileSync(join(dir, 's.csv'), 'personal.firstName,personal.lastName\nBob,Builder\n');
}, 30_000);

afterAll(async () => {
  await close?.();
});

/** Runs partner in-process; returns the result and the requests the sandbox received meanwhile. */
async function attempt(args: string[]) {
  const before = sandbox.requests.length;
  const r = await runMain(args, { env, timeoutMs: 15_000 });
  return { ...r, requests: sandbox.requests.slice(before).map((q) => `${q.method} ${q.path}`) };
}

function refused(r: Awaited<ReturnType<typeof attempt>>, code: string) {
  expectCode(r, 2);
  expect(r.requests).toEqual([]);
  expect(r.stderr).toContain(code === 'SAME_FILE' ? 'is the same file as' : 'partner never');
  // JSON on stderr when the output is JSON (not a terminal): the code is there.
  if (r.stderr.startsWith('{')) expect(JSON.parse(r.stderr).error.code).toBe(code);
  expect(r.stderr).toContain('nothing was sent');
}

describe('an output that is an input of the command', () => {
  const sheet = () => readFileSync(join(dir, 's.csv'), 'utf8');
  const forms: [string, () => string[]][] = [
    ['the same path', () => [join(dir, 's.csv'), join(dir, 's.csv')]],
    ['a relative path', () => [join(dir, 's.csv'), join(dir, '.', 'sub', '..', 's.csv')]],
    [
      'a symlink',
      () => {
        symlinkSync(join(dir, 's.csv'), join(dir, 'link.csv'));
        return [join(dir, 's.csv'), join(dir, 'link.csv')];
      },
    ],
    [
      'a hard link',
      () => {
        linkSync(join(dir, 's.csv'), join(dir, 'hard.csv'));
        return [join(dir, 's.csv'), join(dir, 'hard.csv')];
      },
    ],
  ];
  it.each(forms)('gp create --from-csv s.csv --results (%s) is refused, the sheet is kept', async (_name, paths) => {
    mkdirSync(join(dir, 'sub'), { recursive: true });
    const before = sheet();
    const [input, output] = paths();
    const r = await attempt(['gp', 'create', '--entity', ENTITY, '--from-csv', input, '--results', output]);
    refused(r, 'SAME_FILE');
    expect(r.stderr).toContain('--results');
    expect(sheet()).toBe(before);
  });
});

describe("an output that is one of partner's own files", () => {
  it('employees list --output-file CONFIG/config.json is refused; every token stays', async () => {
    const before = readFileSync(config, 'utf8');
    const r = await attempt(['employees', 'list', '--all', '-o', 'csv', '--output-file', config]);
    refused(r, 'OWN_FILE');
    expect(r.stderr).toContain("partner's config directory");
    expect(readFileSync(config, 'utf8')).toBe(before);
  });

  it('a symlink pointing into the config directory, and a hard link to config.json, are refused', async () => {
    symlinkSync(env.PARTNER_CONFIG_DIR!, join(dir, 'innocent'));
    const viaDir = await attempt(['employees', 'list', '--output-file', join(dir, 'innocent', 'export.csv')]);
    refused(viaDir, 'OWN_FILE');
    symlinkSync(config, join(dir, 'export.json'));
    refused(await attempt(['employees', 'list', '--output-file', join(dir, 'export.json')]), 'OWN_FILE');
    linkSync(config, join(dir, 'export2.json'));
    const hard = await attempt(['employees', 'list', '--output-file', join(dir, 'export2.json')]);
    refused(hard, 'OWN_FILE');
    expect(hard.stderr).toContain("a hard link to a file in partner's config directory");
  });

  it('a drafts file, the key-set cache and a bulk journal are refused as outputs', async () => {
    mkdirSync(join(env.PARTNER_CONFIG_DIR!, 'drafts'), { recursive: true });
    const draft = join(env.PARTNER_CONFIG_DIR!, 'drafts', 'gp-acme.json');
    writeFileSync(draft, '{}');
    refused(await attempt(['employees', 'list', '--output-file', draft]), 'OWN_FILE');
    mkdirSync(env.PARTNER_CACHE_DIR!, { recursive: true });
    refused(await attempt(['employees', 'list', '--output-file', join(env.PARTNER_CACHE_DIR!, 'jwks.json')]), 'OWN_FILE');
    const journal = join(dir, 'hires.results.csv.journal');
    writeFileSync(journal, `${JSON.stringify({ kind: 'partner-bulk-journal', version: 2, entity: ENTITY })}\n`);
    const r = await attempt(['employees', 'list', '--output-file', journal]);
    refused(r, 'OWN_FILE');
    expect(r.stderr).toContain('bulk onboarding journal');
  });

  it('the audit log, in the state directory, is refused as an output and as an input', async () => {
    mkdirSync(env.PARTNER_STATE_DIR!, { recursive: true });
    const log = join(env.PARTNER_STATE_DIR!, 'audit.ndjson');
    writeFileSync(log, '');
    const out = await attempt(['employees', 'list', '--output-file', log]);
    refused(out, 'OWN_FILE');
    expect(out.stderr).toContain('state directory');
    refused(await attempt(['api', '-X', 'POST', '/v1/employees', '--input', log]), 'OWN_FILE');
    expect(readFileSync(log, 'utf8')).toBe('');
  });

  it('the default results file of --from-csv, a symlink to config.json, is refused too', async () => {
    const sheetDir = join(dir, 'default-results');
    mkdirSync(sheetDir);
    writeFileSync(join(sheetDir, 'hires.csv'), 'personal.firstName\nAda\n');
    symlinkSync(config, join(sheetDir, 'hires.results.csv'));
    const before = readFileSync(config, 'utf8');
    const r = await attempt(['gp', 'create', '--entity', ENTITY, '--from-csv', join(sheetDir, 'hires.csv')]);
    refused(r, 'OWN_FILE');
    expect(readFileSync(config, 'utf8')).toBe(before);
  });

  it('an ordinary output file is still written (0600)', async () => {
    const r = await attempt(['employees', 'list', '-o', 'csv', '--output-file', join(dir, 'fine.csv')]);
    expectCode(r, 0);
    expect(statSync(join(dir, 'fine.csv')).mode & 0o777).toBe(0o600);
  });
});

describe("partner api never sends partner's own files", () => {
  it.each([
    ['-F x=@config.json', () => ['api', '/v1/employees', '-X', 'POST', '-F', `x=@${config}`]],
    ['--input config.json', () => ['api', '/v1/employees', '--input', config]],
    ['--input through a symlink', () => ['api', '/v1/employees', '--input', join(dir, 'innocent', 'config.json')]],
    ['-F x=@ the key-set cache', () => ['api', '/v1/employees', '-X', 'POST', '-F', `x=@${join(env.PARTNER_CACHE_DIR!, 'jwks.json')}`]],
  ])('%s: exit 2, nothing sent', async (_name, args) => {
    writeFileSync(join(env.PARTNER_CACHE_DIR!, 'jwks.json'), '{"keys":[]}');
    const r = await attempt(args());
    refused(r, 'OWN_FILE');
    expect(r.stderr).toContain('partner never reads or sends its own files');
    expect(r.stdout).toBe('');
  });

  it('-F x=@ an ordinary file is still read and sent', async () => {
    writeFileSync(join(dir, 'note.txt'), 'hello');
    const r = await attempt(['api', '/v1/employees', '-F', `note=@${join(dir, 'note.txt')}`]);
    expectCode(r, 0);
    expect(r.requests).toEqual(['GET /v1/employees']);
  });
});

describe('every file flag of every command (walking the command tree)', () => {
  const leaves: [string, CommandDef][] = TOP_LEVEL.flatMap((t) => (isGroup(t) ? t.commands.map((c) => [`${t.name} ${c.name}`, c] as [string, CommandDef]) : [[t.name, t] as [string, CommandDef]]));
  const fileFlags = leaves.flatMap(([path, d]) =>
    Object.entries(d.flags ?? {})
      .filter(([, f]) => f.file !== undefined && f.file.role !== 'dir')
      .map(([key, f]) => [path, d, key, f.file!.role] as const),
  );

  // Flags whose placeholder looks like a file but that name none (a URL path).
  const NOT_FILES = new Set(['webhook listen --path']);
  it('every flag that takes a path says whether it is read, written or a directory', () => {
    const undeclared = leaves.flatMap(([path, d]) => Object.entries(d.flags ?? {}).filter(([, f]) => /path|file|dir/.test(f.placeholder ?? '') && !f.file).map(([k]) => `${path} --${kebab(k)}`));
    expect(undeclared.filter((f) => !NOT_FILES.has(f))).toEqual([]);
    expect(fileFlags.filter(([, , , role]) => role === 'output').map(([p, , k]) => `${p} --${kebab(k)}`)).toEqual(expect.arrayContaining(['employees list --output-file', 'gp create --results']));
  });

  it.each(fileFlags.map(([path, d, key, role]) => [`${path} --${kebab(key)} (${role})`, d, path, key] as const))('%s CONFIG/config.json: exit 2, nothing sent', async (_name, d, path, key) => {
    const before = readFileSync(config, 'utf8');
    // Required arguments get a placeholder: the check comes before anything else is read or sent.
    const args = Object.entries(d.args ?? {}).filter(([, a]) => !a.optional).map(() => 'x');
    const value = key === 'field' ? `x=@${config}` : config;
    const r = await attempt([...path.split(' '), ...args, `--${kebab(key)}`, value]);
    expectCode(r, 2);
    expect(r.requests).toEqual([]);
    expect(r.stderr).toContain("partner's config directory");
    expect(readFileSync(config, 'utf8')).toBe(before);
  });
});

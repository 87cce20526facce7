// Profile names compared NFC: "Zoé" typed precomposed (NFC) is the
// profile saved decomposed (NFD, as a macOS shell or a script may pass it),
// for --profile, PARTNER_PROFILE, auth login, auth switch and auth logout;
// a config file written before keeps working, and no second profile appears.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { expectCode, isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

const NFC = 'Zo\u00e9';
const NFD = 'Zoe\u0301';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
const configFile = () => join(dir.path, 'config', 'config.json');
const saved = () => JSON.parse(readFileSync(configFile(), 'utf8')) as { activeProfile?: string; profiles: Record<string, { baseUrl?: string; token?: string }> };

beforeAll(async () => {
  sandbox = await startSandbox({});
  dir = tempDir();
  env = isolatedEnv(dir.path);
  // A config saved before names were compared NFC: the profile's name decomposed, another profile active.
  mkdirSync(join(dir.path, 'config'), { mode: 0o700 });
  writeFileSync(configFile(), JSON.stringify({ activeProfile: 'other', profiles: { [NFD]: { baseUrl: sandbox.url, token: sandbox.tokens.companyA }, other: { baseUrl: 'https://other.example', token: 'tok-other-1234' } } }), { mode: 0o600 });
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

describe('a profile saved decomposed, named precomposed', () => {
  it('--profile finds it (it said: No profile "Zoé"; known: Zoé)', async () => {
    const r = await runMain(['--profile', NFC, 'employees', 'list', '--page-size', '1', '-o', 'json'], { env });
    expectCode(r, 0);
    expect((JSON.parse(r.stdout) as { data: unknown[] }).data).toHaveLength(1);
  });
  it('PARTNER_PROFILE finds it', async () => {
    const r = await runMain(['employees', 'list', '--page-size', '1', '-o', 'json'], { env: { ...env, PARTNER_PROFILE: NFC } });
    expectCode(r, 0);
  });
  it('auth status names it as saved, once', async () => {
    const r = await runMain(['--profile', NFC, 'auth', 'status', '-o', 'json'], { env });
    expectCode(r, 0);
    const s = JSON.parse(r.stdout) as { profile: string; profiles: { name: string }[] };
    expect(s.profile).toBe(NFD);
    expect(s.profiles.map((p) => p.name).sort()).toEqual([NFD, 'other'].sort());
  });
  it('auth switch and auth login under the other spelling update the one profile', async () => {
    expectCode(await runMain(['auth', 'switch', NFC], { env }), 0);
    expect(saved().activeProfile).toBe(NFD);
    const r = await runMain(['--profile', NFC, 'auth', 'login', '--base-url', sandbox.url, '--with-token', '--insecure-storage'], { env, input: `${sandbox.tokens.companyB}\n` });
    expectCode(r, 0);
    expect(Object.keys(saved().profiles).sort()).toEqual([NFD, 'other'].sort());
    expect(saved().profiles[NFD]!.token).toBe(sandbox.tokens.companyB);
  });
  it('auth logout under the other spelling removes it', async () => {
    const r = await runMain(['--profile', NFC, 'auth', 'logout'], { env });
    expectCode(r, 0);
    expect(r.stderr).toMatch(/Logged out/);
    expect(Object.keys(saved().profiles)).toEqual(['other']);
    expect(saved().activeProfile).toBeUndefined();
  });
  it('a new profile is saved NFC, and found by its decomposed name', async () => {
    const r = await runMain(['--profile', NFD, 'auth', 'login', '--base-url', sandbox.url, '--with-token', '--insecure-storage'], { env, input: `${sandbox.tokens.companyA}\n` });
    expectCode(r, 0);
    expect(Object.keys(saved().profiles).sort()).toEqual([NFC, 'other'].sort());
    expectCode(await runMain(['--profile', NFD, 'employees', 'list', '--page-size', '1', '-o', 'json'], { env }), 0);
  });
  it('a name no profile has, in either form, is still an error naming the known ones', async () => {
    const r = await runMain(['--profile', 'Zoe', 'employees', 'list', '-o', 'table'], { env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/No profile "Zoe"; known: /);
  });
});

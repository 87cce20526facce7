import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES, parseConfig, readConfigFile } from '../../../src/config/file.js';
import { ConfigStore } from '../../../src/config/store.js';
import { tempDir } from '../../helpers/cli.js';

let dir: { path: string; cleanup: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

const problem = (text: string) => {
  const r = parseConfig(text);
  return r.ok ? undefined : r.problem;
};

describe('parseConfig: what is wrong, never the content', () => {
  it('accepts a good file (a BOM too), and members left out', () => {
    const r = parseConfig('\uFEFF{"activeProfile":"a","profiles":{"a":{"baseUrl":"https://x","token":"t"},"b":{}}}');
    expect(r.ok && r.config.activeProfile).toBe('a');
    expect(r.ok && { ...r.config.profiles }).toEqual({ a: { baseUrl: 'https://x', token: 't' }, b: {} });
    expect(parseConfig('{}').ok).toBe(true);
  });

  it.each([
    ['', 'it is empty'],
    [' \n\t', 'it is empty'],
    ['{"profiles":{"a":{"token":"secret-tok', 'it ends in the middle'],
    ['{"profiles":{"a":{"token":"secret-tok"}', 'it ends in the middle'],
    ['{"profiles":', 'it ends in the middle'],
    ["{profiles: 'secret-tok'}", 'it is not valid JSON'],
    ['{"profiles":{}}} secret-tok', 'it is not valid JSON'],
    ['[]', 'it holds a list, not an object'],
    ['"secret-tok"', 'it holds a string, not an object'],
    ['null', 'it holds null, not an object'],
    ['{"activeProfile":1}', '"activeProfile" is a number, not a profile name'],
    ['{"profiles":"secret-tok"}', '"profiles" is a string, not an object of profiles by name'],
    ['{"profiles":[]}', '"profiles" is a list'],
    ['{"profiles":{"a":null}}', 'profile "a" is null, not an object'],
    ['{"profiles":{"a":{"token":["secret-tok"]}}}', '"token" of profile "a" is a list, not a string'],
    ['{"profiles":{"a":{"baseUrl":true}}}', '"baseUrl" of profile "a" is a boolean, not a string'],
    ['{"profiles":{"a\\u001b[31m":1}}', 'profile "a\\u001b[31m" is a number'],
    ['{"pager":false,"profiles":{}}', '"pager" is a boolean, not a command (a string; "" for none)'],
  ])('%j: %s', (text, want) => {
    expect(problem(text)).toContain(want);
    expect(problem(text)).not.toContain('secret-tok');
  });

  it('a long profile name is cut', () => {
    expect(problem(`{"profiles":{"${'n'.repeat(100)}":1}}`)).toContain(`profile "${'n'.repeat(40)}"… is a number`);
  });

  it('profile names like "__proto__" and "constructor" are only names', () => {
    const r = parseConfig('{"profiles":{"__proto__":{"token":"t1"},"constructor":{"token":"t2"}}}');
    expect(r.ok && Object.keys(r.config.profiles).sort()).toEqual(['__proto__', 'constructor']);
    expect(r.ok && r.config.profiles.constructor).toEqual({ token: 't2' });
  });
});

describe('readConfigFile', () => {
  it('an absent file is an empty config; a damaged one names the file and how to fix it', () => {
    const file = join(dir.path, 'config.json');
    expect({ ...readConfigFile(file).profiles }).toEqual({});
    writeFileSync(file, '{"profiles":');
    try {
      readConfigFile(file);
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: 'CONFIG_DAMAGED', exitCode: 1 });
      expect((err as Error).message).toBe(`The config file ${file} is damaged: it ends in the middle (cut short: a full disk or an interrupted edit?)`);
      expect((err as { hint: string }).hint).toContain(`mv ${file} ${file}.bak && partner auth login`);
    }
  });

  it('a file larger than a config can be is refused unread', () => {
    const file = join(dir.path, 'config.json');
    writeFileSync(file, `{"profiles":{},"x":"${'a'.repeat(MAX_CONFIG_BYTES)}"}`);
    expect(() => readConfigFile(file)).toThrow(/is damaged: it is \d+ bytes, more than a config file can be/);
  });

  it('a directory in its place, or a path through a file, is named', () => {
    const file = join(dir.path, 'config.json');
    mkdirSync(file);
    expect(() => readConfigFile(file)).toThrow(/config\.json is damaged: it is not a regular file|Cannot read the config file .*EISDIR/);
    writeFileSync(join(dir.path, 'f'), 'x');
    expect(() => readConfigFile(join(dir.path, 'f', 'config.json'))).toThrow(`Cannot read the config file ${join(dir.path, 'f', 'config.json')}: ENOTDIR (a part of the path is a file, not a directory)`);
  });

  it.runIf(process.platform !== 'win32')('a symbolic link is refused', () => {
    const file = join(dir.path, 'config.json');
    writeFileSync(join(dir.path, 'real.json'), '{}');
    symlinkSync(join(dir.path, 'real.json'), file);
    expect(() => readConfigFile(file)).toThrow(/it is a symbolic link/);
  });
});

describe('ConfigStore changes', () => {
  it('re-reads the file under the lock: two stores opened at once both keep their change', async () => {
    const env = { PARTNER_CONFIG_DIR: join(dir.path, 'cfg') };
    const one = new ConfigStore(env);
    const two = new ConfigStore(env);
    await one.setProfile('a', { token: 'ta' });
    await two.setProfile('b', { token: 'tb' });
    expect(new ConfigStore(env).profileNames()).toEqual(['a', 'b']);
    expect(await one.deleteProfile('b')).toBe(true);
    expect(await two.setActiveProfile('b')).toBe(false);
    expect(two.profileNames()).toEqual(['a']);
    expect(new ConfigStore(env).activeProfile).toBeUndefined(); // b was active, and deleted
  });

  it('keeps the pager the person set when it saves, switches or removes profiles', async () => {
    const env = { PARTNER_CONFIG_DIR: join(dir.path, 'cfg') };
    mkdirSync(env.PARTNER_CONFIG_DIR, { mode: 0o700 });
    writeFileSync(join(env.PARTNER_CONFIG_DIR, 'config.json'), '{"pager":"","profiles":{}}', { mode: 0o600 });
    const s = new ConfigStore(env);
    await s.setProfile('a', { token: 'ta' });
    await s.setProfile('b', { token: 'tb' }, false);
    await s.setActiveProfile('b');
    await s.deleteProfile('a');
    expect(readConfigFile(join(env.PARTNER_CONFIG_DIR, 'config.json')).pager).toBe('');
    expect(parseConfig('{"pager":"less -S","profiles":{}}')).toMatchObject({ ok: true, config: { pager: 'less -S' } });
  });

  it('a profile named "__proto__" or "constructor" is stored as a profile', async () => {
    const env = { PARTNER_CONFIG_DIR: join(dir.path, 'cfg') };
    const s = new ConfigStore(env);
    expect(s.getProfile('constructor')).toBeUndefined();
    expect(await s.setActiveProfile('toString')).toBe(false);
    await s.setProfile('__proto__', { token: 't1' });
    await s.setProfile('constructor', { token: 't2' });
    const again = new ConfigStore(env);
    expect(again.profileNames()).toEqual(['__proto__', 'constructor']);
    expect(again.getProfile('__proto__')).toEqual({ token: 't1' });
    expect(await again.deleteProfile('__proto__')).toBe(true);
    expect(new ConfigStore(env).profileNames()).toEqual(['constructor']);
  });

  it('a config directory that cannot be created is named; nothing is written', () => {
    writeFileSync(join(dir.path, 'file'), 'x');
    const env = { PARTNER_CONFIG_DIR: join(dir.path, 'file', 'cfg') };
    expect(() => new ConfigStore(env)).toThrow(/ENOTDIR/);
  });
});

// conf as the engine behind the gate: what conf alone would do differently
// (write through a link, read a file of any size, hook signals) is checked here.
// conf-engine.ts is imported inside the tests, not at the top: the first test
// needs to see the process before conf is loaded.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES } from '../../../src/config/file.js';
import { tempDir } from '../../helpers/cli.js';

let dir: { path: string; cleanup: () => void };
let cfg: string;
beforeEach(() => {
  dir = tempDir();
  cfg = join(dir.path, 'cfg');
  mkdirSync(cfg, { mode: 0o700 });
});
afterEach(() => dir.cleanup());

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
};

describe('conf-engine', () => {
  it.runIf(process.platform !== 'win32')('loading conf leaves the signal handlers as they were (a re-raised SIGINT would be a second Ctrl-C to cli.ts)', async () => {
    const watched = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGUSR2', 'SIGQUIT', 'SIGVTALRM'] as const;
    // conf (and its when-exit) not loaded yet in this process: otherwise this test would prove nothing.
    expect(process.listenerCount('SIGVTALRM')).toBe(0);
    const before = watched.map((s) => process.listenerCount(s));
    const { openConf } = await import('../../../src/config/conf-engine.js');
    expect(watched.map((s) => process.listenerCount(s))).toEqual(before);
    // conf did load (and works): the hooks were there and were taken off, not never added.
    expect(openConf(cfg).store).toEqual({ profiles: {} });
  });

  it('writes through conf: the file conf names, 0600, read back through the gate; nothing created by opening it', async () => {
    const { openConf } = await import('../../../src/config/conf-engine.js');
    const conf = openConf(cfg);
    expect(conf.path).toBe(join(cfg, 'config.json'));
    expect(existsSync(conf.path)).toBe(false);
    conf.store = { activeProfile: 'a.b', profiles: { 'a.b': { token: 't1' } } };
    expect(statSync(conf.path).mode & 0o777).toBe(0o600);
    // conf's format: tabs; plus the final newline the file has always had. A dotted name is one profile.
    expect(readFileSync(conf.path, 'utf8')).toBe('{\n\t"activeProfile": "a.b",\n\t"profiles": {\n\t\t"a.b": {\n\t\t\t"token": "t1"\n\t\t}\n\t}\n}\n');
    expect(openConf(cfg).store.profiles['a.b']).toEqual({ token: 't1' });
  });

  it.runIf(process.platform !== 'win32')('a link put in place of the file after conf was opened is refused, not written through', async () => {
    const { openConf } = await import('../../../src/config/conf-engine.js');
    const conf = openConf(cfg);
    const elsewhere = join(dir.path, 'elsewhere.json');
    writeFileSync(elsewhere, '{"profiles":{}}');
    symlinkSync(elsewhere, conf.path);
    expect(codeOf(() => (conf.store = { profiles: { a: { token: 'secret-tok' } } }))).toBe('CONFIG_SYMLINK');
    expect(readFileSync(elsewhere, 'utf8')).toBe('{"profiles":{}}');
  });

  it("conf's reads are the gate's: a file too large or damaged is named, whatever conf would make of it", async () => {
    const { openConf } = await import('../../../src/config/conf-engine.js');
    const path = join(cfg, 'config.json');
    // Valid JSON that conf alone would read and accept: over the bound.
    writeFileSync(path, `{"profiles":{}}${' '.repeat(MAX_CONFIG_BYTES)}`);
    expect(() => openConf(cfg)).toThrow(/config\.json is damaged: .*more than a config file can be/);
    renameSync(path, join(dir.path, 'big.json'));
    writeFileSync(path, '{"profiles":{"a":{"token":1}}}');
    expect(codeOf(() => openConf(cfg))).toBe('CONFIG_DAMAGED');
  });
});

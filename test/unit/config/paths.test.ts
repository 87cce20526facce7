// partner's files are always under a real home, never the current directory.
import { isAbsolute, join } from 'node:path';
import { userInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { cacheDir, configDir, homeDir, stateDir } from '../../../src/config/paths.js';
import { CliError } from '../../../src/errors.js';

const ACCOUNT = userInfo().homedir;
const posix = process.platform !== 'win32' && process.platform !== 'darwin';

describe('homeDir', () => {
  it('is HOME when it is absolute', () => {
    expect(homeDir({ HOME: '/home/zoe' }, () => '/nope')).toBe('/home/zoe');
  });

  it.each([
    ['empty', ''],
    ['relative', 'somewhere'],
    ['dot', '.'],
    ['unset', undefined],
  ])('an %s HOME falls back to the account home from the password database', (_, home) => {
    expect(homeDir(home === undefined ? {} : { HOME: home }, () => '/home/account')).toBe('/home/account');
    expect(homeDir({ HOME: home })).toBe(ACCOUNT);
  });

  it('fails with a clear error (exit 2) when neither HOME nor the account gives an absolute home', () => {
    for (const account of [() => '', () => 'rel', () => { throw new Error('no entry'); }]) {
      let err: unknown;
      try {
        homeDir({ HOME: '' }, account);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CliError);
      expect((err as CliError).code).toBe('NO_HOME');
      expect((err as CliError).exitCode).toBe(2);
      expect((err as CliError).message).toContain('HOME is empty');
      expect((err as CliError).hint).toContain('PARTNER_CONFIG_DIR');
    }
    expect(() => homeDir({ HOME: 'x' }, () => '')).toThrow('HOME is "x", not an absolute path');
    expect(() => homeDir({}, () => '')).toThrow('HOME is not set');
  });
});

describe.runIf(posix)('config, cache and state directories (Linux)', () => {
  const dirs = { configDir, cacheDir, stateDir };
  const defaults = { configDir: '.config', cacheDir: '.cache', stateDir: join('.local', 'state') };
  const xdgs = { configDir: 'XDG_CONFIG_HOME', cacheDir: 'XDG_CACHE_HOME', stateDir: 'XDG_STATE_HOME' };
  const overrides = { configDir: 'PARTNER_CONFIG_DIR', cacheDir: 'PARTNER_CACHE_DIR', stateDir: 'PARTNER_STATE_DIR' };

  for (const [name, dir] of Object.entries(dirs) as [keyof typeof dirs, (env: NodeJS.ProcessEnv) => string][]) {
    it(`${name}: under HOME, then the XDG variable when absolute`, () => {
      expect(dir({ HOME: '/home/zoe' })).toBe(join('/home/zoe', defaults[name], 'partner'));
      expect(dir({ HOME: '/home/zoe', [xdgs[name]]: '/xdg/here' })).toBe(join('/xdg/here', 'partner'));
    });

    it(`${name}: an empty HOME or a relative XDG variable never means the current directory`, () => {
      for (const env of [{ HOME: '' }, { HOME: '', [xdgs[name]]: 'rel' }, { HOME: 'rel', [xdgs[name]]: '' }, { HOME: '/home/zoe', [xdgs[name]]: './here' }]) {
        const got = dir(env);
        expect(isAbsolute(got), `${JSON.stringify(env)} -> ${got}`).toBe(true);
        expect(got).toBe(join(env.HOME === '/home/zoe' ? '/home/zoe' : ACCOUNT, defaults[name], 'partner'));
      }
    });

    it(`${name}: ${overrides[name]} wins when absolute and is refused (exit 2) when relative`, () => {
      expect(dir({ HOME: '', [overrides[name]]: '/abs/dir' })).toBe('/abs/dir');
      expect(() => dir({ HOME: '/home/zoe', [overrides[name]]: 'rel/dir' })).toThrow(`${overrides[name]} is "rel/dir", not an absolute path`);
      try {
        dir({ [overrides[name]]: '.' });
      } catch (err) {
        expect((err as CliError).code).toBe('RELATIVE_STATE_PATH');
        expect((err as CliError).exitCode).toBe(2);
      }
    });
  }
});

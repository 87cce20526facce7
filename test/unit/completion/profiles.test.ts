import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { profileNames } from '../../../src/completion/profiles.js';
import { tempDir } from '../../helpers/cli.js';

// Every dir a test makes is removed (a test may make several).
const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});
function newDir(): ReturnType<typeof tempDir> {
  const d = tempDir();
  dirs.push(d);
  return d;
}

function config(doc: unknown): NodeJS.ProcessEnv {
  const dir = newDir();
  mkdirSync(join(dir.path, 'config'));
  writeFileSync(join(dir.path, 'config', 'config.json'), typeof doc === 'string' ? doc : JSON.stringify(doc));
  return { PARTNER_CONFIG_DIR: join(dir.path, 'config') };
}

describe('profile names for completion', () => {
  it('lists the names, sorted, and never a token or base URL', () => {
    const env = config({ activeProfile: 'work', profiles: { work: { baseUrl: 'https://a.example', token: 'tok-SECRET-1' }, 'acme staging': { token: 'tok-SECRET-2' } } });
    const names = profileNames(env);
    expect(names).toEqual(['acme staging', 'work']);
    expect(names.join('\n')).not.toMatch(/SECRET|https/);
  });

  it('yields nothing, without creating anything, when there is no config or it is broken', () => {
    const dir = newDir();
    expect(profileNames({ PARTNER_CONFIG_DIR: join(dir.path, 'missing') })).toEqual([]);
    expect(profileNames(config('{not json'))).toEqual([]);
    expect(profileNames(config({ profiles: ['a'] }))).toEqual([]);
  });

  it('drops names with control characters (they would break the shell reading lines)', () => {
    expect(profileNames(config({ profiles: { 'bad\nname': {}, ok: {} } }))).toEqual(['ok']);
  });
  it('offers a name saved decomposed (NFD) precomposed (NFC) too: a shell matches what is typed byte for byte', () => {
    const env = config({ profiles: { 'Zoe\u0301': { token: 'tok-SECRET-1' }, 'Zo\u00e9b': {}, plain: {} } });
    expect(profileNames(env)).toEqual(['Zoe\u0301', 'Zo\u00e9', 'Zo\u00e9b', 'plain'].sort());
  });
});

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { underLock } from '../../../src/config/locked-file.js';
import { DraftStore } from '../../../src/forms/drafts.js';
import { takePidLock } from '../../../src/pid-lock.js';
import { writeKeyCache } from '../../../src/webhooks/jwks-cache.js';
import { tempDir } from '../../helpers/cli.js';

let dir: { path: string; cleanup: () => void };
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => dir.cleanup());

const DEAD = '2147483646\n'; // no such process

describe('underLock', () => {
  it('runs the change holding FILE.lock, and lets go after it, also when it throws', () => {
    const file = join(dir.path, 'f.json');
    expect(underLock(file, 'the file', () => existsSync(`${file}.lock`))).toBe(true);
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(() =>
      underLock(file, 'the file', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(readdirSync(dir.path)).toEqual([]);
  });

  it('takes over a lock left by a killed process', () => {
    const file = join(dir.path, 'f.json');
    writeFileSync(`${file}.lock`, DEAD);
    expect(underLock(file, 'the file', () => 7)).toBe(7);
    expect(readdirSync(dir.path)).toEqual([]);
  });

  it('a lock held past the wait is named, with what to do (exit 1)', () => {
    const file = join(dir.path, 'f.json');
    const held = takePidLock(`${file}.lock`);
    expect(held.ok).toBe(true);
    try {
      underLock(file, `the config file ${file}`, () => expect.unreachable(), 50);
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: 'LOCKED', exitCode: 1 });
      expect((err as Error).message).toBe(`Cannot change the config file ${file}: another partner process (pid ${process.pid}) has held its lock ${file}.lock for more than 50 ms`);
      expect((err as { hint: string }).hint).toBe(`Wait for that process to finish and try again. If no partner is running, delete ${file}.lock.`);
    } finally {
      if (held.ok) held.release();
    }
  });

  it('a lock that cannot be created is named, with the system error in words', () => {
    const file = join(dir.path, 'missing', 'f.json');
    try {
      underLock(file, 'the draft', () => expect.unreachable());
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: 'LOCK_FAILED', exitCode: 1 });
      expect((err as Error).message).toBe(`Cannot lock the draft: cannot create ${file}.lock: ENOENT`);
    }
  });
});

describe('drafts and the key-set cache write under their lock', () => {
  it('a draft is saved and deleted past a lock left by a killed process; no lock stays', () => {
    const drafts = new DraftStore({ PARTNER_CONFIG_DIR: join(dir.path, 'cfg') }, () => 0);
    mkdirSync(drafts.dir, { recursive: true });
    drafts.saveGp('0badcafe', { entity: 'Acme AB', answers: {}, asked: [] });
    const path = join(drafts.dir, readdirSync(drafts.dir)[0]!);
    writeFileSync(`${path}.lock`, DEAD);
    drafts.saveGp('0badcafe', { entity: 'Acme AB', answers: { a: 1 }, asked: ['a'] });
    expect(drafts.gpDrafts('Acme AB')).toMatchObject([{ id: '0badcafe', answers: { a: 1 }, asked: ['a'], savedAt: '1970-01-01T00:00:00.000Z' }]);
    writeFileSync(`${path}.lock`, DEAD);
    expect(drafts.delete('0badcafe')).toBe(true);
    expect(readdirSync(drafts.dir)).toEqual([]);
    // No drafts directory yet: deleting creates nothing.
    expect(new DraftStore({ PARTNER_CONFIG_DIR: join(dir.path, 'none') }).delete('0badcafe')).toBe(false);
    expect(existsSync(join(dir.path, 'none'))).toBe(false);
  });

  it('the key-set cache is written past a lock left by a killed process; no lock stays', () => {
    const path = join(dir.path, 'cache', 'jwks', 'k.json');
    mkdirSync(join(dir.path, 'cache', 'jwks'), { recursive: true });
    writeFileSync(`${path}.lock`, DEAD);
    const logs: string[] = [];
    const file = { version: 1 as const, url: 'https://x/jwks', uat: 1, maxAgeMs: 1000, jwks: { keys: [] } };
    writeKeyCache(path, Buffer.alloc(32, 1), file, (m) => logs.push(m));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ url: 'https://x/jwks', mac: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(existsSync(`${path}.lock`)).toBe(false);
    expect(logs).toEqual([]);
  });
});

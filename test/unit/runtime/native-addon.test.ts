import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addonAssetKey, extractAddon, privateAddonDir, seaNativeAddon, unsafeParent, type SeaAssets } from '../../../src/runtime/native-addon.js';

// The real addon the executable ships (scripts/build-binary.mjs): loading it proves the bytes went through whole.
const KEYRING_NODE = createRequire(import.meta.url).resolve('@napi-rs/keyring-linux-x64-gnu/keyring.linux-x64-gnu.node');
const addon = readFileSync(KEYRING_NODE);
const hash = createHash('sha256').update(addon).digest('hex');

/** node:sea as the executable answers it, serving `assets`; counts what was asked. */
function fakeSea(assets: Record<string, Buffer>): SeaAssets & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    isSea: () => true,
    getRawAsset: (key) => {
      asked.push(key);
      const b = assets[key];
      if (!b) throw new Error(`no asset ${key}`);
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
    },
  };
}

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'partner-addon-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('seaNativeAddon', () => {
  it('outside the executable answers undefined and writes nothing', () => {
    expect(seaNativeAddon('@napi-rs/keyring', { baseDir: join(root, 'native') })).toBeUndefined();
    expect(existsSync(join(root, 'native'))).toBe(false);
  });

  it('in the executable: the shipped asset, written to a private directory by its hash, loaded with its exports', () => {
    const sea = fakeSea({ [addonAssetKey('@napi-rs/keyring')]: addon });
    const dir = join(root, 'cache', 'native');
    const mod = seaNativeAddon<{ Entry: unknown; findCredentials: unknown }>('@napi-rs/keyring', { sea, baseDir: dir });
    expect(sea.asked).toEqual(['native/@napi-rs/keyring.node']);
    expect(typeof mod?.Entry).toBe('function');
    expect(typeof mod?.findCredentials).toBe('function');
    expect(readdirSync(dir)).toEqual([`${hash}.node`]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, `${hash}.node`)).mode & 0o777).toBe(0o500);
  });

  it('an asset missing from the executable is an error, not a silent fallback', () => {
    expect(() => seaNativeAddon('@napi-rs/keyring', { sea: fakeSea({}), baseDir: join(root, 'n') })).toThrow(/no asset native\/@napi-rs\/keyring.node/);
  });
});

describe('extractAddon', () => {
  it('reuses an intact copy (same file, not rewritten) and replaces an edited one', () => {
    const dir = privateAddonDir(join(root, 'n'));
    const file = extractAddon(addon, dir);
    const first = statSync(file).ino;
    expect(extractAddon(addon, dir)).toBe(file);
    expect(statSync(file).ino).toBe(first);
    chmodSync(file, 0o600);
    writeFileSync(file, 'not the library');
    expect(extractAddon(addon, dir)).toBe(file);
    expect(readFileSync(file).equals(addon)).toBe(true);
    expect(readdirSync(dir)).toEqual([`${hash}.node`]); // no temporary file left behind
  });

  it('a copy others may write is not trusted: written again', () => {
    const dir = privateAddonDir(join(root, 'n'));
    const file = extractAddon(addon, dir);
    chmodSync(file, 0o666);
    expect(extractAddon(addon, dir)).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o500);
  });

  it("a symbolic link at the copy's name is replaced, never followed (its target is left as it was)", () => {
    const dir = privateAddonDir(join(root, 'n'));
    const target = join(root, 'elsewhere.node');
    writeFileSync(target, addon);
    symlinkSync(target, join(dir, `${hash}.node`));
    const file = extractAddon(addon, dir);
    expect(statSync(file).isFile()).toBe(true);
    expect(readFileSync(target).equals(addon)).toBe(true);
    expect(readdirSync(dir)).toEqual([`${hash}.node`]);
  });
});

describe('privateAddonDir', () => {
  it('refuses a directory that is a symbolic link', () => {
    mkdirSync(join(root, 'real'), { mode: 0o700 });
    symlinkSync(join(root, 'real'), join(root, 'link'));
    expect(() => privateAddonDir(join(root, 'link'))).toThrow(/link.*not a directory \(a symbolic link\?\).*PARTNER_CACHE_DIR/);
  });

  it('refuses a directory open to other users, saying its mode', () => {
    mkdirSync(join(root, 'open'), { mode: 0o755 });
    chmodSync(join(root, 'open'), 0o755);
    expect(() => privateAddonDir(join(root, 'open'))).toThrow(/open to other users \(mode 755\)/);
    expect(() => seaNativeAddon('@napi-rs/keyring', { sea: fakeSea({ [addonAssetKey('@napi-rs/keyring')]: addon }), baseDir: join(root, 'open') })).toThrow(/will not load a native module/);
    expect(readdirSync(join(root, 'open'))).toEqual([]);
  });

  it('makes a missing directory (and its parents) 0700', () => {
    const dir = privateAddonDir(join(root, 'a', 'b'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });
});

// Another user is uid 65534 (nobody): as root, the test can give it directories.
const OTHER = 65534;
const asRoot = process.getuid?.() === 0;

/** A directory made with `mode` (chmod: no umask), owned by `uid` when given. */
function dirOf(path: string, mode: number, uid?: number): string {
  mkdirSync(path, { recursive: true });
  chmodSync(path, mode);
  if (uid !== undefined) chownSync(path, uid, uid);
  return path;
}

describe('the directories above the native directory', () => {
  it.skipIf(!asRoot)("refuses a cache in a shared sticky directory where another user made partner/ first, and loads nothing", () => {
    const shared = dirOf(join(root, 'shared'), 0o1777);
    dirOf(join(shared, 'partner'), 0o777, OTHER);
    const sea = fakeSea({ [addonAssetKey('@napi-rs/keyring')]: addon });
    expect(() => seaNativeAddon('@napi-rs/keyring', { sea, baseDir: join(shared, 'partner', 'native') })).toThrow(/shared\/partner holds partner's native directory but belongs to another user: partner will not load a native module from there.*PARTNER_CACHE_DIR/);
    expect(readdirSync(join(shared, 'partner', 'native'))).toEqual([]); // nothing extracted
  });

  it.skipIf(!asRoot)('refuses a directory further up that another user owns', () => {
    const theirs = dirOf(join(root, 'theirs'), 0o755, OTHER);
    expect(() => privateAddonDir(join(theirs, 'mine', 'native'))).toThrow(/theirs belongs to another user/);
  });

  it('refuses a directory further up that others can write (no sticky bit)', () => {
    const open = dirOf(join(root, 'open'), 0o777);
    expect(() => privateAddonDir(join(open, 'partner', 'native'))).toThrow(/open can be written by other users \(mode 777\)/);
  });

  it('refuses a sticky directory (like /tmp) as the direct parent', () => {
    const sticky = dirOf(join(root, 'sticky'), 0o1777);
    expect(() => privateAddonDir(join(sticky, 'native'))).toThrow(/sticky can be written by other users \(mode 1777\)/);
  });

  it("accepts the user's own directory in a sticky, root-owned one (another user cannot rename it)", () => {
    const sticky = dirOf(join(root, 'tmp'), 0o1777);
    expect(privateAddonDir(join(sticky, 'cache', 'native'))).toBe(join(sticky, 'cache', 'native'));
  });

  it('checks the path its links lead to as well as the path given', () => {
    const open = dirOf(join(root, 'open'), 0o777);
    const real = dirOf(join(open, 'real'), 0o700);
    symlinkSync(real, join(root, 'link'));
    expect(() => privateAddonDir(join(root, 'link', 'native'))).toThrow(/open can be written by other users/);
  });

  it.skipIf(!asRoot)("as another user sees it: root's sticky directory holding that user's own is accepted, root's plain directory as the parent is not", () => {
    const shared = dirOf(join(root, 'shared'), 0o1777);
    const theirs = dirOf(join(shared, 'partner'), 0o700, OTHER);
    dirOf(join(theirs, 'native'), 0o700, OTHER);
    chmodSync(root, 0o755); // mkdtemp's 0700 under /tmp
    expect(unsafeParent(join(theirs, 'native'), OTHER)).toBeUndefined();
    const rootOwned = dirOf(join(root, 'rootdir'), 0o755);
    dirOf(join(rootOwned, 'native'), 0o700, OTHER);
    expect(unsafeParent(join(rootOwned, 'native'), OTHER)).toEqual({ dir: rootOwned, problem: "holds partner's native directory but belongs to another user" });
  });
});

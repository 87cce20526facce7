import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configuredPager, notTrusted } from '../../../src/config/pager-setting.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A config dir holding config.json with `content`, at `mode`. */
function configDir(content: object, mode: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'partner-pager-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(content), { mode: 0o600 });
  chmodSync(join(dir, 'config.json'), mode);
  return dir;
}

const me = 1000;

describe('a file trusted to name a command', () => {
  it('is one the user owns that no one else can write', () => {
    expect(notTrusted({ uid: me, mode: 0o100600 }, me)).toBeUndefined();
    expect(notTrusted({ uid: me, mode: 0o100644 }, me)).toBeUndefined();
    expect(notTrusted({ uid: me, mode: 0o100666 }, me)).toBe('other users can write it (mode 666)');
    expect(notTrusted({ uid: me, mode: 0o100620 }, me)).toBe('other users can write it (mode 620)');
    expect(notTrusted({ uid: 0, mode: 0o100600 }, me)).toBe('it belongs to another user (uid 0)');
    // Windows: no owner or mode to read.
    expect(notTrusted({ uid: 0, mode: 0o100666 }, undefined)).toBeUndefined();
  });
});

describe("the config file's pager", () => {
  it('is read from a file of the user’s own', () => {
    const dir = configDir({ pager: 'less -R', profiles: {} }, 0o600);
    expect(configuredPager({ PARTNER_CONFIG_DIR: dir }, statSync(join(dir, 'config.json')).uid)).toEqual({ pager: 'less -R' });
  });

  it('is refused, with what to do, from a file others can write or another user owns', () => {
    const dir = configDir({ pager: 'evil --now', profiles: {} }, 0o666);
    const owner = statSync(join(dir, 'config.json')).uid;
    const wide = configuredPager({ PARTNER_CONFIG_DIR: dir }, owner);
    expect(wide.pager).toBeUndefined();
    expect(wide.refused).toMatch(/^the pager set in .*config\.json is not run: other users can write it \(mode 666\)\. Make the file yours alone \(`chmod 600 /);
    chmodSync(join(dir, 'config.json'), 0o600);
    const foreign = configuredPager({ PARTNER_CONFIG_DIR: dir }, owner + 1);
    expect(foreign.pager).toBeUndefined();
    expect(foreign.refused).toMatch(/not run: it belongs to another user \(uid \d+\)/);
  });

  it('turns paging off from any file ("" and cat run nothing); none when the file is absent or damaged', () => {
    const off = configDir({ pager: '', profiles: {} }, 0o666);
    expect(configuredPager({ PARTNER_CONFIG_DIR: off }, -1)).toEqual({ pager: '' });
    const none = configDir({ profiles: {} }, 0o666);
    expect(configuredPager({ PARTNER_CONFIG_DIR: none }, -1)).toEqual({ pager: undefined });
    expect(configuredPager({ PARTNER_CONFIG_DIR: join(none, 'absent') }, -1)).toEqual({ pager: undefined });
    writeFileSync(join(none, 'config.json'), '{ cut');
    expect(configuredPager({ PARTNER_CONFIG_DIR: none }, -1)).toEqual({});
  });
});

// The run's own guarantees (test/setup): every path partner derives lands in
// the run's temporary home, and the guard sees a change under a watched directory.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { cacheDir, configDir, stateDir } from '../../../src/config/paths.js';
import { tempDir } from '../../helpers/cli.js';
import { changes, snapshot } from '../../setup/home-watch.js';

describe('a test run is hermetic', () => {
  const home = inject('runHome');

  it("partner's directories, from this process's environment or from none (the passwd home), are in the run's home", () => {
    expect(home).toMatch(/partner-run-/);
    for (const env of [process.env, {}, { HOME: '' }]) {
      for (const dir of [configDir, cacheDir, stateDir]) expect(dir(env).startsWith(`${home}/`), dir.name).toBe(true);
    }
    expect(userInfo().homedir).toBe(home);
    expect(Object.keys(process.env).filter((k) => k.startsWith('PARTNER_') || k === 'DBUS_SESSION_BUS_ADDRESS')).toEqual([]);
  });
});

describe("the guard on the real home's partner directories", () => {
  let dir: ReturnType<typeof tempDir> | undefined;
  afterEach(() => dir?.cleanup());

  it('sees a directory made, a file added, a file grown and a file touched; nothing when nothing changed', () => {
    dir = tempDir();
    const watched = [join(dir.path, '.config', 'partner'), join(dir.path, '.local', 'state', 'partner')];
    const empty = snapshot(watched);
    expect(changes(empty, snapshot(watched))).toEqual([]);
    mkdirSync(watched[1]!, { recursive: true });
    writeFileSync(join(watched[1]!, 'audit.ndjson'), 'one\n');
    const one = snapshot(watched);
    expect(changes(empty, one).join('\n')).toMatch(/changed: .*state\/partner \(absent → dir.*\n.*added: .*audit\.ndjson/);
    writeFileSync(join(watched[1]!, 'audit.ndjson'), 'one\ntwo\n');
    expect(changes(one, snapshot(watched))).toEqual([expect.stringMatching(/^changed: .*audit\.ndjson \(file 4 .* → file 8 /)]);
    const two = snapshot(watched);
    utimesSync(join(watched[1]!, 'audit.ndjson'), new Date(0), new Date(0));
    expect(changes(two, snapshot(watched))).toEqual([expect.stringMatching(/^changed: .*audit\.ndjson/)]);
  });
});

// What a test run may not change: partner's directories as the account that runs
// the suite would find them outside it (from the environment the run started
// with, and from the passwd entry's home, which partner falls back to when a
// context has no HOME). A snapshot of each before the run, compared after it.
import { lstatSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { cacheDir, configDir, stateDir } from '../../src/config/paths.js';

/** path → "kind size mtime" for every entry under the watched directories ("absent" for one that is not there). */
export type Snapshot = Map<string, string>;

/** Every directory partner would derive for `env`, and for the passwd home alone (no XDG, no PARTNER_*). */
export function watchedDirs(env: NodeJS.ProcessEnv): string[] {
  const passwdHome = userInfo().homedir;
  const dirs = new Set<string>();
  for (const e of [env, { HOME: passwdHome }]) {
    for (const dir of [configDir, cacheDir, stateDir]) {
      try {
        dirs.add(dir(e));
      } catch {
        // A relative PARTNER_*_DIR in the developer's environment: partner refuses it, so it writes nothing there.
      }
    }
  }
  // Not derived by partner today, but where data of an XDG program goes: a future file there is caught too.
  dirs.add(join(env.XDG_DATA_HOME || join(passwdHome, '.local', 'share'), 'partner'));
  dirs.add(join(passwdHome, '.local', 'share', 'partner'));
  return [...dirs].sort();
}

function describe(path: string): string | undefined {
  try {
    const s = lstatSync(path);
    const kind = s.isDirectory() ? 'dir' : s.isSymbolicLink() ? 'link' : 'file';
    return `${kind} ${kind === 'dir' ? '' : s.size} ${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** The names, sizes and mtimes of everything under `dirs` (bounded: a huge tree is cut off and says so). */
export function snapshot(dirs: string[]): Snapshot {
  const seen: Snapshot = new Map();
  const walk = (path: string): void => {
    const d = describe(path);
    if (d === undefined) return void seen.set(path, 'absent');
    seen.set(path, d);
    if (!d.startsWith('dir') || seen.size > 50_000) return;
    let names: string[] = [];
    try {
      names = readdirSync(path);
    } catch {
      return void seen.set(path, `${d} (unreadable)`);
    }
    for (const name of names.sort()) walk(join(path, name));
  };
  for (const dir of dirs) walk(dir);
  return seen;
}

/** What changed between two snapshots, one line a path (empty when nothing did). */
export function changes(before: Snapshot, after: Snapshot): string[] {
  const lines: string[] = [];
  for (const [path, was] of before) {
    const now = after.get(path);
    if (now === undefined) lines.push(`removed: ${path} (was ${was})`);
    else if (now !== was) lines.push(`changed: ${path} (${was} → ${now})`);
  }
  for (const [path, now] of after) if (!before.has(path)) lines.push(`added: ${path} (${now})`);
  return lines;
}

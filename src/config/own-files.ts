// Which files a command may read or replace: an output is never one of its
// own inputs, and no flag reads or replaces partner's own state (profiles and
// tokens, drafts, the key-set cache, bulk journals, a webhook spool). Files are
// compared as the file system sees them: a relative path, a symlink and a hard
// link all name the same file (device + inode when it exists, the real path
// of its directory otherwise). Checked in the shared parse path (command.ts),
// before anything is read or sent.
import { lstatSync, openSync, readdirSync, readSync, closeSync, realpathSync, statSync, constants, type Stats } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { cacheDir, configDir, stateDir } from './paths.js';

/** How a path flag uses its file: read it, write it, or (a directory such as a spool) neither here. */
export type FileRole = 'input' | 'output' | 'dir';

/** One file a command was asked to use, and the flag that named it (for messages). */
export interface NamedFile {
  flag: string;
  path: string;
  role: 'input' | 'output';
}

/** Where a file really is: its real path (the directory's, when the file does not exist yet) and its identity when it exists. */
interface Where {
  real: string;
  stat?: Stats;
}

function where(path: string): Where {
  const abs = resolve(path);
  let stat: Stats | undefined;
  try {
    stat = statSync(abs);
  } catch {
    stat = undefined;
  }
  try {
    return { real: realpathSync(abs), stat };
  } catch {
    // Not there yet (or a dangling symlink): the real directory and the name it would get.
    try {
      return { real: join(realpathSync(dirname(abs)), basename(abs)), stat };
    } catch {
      return { real: abs, stat };
    }
  }
}

/** True when a and b name the same file: the same path after symlinks, or (both existing) the same device and inode. */
export function sameFile(a: string, b: string): boolean {
  const x = where(a);
  const y = where(b);
  if (x.stat && y.stat) return x.stat.dev === y.stat.dev && x.stat.ino === y.stat.ino;
  return x.real === y.real;
}

/** partner's own directories: the config dir (profiles, tokens, drafts, locks) and the cache dir (key sets). */
export function ownDirs(env: NodeJS.ProcessEnv): { dir: string; what: string }[] {
  return [
    { dir: configDir(env), what: "in partner's config directory (profiles, tokens, drafts)" },
    { dir: cacheDir(env), what: "in partner's cache directory (webhook key sets)" },
    { dir: stateDir(env), what: "in partner's state directory (the audit log)" },
  ];
}

function realDir(dir: string): string {
  try {
    return realpathSync(resolve(dir));
  } catch {
    return resolve(dir);
  }
}

function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** The files of dir and of its subdirectories (two levels: drafts/), for hard-link checks; never following symlinks. */
function filesOf(dir: string, depth = 2): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    const p = join(dir, name);
    let st: Stats;
    try {
      st = lstatSync(p);
    } catch {
      continue;
    }
    if (st.isFile()) out.push(p);
    else if (st.isDirectory() && depth > 1) out.push(...filesOf(p, depth - 1));
  }
  return out;
}

/** The first bytes of a regular file (never a FIFO or device, which could block), or '' when it cannot be read. */
function head(path: string, bytes = 64): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    if (!statSync(path).isFile()) return '';
    const buf = Buffer.alloc(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * What of partner's own state `path` is, in words, or undefined when it is
 * none: a file inside the config or cache directory (through any symlink),
 * a hard link to one, a bulk journal, a webhook spool's journal.
 */
export function ownFile(path: string, env: NodeJS.ProcessEnv): string | undefined {
  const w = where(path);
  for (const { dir, what } of ownDirs(env)) {
    if (inside(w.real, realDir(dir))) return what;
  }
  if (w.stat?.isFile()) {
    if (w.stat.nlink > 1) {
      for (const { dir, what } of ownDirs(env)) {
        for (const f of filesOf(realDir(dir))) {
          const s = statSync(f, { throwIfNoEntry: false });
          if (s && s.dev === w.stat.dev && s.ino === w.stat.ino) return `a hard link to a file ${what}`;
        }
      }
    }
    const start = head(w.real);
    if (/^\{\s*"kind"\s*:\s*"partner-bulk-journal"/.test(start)) return 'a bulk onboarding journal (it makes re-running gp create --from-csv safe)';
    if (basename(w.real) === 'journal.ndjson') return 'the journal of a webhook spool';
  }
  return undefined;
}

/**
 * Refuses (UsageError, exit 2) an output that is the same file as one of the
 * command's inputs or as another output, and any file (input or output) that
 * is partner's own state. "-" (stdin/stdout) is never a file here.
 */
export function checkFiles(files: readonly NamedFile[], env: NodeJS.ProcessEnv): void {
  const real = files.filter((f) => f.path !== '-');
  for (const f of real) {
    const own = ownFile(f.path, env);
    if (own === undefined) continue;
    if (f.role === 'output') {
      throw new UsageError(`${f.flag} ${f.path} is ${own}: partner never writes its output over its own files`, `Choose another path for ${f.flag}; nothing was sent.`, 'OWN_FILE');
    }
    throw new UsageError(`${f.flag} ${f.path} is ${own}: partner never reads or sends its own files`, 'Pass a file of your own (a copy without tokens or secrets, if you need its data); nothing was sent.', 'OWN_FILE');
  }
  const outputs = real.filter((f) => f.role === 'output');
  for (const out of outputs) {
    for (const other of real) {
      if (other === out) continue;
      if (!sameFile(out.path, other.path)) continue;
      const them = other.role === 'input' ? `the input ${other.flag} ${other.path}` : `the output ${other.flag} ${other.path}`;
      throw new UsageError(`${out.flag} ${out.path} is the same file as ${them}: it would be replaced`, `Choose another path for ${out.flag}; nothing was sent.`, 'SAME_FILE');
    }
  }
}

// Drafts of half-filled forms: personal data, so 0600 files in a 0700
// directory under the config dir. A draft belongs to the run that made it:
// every draft is a file of its own (`gp-<entity>-<hash>.<id>.json`,
// `dynamic-<employee>-<hash>.<id>.json`), so several drafts for one entity
// coexist and no run replaces or deletes another's. Files of the earlier
// one-per-entity layout (`gp-<entity>-<hash>.json`) are read as they are; their
// id is the hash in their name. Written atomically (temp file, rename: never
// through a symlink), read without following one, each write under its lock.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, ExitCode } from '../errors.js';
import { configDir } from '../config/paths.js';
import { underLock } from '../config/locked-file.js';
import { ensurePrivateDir, writePrivateFile } from '../config/secure-files.js';
import { isObj } from './schema.js';

/** A draft file larger than this is not one we wrote: it is not read. */
export const MAX_DRAFT_BYTES = 4 * 1024 * 1024;

interface Common {
  /** The draft's id (from its file name): what --draft and `drafts discard` take. */
  id: string;
  version: 1;
  entity: string;
  answers: Record<string, unknown>;
  /** Questions already answered (or skipped), by dot path, so --resume continues where it stopped. */
  asked: string[];
  /** The steps answered, oldest first (ids, never values), so Esc goes back past the resume point. */
  history?: string[];
  savedAt: string;
}

export interface GpDraft extends Common {
  kind: 'gp-create';
}

export interface DynamicDraft extends Common {
  kind: 'dynamic-details';
  employeeId: string;
  employeeCode?: string;
}

export type Draft = GpDraft | DynamicDraft;

/** A draft file of this user that cannot be read (cut, not JSON, too large, not a draft's shape): listed so it can be discarded. */
export interface DamagedDraft {
  id: string;
  /** What the file name says it was. */
  kind: 'gp-create' | 'dynamic-details';
  /** Why it cannot be read, in a few words. */
  damaged: string;
  /** When the file was last written (ISO 8601). */
  savedAt: string;
}

/** What one draft file is to this user: a draft, a damaged draft, or nothing of theirs (another user's file, gone, not a file). */
type Found = { draft: Draft } | { damaged: DamagedDraft } | undefined;

/** The current user (undefined where there are no uids: Windows). */
const myUid = (): number | undefined => process.getuid?.();

/** What a save is given: the draft without what the store adds. */
type Content<D> = Omit<D, 'id' | 'kind' | 'version' | 'savedAt'>;

/** A draft's list of ids (asked, history), whatever the file holds: only strings survive. */
function ids(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function slug(text: string): string {
  const base = text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'entity';
  return `${base}-${createHash('sha256').update(text).digest('hex').slice(0, 8)}`;
}

/** `gp-acme-1a2b3c4d.9f8e7d6c.json` (id 9f8e7d6c) or the earlier `gp-acme-1a2b3c4d.json` (id 1a2b3c4d). */
const FILE = /^(gp|dynamic)-[a-z0-9-]*-([0-9a-f]{8})(?:\.([0-9a-f]{8}))?\.json$/;

/** The id of a draft file, or undefined when the name is not a draft's. */
export function idOf(file: string): string | undefined {
  const m = FILE.exec(file);
  return m ? (m[3] ?? m[2]) : undefined;
}

export class DraftStore {
  readonly dir: string;

  constructor(
    env: NodeJS.ProcessEnv,
    private readonly now: () => number = Date.now,
    private readonly random: () => string = () => randomBytes(4).toString('hex'),
  ) {
    this.dir = join(configDir(env), 'drafts');
  }

  /** A new id, not taken by a draft on disk. */
  newId(): string {
    const taken = new Set(this.files().map(idOf));
    for (;;) {
      const id = this.random();
      if (!taken.has(id)) return id;
    }
  }

  /** Every readable draft, newest first (drafts of the same second in id order). */
  list(): Draft[] {
    return this.scan().drafts;
  }

  /** Every draft file of this user, readable or damaged, each kind newest first; another user's files are left out and left alone. */
  scan(): { drafts: Draft[]; damaged: DamagedDraft[] } {
    const drafts: Draft[] = [];
    const damaged: DamagedDraft[] = [];
    for (const file of this.files()) {
      const f = this.inspect(file);
      if (f && 'draft' in f) drafts.push(f.draft);
      else if (f) damaged.push(f.damaged);
    }
    const newest = (a: { savedAt: string; id: string }, b: { savedAt: string; id: string }) => b.savedAt.localeCompare(a.savedAt) || a.id.localeCompare(b.id);
    return { drafts: drafts.sort(newest), damaged: damaged.sort(newest) };
  }

  /** The drafts of `gp create` for this entity, newest first. */
  gpDrafts(entity: string): GpDraft[] {
    return this.list().filter((d): d is GpDraft => d.kind === 'gp-create' && d.entity === entity);
  }

  /** The drafts of `dynamic-details submit` for this employee, newest first. */
  dynamicDrafts(employeeId: string): DynamicDraft[] {
    return this.list().filter((d): d is DynamicDraft => d.kind === 'dynamic-details' && d.employeeId === employeeId);
  }

  /** The draft with this id, or undefined. */
  get(id: string): Draft | undefined {
    const file = this.files().find((f) => idOf(f) === id);
    const found = file === undefined ? undefined : this.inspect(file);
    return found && 'draft' in found ? found.draft : undefined;
  }

  /** Saves (or replaces) the gp create draft `id`: a run saves only its own. */
  saveGp(id: string, draft: Content<GpDraft>): void {
    this.write(this.fileFor('gp', draft.entity, id), { kind: 'gp-create', version: 1, ...draft });
  }

  /** Saves (or replaces) the dynamic-details draft `id`. */
  saveDynamic(id: string, draft: Content<DynamicDraft>): void {
    this.write(this.fileFor('dynamic', draft.employeeId, id), { kind: 'dynamic-details', version: 1, ...draft });
  }

  /** Deletes the draft `id` (whatever its kind, damaged too); false when there was none of this user's. */
  delete(id: string): boolean {
    const file = this.files().find((f) => idOf(f) === id && this.inspect(f) !== undefined);
    if (file === undefined) return false;
    const path = join(this.dir, file);
    underLock(path, `the draft ${path}`, () => rmSync(path, { force: true }));
    return true;
  }

  /** The file of draft `id`: the one on disk (an earlier layout's name included), or a new name. */
  private fileFor(prefix: 'gp' | 'dynamic', owner: string, id: string): string {
    const onDisk = this.files().find((f) => idOf(f) === id && f.startsWith(`${prefix}-`));
    if (onDisk !== undefined) return join(this.dir, onDisk);
    const s = slug(owner);
    // A legacy draft's id is the hash in its name: saved again, it keeps that name.
    return join(this.dir, s.endsWith(`-${id}`) ? `${prefix}-${s}.json` : `${prefix}-${s}.${id}.json`);
  }

  /** The names of the draft files (locks, temp files and anything else left out). */
  private files(): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    return names.filter((n) => idOf(n) !== undefined).sort();
  }

  // Writes hold DRAFT.lock: two processes continuing one draft save one at a time, each file whole.
  private write(path: string, draft: Record<string, unknown>): void {
    this.ensureDir();
    // Never over another user's file (root saving into a directory it shares): it is theirs to keep.
    const uid = myUid();
    let owner: number | undefined;
    try {
      owner = lstatSync(path).uid;
    } catch {
      owner = undefined;
    }
    if (uid !== undefined && owner !== undefined && owner !== uid) {
      throw new CliError(`The draft ${path} belongs to another user; it is not replaced`, { code: 'DRAFT_NOT_OURS', exitCode: ExitCode.FAILURE, hint: 'Start a new draft (leave out --draft), or point PARTNER_CONFIG_DIR at a directory of your own.' });
    }
    underLock(path, `the draft ${path}`, () => writePrivateFile(path, `${JSON.stringify({ ...draft, savedAt: new Date(this.now()).toISOString() }, null, 2)}\n`));
  }

  /** The drafts directory, created 0700; never a symlink (drafts would land wherever it points). */
  private ensureDir(): void {
    let isLink = false;
    try {
      isLink = lstatSync(this.dir).isSymbolicLink();
    } catch {
      isLink = false;
    }
    if (isLink) {
      throw new CliError(`The drafts directory ${this.dir} is a symbolic link; drafts are never written through one`, {
        code: 'DRAFTS_DIR',
        exitCode: ExitCode.FAILURE,
        hint: `Remove the link (drafts are kept in a private directory of their own), then run the command again.`,
      });
    }
    ensurePrivateDir(this.dir);
  }

  /**
   * One draft file as this user finds it: opened without following a
   * symlink, a regular file of this user's (another user's file is neither
   * read nor changed: root's `drafts list` must not claim it), of bounded
   * size, its mode tightened to 0600; readable as a draft, or damaged.
   */
  private inspect(file: string): Found {
    const path = join(this.dir, file);
    const id = idOf(file)!;
    const kind = file.startsWith('gp-') ? 'gp-create' : 'dynamic-details';
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch {
      return undefined;
    }
    try {
      const st = fstatSync(fd);
      const uid = myUid();
      if (!st.isFile() || (uid !== undefined && st.uid !== uid)) return undefined;
      const damaged = (why: string): Found => ({ damaged: { id, kind, damaged: why, savedAt: st.mtime.toISOString() } });
      if (st.size > MAX_DRAFT_BYTES) return damaged(`larger than ${MAX_DRAFT_BYTES / 1024 / 1024} MiB`);
      if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) fchmodSync(fd, 0o600);
      let v: unknown;
      try {
        v = JSON.parse(readFileSync(fd, 'utf8'));
      } catch {
        return damaged('not valid JSON (cut short, or edited)');
      }
      const draft = isObj(v) ? this.parse(file, v) : undefined;
      return draft ? { draft } : damaged('not a draft of partner (fields missing)');
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  }

  private parse(file: string, d: Record<string, unknown>): Draft | undefined {
    const id = idOf(file)!;
    if (!isObj(d.answers) || typeof d.entity !== 'string' || typeof d.savedAt !== 'string') return undefined;
    const common = { id, version: 1 as const, entity: d.entity, answers: d.answers, asked: ids(d.asked), history: ids(d.history), savedAt: d.savedAt };
    if (d.kind === 'gp-create' && file.startsWith('gp-')) return { kind: 'gp-create', ...common };
    if (d.kind === 'dynamic-details' && file.startsWith('dynamic-') && typeof d.employeeId === 'string') {
      return { kind: 'dynamic-details', ...common, employeeId: d.employeeId, ...(typeof d.employeeCode === 'string' ? { employeeCode: d.employeeCode } : {}) };
    }
    return undefined;
  }
}

/** The person a draft is about, as typed (first and last name, or the work e-mail), for lists and the picker; '' when nothing was typed yet. */
export function draftName(answers: Record<string, unknown>): string {
  const found: Record<'first' | 'last' | 'email', string | undefined> = { first: undefined, last: undefined, email: undefined };
  const walk = (v: unknown, depth: number): void => {
    if (!isObj(v) || depth > 4) return;
    for (const key of Object.keys(v)) {
      const x = v[key];
      if (typeof x === 'string' && x.trim() !== '') {
        const k = key.toLowerCase();
        if (/^(first|given)_?name$/.test(k)) found.first ??= x.trim();
        else if (/^(last|family|sur)_?name$/.test(k)) found.last ??= x.trim();
        else if (/^(work)?_?e?mail$/.test(k)) found.email ??= x.trim();
      } else walk(x, depth + 1);
    }
  };
  walk(answers, 0);
  const name = [found.first, found.last].filter((x) => x !== undefined).join(' ');
  return (name || found.email || '').slice(0, 80);
}

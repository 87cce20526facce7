// Drafts of half-filled forms: personal data, so 0600 files in a 0700
// directory under the config dir. One draft per legal entity for `gp create`,
// one per employee for `dynamic-details submit`.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { configDir } from '../config/paths.js';
import { underLock } from '../config/locked-file.js';
import { ensurePrivateDir, tightenIfWide, writePrivateFile } from '../config/secure-files.js';
import { isObj } from './schema.js';

export interface GpDraft {
  kind: 'gp-create';
  version: 1;
  entity: string;
  answers: Record<string, unknown>;
  /** Questions already answered (or skipped), by dot path, so --resume continues where it stopped. */
  asked: string[];
  /** The steps answered, oldest first (ids, never values), so Esc goes back past the resume point. */
  history?: string[];
  savedAt: string;
}

export interface DynamicDraft {
  kind: 'dynamic-details';
  version: 1;
  employeeId: string;
  employeeCode?: string;
  entity: string;
  answers: Record<string, unknown>;
  asked: string[];
  history?: string[];
  savedAt: string;
}

/** A draft's list of ids (asked, history), whatever the file holds: only strings survive. */
function ids(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function slug(text: string): string {
  const base = text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'entity';
  return `${base}-${createHash('sha256').update(text).digest('hex').slice(0, 8)}`;
}

export class DraftStore {
  readonly dir: string;

  constructor(
    env: NodeJS.ProcessEnv,
    private readonly now: () => number = Date.now,
  ) {
    this.dir = join(configDir(env), 'drafts');
  }

  gpPath(entity: string): string {
    return join(this.dir, `gp-${slug(entity)}.json`);
  }

  dynamicPath(employeeId: string): string {
    return join(this.dir, `dynamic-${slug(employeeId)}.json`);
  }

  loadGp(entity: string): GpDraft | undefined {
    const d = this.read(this.gpPath(entity));
    return d && d.kind === 'gp-create' && d.entity === entity && isObj(d.answers) ? ({ ...d, asked: ids(d.asked), history: ids(d.history) } as unknown as GpDraft) : undefined;
  }

  saveGp(draft: Omit<GpDraft, 'kind' | 'version' | 'savedAt'>): void {
    this.write(this.gpPath(draft.entity), { kind: 'gp-create', version: 1, ...draft });
  }

  deleteGp(entity: string): void {
    this.remove(this.gpPath(entity));
  }

  loadDynamic(employeeId: string): DynamicDraft | undefined {
    const d = this.read(this.dynamicPath(employeeId));
    return d && d.kind === 'dynamic-details' && d.employeeId === employeeId && isObj(d.answers) ? ({ ...d, asked: ids(d.asked), history: ids(d.history) } as unknown as DynamicDraft) : undefined;
  }

  saveDynamic(draft: Omit<DynamicDraft, 'kind' | 'version' | 'savedAt'>): void {
    this.write(this.dynamicPath(draft.employeeId), { kind: 'dynamic-details', version: 1, ...draft });
  }

  deleteDynamic(employeeId: string): void {
    this.remove(this.dynamicPath(employeeId));
  }

  // Writes and removals hold DRAFT.lock: two wizards on one draft (two terminals) save one at a time, each file whole.
  private write(path: string, draft: Record<string, unknown>): void {
    ensurePrivateDir(this.dir);
    underLock(path, `the draft ${path}`, () => writePrivateFile(path, `${JSON.stringify({ ...draft, savedAt: new Date(this.now()).toISOString() }, null, 2)}\n`));
  }

  private remove(path: string): void {
    if (!existsSync(this.dir)) return;
    underLock(path, `the draft ${path}`, () => rmSync(path, { force: true }));
  }

  private read(path: string): Record<string, unknown> | undefined {
    let text: string;
    try {
      tightenIfWide(path);
      text = readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
    try {
      const v = JSON.parse(text) as unknown;
      return isObj(v) ? v : undefined;
    } catch {
      return undefined;
    }
  }
}

// `partner drafts list` and `partner drafts discard`: every
// draft of both commands, filtered by entity or employee, newest first, never
// the answers themselves; discarding by id or --all, and nothing deleted when
// an id is unknown or --all is not confirmed.
import { chownSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discard } from '../../../../src/commands/drafts/discard.js';
import { list } from '../../../../src/commands/drafts/list.js';
import { DraftStore } from '../../../../src/forms/drafts.js';
import { runInProcess } from '../../../helpers/command.js';

let dir: string;
const drafts = () => readdirSync(join(dir, 'config', 'drafts')).length;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-drafts-'));
  let t = Date.UTC(2026, 10, 28, 1, 0, 0);
  const ids = ['aaaaaaaa', 'bbbbbbbb', 'cccccccc'];
  const s = new DraftStore({ PARTNER_CONFIG_DIR: join(dir, 'config') }, () => (t += 60_000), () => ids.shift()!);
  s.saveGp('aaaaaaaa', { entity: 'Acme AB', answers: { personal: { firstName: 'Kurt', taxNote: 'x' } }, asked: ['personal.firstName', 'section:personal'] });
  s.saveDynamic('bbbbbbbb', { employeeId: 'e1', employeeCode: 'X-1', entity: 'Acme AB', answers: {}, asked: [] });
  s.saveGp('cccccccc', { entity: 'Other Ltd', answers: {}, asked: [] });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('drafts list', () => {
  it('every draft, newest first, as records without the answers', async () => {
    const r = await runInProcess(list, [], {}, { dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual([
      { id: 'cccccccc', command: 'gp create', entity: 'Other Ltd', employee: null, name: null, savedAt: '2026-11-28T01:03:00.000Z', answered: 0, resume: 'partner gp create --draft cccccccc', damaged: null },
      { id: 'bbbbbbbb', command: 'dynamic-details submit', entity: 'Acme AB', employee: 'X-1', name: null, savedAt: '2026-11-28T01:02:00.000Z', answered: 0, resume: 'partner dynamic-details submit e1 --draft bbbbbbbb', damaged: null },
      { id: 'aaaaaaaa', command: 'gp create', entity: 'Acme AB', employee: null, name: 'Kurt', savedAt: '2026-11-28T01:01:00.000Z', answered: 1, resume: 'partner gp create --draft aaaaaaaa', damaged: null },
    ]);
  });

  it.each([
    [{ entity: 'Acme AB' }, ['bbbbbbbb', 'aaaaaaaa']],
    [{ employee: 'X-1' }, ['bbbbbbbb']],
    [{ employee: 'E1' }, ['bbbbbbbb']],
    [{ employee: 'x-1' }, []],
    [{ entity: 'Other Ltd', employee: 'X-1' }, []],
  ])('filters %j', async (raw, ids) => {
    const r = await runInProcess(list, [], raw, { dir });
    expect((JSON.parse(r.out) as { id: string }[]).map((d) => d.id)).toEqual(ids);
  });

  it('none left: a table says "No saved drafts." in place of "No results.", once; JSON is [] with the note on a terminal\'s stderr', async () => {
    await runInProcess(discard, [], { all: true, yes: true }, { dir });
    const table = await runInProcess(list, [], {}, { dir, tty: true });
    expect(table.out).toBe('No saved drafts.\n');
    expect(table.err).toBe('');
    const piped = await runInProcess(list, [], { output: 'table' }, { dir });
    expect(piped.out).toBe('No saved drafts.\n');
    expect(piped.err).toBe('');
    const json = await runInProcess(list, [], { output: 'json' }, { dir, tty: true });
    expect(JSON.parse(json.out)).toEqual([]);
    expect(json.err).toBe('No saved drafts.\n');
    expect((await runInProcess(list, [], { entity: 'Nobody' }, { dir, tty: true })).out).toBe('No saved drafts for Nobody.\n');
  });

  it('-q prints the ids; a table on a terminal', async () => {
    expect((await runInProcess(list, [], { quiet: true }, { dir })).out).toBe('cccccccc\nbbbbbbbb\naaaaaaaa\n');
    const table = await runInProcess(list, [], {}, { dir, tty: true, columns: 120 });
    expect(table.out).toMatch(/ID\s+SAVED\s+COMMAND\s+ENTITY/);
    expect(table.out).toContain('Kurt');
  });
});

describe('drafts discard', () => {
  it('by id: only those', async () => {
    const r = await runInProcess(discard, ['aaaaaaaa', 'cccccccc'], {}, { dir });
    expect(r.code).toBe(0);
    expect(r.err).toBe('Discarded draft cccccccc (gp create, Other Ltd).\nDiscarded draft aaaaaaaa (gp create, Acme AB, Kurt).\n');
    expect(drafts()).toBe(1);
  });

  it('an unknown id deletes nothing (exit 2)', async () => {
    await expect(runInProcess(discard, ['aaaaaaaa', 'dddddddd'], {}, { dir })).rejects.toMatchObject({ code: 'NO_DRAFT', exitCode: 2 });
    expect(drafts()).toBe(3);
  });

  it('--all needs --yes off a terminal; with filters it deletes only those', async () => {
    await expect(runInProcess(discard, [], { all: true }, { dir })).rejects.toMatchObject({ code: 'CONFIRMATION_REQUIRED', exitCode: 2 });
    expect(drafts()).toBe(3);
    const r = await runInProcess(discard, [], { all: true, yes: true, entity: 'Acme AB' }, { dir });
    expect(r.err).toBe('Discarded draft bbbbbbbb (dynamic-details submit, Acme AB, X-1).\nDiscarded draft aaaaaaaa (gp create, Acme AB, Kurt).\n');
    expect(drafts()).toBe(1);
    expect((await runInProcess(discard, [], { all: true, yes: true, entity: 'Nobody' }, { dir })).err).toBe('No saved drafts; nothing was discarded.\n');
  });

  it.each([
    [[], {}, 'MISSING_ARGUMENT'],
    [['aaaaaaaa'], { all: true }, 'INVALID_OPTION'],
    [['aaaaaaaa'], { yes: true }, 'INVALID_OPTION'],
    [['zz'], {}, 'INVALID_OPTION'],
  ])('%j %j is a usage error', async (args, raw, code) => {
    await expect(runInProcess(discard, args, raw, { dir })).rejects.toMatchObject({ code, exitCode: 2 });
    expect(drafts()).toBe(3);
  });
});

describe('drafts that cannot be read, and drafts of another user', () => {
  const file = (id: string) => readdirSync(join(dir, 'config', 'drafts')).find((f) => f.includes(`.${id}.json`))!;
  const path = (id: string) => join(dir, 'config', 'drafts', file(id));

  it('a cut draft and a 5 MiB one are listed as damaged, saying why, and `drafts discard ID` discards them', async () => {
    writeFileSync(path('aaaaaaaa'), '{"kind":"gp-create","entity":"Acme');
    truncateSync(path('cccccccc'), 5 * 1024 * 1024);
    const r = await runInProcess(list, ['-o', 'json'], {}, { dir });
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.out) as { id: string; damaged: string | null; resume: string | null }[];
    // The readable draft first, then the damaged ones.
    expect(rows[0]).toMatchObject({ id: 'bbbbbbbb', damaged: null });
    expect(rows.slice(1).map((x) => [x.id, x.damaged]).sort()).toEqual([
      ['aaaaaaaa', 'not valid JSON (cut short, or edited)'],
      ['cccccccc', 'larger than 4 MiB'],
    ]);
    expect(rows.find((x) => x.id === 'aaaaaaaa')!.resume).toBeNull();
    expect(r.err).toMatch(/2 drafts cannot be read \(listed as damaged\); discard with: partner drafts discard/);
    const d = await runInProcess(discard, ['cccccccc', 'aaaaaaaa'], {}, { dir });
    expect(d.code).toBe(0);
    expect(d.err).toContain('Discarded damaged draft cccccccc');
    expect(drafts()).toBe(1);
  });

  it('drafts discard --all --yes takes the damaged ones too (with a filter, only readable drafts it selects)', async () => {
    writeFileSync(path('aaaaaaaa'), 'not json');
    const filtered = await runInProcess(discard, [], { all: true, yes: true, entity: 'Other Ltd' }, { dir });
    expect(filtered.code).toBe(0);
    expect(drafts()).toBe(2);
    const all = await runInProcess(discard, [], { all: true, yes: true }, { dir });
    expect(all.code).toBe(0);
    expect(all.err).toContain('Discarded damaged draft aaaaaaaa');
    expect(drafts()).toBe(0);
  });

  it.skipIf(process.getuid?.() !== 0)("another user's draft (0644) is neither listed as one's own, changed, nor discarded", async () => {
    const p = path('aaaaaaaa');
    chownSync(p, 65534, 65534);
    const { chmodSync } = await import('node:fs');
    chmodSync(p, 0o644);
    const r = await runInProcess(list, ['-o', 'json'], {}, { dir });
    expect((JSON.parse(r.out) as { id: string }[]).map((x) => x.id)).toEqual(['cccccccc', 'bbbbbbbb']);
    expect(statSync(p).mode & 0o777).toBe(0o644);
    expect(statSync(p).uid).toBe(65534);
    await expect(runInProcess(discard, ['aaaaaaaa'], {}, { dir })).rejects.toMatchObject({ code: 'NO_DRAFT' });
    expect(statSync(p).uid).toBe(65534);
    // Nor replaced by a save under its id.
    const store = new DraftStore({ PARTNER_CONFIG_DIR: join(dir, 'config') });
    expect(() => store.saveGp('aaaaaaaa', { entity: 'Acme AB', answers: {}, asked: [] })).toThrow(/belongs to another user/);
    expect(statSync(p).uid).toBe(65534);
    // A new draft never takes its id.
    expect(new DraftStore({ PARTNER_CONFIG_DIR: join(dir, 'config') }, Date.now, (() => { const ids = ['aaaaaaaa', 'dddddddd']; return () => ids.shift()!; })()).newId()).toBe('dddddddd');
  });
});

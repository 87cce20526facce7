// The draft store: one file per draft, several per entity,
// ids from file names (the earlier one-per-entity layout included), reads that
// never follow a symlink or take a file that is not a draft, 0600 files in a
// 0700 directory, and the name a list shows.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DraftStore, draftName, idOf, MAX_DRAFT_BYTES } from '../../../src/forms/drafts.js';
import { tempDir } from '../../helpers/cli.js';

let dir: { path: string; cleanup: () => void };
let clock: number;
let ids: string[];
const store = () =>
  new DraftStore(
    { PARTNER_CONFIG_DIR: join(dir.path, 'cfg') },
    () => clock,
    () => ids.shift()!,
  );
const draftsDir = () => join(dir.path, 'cfg', 'drafts');
const gp = (entity: string, answers: Record<string, unknown> = {}) => ({ entity, answers, asked: Object.keys(answers), history: [] });

beforeEach(() => {
  dir = tempDir();
  clock = Date.UTC(2026, 10, 28, 1, 0, 0);
  ids = ['aaaaaaaa', 'bbbbbbbb', 'cccccccc', 'dddddddd'];
});
afterEach(() => dir.cleanup());

describe('idOf', () => {
  it.each([
    ['gp-acme-ab-1a2b3c4d.9f8e7d6c.json', '9f8e7d6c'],
    ['gp-acme-ab-1a2b3c4d.json', '1a2b3c4d'],
    ['dynamic-e1-1a2b3c4d.0000ffff.json', '0000ffff'],
    ['gp--1a2b3c4d.json', '1a2b3c4d'],
  ])('%s is draft %s', (file, id) => expect(idOf(file)).toBe(id));

  it.each(['gp-acme-1a2b3c4d.json.lock', '.abc.tmp', 'gp-acme-1a2b3c4d.9f8e7d6.json', 'other-acme-1a2b3c4d.json', 'gp-acme-1A2B3C4D.json', 'xgp-acme-1a2b3c4d.json', 'gp-acme-1a2b3c4d.9f8e7d6c.jsonx', 'gp-acme-1a2b3c4d'])('%s is no draft', (file) => expect(idOf(file)).toBeUndefined());
});

describe('DraftStore', () => {
  it('keeps several drafts for one entity side by side, newest first, each 0600 in a 0700 directory', () => {
    const s = store();
    s.saveGp('aaaaaaaa', gp('Acme AB', { personal: { firstName: 'Kurt' } }));
    clock += 1000;
    s.saveGp('bbbbbbbb', gp('Acme AB', { personal: { firstName: 'Grace' } }));
    s.saveGp('cccccccc', gp('Other Ltd'));
    expect(s.gpDrafts('Acme AB').map((d) => [d.id, d.answers])).toEqual([
      ['bbbbbbbb', { personal: { firstName: 'Grace' } }],
      ['aaaaaaaa', { personal: { firstName: 'Kurt' } }],
    ]);
    expect(s.list().map((d) => d.id)).toEqual(['bbbbbbbb', 'cccccccc', 'aaaaaaaa']);
    expect(readdirSync(draftsDir())).toHaveLength(3);
    expect(statSync(draftsDir()).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(draftsDir())) expect(statSync(join(draftsDir(), f)).mode & 0o777).toBe(0o600);
    expect(s.gpDrafts('Acme AB')[0]).toEqual({ kind: 'gp-create', id: 'bbbbbbbb', version: 1, entity: 'Acme AB', answers: { personal: { firstName: 'Grace' } }, asked: ['personal'], history: [], savedAt: '2026-11-28T01:00:01.000Z' });
  });

  it('saving draft X again replaces only X; deleting X leaves the others', () => {
    const s = store();
    s.saveGp('aaaaaaaa', gp('Acme AB', { a: 1 }));
    s.saveGp('bbbbbbbb', gp('Acme AB', { b: 1 }));
    s.saveGp('aaaaaaaa', gp('Acme AB', { a: 2 }));
    expect(readdirSync(draftsDir())).toHaveLength(2);
    expect(s.get('aaaaaaaa')?.answers).toEqual({ a: 2 });
    expect(s.get('bbbbbbbb')?.answers).toEqual({ b: 1 });
    expect(s.delete('aaaaaaaa')).toBe(true);
    expect(s.delete('aaaaaaaa')).toBe(false);
    expect(s.list().map((d) => d.id)).toEqual(['bbbbbbbb']);
    expect(s.get('aaaaaaaa')).toBeUndefined();
  });

  it('dynamic-details drafts are kept per employee, with the code', () => {
    const s = store();
    s.saveDynamic('aaaaaaaa', { employeeId: 'e1', employeeCode: 'X-1', entity: 'Acme AB', answers: { b: { note: 'n' } }, asked: ['b.note'], history: ['b.note'] });
    s.saveDynamic('bbbbbbbb', { employeeId: 'e2', entity: 'Acme AB', answers: {}, asked: [] });
    expect(s.dynamicDrafts('e1')).toEqual([{ kind: 'dynamic-details', id: 'aaaaaaaa', version: 1, entity: 'Acme AB', employeeId: 'e1', employeeCode: 'X-1', answers: { b: { note: 'n' } }, asked: ['b.note'], history: ['b.note'], savedAt: '2026-11-28T01:00:00.000Z' }]);
    expect(s.dynamicDrafts('e2')[0]).not.toHaveProperty('employeeCode');
    expect(s.gpDrafts('Acme AB')).toEqual([]);
    expect(readdirSync(draftsDir()).every((f) => f.startsWith('dynamic-'))).toBe(true);
  });

  it('newId never hands out an id a draft on disk has', () => {
    const s = store();
    s.saveGp('aaaaaaaa', gp('Acme AB'));
    ids = ['aaaaaaaa', 'aaaaaaaa', 'bbbbbbbb'];
    expect(s.newId()).toBe('bbbbbbbb');
    expect(new DraftStore({ PARTNER_CONFIG_DIR: join(dir.path, 'x') }).newId()).toMatch(/^[0-9a-f]{8}$/);
  });

  it('reads a draft of the earlier one-per-entity layout in place, and saves it under its own name', () => {
    const entity = 'Acme India Pvt Ltd';
    const hash = createHash('sha256').update(entity).digest('hex').slice(0, 8);
    mkdirSync(draftsDir(), { recursive: true });
    const legacy = join(draftsDir(), `gp-acme-india-pvt-ltd-${hash}.json`);
    writeFileSync(legacy, JSON.stringify({ kind: 'gp-create', version: 1, entity, answers: { personal: { firstName: 'Meera' } }, asked: ['personal.firstName', 7], savedAt: '2026-01-01T00:00:00.000Z' }));
    const s = store();
    expect(s.gpDrafts(entity)).toEqual([{ kind: 'gp-create', id: hash, version: 1, entity, answers: { personal: { firstName: 'Meera' } }, asked: ['personal.firstName'], history: [], savedAt: '2026-01-01T00:00:00.000Z' }]);
    s.saveGp(hash, gp(entity, { personal: { firstName: 'Meera', lastName: 'Iyer' } }));
    expect(readdirSync(draftsDir())).toEqual([`gp-acme-india-pvt-ltd-${hash}.json`]);
    expect(JSON.parse(readFileSync(legacy, 'utf8')).answers.personal.lastName).toBe('Iyer');
    // A new draft for the entity sits beside it.
    s.saveGp('aaaaaaaa', gp(entity));
    expect(readdirSync(draftsDir()).sort()).toEqual([`gp-acme-india-pvt-ltd-${hash}.aaaaaaaa.json`, `gp-acme-india-pvt-ltd-${hash}.json`]);
  });

  it('a legacy id saved as a new draft of its entity takes the legacy name', () => {
    const entity = 'Acme AB';
    const hash = createHash('sha256').update(entity).digest('hex').slice(0, 8);
    store().saveGp(hash, gp(entity));
    expect(readdirSync(draftsDir())).toEqual([`gp-acme-ab-${hash}.json`]);
  });

  it('leaves out files that are not drafts: the wrong kind for the name, bad JSON, no answers, wrong types, too large, not a file', () => {
    mkdirSync(draftsDir(), { recursive: true });
    const put = (name: string, v: unknown) => writeFileSync(join(draftsDir(), name), typeof v === 'string' ? v : JSON.stringify(v));
    const ok = { kind: 'gp-create', entity: 'A', answers: {}, asked: [], savedAt: '2026-01-01T00:00:00.000Z' };
    put('gp-a-00000001.json', ok);
    put('dynamic-a-00000002.json', ok);
    put('gp-a-00000003.json', { ...ok, kind: 'dynamic-details', employeeId: 'e' });
    put('dynamic-a-00000004.json', { ...ok, kind: 'dynamic-details' });
    put('gp-a-00000005.json', '{not json');
    put('gp-a-00000006.json', { ...ok, answers: [] });
    put('gp-a-00000007.json', { ...ok, entity: 7 });
    put('gp-a-00000008.json', { ...ok, savedAt: 7 });
    put('gp-a-00000009.json', '[]');
    put('gp-a-0000000a.json', `{"kind":"gp-create","entity":"A","answers":{},"asked":[],"savedAt":"x","pad":"${'x'.repeat(MAX_DRAFT_BYTES)}"}`);
    mkdirSync(join(draftsDir(), 'gp-a-0000000b.json'));
    put('gp-a-0000000c.json.lock', ok);
    put('dynamic-a-0000000d.json', { ...ok, kind: 'dynamic-details', employeeId: 'e', employeeCode: 5 });
    put('gp-a-0000000e.json', { ...ok, answers: null });
    expect(store().list().map((d) => d.id)).toEqual(['00000001', '0000000d']);
    expect(store().get('0000000d')).not.toHaveProperty('employeeCode');
    expect(store().get('00000005')).toBeUndefined();
    expect(store().get('0000000c')).toBeUndefined();
  });

  it('never reads through a symlink, and never writes into a symlinked drafts directory', () => {
    mkdirSync(draftsDir(), { recursive: true });
    const secret = join(dir.path, 'secret.json');
    writeFileSync(secret, JSON.stringify({ kind: 'gp-create', entity: 'A', answers: { token: 's' }, asked: [], savedAt: '2026-01-01T00:00:00.000Z' }), { mode: 0o644 });
    symlinkSync(secret, join(draftsDir(), 'gp-a-00000001.json'));
    expect(store().list()).toEqual([]);
    expect(statSync(secret).mode & 0o777).toBe(0o644);

    const other = tempDir();
    try {
      const linked = join(dir.path, 'linked');
      mkdirSync(linked);
      symlinkSync(other.path, join(linked, 'drafts'));
      const s = new DraftStore({ PARTNER_CONFIG_DIR: linked });
      expect(() => s.saveGp('aaaaaaaa', gp('A'))).toThrow(expect.objectContaining({ code: 'DRAFTS_DIR', exitCode: 1 }));
      expect(readdirSync(other.path)).toEqual([]);
    } finally {
      other.cleanup();
    }
  });

  it('a saved draft replaces a symlink of its name instead of writing through it', () => {
    const s = store();
    s.saveGp('aaaaaaaa', gp('A'));
    const [name] = readdirSync(draftsDir());
    const target = join(dir.path, 'target.txt');
    writeFileSync(target, 'mine');
    rmSync(join(draftsDir(), name!));
    symlinkSync(target, join(draftsDir(), name!));
    s.saveGp('aaaaaaaa', gp('A', { x: 1 }));
    expect(readFileSync(target, 'utf8')).toBe('mine');
    expect(s.get('aaaaaaaa')?.answers).toEqual({ x: 1 });
  });

  it('a draft left readable by others is tightened to 0600 when read', () => {
    const s = store();
    s.saveGp('aaaaaaaa', gp('A'));
    const file = join(draftsDir(), readdirSync(draftsDir())[0]!);
    chmodSync(file, 0o644);
    expect(s.list()).toHaveLength(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('no drafts directory: nothing listed, nothing created', () => {
    const s = store();
    expect(s.list()).toEqual([]);
    expect(s.get('aaaaaaaa')).toBeUndefined();
    expect(s.delete('aaaaaaaa')).toBe(false);
    expect(existsSync(draftsDir())).toBe(false);
  });

  it('a draft file is named after its entity (slug and hash) and id, and saved again under the name it has on disk', () => {
    const s = store();
    s.saveGp('aaaaaaaa', gp('Acme  AB!'));
    const hash = createHash('sha256').update('Acme  AB!').digest('hex').slice(0, 8);
    expect(readdirSync(draftsDir())).toEqual([`gp-acme-ab-${hash}.aaaaaaaa.json`]);
    s.saveGp('bbbbbbbb', gp('!!!'));
    expect(readdirSync(draftsDir())).toContain(`gp-entity-${createHash('sha256').update('!!!').digest('hex').slice(0, 8)}.bbbbbbbb.json`);
    const long = 'x'.repeat(60);
    s.saveDynamic('cccccccc', { employeeId: long, entity: 'A', answers: {}, asked: [] });
    expect(readdirSync(draftsDir())).toContain(`dynamic-${'x'.repeat(40)}-${createHash('sha256').update(long).digest('hex').slice(0, 8)}.cccccccc.json`);
    // A draft whose file name is not the one a save would choose (renamed by hand) is saved in place.
    writeFileSync(join(draftsDir(), 'gp-renamed-00000000.dddddddd.json'), JSON.stringify({ kind: 'gp-create', entity: 'Acme  AB!', answers: {}, asked: [], savedAt: 'x' }));
    s.saveGp('dddddddd', gp('Acme  AB!', { y: 1 }));
    expect(readdirSync(draftsDir()).filter((f) => f.includes('dddddddd'))).toEqual(['gp-renamed-00000000.dddddddd.json']);
    expect(s.get('dddddddd')?.answers).toEqual({ y: 1 });
  });

  it('a draft of exactly the size limit is read; one byte more is not', () => {
    mkdirSync(draftsDir(), { recursive: true });
    const doc = (n: number) => {
      const head = '{"kind":"gp-create","entity":"A","answers":{},"asked":[],"savedAt":"x","pad":"';
      return `${head}${'x'.repeat(n - head.length - 2)}"}`;
    };
    writeFileSync(join(draftsDir(), 'gp-a-00000001.json'), doc(MAX_DRAFT_BYTES));
    writeFileSync(join(draftsDir(), 'gp-a-00000002.json'), doc(MAX_DRAFT_BYTES + 1));
    expect(store().list().map((d) => d.id)).toEqual(['00000001']);
  });

  it('drafts saved within the same instant are listed in id order', () => {
    const s = store();
    s.saveGp('bbbbbbbb', gp('A'));
    s.saveGp('aaaaaaaa', gp('A'));
    expect(s.list().map((d) => d.id)).toEqual(['aaaaaaaa', 'bbbbbbbb']);
  });
});

describe('draftName', () => {
  it.each([
    [{ personal: { firstName: ' Meera ', lastName: 'Iyer' } }, 'Meera Iyer'],
    [{ personal: { given_name: 'Ada' } }, 'Ada'],
    [{ p: { familyName: 'Lovelace' } }, 'Lovelace'],
    [{ p: { surname: 'Lovelace', firstname: 'Ada' } }, 'Ada Lovelace'],
    [{ employment: { workEmail: 'a@b.example' } }, 'a@b.example'],
    [{ contact: { email: 'c@b.example' } }, 'c@b.example'],
    [{ personal: { firstName: 'A', lastName: 'B' }, employment: { workEmail: 'a@b.example' } }, 'A B'],
    [{ personal: { firstName: '' } }, ''],
    [{ personal: { firstName: 'First' }, other: { firstName: 'Second' } }, 'First'],
    [{ a: { b: { c: { d: { firstName: 'Deep' } } } } }, 'Deep'],
    [{ a: { b: { c: { d: { e: { firstName: 'Too deep' } } } } } }, ''],
    [{ personal: { firstName: 'x'.repeat(100) } }, 'x'.repeat(80)],
    [{ personal: { middleName: 'M', nickname: 'N' } }, ''],
    [{ firstNames: 'No' }, ''],
    [{ personal: { firstName: '  ', lastName: ' Iyer ' } }, 'Iyer'],
    [{ preferredFirstName: 'No', lastNameAtBirth: 'No', personalemail: 'no', emailVerified: 'no' }, ''],
    [{ contact: { mail: ' m@b.example ' } }, 'm@b.example'],
    [{ contact: { work_email: 'w@b.example' } }, 'w@b.example'],
  ])('%j -> %j', (answers, name) => expect(draftName(answers)).toBe(name));
});

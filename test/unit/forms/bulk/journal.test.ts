// The bulk journal on its own: sealed records (a flipped byte is caught), a
// record cut short by a crash, a damaged record that stops the run, a full
// disk, group commit, the lock, and what a journal of another run holds.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, JournalWriteError, legacyKey, MAX_JOURNAL_BYTES, rowHash, sealed, SYNC_EVERY_MS, unseal } from '../../../../src/forms/bulk/journal.js';
import { CliError, ExitCode, UsageError } from '../../../../src/errors.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'partner-journal-'));
  path = join(dir, 'r.csv.journal');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = '{"kind":"partner-bulk-journal","version":3,"entity":"E"}';
const line = (o: object) => sealed(JSON.stringify(o));

function thrown(f: () => unknown): CliError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CliError);
    return e as CliError;
  }
  throw new Error('nothing thrown');
}

describe('sealed records', () => {
  it('round-trips an entry and refuses any flipped byte, a missing or malformed sum', () => {
    const e = { row: 3, hash: 'h', state: 'created', id: 'id-3', code: 'C-3' };
    const text = line(e);
    expect(text).toMatch(/^\{"row":3,.*,"sum":"[0-9a-f]{12}"\}$/);
    expect(unseal(text)).toEqual(e);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const flipped = `${text.slice(0, i)}${String.fromCharCode(c ^ 1)}${text.slice(i + 1)}`;
      expect(unseal(flipped), `byte ${i}`).toBeUndefined();
    }
    expect(unseal(JSON.stringify(e))).toBeUndefined();
    expect(unseal(text.replace(/"sum":"([0-9a-f]{12})"/, '"sum":"$1a"'))).toBeUndefined();
    expect(unseal(`${text} `)).toBeUndefined();
    expect(unseal(` ${text}`)).toBeUndefined();
  });

  it('refuses well-sealed records that are not entries', () => {
    for (const bad of [
      { hash: 'h', state: 'done' },
      { row: 0, hash: 'h', state: 'done' },
      { row: -2, hash: 'h', state: 'done' },
      { row: 1.5, hash: 'h', state: 'done' },
      { row: '3', hash: 'h', state: 'done' },
      { row: 3, state: 'done' },
      { row: 3, hash: 7, state: 'done' },
      { row: 3, hash: 'h' },
      { row: 3, hash: 'h', state: 7 },
      { row: 3, hash: 'h', state: 'finished' },
      { row: 3, hash: 'h', state: 'done', id: 5 },
      { row: 3, hash: 'h', state: 'done', code: 5 },
    ]) {
      expect(unseal(line(bad)), JSON.stringify(bad)).toBeUndefined();
    }
    expect(unseal(sealed('[1,2]'))).toBeUndefined();
    expect(unseal(sealed('{"row":3,"hash":"h","state":"done"'))).toBeUndefined();
    expect(unseal(sealed('null'))).toBeUndefined();
    for (const state of ['posting', 'created', 'done', 'conflict', 'rejected', 'patch-failed']) expect(unseal(line({ row: 1, key: 'k1', hash: 'h', state }))?.state).toBe(state);
  });

  it('recognises a row by a hash of its cells, not the cells', () => {
    expect(rowHash(['a', 'b'])).toBe(rowHash(['a', 'b']));
    expect(rowHash(['a', 'b'])).toMatch(/^[0-9a-f]{32}$/);
    expect(rowHash(['a', 'b'])).not.toBe(rowHash(['a,b']));
  });
});

describe('the journal file', () => {
  it('is created at the first record (0600): its header, then sealed records written at once; latest state per row', async () => {
    const j = Journal.open(path, 'E');
    expect(existsSync(path)).toBe(false);
    expect(j.get('k3')).toBeUndefined();
    j.record({ row: 3, key: 'k3', hash: 'h3', state: 'posting' });
    // Written before record() returns: what a kill -9 right after it leaves.
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe(HEADER);
    expect(unseal(readFileSync(path, 'utf8').split('\n')[1])).toMatchObject({ row: 3, state: 'posting' });
    j.record({ row: 3, key: 'k3', hash: 'h3', state: 'created', id: 'id-3', code: 'C-3', extra: 'not kept' } as never);
    expect(j.get('k3')).toMatchObject({ row: 3, state: 'created', id: 'id-3', code: 'C-3' });
    await j.close();
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines[0]).toBe(HEADER);
    expect(lines.at(-1)).toBe('');
    const entries = lines.slice(1, -1).map((l) => unseal(l));
    expect(entries.map((e) => [e?.row, e?.state, e?.id])).toEqual([
      [3, 'posting', undefined],
      [3, 'created', 'id-3'],
    ]);
    expect(entries[1]).not.toHaveProperty('extra');
    expect(entries[0]).not.toHaveProperty('id');
    expect(entries[0]).not.toHaveProperty('code');
    expect(entries[0]).not.toHaveProperty('error');
    expect(Date.parse(entries[1]!.at!)).not.toBeNaN();

    const again = Journal.open(path, 'E');
    expect(again.get('k3')).toMatchObject({ state: 'created', id: 'id-3', code: 'C-3' });
    again.record({ row: 4, key: 'k4', hash: 'h4', state: 'rejected', error: 'no' });
    await again.close();
    const after = readFileSync(path, 'utf8').split('\n');
    expect(after.filter((l) => l.startsWith('{"kind"'))).toHaveLength(1);
    expect(unseal(after[3])).toMatchObject({ row: 4, state: 'rejected', error: 'no' });
  });

  it('records written one after another are all in the file, in order, once closed (the last sync waited for)', async () => {
    const j = Journal.open(path, 'E');
    for (let i = 0; i < 50; i++) j.record({ row: i + 1, key: `k${i + 1}`, hash: `h${i}`, state: 'posting' });
    j.record({ row: 51, key: 'k51', hash: 'h', state: 'done' });
    await j.close();
    const rows = readFileSync(path, 'utf8').trim().split('\n').slice(1).map((l) => unseal(l)!.row);
    expect(rows).toEqual(Array.from({ length: 51 }, (_, i) => i + 1));
    // A journal of some kilobytes is read back whole.
    expect(statSync(path).size).toBeGreaterThan(4096);
    const again = Journal.open(path, 'E');
    expect(again.get('k50')).toStrictEqual({ row: 50, key: 'k50', hash: 'h49', state: 'posting' });
    expect(again.get('k51')).toStrictEqual({ row: 51, key: 'k51', hash: 'h', state: 'done' });
    await again.close();
  });

  it('records written while a background sync waits its turn (SYNC_EVERY_MS) are in the file at once, and synced by close()', async () => {
    const j = Journal.open(path, 'E');
    j.record({ row: 1, key: 'k1', hash: 'h1', state: 'posting' });
    // A pause shorter than the interval: the next sync is waiting for its turn.
    await new Promise((r) => setTimeout(r, SYNC_EVERY_MS / 4));
    j.record({ row: 1, key: 'k1', hash: 'h1', state: 'created', id: 'e1' });
    // Written (a kill -9 now cannot lose it) before any sync.
    expect(readFileSync(path, 'utf8').trim().split('\n').slice(1).map((l) => unseal(l)!.state)).toEqual(['posting', 'created']);
    await j.close();
    const again = Journal.open(path, 'E');
    expect(again.get('k1')).toStrictEqual({ row: 1, key: 'k1', hash: 'h1', state: 'created', id: 'e1' });
    await again.close();
  });

  it('cuts off a last record left without its newline by a crash, and keeps the ones before it', async () => {
    const whole = `${HEADER}\n${line({ row: 3, key: 'k3', hash: 'h3', state: 'created', id: 'i3' })}\n`;
    writeFileSync(path, `${whole}{"row":4,"hash":"h4","sta`);
    const j = Journal.open(path, 'E');
    expect(readFileSync(path, 'utf8')).toBe(whole);
    expect(j.get('k3')).toMatchObject({ state: 'created', id: 'i3' });
    expect(j.get('k4')).toBeUndefined();
    j.record({ row: 4, key: 'k4', hash: 'h4', state: 'posting' });
    await j.close();
    expect(unseal(readFileSync(path, 'utf8').split('\n')[2])).toMatchObject({ row: 4, state: 'posting' });
  });

  it('an empty file is a new journal', async () => {
    writeFileSync(path, '');
    const j = Journal.open(path, 'E');
    j.record({ row: 2, key: 'k2', hash: 'h', state: 'posting' });
    await j.close();
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe(HEADER);
  });

  it('a damaged record stops the run, naming the journal and the line (exit 1); nothing is taken from it', () => {
    const good = line({ row: 3, key: 'k3', hash: 'h3', state: 'done', id: 'abc' });
    const flipped = good.replace('"id":"abc"', '"id":"abd"');
    writeFileSync(path, `${HEADER}\n${good}\n${flipped}\n${line({ row: 5, key: 'k5', hash: 'h5', state: 'done' })}\n`);
    const e = thrown(() => Journal.open(path, 'E'));
    expect(e.message).toBe(`The journal ${path} is damaged at line 3: that record cannot be read`);
    expect(e.code).toBe('BULK_JOURNAL_DAMAGED');
    expect(e.exitCode).toBe(ExitCode.FAILURE);
    expect(e.hint).toContain('could create it twice');
    // The lock is released when opening fails.
    expect(existsSync(`${path}.lock`)).toBe(false);
    writeFileSync(path, `${HEADER}\n\n`);
    expect(thrown(() => Journal.open(path, 'E')).message).toContain('damaged at line 2');
  });

  it('reads a version 1 journal (records without a sum), refusing damaged ones there too', async () => {
    const v1 = '{"kind":"partner-bulk-journal","version":1,"entity":"E"}';
    writeFileSync(path, `${v1}\n{"row":3,"hash":"h3","state":"created","id":"i3"}\n`);
    const j = Journal.open(path, 'E');
    // A record without a key is known by the hash of its cells.
    expect(j.legacy).toBe(true);
    expect(j.get(legacyKey('h3'))).toStrictEqual({ row: 3, key: 'cells:h3', hash: 'h3', state: 'created', id: 'i3' });
    expect(j.get('h3')).toBeUndefined();
    await j.close();
    // Version 2: sealed records, no keys.
    writeFileSync(path, `{"kind":"partner-bulk-journal","version":2,"entity":"E"}\n${line({ row: 4, hash: 'h4', state: 'done', id: 'i4' })}\n`);
    const v2 = Journal.open(path, 'E');
    expect(v2.legacy).toBe(true);
    expect(v2.get(legacyKey('h4'))).toStrictEqual({ row: 4, key: 'cells:h4', hash: 'h4', state: 'done', id: 'i4' });
    // Records written now carry their key; the file stays readable.
    v2.record({ row: 2, key: 'k2', hash: 'h2', rest: 'r2', state: 'posting' });
    await v2.close();
    const again = Journal.open(path, 'E');
    expect(again.get('k2')).toStrictEqual({ row: 2, key: 'k2', hash: 'h2', rest: 'r2', state: 'posting' });
    expect([...again.entries()].map((e) => e.key)).toEqual(['cells:h4', 'k2']);
    await again.close();
    for (const bad of ['{"row":3,"hash":"h3","stxte":"created"}', 'null', '[1]', '"row"', '7', '{"row":1,"hash":"h","state":"done"']) {
      writeFileSync(path, `${v1}\n${bad}\n`);
      expect(thrown(() => Journal.open(path, 'E')).message, bad).toContain('damaged at line 2');
    }
  });

  it('refuses a file that is not a journal, a journal of another entity or of another version', () => {
    writeFileSync(path, 'hello\n');
    const notOurs = thrown(() => Journal.open(path, 'E'));
    expect(notOurs).toBeInstanceOf(UsageError);
    expect(notOurs.message).toBe(`${path} is not a partner bulk journal`);
    writeFileSync(path, '{"kind":"other","version":2,"entity":"E"}\n');
    expect(thrown(() => Journal.open(path, 'E')).message).toBe(`${path} is not a partner bulk journal`);
    writeFileSync(path, `${HEADER}\n`);
    expect(thrown(() => Journal.open(path, 'Other')).message).toBe(`The journal ${path} belongs to entity "E", not "Other"`);
    writeFileSync(path, '{"kind":"partner-bulk-journal","version":4,"entity":"E"}\n');
    expect(thrown(() => Journal.open(path, 'E')).message).toBe(`The journal ${path} was written by another version of partner (version 4)`);
    writeFileSync(path, '{"kind":"partner-bulk-journal","version":0,"entity":"E"}\n');
    expect(thrown(() => Journal.open(path, 'E')).message).toBe(`The journal ${path} was written by another version of partner (version 0)`);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('says what to do about a file that is not a journal, and gives each refusal its code', () => {
    writeFileSync(path, 'hello\n');
    const notOurs = thrown(() => Journal.open(path, 'E'));
    expect(notOurs.code).toBe('BULK_JOURNAL');
    expect(notOurs.exitCode).toBe(ExitCode.USAGE);
    expect(notOurs.hint).toBe('Move it away, or pass another --results path.');
    const long = 'L'.repeat(200);
    writeFileSync(path, `{"kind":"partner-bulk-journal","version":2,"entity":"${long}"}\n`);
    const other = thrown(() => Journal.open(path, 'E'));
    expect(other.message).toBe(`The journal ${path} belongs to entity "${'L'.repeat(80)}", not "E"`);
    expect(other.code).toBe('BULK_JOURNAL');
    expect(other.hint).toBe('Pass another --results path for this entity.');
    writeFileSync(path, `{"kind":"partner-bulk-journal","version":"${'9'.repeat(50)}","entity":"E"}\n`);
    const version = thrown(() => Journal.open(path, 'E'));
    expect(version.message).toBe(`The journal ${path} was written by another version of partner (version ${'9'.repeat(20)})`);
    expect(version.code).toBe('BULK_JOURNAL');
    expect(version.hint).toBe('Finish it with that version, or pass another --results path.');
    writeFileSync(path, '{"kind":"partner-bulk-journal","version":2}\n');
    expect(thrown(() => Journal.open(path, 'E')).message).toBe(`The journal ${path} belongs to entity "undefined", not "E"`);
  });

  it('refuses a file larger than any journal without reading it', () => {
    writeFileSync(path, '');
    truncateSync(path, MAX_JOURNAL_BYTES + 1); // sparse: nothing to read
    const e = thrown(() => Journal.open(path, 'E'));
    expect(e.message).toBe(`${path} is not a partner bulk journal (${MAX_JOURNAL_BYTES + 1} bytes)`);
    expect(e.code).toBe('BULK_JOURNAL');
    expect(e.hint).toBe('Move it away, or pass another --results path.');
  });

  it('keeps in memory only what a re-run decides by', async () => {
    const j = Journal.open(path, 'E');
    j.record({ row: 4, key: 'k4', hash: 'h4', state: 'rejected', error: 'no' });
    expect(j.get('k4')).toStrictEqual({ row: 4, key: 'k4', hash: 'h4', state: 'rejected' });
    j.record({ row: 5, key: 'k5', hash: 'h5', rest: 'r5', state: 'done', id: 'i', code: 'c', error: 'e' });
    expect(j.get('k5')).toStrictEqual({ row: 5, key: 'k5', hash: 'h5', rest: 'r5', state: 'done', id: 'i', code: 'c' });
    await j.close();
    const again = Journal.open(path, 'E');
    expect(again.get('k4')).toStrictEqual({ row: 4, key: 'k4', hash: 'h4', state: 'rejected' });
    expect(again.get('k5')).toStrictEqual({ row: 5, key: 'k5', hash: 'h5', rest: 'r5', state: 'done', id: 'i', code: 'c' });
    await again.close();
    const written = readFileSync(path, 'utf8').split('\n');
    expect(unseal(written[1])).toMatchObject({ row: 4, state: 'rejected', error: 'no' });
    expect(unseal(written[2])).toMatchObject({ row: 5, key: 'k5', rest: 'r5', id: 'i', code: 'c', error: 'e' });
  });

  it('a journal that cannot be read is named', () => {
    mkdirSync(path);
    const e = thrown(() => Journal.open(path, 'E'));
    expect(e.message).toBe(`Cannot read the journal ${path}: EISDIR`);
    expect(e.code).toBe('BULK_JOURNAL');
  });
});

describe('a journal that cannot be written', () => {
  it('a full disk: the record fails with a clean error, and so does every later one', async () => {
    symlinkSync('/dev/full', path);
    const j = Journal.open(path, 'E');
    let err: JournalWriteError | undefined;
    try {
      j.record({ row: 1, key: 'k1', hash: 'h', state: 'posting' });
    } catch (e) {
      err = e as JournalWriteError;
    }
    expect(err).toBeInstanceOf(JournalWriteError);
    expect(err!.message).toBe(`Cannot write the journal ${path}: ENOSPC (the disk is full)`);
    expect(err!.code).toBe('BULK_JOURNAL_WRITE');
    expect(err!.exitCode).toBe(ExitCode.FAILURE);
    expect(err!.hint).toContain('run the same command again');
    let again: unknown;
    try {
      j.record({ row: 2, key: 'k2', hash: 'h', state: 'posting' });
    } catch (e) {
      again = e;
    }
    // The same failure, not a second attempt at the disk.
    expect(again).toBe(err);
    // Not recorded in memory either: a re-run decides from the file only.
    expect(j.get('k1')).toBeUndefined();
    await j.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('names the file size limit and other causes', () => {
    expect(new JournalWriteError('/j', Object.assign(new Error('x'), { code: 'EFBIG' })).message).toBe('Cannot write the journal /j: EFBIG (the file size limit was reached)');
    expect(new JournalWriteError('/j', Object.assign(new Error('x'), { code: 'EIO' })).message).toBe('Cannot write the journal /j: EIO');
    expect(new JournalWriteError('/j', new Error('gone')).message).toBe('Cannot write the journal /j: gone');
  });
});

describe('one run per journal', () => {
  it('a live holder is refused with BULK_BUSY, exit 1 (not a usage error); a dead one is taken over', async () => {
    const first = Journal.open(path, 'E');
    expect(readFileSync(`${path}.lock`, 'utf8').split('\n')[0]).toBe(String(process.pid));
    const busy = thrown(() => Journal.open(path, 'E'));
    expect(busy).not.toBeInstanceOf(UsageError);
    expect(busy.message).toBe(`Another run (process ${process.pid}) is using the journal ${path}`);
    expect(busy.code).toBe('BULK_BUSY');
    expect(busy.exitCode).toBe(ExitCode.FAILURE);
    expect(busy.hint).toContain(`delete ${path}.lock`);
    await first.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    writeFileSync(`${path}.lock`, '2147483646'); // no such process
    const second = Journal.open(path, 'E');
    expect(readFileSync(`${path}.lock`, 'utf8').split('\n')[0]).toBe(String(process.pid));
    await second.close();
    // Closing twice is harmless and leaves another run's lock alone.
    writeFileSync(`${path}.lock`, '1');
    await second.close();
    expect(existsSync(`${path}.lock`)).toBe(true);
  });

  it('a lock that cannot be made is named', () => {
    const e = thrown(() => Journal.open(join(dir, 'missing', 'r.journal'), 'E'));
    expect(e.message).toBe(`Cannot lock the journal ${join(dir, 'missing', 'r.journal')}: ENOENT`);
    expect(e.code).toBe('BULK_JOURNAL');
    expect(e.exitCode).toBe(ExitCode.FAILURE);
  });
});

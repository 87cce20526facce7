// The journal file on its own: records read back into delivery state (the
// last record of an event says where it stands), malformed lines skipped, a
// torn tail cut.
import { describe, expect, it } from 'vitest';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cutTornTail, eachLine, eachRecord, JOURNAL, MAX_RECORD_CHARS, parseRecord, readJournal, SpoolError, type UnreadableLine } from '../../../src/webhooks/journal.js';
import { scratchDirs } from './helpers.js';

const tmp = scratchDirs('partner-journal-');
const ev = (id: string) => ({ t: 'event', id, digest: `d-${id}`, receivedAt: '2026-11-01T00:00:00.000Z', eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws: `jws-${id}`, payload: { id }, target: null });
const rec = (t: string, id: string, extra = {}) => ({ t, id, at: '2026-11-01T00:00:01.000Z', ...extra });
const write = (dir: string, records: unknown[], tail = '') => writeFileSync(join(dir, JOURNAL), records.map((r) => `${JSON.stringify(r)}\n`).join('') + tail);

describe('readJournal', () => {
  it('events in arrival order; delivered, failed and interrupted forwards told apart by the last record', async () => {
    const dir = tmp();
    write(dir, [
      ev('a'), // never sent
      ev('b'),
      rec('start', 'b'), // interrupted by a crash: sent before
      ev('c'),
      rec('start', 'c'),
      rec('attempt', 'c', { status: 500 }),
      rec('start', 'c'),
      rec('delivered', 'c', { status: 200 }), // delivered: not a pending redelivery
      rec('attempt', 'c', { status: 500 }), // a stray record after it changes nothing
      ev('d'),
      rec('start', 'd'),
      rec('attempt', 'd', { error: 'ECONNREFUSED' }), // failed: sent before too
    ], 'not a record\n{"t":"start"}\n');
    const s = await readJournal(dir);
    expect(s.events.map((e) => e.id)).toEqual(['a', 'b', 'c', 'd']);
    expect([...s.deliveredIds]).toEqual(['c']);
    expect([...s.sentBefore].sort()).toEqual(['b', 'd']);
    expect(Object.fromEntries(s.attempts)).toEqual({ c: 2, d: 1 });
    expect(s.unreadable).toBe(2);
  });

  it('an empty or missing journal reads as no events', async () => {
    expect(await readJournal(tmp())).toEqual({ events: [], deliveredIds: new Set(), attempts: new Map(), sentBefore: new Set(), parked: new Set(), unreadable: 0 });
  });

  it('lines that are not our records are skipped', () => {
    expect(parseRecord('')).toBeUndefined();
    expect(parseRecord('{"t":"event","id":"x"')).toBeUndefined();
    expect(parseRecord('null')).toBeUndefined();
    expect(parseRecord('{"t":"event","id":"x"}')).toBeUndefined(); // no digest
    expect(parseRecord('{"t":"event","id":1,"digest":"d"}')).toBeUndefined();
    expect(parseRecord('{"t":"other","id":"x"}')).toBeUndefined();
    expect(parseRecord(`{"t":"start","id":"${'x'.repeat(4 * 1024 * 1024)}"}`)).toBeUndefined();
    expect(parseRecord('{"t":"event","id":"x","digest":"d"}')).toMatchObject({ t: 'event', id: 'x' });
    // The length limit: a line of exactly MAX_RECORD_CHARS is read.
    const edge = `{"t":"start","id":"${'x'.repeat(MAX_RECORD_CHARS - 21)}"}`;
    expect(edge.length).toBe(MAX_RECORD_CHARS);
    expect(parseRecord(edge)).toMatchObject({ t: 'start' });
    for (const t of ['start', 'attempt', 'delivered']) expect(parseRecord(`{"t":"${t}","id":"x","at":"now"}`)).toMatchObject({ t, id: 'x' });
  });
});

describe('SpoolError', () => {
  it('is a SPOOL failure (exit 1) with its hint', () => {
    expect(new SpoolError('m', 'h')).toMatchObject({ message: 'm', code: 'SPOOL', exitCode: 1, hint: 'h' });
  });
});

describe('cutTornTail', () => {
  it('cuts a last line without its newline, keeps complete ones; a missing file is left alone', () => {
    const dir = tmp();
    write(dir, [ev('a')], '{"t":"event","id":"x","dig');
    cutTornTail(join(dir, JOURNAL));
    expect(readFileSync(join(dir, JOURNAL), 'utf8')).toBe(`${JSON.stringify(ev('a'))}\n`);
    cutTornTail(join(dir, JOURNAL));
    expect(readFileSync(join(dir, JOURNAL), 'utf8')).toBe(`${JSON.stringify(ev('a'))}\n`);
    // A torn tail longer than the 64 KiB read-back buffer.
    appendFileSync(join(dir, JOURNAL), `{"t":"event","jws":"${'x'.repeat(200 * 1024)}`);
    cutTornTail(join(dir, JOURNAL));
    expect(readFileSync(join(dir, JOURNAL), 'utf8')).toBe(`${JSON.stringify(ev('a'))}\n`);
    expect(() => cutTornTail(join(dir, 'missing.ndjson'))).not.toThrow();
    // Nothing but a torn record: the file becomes empty.
    writeFileSync(join(dir, 'only.ndjson'), '{"t":"ev');
    cutTornTail(join(dir, 'only.ndjson'));
    expect(readFileSync(join(dir, 'only.ndjson'), 'utf8')).toBe('');
  });
});

describe('eachLine', () => {
  it('every line as bytes with its byte offset and length, the last one without a newline too', async () => {
    const dir = tmp();
    const path = join(dir, 'f');
    writeFileSync(path, Buffer.concat([Buffer.from('ab\n\nÄx\n'), Buffer.from([0xff, 0x41]), Buffer.from('\nend')]));
    const seen: [string, number, number][] = [];
    await eachLine(path, (b, o, l) => seen.push([b.toString('hex'), o, l]));
    expect(seen).toEqual([
      ['6162', 0, 2],
      ['', 3, 0],
      [Buffer.from('Äx').toString('hex'), 4, 3],
      ['ff41', 8, 2],
      [Buffer.from('end').toString('hex'), 11, 3],
    ]);
  });

  it('a line over the cap is passed cut to it, with its whole length; lines across read chunks are whole', async () => {
    const dir = tmp();
    const path = join(dir, 'f');
    const long = 'y'.repeat(200 * 1024);
    writeFileSync(path, `${'x'.repeat(10)}\n${long}\nz\n`);
    const seen: [number, number, number, string][] = [];
    await eachLine(path, (b, o, l) => seen.push([b.length, o, l, b.subarray(0, 1).toString()]), 100 * 1024);
    expect(seen).toEqual([
      [10, 0, 10, 'x'],
      [100 * 1024, 11, 200 * 1024, 'y'],
      [1, 11 + 200 * 1024 + 1, 1, 'z'],
    ]);
    // Under the cap a long line comes whole.
    const whole: number[] = [];
    await eachLine(path, (b) => whole.push(b.length));
    expect(whole).toEqual([10, 200 * 1024, 1]);
  });
});

describe('eachRecord: a line that is not a record is never skipped in silence', () => {
  it('one flipped byte: the damaged line is reported with its offset and bytes; the others are read', async () => {
    const dir = tmp();
    write(dir, [ev('a'), ev('b'), rec('start', 'b'), ev('c')]);
    const path = join(dir, JOURNAL);
    const buf = readFileSync(path);
    const second = buf.indexOf(0x0a) + 1; // line of event b
    const damaged = Buffer.from(buf);
    damaged[second + 1] ^= 0x01; // the first quote of {"t"… becomes #
    writeFileSync(path, damaged);
    const ids: string[] = [];
    const bad: UnreadableLine[] = [];
    expect(await eachRecord(path, (r) => ids.push(`${r.t}:${r.id}`), (u) => bad.push(u))).toBe(true);
    expect(ids).toEqual(['event:a', 'start:b', 'event:c']);
    expect(bad).toHaveLength(1);
    expect(bad[0]!.offset).toBe(second);
    expect(bad[0]!.length).toBe(Buffer.byteLength(JSON.stringify(ev('b'))));
    expect(bad[0]!.bytes.toString()).toBe(JSON.stringify(ev('b')).replace('{"', '{#'));
    expect((await readJournal(dir)).unreadable).toBe(1);
  });

  it('a flipped high bit inside a string (not UTF-8 any more, still JSON once decoded loosely) is unreadable, not a changed event', async () => {
    const dir = tmp();
    write(dir, [ev('a')]);
    const path = join(dir, JOURNAL);
    const buf = readFileSync(path);
    buf[buf.indexOf('jws-a') + 1] ^= 0x80;
    writeFileSync(path, buf);
    const ids: string[] = [];
    const bad: UnreadableLine[] = [];
    await eachRecord(path, (r) => ids.push(r.id), (u) => bad.push(u));
    expect(ids).toEqual([]);
    expect(bad.map((u) => u.offset)).toEqual([0]);
  });

  it('empty lines are neither; a line longer than any record is unreadable; a missing file is false', async () => {
    const dir = tmp();
    const long = `{"t":"start","id":"${'x'.repeat(MAX_RECORD_CHARS)}"}`;
    write(dir, [ev('a')], `\n${long}\n`);
    const bad: UnreadableLine[] = [];
    const ids: string[] = [];
    await eachRecord(join(dir, JOURNAL), (r) => ids.push(r.id), (u) => bad.push(u));
    expect(ids).toEqual(['a']);
    expect(bad.map((u) => [u.length, u.bytes.length])).toEqual([[long.length, MAX_RECORD_CHARS]]);
    expect(await eachRecord(join(dir, 'missing'), () => undefined)).toBe(false);
  });

  it("a caller's own failure passes through unchanged; a read failure is a SpoolError", async () => {
    const dir = tmp();
    write(dir, [ev('a')], 'junk\n');
    const mine = new Error('mine');
    await expect(eachRecord(join(dir, JOURNAL), () => { throw mine; })).rejects.toBe(mine);
    await expect(eachRecord(join(dir, JOURNAL), () => undefined, () => { throw mine; })).rejects.toBe(mine);
    // A directory where the journal should be: EISDIR.
    await expect(eachRecord(dir, () => undefined)).rejects.toMatchObject({ code: 'SPOOL', message: expect.stringContaining('EISDIR') });
  });
});

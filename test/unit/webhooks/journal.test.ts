// The journal file on its own: records read back into delivery state (the
// last record of an event says where it stands), malformed lines skipped, a
// torn tail cut.
import { describe, expect, it } from 'vitest';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cutTornTail, JOURNAL, MAX_RECORD_CHARS, parseRecord, readJournal, SpoolError } from '../../../src/webhooks/journal.js';
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
  });

  it('an empty or missing journal reads as no events', async () => {
    expect(await readJournal(tmp())).toEqual({ events: [], deliveredIds: new Set(), attempts: new Map(), sentBefore: new Set() });
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

// The audit log's reader: lines checked, records folded, rotated files, --since.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_FIELDS, parseSince } from '../../../src/audit/fields.js';
import { AUDIT_FILE, AuditLog, MAX_RECORD_BYTES, rotated } from '../../../src/audit/log.js';
import { fold, parseLines, readAudit } from '../../../src/audit/read.js';

const ID = '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a';
const sent = (id: string, time: string, extra: Record<string, unknown> = {}) => ({ v: 1, id, event: 'sent', time, profile: 'p', baseUrl: 'https://b', method: 'POST', path: '/x', employee: null, command: 'partner api', user: 'u', pid: 7, ...extra });
const answered = (id: string, time: string, extra: Record<string, unknown> = {}) => ({ v: 1, id, event: 'answered', time, status: 201, correlationId: 'c', employee: null, ...extra });
const failed = (id: string, time: string) => ({ v: 1, id, event: 'failed', time, error: 'TIMEOUT' });
const T = (s: number) => new Date(Date.UTC(2026, 10, 28, 1, 0, s)).toISOString();

describe('parseLines', () => {
  it('keeps records; skips empty, cut, over-long, non-object and foreign lines', () => {
    const good = JSON.stringify(sent('a', T(1)));
    const text = [good, '', '{"v":1,"id":"b","event":"se', JSON.stringify({ ...sent('c', T(2)), pad: 'x'.repeat(MAX_RECORD_BYTES) }), '[1]', 'null', '"s"', JSON.stringify({ v: 2, id: 'd' }), JSON.stringify({ v: 1, id: 5 }), JSON.stringify({ v: 1 }), good].join('\n');
    expect(parseLines(text)).toEqual([sent('a', T(1)), sent('a', T(1))]);
    const exact = JSON.stringify({ ...sent('e', T(3)), pad: '' });
    const padded = JSON.stringify({ ...sent('e', T(3)), pad: 'x'.repeat(MAX_RECORD_BYTES - exact.length) });
    expect(padded.length).toBe(MAX_RECORD_BYTES);
    expect(parseLines(padded)).toHaveLength(1);
  });
});

describe('fold', () => {
  it('sent + answered is answered; sent alone is unknown; sent + failed is failed', () => {
    const out = fold([sent('a', T(1)), sent('b', T(2)), sent('c', T(3), { employee: ID }), answered('a', T(4), { employee: ID }), failed('c', T(5))]);
    expect(out.map((e) => [e.id, e.outcome, e.status, e.error, e.answeredAt, e.employee])).toEqual([
      ['a', 'answered', 201, null, T(4), ID],
      ['b', 'unknown', null, null, null, null],
      ['c', 'failed', null, 'TIMEOUT', T(5), ID],
    ]);
    expect(Object.keys(out[0]!)).toEqual([...AUDIT_FIELDS].sort((x, y) => Object.keys(out[0]!).indexOf(x) - Object.keys(out[0]!).indexOf(y)));
    expect(Object.keys(out[0]!).sort()).toEqual([...AUDIT_FIELDS].sort());
    expect(out[0]).toEqual({ time: T(1), outcome: 'answered', method: 'POST', path: '/x', employee: ID, employeeCode: null, status: 201, correlationId: 'c', error: null, profile: 'p', baseUrl: 'https://b', command: 'partner api', user: 'u', pid: 7, id: 'a', answeredAt: T(4) });
  });

  it('ignores an outcome without its sent record, a second outcome, a second sent, bad times and bad statuses', () => {
    const out = fold([
      answered('orphan', T(1)),
      sent('a', T(2)),
      sent('a', T(3), { path: '/second' }),
      answered('a', 'not a time'),
      answered('a', T(4), { status: 'x' }),
      answered('a', T(5), { status: 204, correlationId: 9 }),
      failed('a', T(6)),
      answered('a', T(7), { status: 500 }),
      sent('bad', 'yesterday'),
      { v: 1, id: 'a', event: 'other', time: T(8) },
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ id: 'a', path: '/x', outcome: 'answered', status: 204, correlationId: null, answeredAt: T(5) });
  });

  it("an employee's code, once an answer named it, is shown for every write of that employee", () => {
    const out = fold([sent('a', T(1)), answered('a', T(2), { employee: ID, employeeCode: 'ACME-1' }), sent('b', T(3), { employee: ID }), answered('b', T(4), { employeeCode: null }), sent('c', T(5), { employee: 'other' })]);
    expect(out.map((e) => [e.id, e.employee, e.employeeCode])).toEqual([['a', ID, 'ACME-1'], ['b', ID, 'ACME-1'], ['c', 'other', null]]);
  });

  it('an answered employee does not replace one from the path', () => {
    const [e] = fold([sent('a', T(1), { employee: ID }), answered('a', T(2), { employee: 'other' })]);
    expect(e!.employee).toBe(ID);
  });

  it('oldest first, whatever the order of the lines; odd fields are made safe', () => {
    const out = fold([sent('late', T(9)), sent('early', T(1), { method: 7, path: 'a\u001b[2Jb', pid: 1.5, user: null, profile: undefined, baseUrl: [], command: {}, employee: 3 })]);
    expect(out.map((e) => e.id)).toEqual(['early', 'late']);
    expect(out[0]).toMatchObject({ method: '', path: 'a[2Jb', pid: null, user: '', profile: '', baseUrl: '', command: '', employee: null });
    expect(fold([failed('x', T(1)), sent('x', T(0)), { ...failed('x', T(2)), error: 5 }])[0]).toMatchObject({ outcome: 'failed', error: 'ERROR' });
  });
});

describe('readAudit', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'partner-audit-read-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the rotated files and the current one, oldest first, folding across them', () => {
    const nd = (...r: object[]) => `${r.map((x) => JSON.stringify(x)).join('\n')}\n`;
    writeFileSync(rotated(dir, 4), nd(sent('oldest', T(1))));
    writeFileSync(rotated(dir, 2), nd(sent('a', T(2))));
    writeFileSync(rotated(dir, 1), nd(answered('a', T(3)), sent('b', T(4))));
    writeFileSync(join(dir, AUDIT_FILE), nd(failed('b', T(5)), sent('c', T(6))));
    const all = readAudit(dir);
    expect(all.map((e) => [e.id, e.outcome])).toEqual([['oldest', 'unknown'], ['a', 'answered'], ['b', 'failed'], ['c', 'unknown']]);
    expect(readAudit(dir, Date.parse(T(4))).map((e) => e.id)).toEqual(['b', 'c']);
    expect(readAudit(dir, Date.parse(T(4)) + 1).map((e) => e.id)).toEqual(['c']);
  });

  it('an absent log, a directory or a link in place of a file: nothing from it', () => {
    expect(readAudit(join(dir, 'none'))).toEqual([]);
    mkdirSync(join(dir, AUDIT_FILE));
    expect(readAudit(dir)).toEqual([]);
    const other = join(dir, 'other.ndjson');
    writeFileSync(other, `${JSON.stringify(sent('linked', T(1)))}\n`);
    symlinkSync(other, rotated(dir, 1));
    expect(readAudit(dir)).toEqual([]);
  });

  it('reads what AuditLog writes', () => {
    const log = new AuditLog({ dir, now: () => Date.parse(T(1)) });
    log.sent({ profile: 'p', baseUrl: 'https://b', command: 'c', user: 'u' }, 'POST', '/x').answered(201, 'c1', undefined);
    expect(readAudit(dir)).toEqual([expect.objectContaining({ outcome: 'answered', status: 201, correlationId: 'c1', time: T(1), answeredAt: T(1), pid: process.pid })]);
  });
});

describe('parseSince', () => {
  const now = Date.parse('2026-11-28T12:00:00.000Z');
  it('a duration back from now, in s, m, h, d or w', () => {
    expect(parseSince('30s', now)).toBe(now - 30_000);
    expect(parseSince('90m', now)).toBe(now - 90 * 60_000);
    expect(parseSince('24h', now)).toBe(now - 24 * 3_600_000);
    expect(parseSince(' 7D ', now)).toBe(now - 7 * 86_400_000);
    expect(parseSince('2w', now)).toBe(now - 14 * 86_400_000);
    expect(parseSince('2 h', now)).toBe(now - 2 * 3_600_000);
  });

  it('a date or a time', () => {
    expect(parseSince('2026-11-01', now)).toBe(Date.parse('2026-11-01'));
    expect(parseSince('2026-11-01T09:00:00Z', now)).toBe(Date.parse('2026-11-01T09:00:00Z'));
  });

  it('anything else is undefined', () => {
    for (const bad of ['', 'yesterday', '7', 'h', '1y', '-1d', '1234567d', '2026-13-45', 'Nov 1 2026', '12026-11-01']) expect(parseSince(bad, now), bad).toBeUndefined();
  });
});

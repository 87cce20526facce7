// The records and lines of the webhook commands: every untrusted value (from
// the payload, the sender, the target) reaches the terminal neutralised, and
// the records are what the output layer prints for -o json/ndjson/csv.
import { describe, expect, it } from 'vitest';
import { eventLine, eventRecord, fieldsLine, renderVerdict, replayList, replayRecord, showEventType, VERDICT_LIST, verdictJson, verdictRecord } from '../../../src/webhooks/render.js';
import type { ReceivedEvent } from '../../../src/webhooks/listen.js';
import type { Verdict } from '../../../src/webhooks/verify.js';
import { getPath } from '../../../src/output/fields.js';

const ESC = '\u001b[2J\u001b]0;pwned\u0007';
const plain = { bold: (s: string) => s, dim: (s: string) => s, red: (s: string) => s, green: (s: string) => s, yellow: (s: string) => s } as never;

function verdict(extra: Partial<Verdict>): Verdict {
  return { valid: true, reason: null, message: null, signatureValid: true, kid: 'k1', alg: 'ES512', header: { alg: 'ES512', kid: 'k1' }, payload: { eventType: 'EMPLOYEE_CREATED' }, eventType: 'EMPLOYEE_CREATED', meaning: 'an employee was created', timestamp: '2026-11-22T10:00:00.000Z', subject: 'ACME-0007', status: 'ONBOARDING', warnings: [], errors: [], ...extra };
}
const cells = (spec: typeof VERDICT_LIST, record: unknown) => spec.columns.map((c) => (c.value ? c.value(record) : getPath(record, c.key)));

describe('webhook listen: the event line and record', () => {
  it('a kept event: time, status, type, subject, status, what became of it', () => {
    const e: ReceivedEvent = { time: '2026-11-22T10:00:01.000Z', httpStatus: 200, verdict: verdict({}), filtered: false, forward: { url: 'http://app/', status: 202 } };
    // The time in 8 columns, local; the record keeps ISO 8601 UTC.
    const tz = process.env.TZ;
    process.env.TZ = 'Asia/Kolkata';
    try {
      expect(eventLine(e, plain)).toBe('15:30:01  200  EMPLOYEE_CREATED  ACME-0007  ONBOARDING  -> forwarded 202\n');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
    expect(eventRecord(e)).toMatchObject({ time: e.time, httpStatus: 200, valid: true, subject: 'ACME-0007', status: 'ONBOARDING', forward: { status: 202 } });
    expect(eventRecord(e)).not.toHaveProperty('spooled');
    const spooled: ReceivedEvent = { ...e, forward: undefined, spooled: 'duplicate' };
    expect(eventLine(spooled, plain)).toMatch(/ONBOARDING {2}-> already spooled \(duplicate\)\n$/);
    expect(eventRecord(spooled)).toMatchObject({ forward: null, spooled: 'duplicate' });
  });

  it('untrusted text is neutralised on the line: subject, status, warnings, message, forward error, problem; odd event types escaped', () => {
    const valid: ReceivedEvent = { time: 't', httpStatus: 503, verdict: verdict({ eventType: 'EMPLOYEE_CREATED\u200b', subject: `A${ESC}`, status: `B${ESC}`, warnings: [`W${ESC}`] }), filtered: false, forward: { url: 'u', error: `E${ESC}` }, problem: `P${ESC}` };
    const line = eventLine(valid, plain);
    expect(line).toContain('EMPLOYEE_CREATED\\u200b');
    expect(line).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b]/);
    expect(line.match(/\n/g)).toHaveLength(1);
    const invalid: ReceivedEvent = { time: 't', httpStatus: 400, verdict: verdict({ valid: false, reason: 'MALFORMED', message: `M\n${ESC}` }), filtered: false };
    expect(eventLine(invalid, plain)).toMatch(/^t {2}400 {2}INVALID MALFORMED {2}M ↵ /);
    expect(eventLine(invalid, plain)).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });

  it('fieldsLine: the picked values, "-" for none, neutralised', () => {
    expect(fieldsLine({ a: 1, b: { c: `x${ESC}` } }, ['a', 'b.c', 'zz'])).toMatch(/^1 {2}x\S* {2}-\n$/);
    expect(fieldsLine({ b: { c: `x${ESC}` } }, ['b.c'])).not.toContain('\u001b');
  });
});

describe('webhook verify --file: the record and its columns', () => {
  it('valid: the verdict with its line; RESULT VALID, the event, a note of the warnings', () => {
    const r = verdictRecord(7, verdict({ warnings: ['CONTRACT_CREATED is deprecated', 'second'] }));
    expect(r).toMatchObject({ line: 7, valid: true, eventType: 'EMPLOYEE_CREATED', subject: 'ACME-0007', status: 'ONBOARDING' });
    expect(cells(VERDICT_LIST, r)).toEqual([7, 'VALID', 'EMPLOYEE_CREATED', 'ACME-0007', 'ONBOARDING', 'k1', '2 warnings: CONTRACT_CREATED is deprecated']);
    expect(cells(VERDICT_LIST, verdictRecord(1, verdict({ warnings: ['one'] })))[6]).toBe('1 warning: one');
  });

  it('invalid: RESULT is the reason, the note its message; CSV joins warnings and errors', () => {
    const r = verdictRecord(2, verdict({ valid: false, reason: 'EVENT_SHAPE', message: 'data.status is not allowed', eventType: null, subject: null, status: null, errors: ['a', 'b'] }));
    expect(cells(VERDICT_LIST, r)).toEqual([2, 'EVENT_SHAPE', '-', null, null, 'k1', 'data.status is not allowed']);
    const csv = Object.fromEntries(VERDICT_LIST.csvColumns.map((c) => [c.key, c.value ? c.value(r) : getPath(r, c.key)]));
    expect(csv).toMatchObject({ line: 2, valid: false, reason: 'EVENT_SHAPE', errors: 'a; b', warnings: '' });
  });
});

describe('webhook replay: the record and its columns', () => {
  const event = { t: 'event' as const, id: 'm1-abc', digest: 'd', receivedAt: '2026-11-22T10:00:00.000Z', eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws: 'a.b.c', payload: {}, target: 'http://app/' };
  // Three hours after it was received; the local time as the machine's zone shows it.
  const REPLAY_LIST = replayList(Date.parse(event.receivedAt) + 3 * 3600_000);
  const at = new Date(event.receivedAt);
  const local = `3 h ago, ${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  it('delivered, refused and failed; received reads locally, with how long ago', () => {
    const ok = replayRecord({ event, result: { url: 'http://app/', status: 204 }, ok: true });
    expect(ok).toEqual({ id: 'm1-abc', receivedAt: event.receivedAt, eventType: 'EMPLOYEE_CREATED', to: 'http://app/', status: 204, error: null, delivered: true });
    expect(cells(REPLAY_LIST, ok)).toEqual([local, 'EMPLOYEE_CREATED', 'm1-abc', 'HTTP 204', 'yes']);
    expect(cells(REPLAY_LIST, replayRecord({ event, result: { url: 'http://app/', status: 500 }, ok: false })).slice(3)).toEqual(['HTTP 500', 'no']);
    const failed = replayRecord({ event, result: { url: 'http://app/', error: 'ECONNREFUSED' }, ok: false });
    expect(failed).toMatchObject({ status: null, error: 'ECONNREFUSED', delivered: false });
    expect(cells(REPLAY_LIST, failed).slice(3)).toEqual(['failed: ECONNREFUSED', 'no']);
    expect(REPLAY_LIST.idField).toBe('id');
  });
});

/** Colours that show where they were applied. */
const tagged = { bold: (s: string) => `<b>${s}</b>`, dim: (s: string) => `<d>${s}</d>`, red: (s: string) => `<r>${s}</r>`, green: (s: string) => `<g>${s}</g>`, yellow: (s: string) => `<y>${s}</y>` } as never;

describe('headers and CSV columns (what -o table and -o csv print)', () => {
  it('verify --file and replay', () => {
    expect(VERDICT_LIST.columns.map((c) => c.header)).toEqual(['LINE', 'RESULT', 'EVENT', 'SUBJECT', 'STATUS', 'KID', 'NOTE']);
    expect(VERDICT_LIST.columns.map((c) => c.kind)).toEqual(['short', 'short', 'short', 'key', 'short', 'short', undefined]);
    expect(VERDICT_LIST.columns.find((c) => c.key === 'status')!.style).toBe('status');
    expect(VERDICT_LIST.csvColumns.map((c) => c.key)).toEqual(['line', 'valid', 'reason', 'message', 'signatureValid', 'kid', 'alg', 'eventType', 'meaning', 'timestamp', 'subject', 'status', 'warnings', 'errors']);
    const replay = replayList(0);
    expect(replay.columns.map((c) => c.header)).toEqual(['RECEIVED', 'EVENT', 'ID', 'RESULT', 'DELIVERED']);
    expect(replay.columns.map((c) => c.kind)).toEqual(['short', 'short', 'key', undefined, 'short']);
    expect(replay.csvColumns.map((c) => c.key)).toEqual(['id', 'receivedAt', 'eventType', 'to', 'status', 'error', 'delivered']);
  });
});

describe('the listen line, coloured', () => {
  it('200 green, anything else red; warnings yellow and counted; a failed forward and a problem red', () => {
    const one: ReceivedEvent = { time: 't', httpStatus: 200, verdict: verdict({ warnings: ['w1'] }), filtered: false, spooled: 'stored' };
    expect(eventLine(one, tagged)).toBe('t  <g>200</g>  EMPLOYEE_CREATED  ACME-0007  ONBOARDING<y>  (1 warning: w1)</y>  -> spooled\n');
    const two: ReceivedEvent = { time: 't', httpStatus: 503, verdict: verdict({ warnings: ['w1', 'w2'] }), filtered: false, forward: { url: 'u', error: 'ECONNREFUSED' }, problem: 'not kept' };
    expect(eventLine(two, tagged)).toBe('t  <r>503</r>  EMPLOYEE_CREATED  ACME-0007  ONBOARDING<y>  (2 warnings: w1)</y><r>  -> forward failed: ECONNREFUSED</r><r>  (not kept)</r>\n');
    const dup: ReceivedEvent = { time: 't', httpStatus: 200, verdict: verdict({ subject: null, status: '' }), filtered: false, forward: { url: 'u', duplicate: true, status: 200 } };
    expect(eventLine(dup, tagged)).toBe('t  <g>200</g>  EMPLOYEE_CREATED  -  -  -> already delivered (duplicate not forwarded)\n');
    const noMessage: ReceivedEvent = { time: 't', httpStatus: 401, verdict: verdict({ valid: false, reason: 'BAD_SIGNATURE', message: null }), filtered: false, forward: { url: 'u' } };
    expect(eventLine(noMessage, tagged)).toBe('t  <r>401</r>  INVALID BAD_SIGNATURE  <r>  -> forward failed: </r>\n');
  });
});

describe('showEventType and the verdict block', () => {
  it('no type is "-"; over 100 characters is cut with an ellipsis', () => {
    expect(showEventType(null)).toBe('-');
    expect(showEventType(undefined)).toBe('-');
    expect(showEventType('')).toBe('-');
    expect(showEventType('A'.repeat(100))).toBe('A'.repeat(100));
    expect(showEventType('A'.repeat(101))).toBe(`${'A'.repeat(100)}…`);
  });

  it('valid: verdict, facts, the data; normalised data says so; warnings listed', () => {
    const v = verdict({ payload: { eventType: 'CONTRACT_CREATED', data: { id: 'c1' } }, normalized: { data: { contractId: 'c1' } }, warnings: ['deprecated'] });
    const text = renderVerdict(v, tagged);
    expect(text.split('\n')[0]).toBe('<g><b>VALID</b></g>  signature verified (ES512), event accepted');
    expect(text).toContain('  kid        k1\n  alg        ES512\n  event      EMPLOYEE_CREATED<d> — an employee was created</d>\n  timestamp  2026-11-22T10:00:00.000Z\n');
    expect(text).toMatch(/ {2}data<d> \(normalised to the current shape\)<\/d>:\n.*contract/i);
    expect(text).toContain('<y>Warnings:</y>\n  ! deprecated\n');
    expect(text).not.toContain('Shape errors');
    expect(verdictJson(v).normalized).toEqual({ data: { contractId: 'c1' } });
    expect(verdictJson(verdict({}))).not.toHaveProperty('normalized');
  });

  it('a payload without data is shown whole; a genuine signature with a wrong shape says it is not a forgery', () => {
    const whole = renderVerdict(verdict({ payload: { eventType: 'X', other: 'y' } }), tagged);
    expect(whole).toMatch(/ {2}payload:\n/);
    const shape = renderVerdict(verdict({ valid: false, reason: 'EVENT_SHAPE', message: 'bad', errors: ['data.status'] }), tagged);
    expect(shape.split('\n')[0]).toBe('<r><b>INVALID</b></r>  EVENT_SHAPE: bad');
    expect(shape).toContain('The signature is genuine');
    expect(shape).toContain('<r>Shape errors:</r>\n  ✗ data.status\n');
    const forged = renderVerdict(verdict({ valid: false, reason: 'BAD_SIGNATURE', message: null, signatureValid: false, eventType: null, payload: null }), tagged);
    expect(forged).not.toContain('genuine');
    expect(forged).not.toMatch(/event|timestamp|payload|data/);
    expect(forged.split('\n')[0]).toBe('<r><b>INVALID</b></r>  BAD_SIGNATURE: ');
  });
});


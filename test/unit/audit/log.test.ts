// The audit log's writer: records, modes, links, rotation, concurrent appends.
import { appendFileSync, writeSync, chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readAuditLog } from '../../../src/audit/read.js';
import { AUDIT_FILE, CUT_FILE, AuditLog, AuditUnwritableError, clip, DEFAULT_MAX_BYTES, employeeOfAnswer, identityOfAnswer, employeeOfPath, KEEP, MAX_RECORD_BYTES, osUser, rotated } from '../../../src/audit/log.js';
import { CliError, NetworkError } from '../../../src/errors.js';

const ID = '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a';
const SCOPE = { profile: 'prod', baseUrl: 'https://api.example.com', command: 'partner gp create', user: 'zoe' };
const T0 = Date.parse('2026-11-28T01:00:00.000Z');

let root: string;
let dir: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'partner-audit-'));
  dir = join(root, 'state');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const lines = (file = join(dir, AUDIT_FILE)) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
const log = (o: { maxBytes?: number } = {}) => {
  let t = T0;
  return new AuditLog({ dir, now: () => (t += 1000), pid: 4242, ...o });
};

describe('clip', () => {
  it('drops control characters (C0, DEL, C1, line separators) and cuts at max with an ellipsis', () => {
    expect(clip('a\u0000b\u001fc\u007fd\u0085e\u009ff\u2028g\u2029h\ti\nj', 100)).toBe('abcdefghij');
    expect(clip('abcdef', 6)).toBe('abcdef');
    expect(clip('abcdefg', 6)).toBe('abcde…');
    expect(clip('abcdefg', 6)).toHaveLength(6);
    expect(clip('é ü', 3)).toBe('é ü');
  });
});

describe('employeeOfPath / employeeOfAnswer', () => {
  it('the uuid after /employees/ in a path, lower-cased; null otherwise', () => {
    expect(employeeOfPath(`/v1/employees/${ID.toUpperCase()}/dynamic-details`)).toBe(ID);
    expect(employeeOfPath(`/v1/employees/${ID}`)).toBe(ID);
    expect(employeeOfPath('/v1/employees/gp-employments')).toBeNull();
    expect(employeeOfPath(`/v1/employees/${ID}x/bank`)).toBeNull();
    expect(employeeOfPath(`/v1/things/${ID}`)).toBeNull();
    expect(employeeOfPath('/v1/employees/')).toBeNull();
    expect(employeeOfPath(`/v1/employees/x${ID}`)).toBeNull();
    expect(employeeOfPath(`/v1/employees/${ID}?a=1`)).toBe(ID);
    expect(employeeOfPath(`/v1/employees/${ID}#f`)).toBe(ID);
  });

  it('the id of an object answer when it is a uuid; null for anything else', () => {
    const b = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
    expect(employeeOfAnswer(b({ id: ID.toUpperCase(), employeeCode: 'A' }))).toBe(ID);
    expect(employeeOfAnswer(b({ id: 'ACME-1' }))).toBeNull();
    expect(employeeOfAnswer(b({ id: `x${ID}` }))).toBeNull();
    expect(employeeOfAnswer(b({ id: `${ID}x` }))).toBeNull();
    expect(employeeOfAnswer(b({ id: 7 }))).toBeNull();
    expect(employeeOfAnswer(b({ other: ID }))).toBeNull();
    expect(employeeOfAnswer(b([{ id: ID }]))).toBeNull();
    expect(employeeOfAnswer(b('null'))).toBeNull();
    expect(employeeOfAnswer(b(`"${ID}"`))).toBeNull();
    expect(employeeOfAnswer(b('{"id":'))).toBeNull();
    expect(employeeOfAnswer(new Uint8Array())).toBeNull();
    expect(employeeOfAnswer(undefined)).toBeNull();
    // Exactly the limit is read; one byte more is not.
    const pad = (n: number) => b(`{"id":"${ID}"${' '.repeat(n - 45)}}`);
    expect(pad(64 * 1024).length).toBe(64 * 1024);
    expect(employeeOfAnswer(pad(64 * 1024))).toBe(ID);
    expect(employeeOfAnswer(pad(64 * 1024 + 1))).toBeNull();
  });
});

describe('osUser', () => {
  it('the account name from the password database, then USER, LOGNAME, USERNAME, then the uid', () => {
    expect(osUser({ USER: 'fake' }, () => ({ username: 'real' }))).toBe('real');
    const none = () => {
      throw new Error('no entry');
    };
    expect(osUser({ USER: 'u', LOGNAME: 'l' }, none)).toBe('u');
    expect(osUser({ LOGNAME: 'l', USERNAME: 'n' }, () => ({ username: '' }))).toBe('l');
    expect(osUser({ USERNAME: 'n' }, none)).toBe('n');
    expect(osUser({}, none)).toBe(`uid ${process.getuid?.() ?? '?'}`);
    const uid = vi.spyOn(process, 'getuid').mockReturnValue(1000);
    expect(osUser({}, none)).toBe('uid 1000');
    uid.mockRestore();
  });
});

describe('AuditLog', () => {
  it('a "sent" record before, an "answered" record after, with the same id', () => {
    const entry = log().sent(SCOPE, 'PATCH', `/v1/employees/${ID}/dynamic-details`);
    const [sent] = lines();
    expect(sent).toEqual({ v: 1, id: expect.stringMatching(/^[0-9a-f]{16}$/), event: 'sent', time: '2026-11-28T01:00:01.000Z', profile: 'prod', baseUrl: 'https://api.example.com', method: 'PATCH', path: `/v1/employees/${ID}/dynamic-details`, employee: ID, command: 'partner gp create', user: 'zoe', pid: 4242 });
    entry.answered(204, 'corr-1', undefined);
    const [, answered] = lines();
    expect(answered).toEqual({ v: 1, id: sent!.id, event: 'answered', time: '2026-11-28T01:00:02.000Z', status: 204, correlationId: 'corr-1', employee: ID, employeeCode: null });
    expect(Object.keys(sent!)).toEqual(['v', 'id', 'event', 'time', 'profile', 'baseUrl', 'method', 'path', 'employee', 'command', 'user', 'pid']);
  });

  it('the employee a create answered with; no correlation id is null', () => {
    const entry = log().sent(SCOPE, 'POST', '/v1/employees/gp-employments');
    expect(lines()[0]!.employee).toBeNull();
    entry.answered(201, undefined, Buffer.from(JSON.stringify({ id: ID })));
    expect(lines()[1]).toMatchObject({ event: 'answered', status: 201, correlationId: null, employee: ID, employeeCode: null });
    // The employee's code too when the answer names it (whom the write was about, for the table), cleaned and bounded.
    log().sent(SCOPE, 'POST', '/v1/employees/gp-employments').answered(201, undefined, Buffer.from(JSON.stringify({ id: ID, employeeCode: 'ACME-\u001b[31m00046' })));
    expect(lines()[3]).toMatchObject({ employee: ID, employeeCode: 'ACME-[31m00046' });
    expect(identityOfAnswer(Buffer.from(JSON.stringify({ employeeCode: 7 })))).toEqual({ id: null, code: null });
    expect(identityOfAnswer(Buffer.from(JSON.stringify({ employeeCode: 'x'.repeat(100) }))).code).toHaveLength(64);
  });

  it('a failure is recorded with the error code (CliError, errno-like, or ERROR)', () => {
    const l = log();
    l.sent(SCOPE, 'POST', '/a').failed(new NetworkError('x', undefined, 'TIMEOUT'));
    l.sent(SCOPE, 'POST', '/b').failed(Object.assign(new Error('x'), { code: 'ECONNRESET' }));
    l.sent(SCOPE, 'POST', '/c').failed(new Error('plain'));
    l.sent(SCOPE, 'POST', '/d').failed(undefined);
    const failed = lines().filter((r) => r.event === 'failed');
    expect(failed.map((r) => r.error)).toEqual(['TIMEOUT', 'ECONNRESET', 'ERROR', 'ERROR']);
    expect(Object.keys(failed[0]!)).toEqual(['v', 'id', 'event', 'time', 'error']);
  });

  it('fields are clipped: a record always fits one write', () => {
    const long = 'é'.repeat(5000);
    const entry = log().sent({ profile: long, baseUrl: long, command: long, user: long }, 'POSTPOSTPOSTPOST', `/${long}\n`);
    entry.answered(200, long, undefined);
    const [sent, answered] = lines();
    expect((sent!.path as string).length).toBe(400);
    expect((sent!.baseUrl as string).length).toBe(200);
    expect((sent!.command as string).length).toBe(200);
    expect((sent!.profile as string).length).toBe(100);
    expect((sent!.user as string).length).toBe(64);
    expect((sent!.method as string).length).toBe(10);
    expect((answered!.correlationId as string).length).toBe(128);
    for (const l of readFileSync(join(dir, AUDIT_FILE), 'utf8').split('\n').filter(Boolean)) expect(Buffer.byteLength(l) + 1).toBeLessThanOrEqual(MAX_RECORD_BYTES);
    expect(MAX_RECORD_BYTES).toBeLessThan(4096);
  });

  it('the file is 0600 in a 0700 directory it creates', () => {
    log().sent(SCOPE, 'DELETE', '/x');
    expect(statSync(join(dir, AUDIT_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(new AuditLog({ dir }).file).toBe(join(dir, AUDIT_FILE));
  });

  it('never follows a symbolic link: in place of the file or of the directory the write is refused', () => {
    mkdirSync(dir, { mode: 0o700 });
    const target = join(root, 'elsewhere');
    writeFileSync(target, '');
    symlinkSync(target, join(dir, AUDIT_FILE));
    expect(() => log().sent(SCOPE, 'POST', '/x')).toThrow(AuditUnwritableError);
    expect(() => log().sent(SCOPE, 'POST', '/x')).toThrow(/symbolic link, never followed; the request was not sent/);
    expect(readFileSync(target, 'utf8')).toBe('');
    rmSync(dir, { recursive: true });
    mkdirSync(join(root, 'real'));
    symlinkSync(join(root, 'real'), dir);
    expect(() => log().sent(SCOPE, 'POST', '/x')).toThrow(/its directory .* is a symbolic link, never followed/);
    expect(readdirSync(join(root, 'real'))).toEqual([]);
  });

  it('refused, with the code and what to do, when the directory cannot be made or the file is not a file', () => {
    writeFileSync(dir, 'a file');
    let err: unknown;
    try {
      log().sent(SCOPE, 'POST', '/x');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).code).toBe('AUDIT_UNWRITABLE');
    expect((err as CliError).exitCode).toBe(1);
    expect((err as CliError).message).toMatch(/^Cannot write the audit log .*: E\w+/);
    expect((err as CliError).hint).toMatch(/"audit": false/);
    rmSync(dir);
    mkdirSync(join(dir, AUDIT_FILE), { recursive: true });
    expect(() => log().sent(SCOPE, 'POST', '/x')).toThrow(/(it is not a regular file|EISDIR)/);
  });

  it.runIf(process.platform === 'linux')('a FIFO in place of the file fails at once instead of blocking', () => {
    mkdirSync(dir, { mode: 0o700 });
    execFileSync('mkfifo', [join(dir, AUDIT_FILE)]);
    // Opened read-write (the tail is read to find a cut record): a FIFO opens at once and is refused as what it is.
    const started = Date.now();
    expect(() => log().sent(SCOPE, 'POST', '/x')).toThrow(/it is not a regular file/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an outcome that cannot be written is not an error (the request is already out)', () => {
    const entry = log().sent(SCOPE, 'POST', '/x');
    rmSync(dir, { recursive: true });
    writeFileSync(dir, 'now a file');
    expect(() => entry.answered(200, undefined, undefined)).not.toThrow();
    expect(() => entry.failed(new Error('x'))).not.toThrow();
  });

  it('rotates past maxBytes: audit.1 … audit.KEEP, the oldest dropped, no lock left behind', () => {
    const l = log({ maxBytes: 600 });
    for (let i = 0; i < 40; i++) l.sent(SCOPE, 'POST', `/n/${i}`);
    const files = readdirSync(dir).sort();
    expect(files).toEqual([AUDIT_FILE, ...Array.from({ length: KEEP }, (_, i) => `audit.${i + 1}.ndjson`)].sort());
    for (const f of files) expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(600 + MAX_RECORD_BYTES);
    // Newest in audit.ndjson, older ones in audit.1 …, in order.
    const order = [...Array.from({ length: KEEP }, (_, i) => rotated(dir, KEEP - i)), join(dir, AUDIT_FILE)].flatMap((f) => lines(f).map((r) => Number(String(r.path).split('/')[2])));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.at(-1)).toBe(39);
    expect(order[0]).toBeGreaterThan(0);
    expect(existsSync(join(dir, `${AUDIT_FILE}.lock`))).toBe(false);
  });

  it('does not rotate at or under maxBytes', () => {
    const l = log({ maxBytes: 100_000 });
    for (let i = 0; i < 20; i++) l.sent(SCOPE, 'POST', `/n/${i}`);
    expect(readdirSync(dir)).toEqual([AUDIT_FILE]);
    // A file exactly at the cap stays; one byte over it is rotated.
    const one = new AuditLog({ dir: join(root, 'one'), now: () => T0, pid: 1 });
    one.sent(SCOPE, 'POST', '/n/0');
    const size = statSync(join(root, 'one', AUDIT_FILE)).size;
    new AuditLog({ dir: join(root, 'exact'), maxBytes: size, now: () => T0, pid: 1 }).sent(SCOPE, 'POST', '/n/0');
    expect(readdirSync(join(root, 'exact'))).toEqual([AUDIT_FILE]);
    new AuditLog({ dir: join(root, 'over'), maxBytes: size - 1, now: () => T0, pid: 1 }).sent(SCOPE, 'POST', '/n/0');
    expect(readdirSync(join(root, 'over')).sort()).toEqual(['audit.1.ndjson']);
    expect(DEFAULT_MAX_BYTES).toBe(1024 * 1024);
  });

  it('a rotation another process holds the lock of is skipped: the record is kept all the same', () => {
    const l = log({ maxBytes: 10 });
    mkdirSync(dir, { mode: 0o700 });
    // A live partner process (this one) holds the lock: the rotation gives up after its wait.
    writeFileSync(join(dir, `${AUDIT_FILE}.lock`), JSON.stringify({ pid: process.pid, nonce: 'x', startedAt: Date.now() }));
    l.sent(SCOPE, 'POST', '/kept');
    expect(lines().map((r) => r.path)).toEqual(['/kept']);
    expect(readdirSync(dir).sort()).toEqual([AUDIT_FILE, `${AUDIT_FILE}.lock`]);
  });

  it('a gap in the rotated files (one removed by hand) does not stop the others moving', () => {
    const l = log({ maxBytes: 200 });
    for (let i = 0; i < 3; i++) l.sent(SCOPE, 'POST', `/n/${i}`);
    rmSync(rotated(dir, 1), { force: true });
    for (let i = 3; i < 6; i++) l.sent(SCOPE, 'POST', `/n/${i}`);
    expect(existsSync(join(dir, AUDIT_FILE)) || existsSync(rotated(dir, 1))).toBe(true);
    expect(lstatSync(dir).isDirectory()).toBe(true);
  });

  it('two writers at once append whole lines', () => {
    const a = log();
    const b = log();
    for (let i = 0; i < 200; i++) (i % 2 ? a : b).sent(SCOPE, 'POST', `/n/${i}`).answered(201, `c${i}`, undefined);
    const all = lines();
    expect(all).toHaveLength(400);
    expect(new Set(all.filter((r) => r.event === 'sent').map((r) => r.id)).size).toBe(200);
  });

  it.skipIf(process.getuid?.() === 0)('a directory that cannot be written to refuses the write', () => {
    mkdirSync(dir, { mode: 0o500 });
    chmodSync(dir, 0o500);
    expect(() => log().sent(SCOPE, 'POST', '/x')).toThrow(/EACCES/);
  });
});

describe('a full disk never cuts the log (a record whole or not at all)', () => {
  /** A write(2) that a full disk cuts short once, the `nth` (1-based): half the buffer written. */
  const cutOnce = (nth: number) => {
    let n = 0;
    return (fd: number, data: Buffer) => (++n === nth ? writeSync(fd, data.subarray(0, Math.floor(data.length / 2))) : writeSync(fd, data));
  };

  it('a write cut short is refused (the request not sent) and its cut half is set aside at once: the next record starts a line of its own', () => {
    const l = new AuditLog({ dir, now: () => T0, pid: 1, write: cutOnce(3) });
    l.sent(SCOPE, 'POST', '/v1/a').answered(201, 'c1', undefined);
    const before = readFileSync(join(dir, AUDIT_FILE));
    expect(() => l.sent(SCOPE, 'POST', '/v1/b')).toThrow(AuditUnwritableError);
    // The log is as it was; the cut half is in audit.cut.ndjson, with where it was.
    expect(readFileSync(join(dir, AUDIT_FILE))).toEqual(before);
    const [aside] = readFileSync(join(dir, CUT_FILE), 'utf8').trim().split('\n').map((x) => JSON.parse(x) as { offset: number; bytes: string; file: string });
    expect(aside).toMatchObject({ file: AUDIT_FILE, offset: before.length });
    expect(Buffer.from(aside!.bytes, 'base64').toString()).toMatch(/^\{"v":1,"id":"[0-9a-f]+","event":"sent"/);
    expect(statSync(join(dir, CUT_FILE)).mode & 0o777).toBe(0o600);
    l.sent(SCOPE, 'POST', '/v1/c').answered(201, 'c3', undefined);
    expect(lines().map((r) => [r.event, r.path ?? r.status])).toEqual([['sent', '/v1/a'], ['answered', 201], ['sent', '/v1/c'], ['answered', 201]]);
    expect(readAuditLog(dir)).toMatchObject({ unreadable: 0, setAside: 1, entries: [{ path: '/v1/a', status: 201 }, { path: '/v1/c', status: 201 }] });
  });

  it('a cut tail left by an earlier process (the disk freed since) is found and set aside before the next append', () => {
    const l = log();
    l.sent(SCOPE, 'POST', '/v1/a').answered(201, 'c1', undefined);
    const whole = readFileSync(join(dir, AUDIT_FILE));
    appendFileSync(join(dir, AUDIT_FILE), '{"v":1,"id":"abcd","event":"sent","time":"2026-11-28T0');
    l.sent(SCOPE, 'POST', '/v1/b').answered(204, 'c2', undefined);
    const text = readFileSync(join(dir, AUDIT_FILE));
    expect(text.subarray(0, whole.length)).toEqual(whole);
    expect(lines()).toHaveLength(4);
    expect(readAuditLog(dir)).toMatchObject({ unreadable: 0, setAside: 1, entries: [{ path: '/v1/a' }, { path: '/v1/b', status: 204 }] });
  });

  it('when the cut tail cannot be set aside (the lock cannot be taken), it is ended with a newline: a line of its own, counted, never glued', () => {
    const l = log();
    l.sent(SCOPE, 'POST', '/v1/a').answered(201, 'c1', undefined);
    appendFileSync(join(dir, AUDIT_FILE), '{"v":1,"id":"abcd","ev');
    mkdirSync(join(dir, `${AUDIT_FILE}.lock`)); // the lock cannot be taken
    l.sent(SCOPE, 'POST', '/v1/b').answered(204, 'c2', undefined);
    const r = readAuditLog(dir);
    expect(r.entries.map((e) => e.path)).toEqual(['/v1/a', '/v1/b']);
    expect(r.unreadable).toBe(1);
    expect(r.setAside).toBe(0);
  }, 20_000);

  it('a log written before this (a whole record glued to a cut one): the whole record is still read, the cut one counted', () => {
    mkdirSync(dir, { recursive: true });
    const sentB = JSON.stringify({ v: 1, id: 'b', event: 'sent', time: new Date(T0).toISOString(), profile: 'p', baseUrl: 'https://b', method: 'POST', path: '/v1/b', employee: null, command: 'partner api', user: 'u', pid: 7 });
    writeFileSync(join(dir, AUDIT_FILE), `{"v":1,"id":"a","event":"sent","ti${sentB}\n`);
    expect(readAuditLog(dir)).toMatchObject({ unreadable: 1, entries: [{ id: 'b', path: '/v1/b' }] });
  });
});

import { describe, expect, it } from 'vitest';
import { verify } from '../../../../src/commands/webhook/verify.js';
import { listen } from '../../../../src/commands/webhook/listen.js';
import { emit } from '../../../../src/commands/sandbox/emit.js';
import { parserFor } from '../../../helpers/parse.js';
import { replayCommand } from '../../../../src/commands/webhook/replay.js';
import { parseSince } from '../../../../src/webhooks/duration.js';

const parseVerify = parserFor(verify);
const parseListen = parserFor(listen);
const parseEmit = parserFor(emit);
import { statusForVerdict } from '../../../../src/webhooks/listen.js';
import { UsageError } from '../../../../src/errors.js';
import { tooLargeVerdict } from '../../../../src/webhooks/verify.js';

function usage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as UsageError).message;
  }
  throw new Error('expected a UsageError');
}

describe('webhook verify: flag parsing', () => {
  it.each([
    [['eyJ.a.b'], {}, { jws: 'eyJ.a.b', file: undefined, keys: { cache: true } }],
    [[], { file: 'x.txt', cache: false }, { file: 'x.txt', keys: { cache: false } }],
    [[], { jwksUrl: 'https://api.example.com/jwks.json', output: 'json' }, { out: { format: 'json' }, keys: { jwksUrl: 'https://api.example.com/jwks.json' } }],
    [[], { jwksUrl: 'http://127.0.0.1:8080/v1/partner/.well-known/jwks.json' }, { keys: { jwksUrl: 'http://127.0.0.1:8080/v1/partner/.well-known/jwks.json' } }],
  ])('%j %j', (args, raw, expected) => {
    expect(parseVerify(args as string[], raw as Record<string, unknown>)).toMatchObject(expected);
  });

  it.each([
    [['a.b.c'], { file: 'f' }, /not both/],
    [[], { jwksUrl: 'https://x.test/j', jwksFile: 'j.json' }, /cannot be used together/],
    [[], { jwksUrl: 'http://example.com/jwks.json' }, /--jwks-url: .*only https/],
    [[], { jwksUrl: 'not a url' }, /--jwks-url/],
    [[], { output: 'yaml' }, /table, json, ndjson, csv/],
    [[], { file: ' ' }, /--file must not be empty/],
  ])('%j %j → usage error', (args, raw, message) => {
    expect(usage(() => parseVerify(args as string[], raw as Record<string, unknown>))).toMatch(message);
  });
});

describe('webhook listen: flag parsing', () => {
  it('defaults', () => {
    expect(parseListen([], {})).toMatchObject({ host: '127.0.0.1', port: 0, path: '/', out: { format: 'ndjson', chosen: false }, events: undefined, forwardTo: undefined });
  });
  it('values', () => {
    expect(parseListen([], { port: '4242', path: 'hooks', events: 'employee_created, EMPLOYEE_UPDATED', forwardTo: 'http://localhost:3000/x', output: 'ndjson' })).toMatchObject({
      port: 4242,
      path: '/hooks',
      events: ['EMPLOYEE_CREATED', 'EMPLOYEE_UPDATED'],
      forwardTo: 'http://localhost:3000/x',
      out: { format: 'ndjson', chosen: true },
    });
  });
  it.each([
    [{ port: '-1' }, /--port/],
    [{ port: 'abc' }, /--port/],
    [{ forwardTo: 'file:///etc/passwd' }, /--forward-to/],
    [{ events: ' , ' }, /--events/],
    [{ events: 'EMPLOYEE CREATED' }, /not an event type/],
    [{ path: '/a?b' }, /--path/],
    [{ output: 'csv' }, /Allowed choices are table, ndjson/],
    [{ output: 'json' }, /Allowed choices are table, ndjson/],
    [{ output: 'ndjson', jq: '.eventType' }, /--jq works on JSON and cannot be used with -o ndjson/],
    [{ forwardTimeout: '0' }, /--forward-timeout must be a duration from 100ms to 10m/],
    [{ forwardTimeout: 'soon' }, /--forward-timeout/],
    [{ maxAge: '500ms' }, /--max-age must be a duration from 1s to 365d/],
    [{ spool: ' ' }, /--spool must not be empty/],
  ])('%j → usage error', (raw, message) => {
    expect(usage(() => parseListen([], raw))).toMatch(message);
  });
});

describe('webhook listen: delivery flags', () => {
  it("--forward-timeout (default 5 s, under common senders' 10 s), --max-age (off by default), --spool", () => {
    expect(parseListen([], {})).toMatchObject({ forwardTimeoutMs: 5000, maxAgeMs: undefined, spool: undefined });
    expect(parseListen([], { forwardTimeout: '2.5', maxAge: '10m', spool: '/tmp/s' })).toMatchObject({ forwardTimeoutMs: 2500, maxAgeMs: 600_000, spool: '/tmp/s' });
    expect(parseListen([], { forwardTimeout: '750ms', maxAge: '2h' })).toMatchObject({ forwardTimeoutMs: 750, maxAgeMs: 7_200_000 });
  });
});

describe('webhook replay: flag parsing', () => {
  it('needs --spool; --event-type a list; --to an http(s) URL; --since a time or a duration ago', async () => {
    const parseReplay = parserFor(replayCommand);
    expect(usage(() => parseReplay([], {}))).toMatch(/--spool DIR is required/);
    expect(parseReplay([], { spool: 'd', since: '2h', eventType: 'A, B', to: 'http://localhost:3000/x' })).toMatchObject({ spool: 'd', since: '2h', eventTypes: ['A', 'B'], to: 'http://localhost:3000/x' });
    expect(parseReplay([], { spool: 'd', output: 'csv', quiet: false })).toMatchObject({ out: { format: 'csv', quiet: false } });
    expect(parseReplay([], { spool: 'd', quiet: true })).toMatchObject({ out: { quiet: true } });
    expect(usage(() => parseReplay([], { spool: 'd', to: 'ftp://x' }))).toMatch(/--to must be an http\(s\) URL/);
    expect(usage(() => parseReplay([], { spool: 'd', eventType: ',' }))).toMatch(/--event-type needs at least one/);
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(parseSince('--since', '2025-03-01T00:00:00Z', now)).toBe(Date.parse('2025-03-01T00:00:00Z'));
    expect(parseSince('--since', '2h', now)).toBe(now - 2 * 3_600_000);
    expect(usage(() => parseSince('--since', '2025-13-45', now))).toMatch(/--since "2025-13-45" is not a valid time/);
    expect(usage(() => parseSince('--since', 'yesterday', now))).toMatch(/--since must be a duration/);
  });
});

describe('sandbox emit: flag parsing', () => {
  it('accepts every event type of the spec, case-insensitively', () => {
    expect(parseEmit(['employee_created'], { print: true })).toMatchObject({ eventType: 'EMPLOYEE_CREATED', print: true });
    expect(parseEmit(['CONTRACT_ACTIVATED'], { to: 'http://127.0.0.1:1/', legacy: true })).toMatchObject({ eventType: 'CONTRACT_ACTIVATED', legacy: true });
    expect(parseEmit(['EMPLOYEE_UPDATED'], { print: true, data: '{"updateType":"BANK_DETAILS"}' }).data).toEqual({ updateType: 'BANK_DETAILS' });
  });
  it.each([
    [[], { print: true }, /EVENT_TYPE is required/],
    [['NOPE'], { print: true }, /EVENT_TYPE "NOPE" is not an event type of the spec/],
    [['EMPLOYEE_CREATED'], {}, /Nowhere to send/],
    [['EMPLOYEE_CREATED'], { to: 'nope' }, /--to must be/],
    [['APPROVAL_REQUEST_CREATED'], { print: true, legacy: true }, /no earlier published shape/],
    [['EMPLOYEE_CREATED'], { print: true, data: '[1]' }, /--data must be a JSON object/],
  ])('%j %j → usage error', (args, raw, message) => {
    expect(usage(() => parseEmit(args as string[], raw as Record<string, unknown>))).toMatch(message);
  });
});

describe('listen: HTTP status for a verdict', () => {
  const v = (reason: string | null, valid = false) => ({ ...tooLargeVerdict(), valid, reason }) as Parameters<typeof statusForVerdict>[0];
  it.each([
    [null, true, 200],
    ['TOO_LARGE', false, 413],
    ['MALFORMED', false, 400],
    ['PAYLOAD_NOT_JSON', false, 400],
    ['PAYLOAD_SHAPE', false, 400],
    ['EVENT_SHAPE', false, 400],
    ['BAD_SIGNATURE', false, 401],
    ['UNSUPPORTED_ALG', false, 401],
    ['UNKNOWN_KID', false, 401],
    ['WRONG_KEY_TYPE', false, 401],
    ['UNSUPPORTED_CRIT', false, 401],
  ])('%s → %i', (reason, valid, status) => {
    expect(statusForVerdict(v(reason as string | null, valid as boolean))).toBe(status);
  });
});

describe('webhook listen: --park-on, --metrics-listen, and the --jq help', () => {
  it.each([
    [{ spool: 's', forwardTo: 'http://127.0.0.1:3000/', maxAttempts: 3, parkOn: '500, 501' }, { parkOn: new Set([500, 501]), maxAttempts: 3 }],
    [{}, { parkOn: new Set(), metrics: false }],
    [{ metricsListen: '9464' }, { metricsListen: { host: '127.0.0.1', port: 9464 }, metrics: true }],
    [{ metricsListen: '10.0.0.5:0' }, { metricsListen: { host: '10.0.0.5', port: 0 } }],
    [{ metricsListen: '[::1]:9464' }, { metricsListen: { host: '::1', port: 9464 } }],
  ])('%j', (raw, expected) => {
    expect(parseListen([], raw as Record<string, unknown>)).toMatchObject(expected);
  });

  it.each([
    [{ spool: 's', forwardTo: 'http://127.0.0.1:3000/', parkOn: '500' }, /--park-on needs --max-attempts/],
    [{ spool: 's', forwardTo: 'http://127.0.0.1:3000/', maxAttempts: 3, parkOn: '503' }, /503 means the target is down or busy/],
    [{ spool: 's', forwardTo: 'http://127.0.0.1:3000/', maxAttempts: 3, parkOn: '404' }, /"404" is not a 5xx status/],
    [{ metricsListen: 'localhost:70000' }, /--metrics-listen must be an address/],
    [{ metricsListen: 'http://x:1' }, /--metrics-listen must be an address/],
  ])('%j is refused', (raw, message) => {
    expect(usage(() => parseListen([], raw as Record<string, unknown>))).toMatch(message);
  });

  it('--jq on listen filters each record as it is printed (no whole result, no "large export")', async () => {
    const { outputItems } = await import('../../../../src/help.js');
    const jq = outputItems(listen.output!).find((i) => i.term.includes('--jq'))!;
    expect(jq.text).toMatch(/filter each record with jq/);
    expect(jq.text).not.toMatch(/export|whole result/);
    expect(outputItems(replayCommand.output!).find((i) => i.term.includes('--jq'))!.text).toMatch(/whole result/);
  });
});

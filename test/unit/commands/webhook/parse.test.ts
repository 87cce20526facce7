import { describe, expect, it } from 'vitest';
import { verify } from '../../../../src/commands/webhook/verify.js';
import { listen } from '../../../../src/commands/webhook/listen.js';
import { emit } from '../../../../src/commands/sandbox/emit.js';
import { parserFor } from '../../../helpers/parse.js';

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
    [[], { jwksUrl: 'https://api.example.com/jwks.json', output: 'json' }, { output: 'json', keys: { jwksUrl: 'https://api.example.com/jwks.json' } }],
    [[], { jwksUrl: 'http://127.0.0.1:8080/v1/partner/.well-known/jwks.json' }, { keys: { jwksUrl: 'http://127.0.0.1:8080/v1/partner/.well-known/jwks.json' } }],
  ])('%j %j', (args, raw, expected) => {
    expect(parseVerify(args as string[], raw as Record<string, unknown>)).toMatchObject(expected);
  });

  it.each([
    [['a.b.c'], { file: 'f' }, /not both/],
    [[], { jwksUrl: 'https://x.test/j', jwksFile: 'j.json' }, /cannot be used together/],
    [[], { jwksUrl: 'http://example.com/jwks.json' }, /--jwks-url: .*only https/],
    [[], { jwksUrl: 'not a url' }, /--jwks-url/],
    [[], { output: 'csv' }, /table, json, ndjson/],
    [[], { file: ' ' }, /--file must not be empty/],
  ])('%j %j → usage error', (args, raw, message) => {
    expect(usage(() => parseVerify(args as string[], raw as Record<string, unknown>))).toMatch(message);
  });
});

describe('webhook listen: flag parsing', () => {
  it('defaults', () => {
    expect(parseListen([], {})).toMatchObject({ host: '127.0.0.1', port: 0, path: '/', output: 'table', events: undefined, forwardTo: undefined });
  });
  it('values', () => {
    expect(parseListen([], { port: '4242', path: 'hooks', events: 'employee_created, EMPLOYEE_UPDATED', forwardTo: 'http://localhost:3000/x', output: 'ndjson' })).toMatchObject({
      port: 4242,
      path: '/hooks',
      events: ['EMPLOYEE_CREATED', 'EMPLOYEE_UPDATED'],
      forwardTo: 'http://localhost:3000/x',
      output: 'ndjson',
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
  ])('%j → usage error', (raw, message) => {
    expect(usage(() => parseListen([], raw))).toMatch(message);
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
    [['NOPE'], { print: true }, /EVENT_TYPE must be one of/],
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

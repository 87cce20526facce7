// What the receiver already has as text is used as it is, never re-derived:
// the payload's signed text (verifyWebhook fills it) is what the spool
// forwards, the payload's JSON written for its digest is the journal
// record's payload, and event ids keep their form (time, 48 random bits).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openSpool, type Spool } from '../../../src/webhooks/spool.js';
import { eventLine, parseRecord, type SpooledEvent } from '../../../src/webhooks/journal.js';
import { EventIds } from '../../../src/webhooks/event-ids.js';
import { digestOfJson, payloadDigest } from '../../../src/webhooks/forward.js';
import { KeyStore } from '../../../src/webhooks/jwks.js';
import { verifyWebhook, type SignedText, type Verdict } from '../../../src/webhooks/verify.js';
import { parseJsonExact } from '../../../src/json/parse-exact.js';
import { stringifyExact } from '../../../src/json/stringify-exact.js';
import { b64, ecKey, signBytes, signEs, employeeCreated } from './helpers.js';
import { waitFor } from '../../helpers/wait-for.js';
import { closeServer, listenOnLoopback } from '../../helpers/loopback-server.js';

let server: Server;
let target = '';
const bodies: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end();
    });
  });
  const serverAt = await listenOnLoopback(server);
  target = `${serverAt.url}/hooks`;
});
afterAll(async () => {
  await closeServer(server);
});
const dirs: string[] = [];
const spools: Spool[] = [];
afterEach(async () => {
  for (const s of spools.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  bodies.splice(0);
});

describe('verifyWebhook: the signed payload text', () => {
  const k1 = ecKey('k1');
  const store = () => new KeyStore({ source: { kind: 'static', jwks: { keys: [k1.jwk] } } });

  it('is handed over exactly as signed (its spaces and digits), once the signature verified', async () => {
    const text = '{ "eventType": "EMPLOYEE_CREATED", "timestamp": "2025-03-01T09:30:00.000Z", "data": {"id": "6f1c1d5e-8a4b-4c1e-9f0a-1b2c3d4e5f60", "customerId": "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9", "employeeCode": "ACME-0007", "status": "ONBOARDING", "type": "EMPLOYEE", "country": "DEU", "salary": 1.50} }';
    const signed: SignedText = {};
    const v = await verifyWebhook(signBytes({ alg: 'ES512', kid: 'k1' }, text, k1.privateKey), store(), signed);
    expect(v.signatureValid).toBe(true);
    expect(signed.payloadText).toBe(text);
    // Not in the verdict: verdicts are printed and cross threads.
    expect(JSON.stringify(v)).not.toContain('payloadText');
  });

  it('is not handed over for a signature that does not verify', async () => {
    const jws = signEs({ alg: 'ES512', kid: 'k1' }, employeeCreated(), k1.privateKey);
    const [h, , s] = jws.split('.');
    const signed: SignedText = {};
    const v = await verifyWebhook(`${h}.${b64(JSON.stringify(employeeCreated({ status: 'ACTIVE' })))}.${s}`, store(), signed);
    expect(v.valid).toBe(false);
    expect(signed.payloadText).toBeUndefined();
  });
});

describe('eventLine', () => {
  it('is the line stringifyExact writes for the record, from the payload JSON already written (numbers as signed)', () => {
    const payload = parseJsonExact('{"eventType":"EMPLOYEE_UPDATED","data":{"n":9007199254740993,"x":1.50,"big":1e400,"s":"\\"quoted\\" \\u2028"}}');
    const record: SpooledEvent = { t: 'event', id: 'mx1-0a1b2c3d4e5f', digest: payloadDigest(payload), receivedAt: '2026-11-28T07:00:00.000Z', eventType: null, kid: 'k"1', jws: '"eyJ.a.b"', payload, target: null };
    const line = eventLine(record, stringifyExact(payload));
    expect(line).toBe(`${stringifyExact(record)}\n`);
    expect(line).toContain('"n":9007199254740993,"x":1.50,"big":1e400');
    expect(stringifyExact(parseRecord(line.trimEnd()))).toBe(stringifyExact(record));
    expect(digestOfJson(stringifyExact(payload))).toBe(record.digest);
  });
});

describe('EventIds', () => {
  it('the time received in base 36 and 12 hex digits of randomness; unique across refills of its pool; two sources differ', () => {
    const a = new EventIds();
    const b = new EventIds();
    const at = Date.parse('2026-11-28T07:00:00.000Z');
    const ids = Array.from({ length: 3000 }, () => a.next(at));
    for (const id of ids) expect(id).toMatch(new RegExp(`^${at.toString(36)}-[0-9a-f]{12}$`));
    expect(new Set(ids).size).toBe(ids.length);
    expect(b.next(at)).not.toBe(ids[0]);
    expect(new Set(ids.map((id) => id.slice(-12, -10))).size).toBeGreaterThan(200); // every byte value drawn, not a counter
  });
});

describe('spool: the text it was given', () => {
  const verdict = { eventType: 'EMPLOYEE_CREATED', kid: 'k1', payload: { eventType: 'EMPLOYEE_CREATED', n: 1 } } as unknown as Verdict;

  it('forwards the signed payload text it was given, as it is; writes the payload JSON it was given as the record\'s payload', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'partner-spool-text-'));
    dirs.push(dir);
    const s = await openSpool(dir, { forwardTimeoutMs: 1000, forwardTo: target });
    spools.push(s);
    const payloadText = '{"eventType" : "EMPLOYEE_CREATED",  "n":1.0}';
    const payloadJson = stringifyExact(verdict.payload);
    expect(await s.accept({ digest: digestOfJson(payloadJson), jws: 'not-a-jws', verdict, receivedAt: '2026-11-28T07:00:00.000Z', payloadJson, payloadText })).toBe('stored');
    await waitFor(() => bodies.length === 1 && s.backlog === 0, { what: 'the delivery', timeoutMs: 10_000 });
    expect(bodies[0]).toBe(payloadText);
    const line = readFileSync(join(dir, 'journal.ndjson'), 'utf8').split('\n')[0]!;
    const record = parseRecord(line) as SpooledEvent;
    expect(line).toBe(stringifyExact(record));
    expect(record.payload).toEqual(verdict.payload);
  });
});

// Webhook fixtures made with node:crypto only, outside the project's code:
// keys, JWKs and hand-built compact JWS; and scratch directories for the
// spool's tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface TestKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  jwk: Record<string, unknown>;
}

export function ecKey(kid: string | undefined, curve: 'secp521r1' | 'prime256v1' = 'secp521r1'): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
  if (kid !== undefined) jwk.kid = kid;
  if (curve === 'secp521r1') jwk.alg = 'ES512';
  return { privateKey, publicKey, jwk };
}

export function rsaKey(kid: string): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
  jwk.kid = kid;
  return { privateKey, publicKey, jwk };
}

export const b64 = (v: string | Buffer): string => Buffer.from(v).toString('base64url');

export function signingInput(header: Record<string, unknown>, payload: unknown): string {
  const p = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return `${b64(JSON.stringify(header))}.${b64(p)}`;
}

/** ES512 (or ES256 with a P-256 key) by hand: SHA-512 ECDSA, raw r||s (IEEE P1363). */
export function signEs(header: Record<string, unknown>, payload: unknown, key: KeyObject, hash = 'sha512'): string {
  const input = signingInput(header, payload);
  const sig = sign(hash, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${b64(sig)}`;
}

/** ES512 over payload bytes as they are (not JSON-encoded): invalid UTF-8, deep nesting, anything. */
export function signBytes(header: Record<string, unknown>, payload: Buffer | string, key: KeyObject): string {
  const input = `${b64(JSON.stringify(header))}.${Buffer.from(payload).toString('base64url')}`;
  return `${input}.${sign('sha512', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

export function signHmac(header: Record<string, unknown>, payload: unknown, secret: string | Buffer): string {
  const input = signingInput(header, payload);
  return `${input}.${createHmac('sha512', secret).update(input).digest('base64url')}`;
}

export function signRsa(header: Record<string, unknown>, payload: unknown, key: KeyObject): string {
  const input = signingInput(header, payload);
  return `${input}.${b64(sign('sha512', Buffer.from(input), key))}`;
}

export const UUIDS = {
  a: '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a',
  b: '9a1c2d3e-4f50-4617-8899-aabbccddeeff',
  c: '0b1c2d3e-4f50-4617-8899-112233445566',
  d: '7e8f9a0b-1c2d-4e3f-9a4b-5c6d7e8f9a0b',
};

export function employeeCreated(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    eventType: 'EMPLOYEE_CREATED',
    timestamp: '2025-03-01T09:30:00.000Z',
    data: { id: UUIDS.a, customerId: UUIDS.b, employeeCode: 'ACME-0007', status: 'ONBOARDING', type: 'EMPLOYEE', country: 'DEU', ...extra },
  };
}

export function approval(eventType: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const status = eventType.endsWith('APPROVED') ? 'APPROVED' : eventType.endsWith('REJECTED') ? 'REJECTED' : 'PENDING';
  const data: Record<string, unknown> = {
    customerId: UUIDS.b,
    employeeCode: 'ACME-0007',
    employeeId: UUIDS.a,
    country: 'FRA',
    scope: 'TIME_OFF',
    status,
    approverId: UUIDS.c,
    requestedBy: { id: UUIDS.a, type: 'EMPLOYEE' },
    requestedAt: '2025-03-01T09:00:00.000Z',
    resource: { type: 'TIME_OFF', id: UUIDS.d, details: { leaveType: 'ANNUAL', startDate: '2025-04-01', endDate: '2025-04-02', numberOfDays: 1.5, description: '' } },
  };
  if (status === 'APPROVED') Object.assign(data, { approvedBy: UUIDS.c, approvedAt: '2025-03-02T10:00:00.000Z' });
  if (status === 'REJECTED') Object.assign(data, { rejectedBy: UUIDS.c, rejectedAt: '2025-03-02T10:00:00.000Z' });
  return { eventType, timestamp: '2025-03-02T10:00:00.000Z', data: { ...data, ...extra } };
}

/** A fresh private directory per call, all removed after each test. */
export function scratchDirs(prefix: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    made.push(d);
    return d;
  };
}

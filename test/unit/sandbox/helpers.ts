// Shared helpers for the sandbox tests: a small fetch wrapper and sample bodies.
import type { Sandbox } from '../../../src/sandbox/index.js';

export interface ApiResult {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface CallOptions {
  /** bearer token; null sends no Authorization header; default company A */
  token?: string | null;
  method?: string;
  body?: unknown;
  rawBody?: string;
}

export async function call(s: Sandbox, path: string, opts: CallOptions = {}): Promise<ApiResult> {
  const token = opts.token === undefined ? s.tokens.companyA : opts.token;
  const headers: Record<string, string> = {};
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${s.url}${path}`, { method: opts.method ?? 'GET', headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export const ERROR_KEYS = ['code', 'correlationId', 'error', 'errors', 'message', 'path', 'timestamp'];

/** Asserts the declared error shape and returns the body. */
export function expectErrorShape(r: ApiResult, status: number, code: string): ApiResult['body'] {
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${r.text}`);
  const b = r.body;
  if (!b || Object.keys(b).sort().join() !== ERROR_KEYS.join()) throw new Error(`bad error shape: ${r.text}`);
  if (b.code !== code || b.error.code !== code) throw new Error(`expected code ${code}: ${r.text}`);
  if (typeof b.timestamp !== 'string' || Number.isNaN(Date.parse(b.timestamp))) throw new Error('bad timestamp');
  if (!Array.isArray(b.errors) || b.errors.length === 0) throw new Error('errors must be a non-empty array');
  if (!('details' in b.error)) throw new Error('error.details missing');
  if (b.correlationId !== r.headers.get('x-correlation-id')) throw new Error('correlationId differs from header');
  if (r.headers.get('content-type') !== 'application/json') throw new Error(`content-type ${r.headers.get('content-type')}`);
  return b;
}

let emailCounter = 0;
/** A unique work e-mail per call. */
export function freshEmail(prefix = 'new.hire'): string {
  emailCounter++;
  return `${prefix}.${process.pid}.${emailCounter}@acme.example`;
}

export function deuBody(overrides: { workEmail?: string } = {}): Record<string, unknown> {
  return {
    entity: 'Acme Deutschland GmbH',
    personal: { firstName: 'Erika', lastName: 'Mustermann', dateOfBirth: '1990-04-12', gender: 'FEMALE', maritalStatus: 'MARRIED', nationality: 'DEU' },
    contact: { personalEmail: 'erika.m@mail.example', personalPhoneNumber: '+49 151 2345 6789', emergencyContactName: 'Max Mustermann', emergencyContactPhone: '+49 160 1111 2222', emergencyContactRelationship: 'SPOUSE' },
    address: { addressLine1: 'Hauptstraße 5', city: 'Berlin', subdivision: 'DE-BE', postalCode: '10115' },
    employment: {
      workEmail: overrides.workEmail ?? freshEmail('erika'),
      startDate: '2026-03-01',
      designation: 'Software Engineer',
      department: 'Engineering',
      type: 'EMPLOYEE',
      term: 'PERMANENT',
      weeklyHours: 40,
    },
    compensation: { baseSalary: 72000, currency: 'EUR', payFrequency: 'MONTHLY', hasSigningBonus: true, signingBonusAmount: 5000 },
    bank: { accountHolderName: 'Erika Mustermann', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', bankName: 'Commerzbank' },
  };
}

export function indBody(overrides: { workEmail?: string } = {}): Record<string, unknown> {
  return {
    entity: 'Acme India Pvt Ltd',
    personal: { firstName: 'Ananya', lastName: 'Rao', dateOfBirth: '1995-11-30', gender: 'FEMALE', nationality: 'IND' },
    contact: { personalEmail: 'ananya.rao@mail.example', personalPhoneNumber: '+91 98765 43210' },
    employment: {
      workEmail: overrides.workEmail ?? freshEmail('ananya'),
      startDate: '2026-04-15',
      designation: 'Data Engineer',
      department: 'Data',
      type: 'EMPLOYEE',
      term: 'FIXED_TERM',
      endDate: '2027-04-14',
    },
    compensation: { baseSalary: 1800000, currency: 'INR', payFrequency: 'MONTHLY' },
    bank: { accountHolderName: 'Ananya Rao', accountNumber: '123456789012', ifsc: 'HDFC0001234' },
  };
}

// Realistic payloads for every event type of the spec (for `sandbox emit`),
// in the current shape or, with legacy, the earlier published one.
import { EVENT_CATALOGUE, UPDATE_TYPES, type EventType } from './event-catalogue.js';

export interface SampleOptions {
  /** The earlier published shape: employeeId for employeeCode (no country); id for contractId. */
  legacy?: boolean;
  now?: Date;
  /** Fields merged over the generated data (--data). */
  data?: Record<string, unknown>;
  uuid?: () => string;
}

const COUNTRIES = ['DEU', 'FRA', 'ESP', 'NLD', 'USA', 'GBR', 'IND', 'BRA'];
const LEAVE_TYPES = ['ANNUAL', 'SICK', 'PARENTAL', 'UNPAID'];

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}

export function hasLegacyShape(t: EventType): boolean {
  return EVENT_CATALOGUE[t].kind !== 'approval';
}

export function samplePayload(eventType: EventType, opts: SampleOptions = {}): Record<string, unknown> {
  const now = opts.now ?? new Date();
  // The global Web Crypto, loaded when first used: this module loads with every command (the event
  // list of the webhook commands' help), and an ES import of node:crypto builds that module's whole
  // facade at start-up (Web Crypto included, ~2 ms).
  const uuid = opts.uuid ?? (() => crypto.randomUUID());
  const info = EVENT_CATALOGUE[eventType];
  const customerId = uuid();
  const code = `EMP-${String(1000 + Math.floor(Math.random() * 9000))}`;
  const country = pick(COUNTRIES);
  let data: Record<string, unknown>;
  switch (info.kind) {
    case 'employee': {
      const status = info.status ?? pick(['ONBOARDING', 'ACTIVE', 'OFFBOARDING']);
      data = opts.legacy ? { id: uuid(), customerId, employeeId: code, status, type: 'EMPLOYEE' } : { id: uuid(), customerId, employeeCode: code, status, type: 'EMPLOYEE', country };
      if (eventType === 'EMPLOYEE_UPDATED') data.updateType = pick(UPDATE_TYPES);
      break;
    }
    case 'contract': {
      const id = uuid();
      data = opts.legacy ? { id, customerId, status: 'ACTIVE', type: 'EMPLOYEE', country } : { contractId: id, customerId, status: 'ACTIVE', type: 'EMPLOYEE', country };
      break;
    }
    case 'approval': {
      const employeeId = uuid();
      const approverId = uuid();
      const start = new Date(now.getTime() + 14 * 86_400_000);
      const days = pick([0.5, 1, 2.5, 5]);
      const end = new Date(start.getTime() + Math.max(0, Math.ceil(days) - 1) * 86_400_000);
      const requestedAt = new Date(now.getTime() - 3_600_000).toISOString();
      data = {
        customerId,
        employeeCode: code,
        employeeId,
        country,
        scope: 'TIME_OFF',
        status: info.status,
        approverId,
        requestedBy: { id: employeeId, type: 'EMPLOYEE' },
        requestedAt,
        resource: {
          type: 'TIME_OFF',
          id: uuid(),
          details: { leaveType: pick(LEAVE_TYPES), startDate: start.toISOString().slice(0, 10), endDate: end.toISOString().slice(0, 10), numberOfDays: days, description: days === 0.5 ? 'Half day: appointment' : '' },
        },
      };
      if (eventType === 'APPROVAL_REQUEST_APPROVED') Object.assign(data, { approvedBy: approverId, approvedAt: now.toISOString() });
      if (eventType === 'APPROVAL_REQUEST_REJECTED') Object.assign(data, { rejectedBy: approverId, rejectedAt: now.toISOString() });
      break;
    }
  }
  data = { ...data, ...opts.data };
  // The deprecated contract events carry no timestamp.
  return info.kind === 'contract' ? { eventType, data } : { eventType, timestamp: now.toISOString(), data };
}

// The shape checks of the spec's events (the catalogue is event-catalogue.ts).
// A check yields warnings (unknown types, legacy shapes, deprecated events,
// missing optional facts) and errors (values the spec rules out: a status the event cannot carry,
// updateType on the wrong event, approvedAt on a rejection…). Errors make a
// genuinely signed webhook INVALID with reason EVENT_SHAPE, told apart from a
// forged one.

import { EMPLOYEE_STATUSES, EMPLOYEE_TYPES, EVENT_CATALOGUE, isEventType, REQUESTER_TYPES, UPDATE_TYPES, type EventInfo } from './event-catalogue.js';

export * from './event-catalogue.js';

export interface EventCheck {
  eventType: string;
  known: boolean;
  meaning: string;
  warnings: string[];
  /** Shape errors: the payload breaks the spec's rules for this event. */
  errors: string[];
  /** The payload in the current shape, when a legacy shape was normalised. */
  normalized?: Record<string, unknown>;
  /** Employee code, contract id or approval request id: what the event is about. */
  subject?: string;
  status?: string;
  timestamp?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ALPHA3 = /^[A-Z]{3}$/;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function has(o: Obj, k: string): boolean {
  return Object.hasOwn(o, k) && o[k] !== undefined && o[k] !== null;
}

/** A value quoted for a message: JSON, cut to 60 characters, anything outside visible ASCII as a \u escape (no look-alikes). */
function show(v: unknown): string {
  const s = (JSON.stringify(v) ?? String(v)).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

function validDate(s: string): boolean {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

function validInstant(s: string): boolean {
  return ISO_INSTANT.test(s) && !Number.isNaN(Date.parse(s));
}

/** Checks a decoded payload that has a string eventType and an object data. */
export function checkEvent(payload: Obj): EventCheck {
  const eventType = payload.eventType as string;
  const data = payload.data as Obj;
  const known = isEventType(eventType);
  const check: EventCheck = {
    eventType,
    known,
    meaning: known ? EVENT_CATALOGUE[eventType].meaning : 'unknown event type (not in the spec)',
    warnings: [],
    errors: [],
  };
  const w = (m: string) => check.warnings.push(m);
  const e = (m: string) => check.errors.push(m);

  if (!known) {
    w(`unknown event type ${show(eventType)}: accepted, but its data was not checked (the spec lets receivers ignore types they do not need)`);
    check.subject = firstString(data, ['employeeCode', 'employeeId', 'contractId', 'id']);
    check.status = typeof data.status === 'string' ? data.status : undefined;
    if (typeof payload.timestamp === 'string') check.timestamp = payload.timestamp;
    return check;
  }
  const info = EVENT_CATALOGUE[eventType];

  // Envelope timestamp: required, except in the deprecated contract events.
  if (has(payload, 'timestamp')) {
    if (typeof payload.timestamp !== 'string' || !validInstant(payload.timestamp)) w(`timestamp ${show(payload.timestamp)} is not an ISO 8601 instant`);
    else check.timestamp = payload.timestamp;
  } else if (info.kind !== 'contract') {
    e('timestamp is missing (required on every event but the deprecated contract events)');
  }

  let normalizedData: Obj | undefined;
  switch (info.kind) {
    case 'employee':
      normalizedData = checkEmployee(eventType, info, data, w, e, check);
      break;
    case 'contract':
      w(`${eventType} is deprecated; use ${info.successor} instead`);
      normalizedData = checkContract(data, w, e, check);
      break;
    case 'approval':
      checkApproval(eventType, info, data, w, e, check);
      break;
  }
  if (normalizedData) check.normalized = { ...payload, data: normalizedData };
  return check;
}

type Say = (m: string) => void;

function firstString(o: Obj, keys: string[]): string | undefined {
  for (const k of keys) if (typeof o[k] === 'string') return o[k] as string;
  return undefined;
}

function uuidField(o: Obj, key: string, w: Say, e: Say, where = 'data', required = false): void {
  if (!has(o, key)) {
    if (required) e(`${where}.${key} is missing (required)`);
    else w(`${where}.${key} is missing`);
    return;
  }
  if (typeof o[key] !== 'string') e(`${where}.${key} must be a string, not ${show(o[key])}`);
  else if (!UUID.test(o[key] as string)) w(`${where}.${key} ${show(o[key])} is not a UUID`);
}

function countryField(o: Obj, w: Say, e: Say, required: boolean, where = 'data'): void {
  if (!has(o, 'country')) {
    if (required) e(`${where}.country is missing (required)`);
    return;
  }
  if (typeof o.country !== 'string') e(`${where}.country must be a string, not ${show(o.country)}`);
  else if (!ALPHA3.test(o.country)) w(`${where}.country ${show(o.country)} is not a three-letter ISO 3166-1 alpha-3 code`);
}

function typeField(o: Obj, w: Say, e: Say): void {
  if (!has(o, 'type')) return;
  if (typeof o.type !== 'string') e(`data.type must be a string, not ${show(o.type)}`);
  else if (!(EMPLOYEE_TYPES as readonly string[]).includes(o.type)) w(`data.type ${show(o.type)} is not one of ${EMPLOYEE_TYPES.join(', ')}`);
}

function checkEmployee(eventType: string, info: EventInfo, data: Obj, w: Say, e: Say, check: EventCheck): Obj | undefined {
  let normalized: Obj | undefined;
  uuidField(data, 'id', w, e);
  uuidField(data, 'customerId', w, e);
  let legacy = false;
  if (has(data, 'employeeCode')) {
    if (typeof data.employeeCode !== 'string') e(`data.employeeCode must be a string, not ${show(data.employeeCode)}`);
  } else if (has(data, 'employeeId')) {
    if (typeof data.employeeId !== 'string') {
      e(`data.employeeId must be a string, not ${show(data.employeeId)}`);
    } else {
      legacy = true;
      const { employeeId, ...rest } = data;
      normalized = { ...rest, employeeCode: employeeId };
      w('earlier published shape: data.employeeId in place of data.employeeCode (normalised to employeeCode)');
    }
  } else {
    w('data.employeeCode is missing');
  }
  check.subject = firstString(data, ['employeeCode', 'employeeId']);

  if (!has(data, 'status')) {
    w(`data.status is missing${info.status ? ` (${eventType} carries ${info.status})` : ''}`);
  } else if (typeof data.status !== 'string') {
    e(`data.status must be a string, not ${show(data.status)}`);
  } else {
    check.status = data.status;
    if (info.status && data.status !== info.status) e(`data.status is ${show(data.status)}, but ${eventType} carries ${info.status}`);
    else if (!(EMPLOYEE_STATUSES as readonly string[]).includes(data.status)) w(`data.status ${show(data.status)} is not one of ${EMPLOYEE_STATUSES.join(', ')}`);
  }
  typeField(data, w, e);
  // The earlier shape omits country; the current one carries it.
  if (!has(data, 'country') && !legacy) w('data.country is missing');
  countryField(data, w, e, false);

  if (eventType === 'EMPLOYEE_UPDATED') {
    if (!has(data, 'updateType')) w('data.updateType is missing (EMPLOYEE_UPDATED says which part changed)');
    else if (typeof data.updateType !== 'string' || !(UPDATE_TYPES as readonly string[]).includes(data.updateType)) e(`data.updateType ${show(data.updateType)} is not one of ${UPDATE_TYPES.join(', ')}`);
  } else if (has(data, 'updateType')) {
    e(`data.updateType appears on ${eventType}; it belongs only to EMPLOYEE_UPDATED`);
  }
  return normalized;
}

function checkContract(data: Obj, w: Say, e: Say, check: EventCheck): Obj | undefined {
  let normalized: Obj | undefined;
  if (has(data, 'contractId')) {
    uuidField(data, 'contractId', w, e);
  } else if (has(data, 'id')) {
    uuidField(data, 'id', w, e);
    const { id, ...rest } = data;
    normalized = { ...rest, contractId: id };
    w('earlier published shape: data.id in place of data.contractId (normalised to contractId)');
  } else {
    w('data.contractId is missing');
  }
  check.subject = firstString(data, ['contractId', 'id']);
  uuidField(data, 'customerId', w, e);
  if (!has(data, 'status')) w('data.status is missing (contract events carry ACTIVE)');
  else if (data.status !== 'ACTIVE') e(`data.status is ${show(data.status)}, but contract events carry ACTIVE`);
  else check.status = 'ACTIVE';
  typeField(data, w, e);
  countryField(data, w, e, false);
  return normalized;
}

function checkApproval(eventType: string, info: EventInfo, data: Obj, w: Say, e: Say, check: EventCheck): void {
  uuidField(data, 'customerId', w, e, 'data', true);
  if (!has(data, 'employeeCode')) e('data.employeeCode is missing (required)');
  else if (typeof data.employeeCode !== 'string') e(`data.employeeCode must be a string, not ${show(data.employeeCode)}`);
  if (has(data, 'employeeId')) uuidField(data, 'employeeId', w, e);
  countryField(data, w, e, true);
  uuidField(data, 'approverId', w, e, 'data', true);

  if (!has(data, 'status')) e('data.status is missing (required)');
  else if (data.status !== info.status) e(`data.status is ${show(data.status)}, but ${eventType} carries ${info.status}`);
  else check.status = data.status as string;

  let scope: string | undefined;
  if (!has(data, 'scope')) e('data.scope is missing (required)');
  else if (typeof data.scope !== 'string') e(`data.scope must be a string, not ${show(data.scope)}`);
  else {
    scope = data.scope;
    if (scope !== 'TIME_OFF') w(`data.scope ${show(scope)} is not TIME_OFF (the one scope the spec names)`);
  }

  if (!has(data, 'requestedBy')) e('data.requestedBy is missing (required)');
  else if (!isObj(data.requestedBy)) e(`data.requestedBy must be an object, not ${show(data.requestedBy)}`);
  else {
    uuidField(data.requestedBy, 'id', w, e, 'data.requestedBy');
    const t = data.requestedBy.type;
    if (t === undefined || t === null) w('data.requestedBy.type is missing');
    else if (typeof t !== 'string' || !(REQUESTER_TYPES as readonly string[]).includes(t)) e(`data.requestedBy.type ${show(t)} is not one of ${REQUESTER_TYPES.join(', ')}`);
  }
  instantField(data, 'requestedAt', w, e, true);

  if (!has(data, 'resource')) e('data.resource is missing (required)');
  else if (!isObj(data.resource)) e(`data.resource must be an object, not ${show(data.resource)}`);
  else {
    const r = data.resource;
    check.subject = typeof r.id === 'string' ? r.id : undefined;
    if (!has(r, 'type')) w('data.resource.type is missing');
    else if (scope !== undefined && r.type !== scope) e(`data.resource.type is ${show(r.type)}, but it must equal data.scope (${scope})`);
    uuidField(r, 'id', w, e, 'data.resource');
    if (!has(r, 'details')) w('data.resource.details is missing');
    else if (!isObj(r.details)) e(`data.resource.details must be an object, not ${show(r.details)}`);
    else if (r.type === 'TIME_OFF') checkTimeOff(r.details, w, e);
  }

  // Conditional: approvedBy/approvedAt only on approval, rejectedBy/rejectedAt only on rejection.
  conditional(eventType, data, 'APPROVAL_REQUEST_APPROVED', ['approvedBy', 'approvedAt'], w, e);
  conditional(eventType, data, 'APPROVAL_REQUEST_REJECTED', ['rejectedBy', 'rejectedAt'], w, e);
}

function conditional(eventType: string, data: Obj, owner: string, [by, at]: [string, string], w: Say, e: Say): void {
  if (eventType === owner) {
    if (!has(data, by)) w(`data.${by} is missing (expected on ${owner})`);
    else uuidField(data, by, w, e);
    instantField(data, at, w, e, false, `expected on ${owner}`);
  } else {
    for (const k of [by, at]) if (has(data, k)) e(`data.${k} appears on ${eventType}; it is present only on ${owner}`);
  }
}

function instantField(o: Obj, key: string, w: Say, e: Say, required: boolean, why = 'required'): void {
  if (!has(o, key)) {
    if (required) e(`data.${key} is missing (${why})`);
    else w(`data.${key} is missing (${why})`);
    return;
  }
  if (typeof o[key] !== 'string') e(`data.${key} must be a string, not ${show(o[key])}`);
  else if (!validInstant(o[key] as string)) w(`data.${key} ${show(o[key])} is not an ISO 8601 instant`);
}

function checkTimeOff(d: Obj, w: Say, e: Say): void {
  const where = 'data.resource.details';
  if (has(d, 'leaveType') && typeof d.leaveType !== 'string') e(`${where}.leaveType must be a string, not ${show(d.leaveType)}`);
  for (const k of ['startDate', 'endDate']) {
    if (!has(d, k)) w(`${where}.${k} is missing`);
    else if (typeof d[k] !== 'string' || !validDate(d[k] as string)) e(`${where}.${k} ${show(d[k])} is not a date YYYY-MM-DD`);
  }
  if (typeof d.startDate === 'string' && typeof d.endDate === 'string' && validDate(d.startDate) && validDate(d.endDate) && d.endDate < d.startDate) {
    e(`${where}.endDate ${d.endDate} is before startDate ${d.startDate}`);
  }
  if (!has(d, 'numberOfDays')) w(`${where}.numberOfDays is missing`);
  else if (typeof d.numberOfDays !== 'number' || !Number.isFinite(d.numberOfDays) || d.numberOfDays < 0) e(`${where}.numberOfDays must be a non-negative number (fractions allowed), not ${show(d.numberOfDays)}`);
  if (has(d, 'description') && typeof d.description !== 'string') e(`${where}.description must be a string, not ${show(d.description)}`);
}

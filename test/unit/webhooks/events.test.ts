import { describe, expect, it } from 'vitest';
import { checkEvent, EVENT_CATALOGUE, EVENT_TYPES } from '../../../src/webhooks/events.js';
import { approval, employeeCreated, UUIDS } from './helpers.js';

const employee = (eventType: string, data: Record<string, unknown> = {}) => {
  const base = employeeCreated().data as Record<string, unknown>;
  return { eventType, timestamp: '2025-03-01T09:30:00.000Z', data: { ...base, ...data } };
};

describe('checkEvent: the spec catalogue', () => {
  it('has a one-line meaning for every event type', () => {
    for (const t of EVENT_TYPES) expect(EVENT_CATALOGUE[t].meaning.length).toBeGreaterThan(10);
  });

  it.each([
    ['EMPLOYEE_CREATED', 'ONBOARDING'],
    ['EMPLOYEE_ACTIVATED', 'ACTIVE'],
    ['EMPLOYEE_DEACTIVATED', 'ENDED'],
    ['EMPLOYEE_DELETED', 'DELETED'],
  ])('%s carrying %s is clean; another status is a shape error', (t, status) => {
    const ok = checkEvent(employee(t, { status }));
    expect(ok.errors).toEqual([]);
    expect(ok.warnings).toEqual([]);
    expect(ok.subject).toBe('ACME-0007');
    const bad = checkEvent(employee(t, { status: status === 'ACTIVE' ? 'ENDED' : 'ACTIVE' }));
    expect(bad.errors.join()).toMatch(/carries/);
  });

  it('EMPLOYEE_UPDATED: current status, updateType from the list', () => {
    expect(checkEvent(employee('EMPLOYEE_UPDATED', { status: 'OFFBOARDING', updateType: 'BANK_DETAILS' })).errors).toEqual([]);
    expect(checkEvent(employee('EMPLOYEE_UPDATED', { status: 'ACTIVE', updateType: 'SALARY' })).errors.join()).toMatch(/updateType/);
    expect(checkEvent(employee('EMPLOYEE_UPDATED', { status: 'ACTIVE' })).warnings.join()).toMatch(/updateType is missing/);
  });

  it('updateType on any other event is a shape error', () => {
    expect(checkEvent(employee('EMPLOYEE_CREATED', { updateType: 'BANK_DETAILS' })).errors.join()).toMatch(/only to EMPLOYEE_UPDATED/);
  });

  it('earlier shape: employeeId in place of employeeCode, no country — accepted, normalised, warned', () => {
    const { employeeCode: _c, country: _k, ...rest } = employeeCreated().data as Record<string, unknown>;
    const c = checkEvent({ eventType: 'EMPLOYEE_CREATED', timestamp: '2025-03-01T09:30:00.000Z', data: { ...rest, employeeId: 'ACME-0007' } });
    expect(c.errors).toEqual([]);
    expect(c.warnings.join()).toMatch(/earlier published shape.*employeeId/);
    expect(c.normalized?.data).toMatchObject({ employeeCode: 'ACME-0007' });
    expect(c.normalized?.data).not.toHaveProperty('employeeId');
    expect(c.subject).toBe('ACME-0007');
  });

  it.each([
    ['CONTRACT_CREATED', 'EMPLOYEE_CREATED'],
    ['CONTRACT_ACTIVATED', 'EMPLOYEE_ACTIVATED'],
  ])('%s is deprecated and names %s; no timestamp is needed', (t, successor) => {
    const c = checkEvent({ eventType: t, data: { contractId: UUIDS.a, customerId: UUIDS.b, status: 'ACTIVE', type: 'CONTRACTOR', country: 'USA' } });
    expect(c.errors).toEqual([]);
    expect(c.warnings).toHaveLength(1);
    expect(c.warnings[0]).toMatch(new RegExp(`deprecated.*${successor}`));
  });

  it('contract events: earlier shape with id in place of contractId; status must be ACTIVE', () => {
    const c = checkEvent({ eventType: 'CONTRACT_ACTIVATED', data: { id: UUIDS.a, customerId: UUIDS.b, status: 'ACTIVE', type: 'EMPLOYEE', country: 'USA' } });
    expect(c.errors).toEqual([]);
    expect(c.normalized?.data).toMatchObject({ contractId: UUIDS.a });
    expect(c.warnings.join()).toMatch(/data.id in place of data.contractId/);
    expect(checkEvent({ eventType: 'CONTRACT_CREATED', data: { contractId: UUIDS.a, status: 'ONBOARDING' } }).errors.join()).toMatch(/ACTIVE/);
  });

  it('unknown event types are accepted with a warning', () => {
    const c = checkEvent({ eventType: 'TIMESHEET_SUBMITTED', timestamp: 'x', data: { employeeCode: 'E1' } });
    expect(c.known).toBe(false);
    expect(c.errors).toEqual([]);
    expect(c.warnings.join()).toMatch(/unknown event type/);
  });

  it.each(['APPROVAL_REQUEST_CREATED', 'APPROVAL_REQUEST_APPROVED', 'APPROVAL_REQUEST_REJECTED'])('%s in the spec shape is clean (fractional days)', (t) => {
    const c = checkEvent(approval(t));
    expect(c.errors).toEqual([]);
    expect(c.warnings).toEqual([]);
    expect(c.subject).toBe(UUIDS.d);
  });

  it('approval: approvedAt only on APPROVED, rejectedBy only on REJECTED', () => {
    expect(checkEvent(approval('APPROVAL_REQUEST_CREATED', { approvedAt: '2025-03-02T10:00:00.000Z' })).errors.join()).toMatch(/approvedAt appears/);
    expect(checkEvent(approval('APPROVAL_REQUEST_APPROVED', { rejectedBy: UUIDS.c })).errors.join()).toMatch(/rejectedBy appears/);
    expect(checkEvent(approval('APPROVAL_REQUEST_APPROVED', { approvedAt: null, approvedBy: null })).warnings.join()).toMatch(/approvedAt is missing/);
    // null counts as absent for conditional fields
    expect(checkEvent(approval('APPROVAL_REQUEST_CREATED', { approvedAt: null })).errors).toEqual([]);
  });

  it('approval: status must match the event, required fields, TIME_OFF details', () => {
    expect(checkEvent(approval('APPROVAL_REQUEST_APPROVED', { status: 'PENDING' })).errors.join()).toMatch(/carries APPROVED/);
    expect(checkEvent(approval('APPROVAL_REQUEST_CREATED', { approverId: undefined })).errors.join()).toMatch(/approverId is missing/);
    const details = (extra: Record<string, unknown>) => approval('APPROVAL_REQUEST_CREATED', { resource: { type: 'TIME_OFF', id: UUIDS.d, details: { leaveType: 'SICK', startDate: '2025-04-01', endDate: '2025-04-01', numberOfDays: 0.5, description: 'x', ...extra } } });
    expect(checkEvent(details({})).errors).toEqual([]);
    expect(checkEvent(details({ numberOfDays: '0.5' })).errors.join()).toMatch(/numberOfDays/);
    expect(checkEvent(details({ startDate: '2025-02-30' })).errors.join()).toMatch(/startDate/);
    expect(checkEvent(details({ endDate: '2025-03-01' })).errors.join()).toMatch(/before/);
    expect(checkEvent(approval('APPROVAL_REQUEST_CREATED', { requestedBy: { id: UUIDS.a, type: 'ROBOT' } })).errors.join()).toMatch(/requestedBy.type/);
    expect(checkEvent(approval('APPROVAL_REQUEST_CREATED', { resource: { type: 'EXPENSE', id: UUIDS.d, details: {} } })).errors.join()).toMatch(/must equal data.scope/);
  });
});

// The spec's event catalogue (data): every event type, what it means, the
// status it carries, and the enumerations its payload draws from.

export const EMPLOYEE_EVENTS = ['EMPLOYEE_CREATED', 'EMPLOYEE_ACTIVATED', 'EMPLOYEE_UPDATED', 'EMPLOYEE_DEACTIVATED', 'EMPLOYEE_DELETED'] as const;
export const CONTRACT_EVENTS = ['CONTRACT_CREATED', 'CONTRACT_ACTIVATED'] as const;
export const APPROVAL_EVENTS = ['APPROVAL_REQUEST_CREATED', 'APPROVAL_REQUEST_APPROVED', 'APPROVAL_REQUEST_REJECTED'] as const;
export const EVENT_TYPES = [...EMPLOYEE_EVENTS, ...CONTRACT_EVENTS, ...APPROVAL_EVENTS] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EMPLOYEE_STATUSES = ['ONBOARDING', 'ACTIVE', 'OFFBOARDING', 'ENDED', 'DELETED'] as const;
export const EMPLOYEE_TYPES = ['EMPLOYEE', 'HR_MEMBER', 'FREELANCER', 'CONTRACTOR'] as const;
export const UPDATE_TYPES = ['PERSONAL_DETAILS', 'ADDRESS_DETAILS', 'CONTACT_DETAILS', 'BANK_DETAILS', 'COMPENSATION_DETAILS', 'EDUCATION_DETAILS', 'EMPLOYMENT_DETAILS'] as const;
export const APPROVAL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export const REQUESTER_TYPES = ['EMPLOYEE', 'COMPANY_USER'] as const;

export interface EventInfo {
  meaning: string;
  kind: 'employee' | 'contract' | 'approval';
  /** The status the event carries (undefined: the current one). */
  status?: string;
  /** Deprecated events name what replaced them. */
  successor?: EventType;
}

export const EVENT_CATALOGUE: Record<EventType, EventInfo> = {
  EMPLOYEE_CREATED: { kind: 'employee', status: 'ONBOARDING', meaning: 'an employee was created (status ONBOARDING)' },
  EMPLOYEE_ACTIVATED: { kind: 'employee', status: 'ACTIVE', meaning: 'an employee moved to ACTIVE' },
  EMPLOYEE_UPDATED: { kind: 'employee', meaning: "an employee's data was modified (updateType says which part; status is the current one)" },
  EMPLOYEE_DEACTIVATED: { kind: 'employee', status: 'ENDED', meaning: 'an employee moved to ENDED' },
  EMPLOYEE_DELETED: { kind: 'employee', status: 'DELETED', meaning: 'an employee is being deleted' },
  CONTRACT_CREATED: { kind: 'contract', status: 'ACTIVE', successor: 'EMPLOYEE_CREATED', meaning: 'an employee was created (deprecated event; superseded by EMPLOYEE_CREATED)' },
  CONTRACT_ACTIVATED: { kind: 'contract', status: 'ACTIVE', successor: 'EMPLOYEE_ACTIVATED', meaning: 'an employee moved to ACTIVE (deprecated event; superseded by EMPLOYEE_ACTIVATED)' },
  APPROVAL_REQUEST_CREATED: { kind: 'approval', status: 'PENDING', meaning: 'a new approval request (time off) was submitted' },
  APPROVAL_REQUEST_APPROVED: { kind: 'approval', status: 'APPROVED', meaning: 'an approval request was approved' },
  APPROVAL_REQUEST_REJECTED: { kind: 'approval', status: 'REJECTED', meaning: 'an approval request was rejected' },
};

export function isEventType(t: string): t is EventType {
  return Object.hasOwn(EVENT_CATALOGUE, t);
}

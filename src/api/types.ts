// The resources of the spec (shared/spec/partner-api.md) as TypeScript types.
// Fields the spec marks nullable are `| null`; servers may omit fields, so
// consumers never assume presence.

export const EMPLOYEE_STATUSES = ['ONBOARDING', 'ACTIVE', 'OFFBOARDING', 'ENDED', 'DELETED'] as const;
export type EmployeeStatus = (typeof EMPLOYEE_STATUSES)[number];
export const EMPLOYEE_TYPES = ['EMPLOYEE', 'HR_MEMBER', 'FREELANCER', 'CONTRACTOR'] as const;
export const SORT_BY_FIELDS = ['startOn'] as const;
export const SORT_ORDERS = ['ASC', 'DESC'] as const;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 20;

export interface Pagination {
  currentPage: number;
  pageSize: number;
  totalPages: number;
  totalItems: number;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

export interface Employee {
  id: string;
  employeeCode: string;
  employeeId?: string;
  firstName: string;
  middleName?: string | null;
  lastName: string;
  fullName: string;
  displayName?: string;
  workEmail: string;
  designation?: string;
  department?: string;
  status: EmployeeStatus | string;
  type?: string;
  startDate?: string;
  endDate?: string | null;
  country?: string;
  customerId?: string;
  customerName?: string;
  entity?: string;
}

/** Every field of the Employee list item table, in spec order (CSV columns). */
export const EMPLOYEE_FIELDS = [
  'id', 'employeeCode', 'employeeId', 'firstName', 'middleName', 'lastName', 'fullName', 'displayName', 'workEmail',
  'designation', 'department', 'status', 'type', 'startDate', 'endDate', 'country', 'customerId', 'customerName', 'entity',
] as const;

export interface EmployeePage {
  data: Employee[];
  pagination: Pagination;
}

export interface OnboardingTrackerItem {
  id: string;
  employeeCode: string;
  stage: string;
}

export interface OffboardingTrackerItem extends OnboardingTrackerItem {
  pendingDocuments: string[];
}

export const PROFILE_SECTIONS = ['personal', 'contact', 'address', 'bank', 'education', 'employment', 'compensation'] as const;
export type ProfileSection = (typeof PROFILE_SECTIONS)[number];

export const EMPLOYMENT_TYPE_GP = 'GLOBAL_PAYROLL';

// The resources of the spec as the sandbox serves them.

// Enumerations and shapes shared with the client come from one place; the
// records below are stricter than the client's (the sandbox always sends every field).
import type { EmployeeStatus } from '../api/types.js';
export { EMPLOYEE_STATUSES, EMPLOYEE_TYPES, PROFILE_SECTIONS } from '../api/types.js';
export type { EmployeeStatus, ProfileSection, Pagination, OnboardingTrackerItem, OffboardingTrackerItem } from '../api/types.js';
export type EmployeeType = (typeof import('../api/types.js').EMPLOYEE_TYPES)[number];

export interface EmployeeListItem {
  id: string;
  employeeCode: string;
  employeeId: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  fullName: string;
  displayName: string;
  workEmail: string;
  designation: string;
  department: string;
  status: EmployeeStatus;
  type: EmployeeType;
  startDate: string;
  endDate: string | null;
  country: string;
  customerId: string;
  customerName: string;
  entity: string;
}

export interface PersonalDetails {
  firstName: string;
  middleName: string | null;
  lastName: string;
  fullLegalName: string;
  dateOfBirth: string;
  gender: string;
  maritalStatus: string;
  age: number;
  religion: string;
  nationalities: { country: string; type: string }[];
}

export interface ContactDetails {
  personalEmail: string;
  personalPhoneNumber: string;
  emergencyContact: { name: string; phoneNumber: string; relationship: string };
}

export interface Address {
  addressLine1: string;
  addressLine2: string | null;
  streetName: string;
  landmark: string | null;
  city: string;
  subdivision: string;
  country: string;
  postalCode: string;
}

export interface AddressDetails {
  currentAddress: Address;
  permanentAddress: Address;
}

export interface BankDetails {
  accountNumber: string;
  accountHolderName: string;
  bankName: string;
  branchName: string;
  swiftCode: string;
  localBankCode: string;
  accountType: string;
  currency: string;
  country: string;
}

export interface EducationEntry {
  lastSchoolAttended: string;
  degree: string;
  yearOfPassing: number;
  grade: string;
  gpa: number | null;
}

export interface EducationDetails {
  education: EducationEntry[];
}

export interface EmploymentDetails {
  employeeCode: string;
  workEmail: string;
  entity: string;
  country: string;
  startDate: string;
  status: EmployeeStatus;
  endDate: string | null;
  designation: string;
  department: string;
  type: EmployeeType;
  term: string;
  noticePeriod: { value: string; unit: string };
  reportsTo: { id: string; firstName: string; lastName: string; designation: string };
}

/** Not specified by the API; the sandbox's plausible shape. */
export interface CompensationDetails {
  currency: string;
  baseSalary: { amount: number; currency: string; period: 'ANNUAL' };
  payFrequency: string;
  effectiveFrom: string;
  allowances: { name: string; amount: number; currency: string; frequency: string }[];
  bonus: { type: string; targetPercent: number } | null;
  signingBonus?: { amount: number; currency: string };
}

export interface ProfileSections {
  personal: PersonalDetails;
  contact: ContactDetails;
  address: AddressDetails;
  bank: BankDetails;
  education: EducationDetails;
  employment: EmploymentDetails;
  compensation: CompensationDetails;
}

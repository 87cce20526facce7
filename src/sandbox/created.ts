// Turns a validated GP create body into the stored employee: its list item
// and profile sections. Reads the body loosely, so richer schemas still work.
import type { CompanySpec } from './companies.js';
import type { EmployeeCore } from './data.js';
import { ageOn } from './dates.js';
import type { EmployeeListItem, EmployeeType, ProfileSections } from './types.js';
import { countryData } from './countries.js';

export interface CreatedEmployee {
  /** position in the company's index space (generated count + creation order) */
  index: number;
  /** creation order within the company */
  seq: number;
  item: EmployeeListItem;
  profile: ProfileSections;
  /** onboarding tracker stage */
  stage: string;
  createdAt: string;
}

type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}
function str(o: Obj, key: string, fallback = ''): string {
  const v = o[key];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : fallback;
}
function optStr(o: Obj, key: string): string | null {
  const v = o[key];
  return typeof v === 'string' && v.length > 0 ? v : null;
}
function num(o: Obj, key: string, fallback = 0): number {
  const v = o[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

const TYPES: readonly EmployeeType[] = ['EMPLOYEE', 'HR_MEMBER', 'FREELANCER', 'CONTRACTOR'];

export interface CreateInput {
  company: CompanySpec;
  entity: { name: string; country: string; currency: string };
  index: number;
  seq: number;
  id: string;
  employeeCode: string;
  body: unknown;
  /** whom the new employee reports to (the company's first employee), if any */
  manager: EmployeeCore | undefined;
  now: Date;
}

export function buildCreated(input: CreateInput): CreatedEmployee {
  const { company, entity, body } = input;
  const b = obj(body);
  const personal = obj(b.personal);
  const contact = obj(b.contact);
  const address = obj(b.address);
  const employment = obj(b.employment);
  const compensation = obj(b.compensation);
  const bank = obj(b.bank);
  const cd = countryData(entity.country);

  const firstName = str(personal, 'firstName');
  const middleName = optStr(personal, 'middleName');
  const lastName = str(personal, 'lastName');
  const fullName = [firstName, middleName, lastName].filter(Boolean).join(' ');
  const rawType = str(employment, 'type', 'EMPLOYEE');
  const type = (TYPES as readonly string[]).includes(rawType) ? (rawType as EmployeeType) : 'EMPLOYEE';
  const startDate = str(employment, 'startDate');
  const term = str(employment, 'term', 'PERMANENT');
  const endDate = term === 'FIXED_TERM' ? optStr(employment, 'endDate') : null;
  const dateOfBirth = str(personal, 'dateOfBirth');

  const item: EmployeeListItem = {
    id: input.id,
    employeeCode: input.employeeCode,
    employeeId: input.employeeCode,
    firstName,
    middleName,
    lastName,
    fullName,
    displayName: [firstName, lastName].filter(Boolean).join(' '),
    workEmail: str(employment, 'workEmail'),
    designation: str(employment, 'designation'),
    department: str(employment, 'department'),
    status: 'ONBOARDING',
    type,
    startDate,
    endDate,
    country: entity.country,
    customerId: company.id,
    customerName: company.name,
    entity: entity.name,
  };

  const addressLine1 = str(address, 'addressLine1');
  const homeAddress = {
    addressLine1,
    addressLine2: optStr(address, 'addressLine2'),
    streetName: str(address, 'streetName', addressLine1.replace(/\s*\d+[a-z]?\s*$/i, '').replace(/^\d+\s+/, '')),
    landmark: optStr(address, 'landmark'),
    city: str(address, 'city'),
    subdivision: str(address, 'subdivision'),
    country: entity.country,
    postalCode: str(address, 'postalCode'),
  };

  const currency = str(compensation, 'currency', entity.currency);
  const mgr = input.manager?.item;
  const profile: ProfileSections = {
    personal: {
      firstName,
      middleName,
      lastName,
      fullLegalName: fullName,
      dateOfBirth,
      gender: str(personal, 'gender', 'UNDISCLOSED'),
      maritalStatus: str(personal, 'maritalStatus', 'UNDISCLOSED'),
      age: /^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth) ? ageOn(dateOfBirth, input.now.toISOString().slice(0, 10)) : 0,
      religion: str(personal, 'religion', 'Prefer not to say'),
      nationalities: [{ country: str(personal, 'nationality', entity.country), type: 'PRIMARY' }],
    },
    contact: {
      personalEmail: str(contact, 'personalEmail'),
      personalPhoneNumber: str(contact, 'personalPhoneNumber'),
      emergencyContact: {
        name: str(contact, 'emergencyContactName'),
        phoneNumber: str(contact, 'emergencyContactPhone'),
        relationship: str(contact, 'emergencyContactRelationship'),
      },
    },
    address: { currentAddress: homeAddress, permanentAddress: { ...homeAddress } },
    bank: {
      accountNumber: str(bank, 'iban', str(bank, 'accountNumber')),
      accountHolderName: str(bank, 'accountHolderName'),
      bankName: str(bank, 'bankName'),
      branchName: str(bank, 'branchName'),
      swiftCode: str(bank, 'bic', str(bank, 'swiftCode')),
      localBankCode: str(bank, 'ifsc', str(bank, 'localBankCode')),
      accountType: str(bank, 'accountType', Object.keys(bank).length > 0 ? (cd.accountTypes[0] ?? 'CHECKING') : ''),
      currency: Object.keys(bank).length > 0 ? entity.currency : '',
      country: Object.keys(bank).length > 0 ? entity.country : '',
    },
    education: { education: [] },
    employment: {
      employeeCode: input.employeeCode,
      workEmail: item.workEmail,
      entity: entity.name,
      country: entity.country,
      startDate,
      status: 'ONBOARDING',
      endDate,
      designation: item.designation,
      department: item.department,
      type,
      term,
      noticePeriod: { ...cd.noticePeriod },
      reportsTo: mgr
        ? { id: mgr.id, firstName: mgr.firstName, lastName: mgr.lastName, designation: mgr.designation }
        : { id: input.id, firstName, lastName, designation: item.designation },
    },
    compensation: {
      currency,
      baseSalary: { amount: num(compensation, 'baseSalary'), currency, period: 'ANNUAL' },
      payFrequency: str(compensation, 'payFrequency', cd.payFrequency),
      effectiveFrom: startDate,
      allowances: [],
      bonus: null,
      ...(compensation.hasSigningBonus === true ? { signingBonus: { amount: num(compensation, 'signingBonusAmount'), currency } } : {}),
    },
  };

  return {
    index: input.index,
    seq: input.seq,
    item,
    profile,
    stage: 'AWAITING_DYNAMIC_DETAILS',
    createdAt: input.now.toISOString(),
  };
}

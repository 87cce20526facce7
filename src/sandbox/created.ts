// Turns a validated GP create body into the stored employee: its list item
// and profile sections. Reads the body loosely, so richer schemas still work.
import type { CompanySpec } from './companies.js';
import type { EmployeeCore } from './data.js';
import { ageOn } from './dates.js';
import type { Address, EmployeeListItem, EmployeeType, ProfileSections } from './types.js';
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

/** The parts of a create body, each an object (empty when missing or not an object). */
interface BodyParts {
  personal: Obj;
  contact: Obj;
  address: Obj;
  employment: Obj;
  compensation: Obj;
  bank: Obj;
}

/** What the list item and several profile sections share. */
interface Basics {
  firstName: string;
  middleName: string | null;
  lastName: string;
  fullName: string;
  type: EmployeeType;
  startDate: string;
  term: string;
  endDate: string | null;
  dateOfBirth: string;
}

type CountryData = ReturnType<typeof countryData>;

export function buildCreated(input: CreateInput): CreatedEmployee {
  const b = obj(input.body);
  const parts: BodyParts = {
    personal: obj(b.personal),
    contact: obj(b.contact),
    address: obj(b.address),
    employment: obj(b.employment),
    compensation: obj(b.compensation),
    bank: obj(b.bank),
  };
  const basics = basicsOf(parts);
  const item = listItem(input, parts.employment, basics);
  return {
    index: input.index,
    seq: input.seq,
    item,
    profile: profileOf(input, parts, basics, item),
    stage: 'AWAITING_DYNAMIC_DETAILS',
    createdAt: input.now.toISOString(),
  };
}

function basicsOf({ personal, employment }: BodyParts): Basics {
  const firstName = str(personal, 'firstName');
  const middleName = optStr(personal, 'middleName');
  const lastName = str(personal, 'lastName');
  const rawType = str(employment, 'type', 'EMPLOYEE');
  const term = str(employment, 'term', 'PERMANENT');
  return {
    firstName,
    middleName,
    lastName,
    fullName: [firstName, middleName, lastName].filter(Boolean).join(' '),
    type: (TYPES as readonly string[]).includes(rawType) ? (rawType as EmployeeType) : 'EMPLOYEE',
    startDate: str(employment, 'startDate'),
    term,
    endDate: term === 'FIXED_TERM' ? optStr(employment, 'endDate') : null,
    dateOfBirth: str(personal, 'dateOfBirth'),
  };
}

/** The employee as the list shows it: onboarding, in the entity's country. */
function listItem({ id, employeeCode, company, entity }: CreateInput, employment: Obj, n: Basics): EmployeeListItem {
  return {
    id,
    employeeCode,
    employeeId: employeeCode,
    firstName: n.firstName,
    middleName: n.middleName,
    lastName: n.lastName,
    fullName: n.fullName,
    displayName: [n.firstName, n.lastName].filter(Boolean).join(' '),
    workEmail: str(employment, 'workEmail'),
    designation: str(employment, 'designation'),
    department: str(employment, 'department'),
    status: 'ONBOARDING',
    type: n.type,
    startDate: n.startDate,
    endDate: n.endDate,
    country: entity.country,
    customerId: company.id,
    customerName: company.name,
    entity: entity.name,
  };
}

function profileOf(input: CreateInput, parts: BodyParts, basics: Basics, item: EmployeeListItem): ProfileSections {
  const cd = countryData(input.entity.country);
  const homeAddress = homeAddressOf(parts.address, input.entity.country);
  return {
    personal: personalSection(parts.personal, basics, input),
    contact: contactSection(parts.contact),
    address: { currentAddress: homeAddress, permanentAddress: { ...homeAddress } },
    bank: bankSection(parts.bank, input.entity, cd),
    education: { education: [] },
    employment: employmentSection(input, basics, item, cd),
    compensation: compensationSection(parts.compensation, input.entity, basics.startDate, cd),
  };
}

function personalSection(personal: Obj, n: Basics, input: CreateInput): ProfileSections['personal'] {
  return {
    firstName: n.firstName,
    middleName: n.middleName,
    lastName: n.lastName,
    fullLegalName: n.fullName,
    dateOfBirth: n.dateOfBirth,
    gender: str(personal, 'gender', 'UNDISCLOSED'),
    maritalStatus: str(personal, 'maritalStatus', 'UNDISCLOSED'),
    age: /^\d{4}-\d{2}-\d{2}$/.test(n.dateOfBirth) ? ageOn(n.dateOfBirth, input.now.toISOString().slice(0, 10)) : 0,
    religion: str(personal, 'religion', 'Prefer not to say'),
    nationalities: [{ country: str(personal, 'nationality', input.entity.country), type: 'PRIMARY' }],
  };
}

function contactSection(contact: Obj): ProfileSections['contact'] {
  return {
    personalEmail: str(contact, 'personalEmail'),
    personalPhoneNumber: str(contact, 'personalPhoneNumber'),
    emergencyContact: {
      name: str(contact, 'emergencyContactName'),
      phoneNumber: str(contact, 'emergencyContactPhone'),
      relationship: str(contact, 'emergencyContactRelationship'),
    },
  };
}

/** The one address a create body gives (current and permanent alike); the street name derived from line 1 when not given. */
function homeAddressOf(address: Obj, country: string): Address {
  const addressLine1 = str(address, 'addressLine1');
  return {
    addressLine1,
    addressLine2: optStr(address, 'addressLine2'),
    streetName: str(address, 'streetName', addressLine1.replace(/\s*\d+[a-z]?\s*$/i, '').replace(/^\d+\s+/, '')),
    landmark: optStr(address, 'landmark'),
    city: str(address, 'city'),
    subdivision: str(address, 'subdivision'),
    country,
    postalCode: str(address, 'postalCode'),
  };
}

/** Bank details under either the form's names (iban, bic, ifsc) or the profile's; empty when none were given. */
function bankSection(bank: Obj, entity: CreateInput['entity'], cd: CountryData): ProfileSections['bank'] {
  const given = Object.keys(bank).length > 0;
  return {
    accountNumber: str(bank, 'iban', str(bank, 'accountNumber')),
    accountHolderName: str(bank, 'accountHolderName'),
    bankName: str(bank, 'bankName'),
    branchName: str(bank, 'branchName'),
    swiftCode: str(bank, 'bic', str(bank, 'swiftCode')),
    localBankCode: str(bank, 'ifsc', str(bank, 'localBankCode')),
    accountType: str(bank, 'accountType', given ? (cd.accountTypes[0] ?? 'CHECKING') : ''),
    currency: given ? entity.currency : '',
    country: given ? entity.country : '',
  };
}

/** Reports to the company's first employee, or to itself in an empty company. */
function employmentSection(input: CreateInput, n: Basics, item: EmployeeListItem, cd: CountryData): ProfileSections['employment'] {
  const mgr = input.manager?.item;
  return {
    employeeCode: input.employeeCode,
    workEmail: item.workEmail,
    entity: input.entity.name,
    country: input.entity.country,
    startDate: n.startDate,
    status: 'ONBOARDING',
    endDate: n.endDate,
    designation: item.designation,
    department: item.department,
    type: n.type,
    term: n.term,
    noticePeriod: { ...cd.noticePeriod },
    reportsTo: mgr
      ? { id: mgr.id, firstName: mgr.firstName, lastName: mgr.lastName, designation: mgr.designation }
      : { id: input.id, firstName: n.firstName, lastName: n.lastName, designation: item.designation },
  };
}

function compensationSection(compensation: Obj, entity: CreateInput['entity'], startDate: string, cd: CountryData): ProfileSections['compensation'] {
  const currency = str(compensation, 'currency', entity.currency);
  return {
    currency,
    baseSalary: { amount: num(compensation, 'baseSalary'), currency, period: 'ANNUAL' },
    payFrequency: str(compensation, 'payFrequency', cd.payFrequency),
    effectiveFrom: startDate,
    allowances: [],
    bonus: null,
    ...(compensation.hasSigningBonus === true ? { signingBonus: { amount: num(compensation, 'signingBonusAmount'), currency } } : {}),
  };
}

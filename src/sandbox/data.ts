// Deterministic, seeded employee generator. Employee i of a company is a pure
// function of (seed, company, i, count): nothing is materialised up front, so
// a company of 200,000 employees costs only a status byte per employee.
// startDate is non-decreasing in i, so "sort by startOn" is index order.
import { countryData, DEPARTMENTS } from './countries.js';
import { hash32, permute32, Rng, unpermute32, uuidFrom } from './prng.js';
import type {
  Address,
  EmployeeListItem,
  EmployeeStatus,
  EmployeeType,
  OffboardingTrackerItem,
  OnboardingTrackerItem,
  ProfileSections,
} from './types.js';

/** The sandbox's frozen "today": ages, end dates and notice dates derive from it. */
export const SANDBOX_TODAY = '2025-06-30';

export interface LegalEntity {
  name: string;
  country: string;
}

export interface PersonOverride {
  firstName: string;
  middleName?: string | null;
  lastName: string;
  displayName?: string;
  gender?: 'FEMALE' | 'MALE' | 'NON_BINARY';
  nationality?: string;
  status?: EmployeeStatus;
  /** index into the company's entities */
  entity?: number;
  department?: string;
  designation?: string;
  addressLine2?: string;
}

export interface CompanySpec {
  key: 'A' | 'B';
  no: number;
  id: string;
  name: string;
  codePrefix: string;
  codeDigits: number;
  emailDomain: string;
  entities: readonly (LegalEntity & { weight: number })[];
  firstDay: string;
  lastDay: string;
  overrides: ReadonlyMap<number, PersonOverride>;
}

// ---- the two companies ----

const ACME_OVERRIDES = new Map<number, PersonOverride>([
  // Adversarial values, all ACTIVE and on the first page (default pageSize 20).
  [2, { firstName: 'José', lastName: 'García, Jr.', gender: 'MALE', nationality: 'ESP', status: 'ACTIVE', entity: 0, addressLine2: 'c/o "Schmidt", 2. OG\nHinterhaus' }],
  [4, { firstName: 'Zoë', lastName: 'Müller', displayName: 'Zoë "Zee" Müller', gender: 'FEMALE', nationality: 'GBR', status: 'ACTIVE', entity: 0 }],
  [6, { firstName: 'Łukasz', lastName: 'Brzęczyszczykiewicz', gender: 'MALE', nationality: 'POL', status: 'ACTIVE', entity: 0, department: 'Engineering', designation: '=HYPERLINK("http://x")' }],
  [8, { firstName: '小龙', lastName: '李', displayName: '李小龙', gender: 'MALE', nationality: 'CHN', status: 'ACTIVE', entity: 0, department: '+SUM(1,2)', designation: 'Data Scientist' }],
  [10, { firstName: 'Anna', middleName: 'Marie\nLouise', lastName: 'Schmidt', gender: 'FEMALE', nationality: 'DEU', status: 'ACTIVE', entity: 0, department: '-2+3', designation: 'Finance Manager' }],
  [12, { firstName: 'Olivia', lastName: "O'Connor", gender: 'FEMALE', nationality: 'IRL', status: 'ACTIVE', entity: 0, department: '\u001b[31mEngineering\u001b[0m', designation: '@SUM(A1:A2)' }],
  [14, { firstName: 'Renée', lastName: 'Dubois\u001b]0;pwned\u0007', gender: 'FEMALE', nationality: 'FRA', status: 'ACTIVE', entity: 0, department: 'Product', designation: 'Product Designer\u001b[2J' }],
  [16, { firstName: 'Mary, Ann', lastName: 'Van der Berg', displayName: 'Mary, Ann "M.A." Van der Berg', gender: 'FEMALE', nationality: 'NLD', status: 'ACTIVE', entity: 1 }],
  // Lifecycle mix on the first pages, so trackers are never empty.
  [1, { firstName: 'Priya', lastName: 'Sharma', gender: 'FEMALE', nationality: 'IND', status: 'ONBOARDING', entity: 1 }],
  [15, { firstName: 'Jonas', lastName: 'Weber', gender: 'MALE', nationality: 'DEU', status: 'OFFBOARDING', entity: 0 }],
  [19, { firstName: 'Karthik', lastName: 'Iyer', gender: 'MALE', nationality: 'IND', status: 'ONBOARDING', entity: 1 }],
  [21, { firstName: 'Greta', lastName: 'Hoffmann', gender: 'FEMALE', nationality: 'DEU', status: 'ENDED', entity: 0 }],
  [27, { firstName: 'Meera', lastName: 'Nair', gender: 'FEMALE', nationality: 'IND', status: 'OFFBOARDING', entity: 1 }],
  [33, { firstName: 'Felix', lastName: 'Becker', gender: 'MALE', nationality: 'DEU', status: 'ONBOARDING', entity: 0 }],
  [38, { firstName: 'Rahul', lastName: 'Gupta', gender: 'MALE', nationality: 'IND', status: 'ENDED', entity: 1 }],
  [44, { firstName: 'Hannah', lastName: 'Klein', gender: 'FEMALE', nationality: 'DEU', status: 'ONBOARDING', entity: 0 }],
]);

const GLOBEX_PEOPLE: PersonOverride[] = [
  { firstName: 'Mara', lastName: 'Lindqvist', gender: 'FEMALE', status: 'ACTIVE', entity: 0, department: 'Engineering', designation: 'Engineering Manager' },
  { firstName: 'Oskar', lastName: 'Bergström', gender: 'MALE', status: 'ONBOARDING', entity: 0 },
  { firstName: 'Ingrid', lastName: 'Sjöberg', gender: 'FEMALE', status: 'ACTIVE', entity: 0 },
  { firstName: 'Elin', lastName: 'Nyström', gender: 'FEMALE', status: 'OFFBOARDING', entity: 0 },
  { firstName: 'Johan', lastName: 'Ekström', gender: 'MALE', status: 'ACTIVE', entity: 0 },
  { firstName: 'Frida', lastName: 'Holm', gender: 'FEMALE', status: 'ENDED', entity: 0 },
  { firstName: 'Marcus', lastName: 'Whitfield', gender: 'MALE', status: 'ACTIVE', entity: 1 },
  { firstName: 'Danielle', lastName: 'Okafor', gender: 'FEMALE', status: 'ACTIVE', entity: 1 },
  { firstName: 'Tyrone', lastName: 'Castillo', gender: 'MALE', status: 'ONBOARDING', entity: 1 },
  { firstName: 'Grace', lastName: 'Kowalczyk', gender: 'FEMALE', status: 'ACTIVE', entity: 1 },
  { firstName: 'Ethan', lastName: 'Brooks', gender: 'MALE', status: 'ACTIVE', entity: 1 },
  { firstName: 'Naomi', lastName: 'Fujimoto', gender: 'FEMALE', status: 'ACTIVE', entity: 1 },
];

/** Number of employees of company B: fixed. */
export const COMPANY_B_EMPLOYEES = GLOBEX_PEOPLE.length;

export const COMPANY_A: CompanySpec = {
  key: 'A',
  no: 1,
  id: '4f6d2c1a-8b3e-4d5f-9a7c-1e2b3c4d5e6f',
  name: 'Acme Corporation',
  codePrefix: 'ACME',
  codeDigits: 5,
  emailDomain: 'acme.example',
  entities: [
    { name: 'Acme Deutschland GmbH', country: 'DEU', weight: 0.55 },
    { name: 'Acme India Pvt Ltd', country: 'IND', weight: 0.45 },
  ],
  firstDay: '2016-01-04',
  lastDay: '2025-06-16',
  overrides: ACME_OVERRIDES,
};

export const COMPANY_B: CompanySpec = {
  key: 'B',
  no: 2,
  id: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b',
  name: 'Globex Corporation',
  codePrefix: 'GLX',
  codeDigits: 4,
  emailDomain: 'globex.example',
  entities: [
    { name: 'Globex Nordic AB', country: 'SWE', weight: 0.5 },
    { name: 'Globex Corporation', country: 'USA', weight: 0.5 },
  ],
  firstDay: '2019-03-01',
  lastDay: '2025-06-02',
  overrides: new Map(GLOBEX_PEOPLE.map((p, i) => [i, p])),
};

// ---- dates ----

const DAY_MS = 86_400_000;
export function isoToDay(iso: string): number {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);
}
export function dayToIso(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
export const TODAY_DAY = isoToDay(SANDBOX_TODAY);

export function ageOn(dobIso: string, onIso: string = SANDBOX_TODAY): number {
  const [by, bm, bd] = dobIso.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = onIso.split('-').map(Number) as [number, number, number];
  let age = ty - by;
  if (tm < bm || (tm === bm && td < bd)) age--;
  return age;
}

// ---- text helpers ----

/** ASCII slug for e-mail local parts: "José" -> "jose", "李" -> "". */
export function slug(s: string): string {
  return s
    .replace(/\u001b\][^\u0007]*\u0007/g, '')
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
    .replace(/[łŁ]/g, 'l')
    .replace(/ß/g, 'ss')
    .replace(/ı/g, 'i')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

function joinName(...parts: (string | null | undefined)[]): string {
  return parts.filter((p): p is string => typeof p === 'string' && p.length > 0).join(' ');
}

// ---- salts, one per independent stream ----
const SALT_KEY = 0x4b45;
const SALT_ID = 0x1d1d;
const SALT_STATUS = 0x5747;
const SALT_CORE = 0xc0e1;
const SALT_SECTION = 0x5ec0;
const SALT_TRACKER = 0x7ac4;

const ONBOARDING_STAGES = ['OFFER_ACCEPTED', 'DOCUMENTS_PENDING', 'CONTRACT_SENT', 'CONTRACT_SIGNED', 'BACKGROUND_CHECK', 'READY_TO_START'] as const;
const OFFBOARDING_STAGES = ['NOTICE_SERVED', 'KNOWLEDGE_TRANSFER', 'EXIT_INTERVIEW', 'ASSET_RECOVERY', 'FINAL_SETTLEMENT'] as const;
const OFFBOARDING_DOCUMENTS = ['Resignation letter', 'Exit interview form', 'Asset return receipt', 'Final settlement statement', 'Experience letter acknowledgement'] as const;
const RELATIONSHIPS = ['SPOUSE', 'PARTNER', 'PARENT', 'SIBLING', 'CHILD', 'FRIEND'] as const;
const MARITAL = ['SINGLE', 'MARRIED', 'DIVORCED', 'WIDOWED', 'DOMESTIC_PARTNERSHIP'] as const;

/** What the generator knows about one employee beyond the list item. */
export interface EmployeeCore {
  index: number;
  item: EmployeeListItem;
  gender: string;
  nationality: string;
  dateOfBirth: string;
  managerIndex: number;
  addressLine2?: string;
}

/**
 * The generated population of one company. Cheap to construct: only status
 * bytes and per-status index arrays are computed.
 */
export class EmployeeGenerator {
  readonly spec: CompanySpec;
  readonly seed: number;
  readonly count: number;
  private readonly key: number;
  private readonly firstDay: number;
  private readonly span: number;
  private readonly statuses: Uint8Array;
  /** Indices (ascending) of the generated employees with each status. */
  readonly byStatus: ReadonlyMap<EmployeeStatus, Int32Array>;

  constructor(spec: CompanySpec, seed: number, count: number) {
    this.spec = spec;
    this.seed = seed >>> 0;
    this.count = Math.max(0, Math.floor(count));
    this.key = hash32(this.seed, spec.no, SALT_KEY);
    this.firstDay = isoToDay(spec.firstDay);
    this.span = isoToDay(spec.lastDay) - this.firstDay;
    const order: EmployeeStatus[] = ['ONBOARDING', 'ACTIVE', 'OFFBOARDING', 'ENDED', 'DELETED'];
    const counts = new Int32Array(order.length);
    this.statuses = new Uint8Array(this.count);
    for (let i = 0; i < this.count; i++) {
      const s = order.indexOf(this.computeStatus(i));
      this.statuses[i] = s;
      counts[s]!++;
    }
    const arrays = order.map((_, k) => new Int32Array(counts[k]!));
    const fill = new Int32Array(order.length);
    for (let i = 0; i < this.count; i++) {
      const s = this.statuses[i]!;
      arrays[s]![fill[s]!++] = i;
    }
    this.byStatus = new Map(order.map((s, k) => [s, arrays[k]!]));
    this.statusOrder = order;
  }
  private readonly statusOrder: EmployeeStatus[];

  private computeStatus(i: number): EmployeeStatus {
    const o = this.spec.overrides.get(i)?.status;
    if (o) return o;
    const r = hash32(this.seed, this.spec.no, i, SALT_STATUS) / 4294967296;
    if (r < 0.07) return 'ONBOARDING';
    if (r < 0.12) return 'OFFBOARDING';
    if (r < 0.2) return 'ENDED';
    return 'ACTIVE';
  }

  statusOf(i: number): EmployeeStatus {
    return this.statusOrder[this.statuses[i]!]!;
  }

  /** Start day (days since epoch), non-decreasing in i. */
  startDayOf(i: number): number {
    return this.firstDay + Math.floor((i * this.span) / Math.max(this.count, 1));
  }

  /** The uuid of the employee at index i (also used for created employees, i >= count). */
  idOf(i: number): string {
    const prefix = permute32(i, this.key);
    return uuidFrom(prefix, new Rng(hash32(this.seed, this.spec.no, i, SALT_ID)));
  }

  /** Index encoded in an id of this company, or undefined (not verified). */
  indexOfId(id: string): number | undefined {
    const prefix = Number.parseInt(id.slice(0, 8), 16);
    if (!Number.isFinite(prefix)) return undefined;
    const i = unpermute32(prefix, this.key);
    return this.idOf(i) === id.toLowerCase() ? i : undefined;
  }

  codeOf(i: number): string {
    return `${this.spec.codePrefix}-${String(i + 1).padStart(this.spec.codeDigits, '0')}`;
  }

  indexOfCode(code: string): number | undefined {
    const m = /^([A-Z]+)-(\d{1,9})$/.exec(code);
    if (!m || m[1] !== this.spec.codePrefix) return undefined;
    const i = Number(m[2]) - 1;
    return i >= 0 && this.codeOf(i) === code ? i : undefined;
  }

  /** Index of a generated employee whose work e-mail is `email` (case-insensitive). */
  indexOfEmail(email: string): number | undefined {
    const lower = email.toLowerCase();
    const m = /(\d+)@([^@]+)$/.exec(lower);
    if (!m || m[2] !== this.spec.emailDomain) return undefined;
    const i = Number(m[1]) - 1;
    if (!(i >= 0 && i < this.count)) return undefined;
    return this.core(i).item.workEmail.toLowerCase() === lower ? i : undefined;
  }

  /** The list item and identity facts of generated employee i (0 <= i < count). */
  core(i: number): EmployeeCore {
    const spec = this.spec;
    const rng = new Rng(hash32(this.seed, spec.no, i, SALT_CORE));
    const ov = spec.overrides.get(i);
    const entity = ov?.entity !== undefined ? spec.entities[ov.entity]! : this.pickEntity(rng.next());
    const cd = countryData(entity.country);
    const g = rng.next();
    const gender = ov?.gender ?? (g < 0.02 ? 'NON_BINARY' : g < 0.51 ? 'FEMALE' : 'MALE');
    const pool = gender === 'FEMALE' ? cd.femaleNames : gender === 'MALE' ? cd.maleNames : [...cd.femaleNames, ...cd.maleNames];
    const genFirst = rng.pick(pool);
    const genLast = rng.pick(cd.lastNames);
    const genMiddle = rng.chance(0.25) ? rng.pick(pool) : null;
    const firstName = ov?.firstName ?? genFirst;
    const lastName = ov?.lastName ?? genLast;
    const middleName = ov ? (ov.middleName ?? null) : genMiddle === firstName ? null : genMiddle;
    const fullName = joinName(firstName, middleName, lastName);
    const displayName = ov?.displayName ?? joinName(firstName, lastName);
    const dept = rng.pick(DEPARTMENTS);
    const department = ov?.department ?? dept.name;
    const designation = ov?.designation ?? rng.pick(dept.titles);
    const t = rng.next();
    const type: EmployeeType =
      dept.name === 'People Operations' && t < 0.6 ? 'HR_MEMBER' : t < 0.07 ? 'CONTRACTOR' : t < 0.11 ? 'FREELANCER' : 'EMPLOYEE';
    const status = this.statusOf(i);
    const startDay = this.startDayOf(i);
    let endDate: string | null = null;
    if (status === 'ENDED') {
      const latest = Math.max(startDay + 30, TODAY_DAY);
      endDate = dayToIso(rng.int(startDay + 30, latest));
    } else if (status === 'OFFBOARDING') {
      endDate = dayToIso(TODAY_DAY + rng.int(7, 90));
    }
    const local = `${slug(firstName) || 'employee'}.${slug(lastName) || 'x'}${i + 1}`;
    const ageYears = rng.int(22, 62);
    const dateOfBirth = dayToIso(TODAY_DAY - Math.floor(ageYears * 365.25) - rng.int(0, 364));
    const item: EmployeeListItem = {
      id: this.idOf(i),
      employeeCode: this.codeOf(i),
      employeeId: this.codeOf(i),
      firstName,
      middleName,
      lastName,
      fullName,
      displayName,
      workEmail: `${local}@${spec.emailDomain}`,
      designation,
      department,
      status,
      type,
      startDate: dayToIso(startDay),
      endDate,
      country: entity.country,
      customerId: spec.id,
      customerName: spec.name,
      entity: entity.name,
    };
    const managerIndex = i === 0 ? (this.count > 1 ? 1 : 0) : Math.floor((i - 1) / 6);
    return {
      index: i,
      item,
      gender,
      nationality: ov?.nationality ?? (rng.chance(0.9) ? entity.country : rng.pick(['AUT', 'FRA', 'ITA', 'BRA', 'NGA', 'TUR', 'UKR'])),
      dateOfBirth,
      managerIndex,
      ...(ov?.addressLine2 !== undefined ? { addressLine2: ov.addressLine2 } : {}),
    };
  }

  private pickEntity(r: number): LegalEntity {
    let acc = 0;
    for (const e of this.spec.entities) {
      acc += e.weight;
      if (r < acc) return e;
    }
    return this.spec.entities[this.spec.entities.length - 1]!;
  }

  onboardingItem(i: number): OnboardingTrackerItem {
    const h = hash32(this.seed, this.spec.no, i, SALT_TRACKER);
    return { id: this.idOf(i), employeeCode: this.codeOf(i), stage: ONBOARDING_STAGES[h % ONBOARDING_STAGES.length]! };
  }

  offboardingItem(i: number): OffboardingTrackerItem {
    const rng = new Rng(hash32(this.seed, this.spec.no, i, SALT_TRACKER));
    const stageIndex = rng.int(0, OFFBOARDING_STAGES.length - 1);
    // Later stages have fewer documents pending.
    const pendingDocuments = OFFBOARDING_DOCUMENTS.filter((_, k) => k >= stageIndex && rng.chance(0.7));
    return { id: this.idOf(i), employeeCode: this.codeOf(i), stage: OFFBOARDING_STAGES[stageIndex]!, pendingDocuments };
  }

  /** All profile sections of generated employee i. */
  profile(i: number): ProfileSections {
    const core = this.core(i);
    const e = core.item;
    const cd = countryData(e.country);
    const sr = (k: number) => new Rng(hash32(this.seed, this.spec.no, i, SALT_SECTION + k));

    // personal
    let r = sr(1);
    const nationalities = [{ country: core.nationality, type: 'PRIMARY' }];
    if (r.chance(0.12)) nationalities.push({ country: r.pick(['AUT', 'CHE', 'FRA', 'USA', 'CAN', 'GBR'].filter((c) => c !== core.nationality)), type: 'SECONDARY' });
    const personal = {
      firstName: e.firstName,
      middleName: e.middleName,
      lastName: e.lastName,
      fullLegalName: e.fullName,
      dateOfBirth: core.dateOfBirth,
      gender: core.gender,
      maritalStatus: r.pick(MARITAL),
      age: ageOn(core.dateOfBirth),
      religion: r.pick(cd.religions),
      nationalities,
    };

    // contact
    r = sr(2);
    const ecFirst = r.pick([...cd.femaleNames, ...cd.maleNames]);
    const contact = {
      personalEmail: `${slug(e.firstName) || 'me'}.${slug(e.lastName) || 'x'}${r.int(1, 99)}@${r.pick(['mail.example', 'inbox.example', 'post.example'])}`,
      personalPhoneNumber: cd.phone(r),
      emergencyContact: {
        name: `${ecFirst} ${r.chance(0.6) ? e.lastName : r.pick(cd.lastNames)}`,
        phoneNumber: cd.phone(r),
        relationship: r.pick(RELATIONSHIPS),
      },
    };

    // address
    r = sr(3);
    const makeAddress = (): Address => {
      const city = r.pick(cd.cities);
      const street = r.pick(cd.streets);
      return {
        addressLine1: cd.addressLine1(r, street),
        addressLine2: cd.addressLine2(r),
        streetName: street,
        landmark: cd.landmark(r),
        city: city.city,
        subdivision: city.subdivision,
        country: e.country,
        postalCode: city.postal(r),
      };
    };
    const currentAddress = makeAddress();
    if (core.addressLine2 !== undefined) currentAddress.addressLine2 = core.addressLine2;
    const permanentAddress = r.chance(0.6) ? { ...currentAddress } : makeAddress();

    // bank
    r = sr(4);
    const bank = r.pick(cd.banks);
    const localBankCode = bank.localCode(r);
    const bankDetails = {
      accountNumber: cd.accountNumber(r, localBankCode),
      accountHolderName: e.fullName,
      bankName: bank.name,
      branchName: r.pick(bank.branches),
      swiftCode: bank.swift,
      localBankCode,
      accountType: r.pick(cd.accountTypes),
      currency: cd.currency,
      country: e.country,
    };

    // education
    r = sr(5);
    const birthYear = Number(core.dateOfBirth.slice(0, 4));
    const entries = r.int(1, 3);
    const education = [];
    let year = birthYear + r.int(18, 20);
    for (let k = 0; k < entries; k++) {
      const g = cd.grade(r);
      education.push({ lastSchoolAttended: r.pick(cd.schools), degree: r.pick(cd.degrees), yearOfPassing: year, grade: g.grade, gpa: g.gpa });
      year += r.int(2, 4);
    }

    // employment
    r = sr(6);
    const mgr = core.managerIndex === i ? core : this.core(core.managerIndex);
    const employment = {
      employeeCode: e.employeeCode,
      workEmail: e.workEmail,
      entity: e.entity,
      country: e.country,
      startDate: e.startDate,
      status: e.status,
      endDate: e.endDate,
      designation: e.designation,
      department: e.department,
      type: e.type,
      term: e.type === 'EMPLOYEE' || e.type === 'HR_MEMBER' ? (r.chance(0.85) ? 'PERMANENT' : 'FIXED_TERM') : 'FIXED_TERM',
      noticePeriod: { ...cd.noticePeriod },
      reportsTo: { id: mgr.item.id, firstName: mgr.item.firstName, lastName: mgr.item.lastName, designation: mgr.item.designation },
    };

    // compensation
    r = sr(7);
    const s = cd.salary;
    const amount = s.min + Math.floor((r.next() * (s.max - s.min)) / s.step) * s.step;
    const allowances = cd.allowances
      .filter(() => r.chance(0.6))
      .map((a) => ({ name: a.name, amount: a.min === a.max ? a.min : r.int(a.min, a.max), currency: cd.currency, frequency: a.frequency }));
    const compensation = {
      currency: cd.currency,
      baseSalary: { amount, currency: cd.currency, period: 'ANNUAL' as const },
      payFrequency: cd.payFrequency,
      effectiveFrom: e.startDate,
      allowances,
      bonus: r.chance(0.4) ? { type: 'ANNUAL_PERFORMANCE', targetPercent: r.pick([5, 8, 10, 15, 20]) } : null,
    };

    return { personal, contact, address: { currentAddress, permanentAddress }, bank: bankDetails, education: { education }, employment, compensation };
  }
}

// The sandbox's two companies: Acme (generated, with adversarial people on
// its first page) and Globex (12 fixed people).
import type { EmployeeStatus } from './types.js';

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

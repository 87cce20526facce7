// The profile sections (personal, contact, address, bank, education,
// employment, compensation) of a generated employee: a pure function of the
// generator's seed, company and index, like everything else it makes.
import { countryData } from './countries.js';
import { ageOn } from './dates.js';
import type { EmployeeCore, EmployeeGenerator } from './data.js';
import { slug } from './names.js';
import { hash32, Rng } from './prng.js';
import type { Address, EmployeeListItem, ProfileSections } from './types.js';

const SALT_SECTION = 0x5ec0;
const RELATIONSHIPS = ['SPOUSE', 'PARTNER', 'PARENT', 'SIBLING', 'CHILD', 'FRIEND'] as const;
const MARITAL = ['SINGLE', 'MARRIED', 'DIVORCED', 'WIDOWED', 'DOMESTIC_PARTNERSHIP'] as const;

type CountryData = ReturnType<typeof countryData>;

/**
 * Each section draws from its own stream (salted by its number), so a change
 * to one section's draws leaves every other section as it was.
 */
export function generatedProfile(gen: EmployeeGenerator, i: number): ProfileSections {
  const core = gen.core(i);
  const cd = countryData(core.item.country);
  const sr = (k: number) => new Rng(hash32(gen.seed, gen.spec.no, i, SALT_SECTION + k));
  return {
    personal: personalSection(core, sr(1), cd),
    contact: contactSection(core.item, sr(2), cd),
    address: addressSection(core, sr(3), cd),
    bank: bankSection(core.item, sr(4), cd),
    education: educationSection(core, sr(5), cd),
    employment: employmentSection(gen, core, sr(6), cd),
    compensation: compensationSection(core.item, sr(7), cd),
  };
}

function personalSection(core: EmployeeCore, r: Rng, cd: CountryData): ProfileSections['personal'] {
  const e = core.item;
  const nationalities = [{ country: core.nationality, type: 'PRIMARY' }];
  if (r.chance(0.12)) nationalities.push({ country: r.pick(['AUT', 'CHE', 'FRA', 'USA', 'CAN', 'GBR'].filter((c) => c !== core.nationality)), type: 'SECONDARY' });
  return {
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
}

function contactSection(e: EmployeeListItem, r: Rng, cd: CountryData): ProfileSections['contact'] {
  const ecFirst = r.pick([...cd.femaleNames, ...cd.maleNames]);
  return {
    personalEmail: `${slug(e.firstName) || 'me'}.${slug(e.lastName) || 'x'}${r.int(1, 99)}@${r.pick(['mail.example', 'inbox.example', 'post.example'])}`,
    personalPhoneNumber: cd.phone(r),
    emergencyContact: {
      name: `${ecFirst} ${r.chance(0.6) ? e.lastName : r.pick(cd.lastNames)}`,
      phoneNumber: cd.phone(r),
      relationship: r.pick(RELATIONSHIPS),
    },
  };
}

/** The current address (its second line the generator's, when it set one) and a permanent one, the same for most. */
function addressSection(core: EmployeeCore, r: Rng, cd: CountryData): ProfileSections['address'] {
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
      country: core.item.country,
      postalCode: city.postal(r),
    };
  };
  const currentAddress = makeAddress();
  if (core.addressLine2 !== undefined) currentAddress.addressLine2 = core.addressLine2;
  const permanentAddress = r.chance(0.6) ? { ...currentAddress } : makeAddress();
  return { currentAddress, permanentAddress };
}

function bankSection(e: EmployeeListItem, r: Rng, cd: CountryData): ProfileSections['bank'] {
  const bank = r.pick(cd.banks);
  const localBankCode = bank.localCode(r);
  return {
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
}

/** One to three schools, the first finished at 18 to 20, each next two to four years later. */
function educationSection(core: EmployeeCore, r: Rng, cd: CountryData): ProfileSections['education'] {
  const birthYear = Number(core.dateOfBirth.slice(0, 4));
  const entries = r.int(1, 3);
  const education = [];
  let year = birthYear + r.int(18, 20);
  for (let k = 0; k < entries; k++) {
    const g = cd.grade(r);
    education.push({ lastSchoolAttended: r.pick(cd.schools), degree: r.pick(cd.degrees), yearOfPassing: year, grade: g.grade, gpa: g.gpa });
    year += r.int(2, 4);
  }
  return { education };
}

function employmentSection(gen: EmployeeGenerator, core: EmployeeCore, r: Rng, cd: CountryData): ProfileSections['employment'] {
  const e = core.item;
  const mgr = core.managerIndex === core.index ? core : gen.core(core.managerIndex);
  return {
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
}

/** A salary on the country's scale and step, some of its allowances, sometimes a bonus target. */
function compensationSection(e: EmployeeListItem, r: Rng, cd: CountryData): ProfileSections['compensation'] {
  const s = cd.salary;
  const amount = s.min + Math.floor((r.next() * (s.max - s.min)) / s.step) * s.step;
  const allowances = cd.allowances
    .filter(() => r.chance(0.6))
    .map((a) => ({ name: a.name, amount: a.min === a.max ? a.min : r.int(a.min, a.max), currency: cd.currency, frequency: a.frequency }));
  return {
    currency: cd.currency,
    baseSalary: { amount, currency: cd.currency, period: 'ANNUAL' as const },
    payFrequency: cd.payFrequency,
    effectiveFrom: e.startDate,
    allowances,
    bonus: r.chance(0.4) ? { type: 'ANNUAL_PERFORMANCE', targetPercent: r.pick([5, 8, 10, 15, 20]) } : null,
  };
}

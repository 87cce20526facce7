// The profile sections (personal, contact, address, bank, education,
// employment, compensation) of a generated employee: a pure function of the
// generator's seed, company and index, like everything else it makes.
import { countryData } from './countries.js';
import { ageOn } from './dates.js';
import type { EmployeeGenerator } from './data.js';
import { slug } from './names.js';
import { hash32, Rng } from './prng.js';
import type { Address, ProfileSections } from './types.js';

const SALT_SECTION = 0x5ec0;
const RELATIONSHIPS = ['SPOUSE', 'PARTNER', 'PARENT', 'SIBLING', 'CHILD', 'FRIEND'] as const;
const MARITAL = ['SINGLE', 'MARRIED', 'DIVORCED', 'WIDOWED', 'DOMESTIC_PARTNERSHIP'] as const;

export function generatedProfile(gen: EmployeeGenerator, i: number): ProfileSections {
  const core = gen.core(i);
  const e = core.item;
  const cd = countryData(e.country);
  const sr = (k: number) => new Rng(hash32(gen.seed, gen.spec.no, i, SALT_SECTION + k));

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
  const mgr = core.managerIndex === i ? core : gen.core(core.managerIndex);
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

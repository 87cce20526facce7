// Country-specific reference data for realistic sandbox values: names,
// cities, banks, account-number formats, schools, notice periods, salaries.
import type { Rng } from './prng.js';

export interface City {
  city: string;
  subdivision: string;
  postal: (rng: Rng) => string;
}

export interface Bank {
  name: string;
  swift: string;
  branches: readonly string[];
  localCode: (rng: Rng) => string;
}

export interface CountryData {
  code: string;
  currency: string;
  phone: (rng: Rng) => string;
  cities: readonly City[];
  streets: readonly string[];
  addressLine1: (rng: Rng, street: string) => string;
  addressLine2: (rng: Rng) => string | null;
  landmark: (rng: Rng) => string | null;
  banks: readonly Bank[];
  accountNumber: (rng: Rng, localCode: string) => string;
  accountTypes: readonly string[];
  femaleNames: readonly string[];
  maleNames: readonly string[];
  lastNames: readonly string[];
  religions: readonly string[];
  schools: readonly string[];
  degrees: readonly string[];
  grade: (rng: Rng) => { grade: string; gpa: number | null };
  noticePeriod: { value: string; unit: string };
  payFrequency: string;
  salary: { min: number; max: number; step: number };
  allowances: readonly { name: string; min: number; max: number; frequency: string }[];
}

/** ISO 13616 IBAN with correct check digits. */
export function iban(countryCode: string, bban: string): string {
  const rearranged = `${bban}${countryCode}00`;
  let numeric = '';
  for (const ch of rearranged) {
    numeric += /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
  }
  let mod = 0;
  for (let i = 0; i < numeric.length; i += 7) {
    mod = Number(String(mod) + numeric.slice(i, i + 7)) % 97;
  }
  return `${countryCode}${String(98 - mod).padStart(2, '0')}${bban}`;
}

const germanPostal = (prefix: string) => (rng: Rng) => `${prefix}${rng.digits(5 - prefix.length)}`;

const DEU: CountryData = {
  code: 'DEU',
  currency: 'EUR',
  phone: (r) => `+49 1${r.pick(['51', '52', '57', '60', '70', '76'])} ${r.digits(4)} ${r.digits(4)}`,
  cities: [
    { city: 'Berlin', subdivision: 'DE-BE', postal: germanPostal('10') },
    { city: 'München', subdivision: 'DE-BY', postal: germanPostal('80') },
    { city: 'Hamburg', subdivision: 'DE-HH', postal: germanPostal('20') },
    { city: 'Köln', subdivision: 'DE-NW', postal: germanPostal('50') },
    { city: 'Frankfurt am Main', subdivision: 'DE-HE', postal: germanPostal('60') },
    { city: 'Stuttgart', subdivision: 'DE-BW', postal: germanPostal('70') },
    { city: 'Leipzig', subdivision: 'DE-SN', postal: germanPostal('04') },
    { city: 'Düsseldorf', subdivision: 'DE-NW', postal: germanPostal('40') },
  ],
  streets: [
    'Hauptstraße', 'Bahnhofstraße', 'Gartenweg', 'Schillerstraße', 'Goethestraße',
    'Lindenallee', 'Friedrichstraße', 'Am Markt', 'Bergstraße', 'Kastanienweg',
  ],
  addressLine1: (r, street) => `${street} ${r.int(1, 140)}${r.chance(0.15) ? r.pick(['a', 'b', 'c']) : ''}`,
  addressLine2: (r) => (r.chance(0.3) ? r.pick(['Hinterhaus', '2. OG links', '3. OG rechts', 'Aufgang B']) : null),
  landmark: () => null,
  banks: [
    { name: 'Deutsche Bank', swift: 'DEUTDEFFXXX', branches: ['Berlin Mitte', 'Frankfurt Zentrale', 'München Marienplatz'], localCode: (r) => `100700${r.digits(2)}` },
    { name: 'Commerzbank', swift: 'COBADEFFXXX', branches: ['Hamburg Neuer Wall', 'Köln Innenstadt'], localCode: (r) => `200400${r.digits(2)}` },
    { name: 'Sparkasse KölnBonn', swift: 'COLSDE33XXX', branches: ['Köln Rudolfplatz', 'Bonn Zentrum'], localCode: () => '37050198' },
    { name: 'ING-DiBa', swift: 'INGDDEFFXXX', branches: ['Frankfurt am Main'], localCode: () => '50010517' },
  ],
  accountNumber: (r, blz) => iban('DE', `${blz}${r.digits(10)}`),
  accountTypes: ['CHECKING', 'CHECKING', 'SAVINGS'],
  femaleNames: ['Anna', 'Lena', 'Mia', 'Emma', 'Hannah', 'Sophie', 'Laura', 'Marie', 'Katharina', 'Julia', 'Sarah', 'Lea', 'Clara', 'Johanna', 'Nele', 'Ayşe', 'Greta', 'Frieda'],
  maleNames: ['Lukas', 'Jonas', 'Felix', 'Paul', 'Leon', 'Maximilian', 'Elias', 'Niklas', 'Tobias', 'Moritz', 'David', 'Jan', 'Fabian', 'Sebastian', 'Timo', 'Mehmet', 'Jörg', 'Matthias'],
  lastNames: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Schäfer', 'Koch', 'Bauer', 'Richter', 'Klein', 'Wolf', 'Schröder', 'Neumann', 'Schwarz', 'Zimmermann', 'Braun', 'Krüger', 'Hartmann', 'Lange', 'Yılmaz', 'Kowalski', 'Nguyen', 'Öztürk'],
  religions: ['Roman Catholic', 'Protestant', 'None', 'None', 'Islam', 'Prefer not to say'],
  schools: ['Technische Universität München', 'Humboldt-Universität zu Berlin', 'Universität zu Köln', 'RWTH Aachen', 'Goethe-Universität Frankfurt', 'Universität Leipzig', 'Gymnasium am Stadtpark'],
  degrees: ['B.Sc. Informatik', 'M.Sc. Informatik', 'B.A. Betriebswirtschaftslehre', 'M.A. Personalmanagement', 'Diplom-Kaufmann', 'Abitur', 'Staatsexamen Rechtswissenschaften'],
  grade: (r) => {
    const g = r.pick(['1,0', '1,3', '1,7', '2,0', '2,3', '2,7', '3,0']);
    return { grade: g, gpa: r.chance(0.3) ? null : Number(g.replace(',', '.')) };
  },
  noticePeriod: { value: '3', unit: 'MONTHS' },
  payFrequency: 'MONTHLY',
  salary: { min: 42000, max: 140000, step: 500 },
  allowances: [
    { name: 'Meal allowance', min: 50, max: 150, frequency: 'MONTHLY' },
    { name: 'Deutschlandticket', min: 49, max: 49, frequency: 'MONTHLY' },
    { name: 'Home office allowance', min: 30, max: 100, frequency: 'MONTHLY' },
  ],
};

const IND: CountryData = {
  code: 'IND',
  currency: 'INR',
  phone: (r) => `+91 ${r.pick(['98', '99', '97', '90', '88', '70'])}${r.digits(3)} ${r.digits(5)}`,
  cities: [
    { city: 'Bengaluru', subdivision: 'IN-KA', postal: (r) => `5600${r.digits(2)}` },
    { city: 'Mumbai', subdivision: 'IN-MH', postal: (r) => `4000${r.digits(2)}` },
    { city: 'Pune', subdivision: 'IN-MH', postal: (r) => `4110${r.digits(2)}` },
    { city: 'Hyderabad', subdivision: 'IN-TG', postal: (r) => `5000${r.digits(2)}` },
    { city: 'Chennai', subdivision: 'IN-TN', postal: (r) => `6000${r.digits(2)}` },
    { city: 'New Delhi', subdivision: 'IN-DL', postal: (r) => `1100${r.digits(2)}` },
  ],
  streets: ['MG Road', 'Residency Road', 'Linking Road', 'Anna Salai', 'FC Road', 'Jubilee Hills Road No. 36', '100 Feet Road', 'Park Street'],
  addressLine1: (r) => `Flat ${r.int(1, 12)}0${r.int(1, 9)}, ${r.pick(['Prestige Lakeside', 'Sobha Dream Acres', 'Lodha Palava', 'Brigade Gateway', 'DLF Capital Greens', 'Hiranandani Gardens'])}`,
  addressLine2: (r) => (r.chance(0.5) ? r.pick(['Tower B', 'Block 4', 'Wing C', 'Phase 2']) : null),
  landmark: (r) => (r.chance(0.7) ? r.pick(['Near City Mall', 'Opposite Metro Station', 'Behind Government School', 'Next to Apollo Pharmacy']) : null),
  banks: [
    { name: 'HDFC Bank', swift: 'HDFCINBBXXX', branches: ['Koramangala', 'Andheri West', 'Banjara Hills'], localCode: (r) => `HDFC000${r.digits(4)}` },
    { name: 'ICICI Bank', swift: 'ICICINBBXXX', branches: ['Indiranagar', 'Bandra Kurla Complex'], localCode: (r) => `ICIC000${r.digits(4)}` },
    { name: 'State Bank of India', swift: 'SBININBBXXX', branches: ['Connaught Place', 'T. Nagar', 'Shivajinagar'], localCode: (r) => `SBIN000${r.digits(4)}` },
    { name: 'Axis Bank', swift: 'AXISINBBXXX', branches: ['Whitefield', 'Hinjewadi'], localCode: (r) => `UTIB000${r.digits(4)}` },
  ],
  accountNumber: (r) => `${r.int(1, 9)}${r.digits(r.int(10, 13))}`,
  accountTypes: ['SAVINGS', 'SAVINGS', 'CURRENT'],
  femaleNames: ['Priya', 'Ananya', 'Diya', 'Kavya', 'Sneha', 'Meera', 'Pooja', 'Ishita', 'Lakshmi', 'Neha', 'Divya', 'Aishwarya', 'Shreya', 'Radhika'],
  maleNames: ['Aarav', 'Rohan', 'Vikram', 'Arjun', 'Rahul', 'Aditya', 'Karthik', 'Siddharth', 'Nikhil', 'Varun', 'Harish', 'Sanjay', 'Pranav', 'Anil'],
  lastNames: ['Sharma', 'Patel', 'Iyer', 'Reddy', 'Nair', 'Gupta', 'Singh', 'Kumar', 'Rao', 'Menon', 'Joshi', 'Desai', 'Chatterjee', 'Mukherjee', 'Pillai', 'Verma', 'Agarwal', 'Bhat', 'Kulkarni', 'Das'],
  religions: ['Hinduism', 'Hinduism', 'Islam', 'Christianity', 'Sikhism', 'Jainism', 'Buddhism', 'Prefer not to say'],
  schools: ['Indian Institute of Technology Bombay', 'Indian Institute of Technology Madras', 'Delhi University', 'BITS Pilani', 'Anna University', 'University of Mumbai', 'IIM Ahmedabad'],
  degrees: ['B.Tech Computer Science', 'B.E. Electronics', 'B.Com', 'MBA', 'M.Tech Data Science', 'B.Sc. Mathematics', 'CA'],
  grade: (r) => {
    const gpa = Math.round((6 + r.next() * 4) * 10) / 10;
    const grade = gpa >= 8.5 ? 'First Class with Distinction' : gpa >= 7 ? 'First Class' : 'Second Class';
    return { grade, gpa: r.chance(0.2) ? null : gpa };
  },
  noticePeriod: { value: '60', unit: 'DAYS' },
  payFrequency: 'MONTHLY',
  salary: { min: 600000, max: 4500000, step: 10000 },
  allowances: [
    { name: 'House rent allowance', min: 8000, max: 40000, frequency: 'MONTHLY' },
    { name: 'Conveyance allowance', min: 1600, max: 3200, frequency: 'MONTHLY' },
    { name: 'Leave travel allowance', min: 20000, max: 60000, frequency: 'ANNUAL' },
  ],
};

const SWE: CountryData = {
  code: 'SWE',
  currency: 'SEK',
  phone: (r) => `+46 7${r.pick(['0', '2', '3', '6'])} ${r.digits(3)} ${r.digits(2)} ${r.digits(2)}`,
  cities: [
    { city: 'Stockholm', subdivision: 'SE-AB', postal: (r) => `11${r.digits(1)} ${r.digits(2)}` },
    { city: 'Göteborg', subdivision: 'SE-O', postal: (r) => `41${r.digits(1)} ${r.digits(2)}` },
    { city: 'Malmö', subdivision: 'SE-M', postal: (r) => `21${r.digits(1)} ${r.digits(2)}` },
  ],
  streets: ['Drottninggatan', 'Storgatan', 'Kungsgatan', 'Vasagatan', 'Sveavägen'],
  addressLine1: (r, street) => `${street} ${r.int(1, 90)}`,
  addressLine2: (r) => (r.chance(0.4) ? `lgh ${r.int(1001, 1404)}` : null),
  landmark: () => null,
  banks: [
    { name: 'SEB', swift: 'ESSESESSXXX', branches: ['Stockholm City'], localCode: () => '5000' },
    { name: 'Swedbank', swift: 'SWEDSESSXXX', branches: ['Göteborg Centrum'], localCode: () => '8000' },
    { name: 'Handelsbanken', swift: 'HANDSESSXXX', branches: ['Malmö Stortorget'], localCode: () => '6000' },
  ],
  accountNumber: (r, clearing) => iban('SE', `${clearing.slice(0, 3)}${r.digits(17)}`),
  accountTypes: ['CHECKING', 'SAVINGS'],
  femaleNames: ['Mara', 'Ingrid', 'Elin', 'Frida', 'Astrid', 'Maja'],
  maleNames: ['Oskar', 'Johan', 'Erik', 'Lars', 'Nils', 'Gustav'],
  lastNames: ['Lindqvist', 'Bergström', 'Sjöberg', 'Nyström', 'Ekström', 'Holm', 'Andersson'],
  religions: ['None', 'Church of Sweden', 'Prefer not to say'],
  schools: ['KTH Royal Institute of Technology', 'Lunds universitet', 'Stockholm School of Economics', 'Chalmers tekniska högskola'],
  degrees: ['Civilingenjör', 'Kandidatexamen i ekonomi', 'Masterexamen i datavetenskap'],
  grade: (r) => ({ grade: r.pick(['VG', 'G']), gpa: null }),
  noticePeriod: { value: '1', unit: 'MONTHS' },
  payFrequency: 'MONTHLY',
  salary: { min: 420000, max: 1200000, step: 6000 },
  allowances: [{ name: 'Wellness allowance', min: 5000, max: 5000, frequency: 'ANNUAL' }],
};

const USA: CountryData = {
  code: 'USA',
  currency: 'USD',
  phone: (r) => `+1 ${r.pick(['512', '206', '617', '312', '415'])} 555 ${r.digits(4)}`,
  cities: [
    { city: 'Austin', subdivision: 'US-TX', postal: (r) => `787${r.digits(2)}` },
    { city: 'Seattle', subdivision: 'US-WA', postal: (r) => `981${r.digits(2)}` },
    { city: 'Boston', subdivision: 'US-MA', postal: (r) => `021${r.digits(2)}` },
    { city: 'Chicago', subdivision: 'US-IL', postal: (r) => `606${r.digits(2)}` },
  ],
  streets: ['Main Street', 'Oak Avenue', 'Maple Drive', 'Congress Avenue', 'Pine Street'],
  addressLine1: (r, street) => `${r.int(10, 9800)} ${street}`,
  addressLine2: (r) => (r.chance(0.4) ? `Apt ${r.int(1, 40)}${r.pick(['A', 'B', 'C'])}` : null),
  landmark: () => null,
  banks: [
    { name: 'JPMorgan Chase Bank', swift: 'CHASUS33XXX', branches: ['Austin Downtown', 'Chicago Loop'], localCode: () => '021000021' },
    { name: 'Bank of America', swift: 'BOFAUS3NXXX', branches: ['Seattle Westlake', 'Boston Back Bay'], localCode: () => '026009593' },
  ],
  accountNumber: (r) => r.digits(r.int(10, 12)),
  accountTypes: ['CHECKING', 'SAVINGS'],
  femaleNames: ['Danielle', 'Grace', 'Naomi', 'Emily', 'Jessica'],
  maleNames: ['Marcus', 'Tyrone', 'Ethan', 'Michael', 'Daniel'],
  lastNames: ['Whitfield', 'Okafor', 'Castillo', 'Kowalczyk', 'Brooks', 'Fujimoto', 'Johnson'],
  religions: ['Christianity', 'None', 'Judaism', 'Prefer not to say'],
  schools: ['University of Texas at Austin', 'University of Washington', 'Boston University', 'Northwestern University'],
  degrees: ['B.S. Computer Science', 'B.A. Economics', 'MBA', 'B.S. Accounting'],
  grade: (r) => {
    const gpa = Math.round((2.8 + r.next() * 1.2) * 100) / 100;
    return { grade: gpa >= 3.7 ? 'Summa Cum Laude' : gpa >= 3.3 ? 'Magna Cum Laude' : 'Pass', gpa };
  },
  noticePeriod: { value: '2', unit: 'WEEKS' },
  payFrequency: 'BI_WEEKLY',
  salary: { min: 70000, max: 220000, step: 1000 },
  allowances: [{ name: 'Internet stipend', min: 50, max: 100, frequency: 'MONTHLY' }],
};

export const COUNTRIES: Readonly<Record<string, CountryData>> = { DEU, IND, SWE, USA };

export function countryData(code: string): CountryData {
  return COUNTRIES[code] ?? DEU;
}

export const DEPARTMENTS: readonly { name: string; titles: readonly string[] }[] = [
  { name: 'Engineering', titles: ['Software Engineer', 'Senior Software Engineer', 'Staff Engineer', 'Engineering Manager', 'QA Engineer', 'DevOps Engineer'] },
  { name: 'Product', titles: ['Product Manager', 'Senior Product Manager', 'Product Designer'] },
  { name: 'Data', titles: ['Data Analyst', 'Data Scientist', 'Data Engineer'] },
  { name: 'Finance', titles: ['Accountant', 'Financial Analyst', 'Finance Manager', 'Payroll Specialist'] },
  { name: 'People Operations', titles: ['HR Generalist', 'Recruiter', 'People Partner'] },
  { name: 'Sales', titles: ['Account Executive', 'Sales Development Representative', 'Sales Manager'] },
  { name: 'Marketing', titles: ['Marketing Manager', 'Content Strategist', 'Growth Marketer'] },
  { name: 'Customer Success', titles: ['Customer Success Manager', 'Support Specialist'] },
  { name: 'Legal', titles: ['Legal Counsel', 'Paralegal'] },
  { name: 'Operations', titles: ['Operations Analyst', 'Office Manager'] },
];

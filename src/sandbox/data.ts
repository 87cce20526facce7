// Deterministic, seeded employee generator. Employee i of a company is a pure
// function of (seed, company, i, count): nothing is materialised up front, so
// a company of 200,000 employees costs only a status byte per employee.
// startDate is non-decreasing in i, so "sort by startOn" is index order.
import type { CompanySpec, LegalEntity } from './companies.js';
import { countryData, DEPARTMENTS } from './countries.js';
import { dayToIso, isoToDay, TODAY_DAY } from './dates.js';
import { joinName, slug } from './names.js';
import { generatedProfile } from './profiles.js';
import { hash32, permute32, Rng, unpermute32, uuidFrom } from './prng.js';
import type {
  EmployeeListItem,
  EmployeeStatus,
  EmployeeType,
  OffboardingTrackerItem,
  OnboardingTrackerItem,
  ProfileSections,
} from './types.js';

// ---- salts, one per independent stream ----
const SALT_KEY = 0x4b45;
const SALT_ID = 0x1d1d;
const SALT_STATUS = 0x5747;
const SALT_CORE = 0xc0e1;
const SALT_TRACKER = 0x7ac4;

const ONBOARDING_STAGES = ['OFFER_ACCEPTED', 'DOCUMENTS_PENDING', 'CONTRACT_SENT', 'CONTRACT_SIGNED', 'BACKGROUND_CHECK', 'READY_TO_START'] as const;
const OFFBOARDING_STAGES = ['NOTICE_SERVED', 'KNOWLEDGE_TRANSFER', 'EXIT_INTERVIEW', 'ASSET_RECOVERY', 'FINAL_SETTLEMENT'] as const;
const OFFBOARDING_DOCUMENTS = ['Resignation letter', 'Exit interview form', 'Asset return receipt', 'Final settlement statement', 'Experience letter acknowledgement'] as const;

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

  /** All profile sections of generated employee i (profiles.ts). */
  profile(i: number): ProfileSections {
    return generatedProfile(this, i);
  }
}

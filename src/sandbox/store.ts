// One company's employees: the generated population (on demand, by index)
// plus employees created through the API (stored as objects). Lookups by id,
// code and e-mail are O(1); a page costs O(pageSize) (+ O(created) for sorts).
import { buildCreated, type CreatedEmployee } from './created.js';
import type { CompanySpec } from './companies.js';
import { EmployeeGenerator } from './data.js';
import { isoToDay, SANDBOX_TODAY } from './dates.js';
import type { Rng } from './prng.js';
import type {
  EmployeeListItem,
  EmployeeStatus,
  OffboardingTrackerItem,
  OnboardingTrackerItem,
  ProfileSections,
} from './types.js';

export type { CreatedEmployee } from './created.js';

export type EmployeeRef = { kind: 'generated'; index: number } | { kind: 'created'; employee: CreatedEmployee };

export interface ListQuery {
  page: number;
  pageSize: number;
  status?: EmployeeStatus;
  employeeId?: string;
  employeeCode?: string;
  sortOrder?: 'ASC' | 'DESC';
  /** only `startOn` exists; when absent the order is the store's natural order */
  sortBy?: 'startOn';
}

export interface TrackerFilter {
  employeeId?: string;
  employeeCode?: string;
}

interface IndexView {
  length: number;
  at(k: number): number;
}

export class CompanyStore {
  readonly spec: CompanySpec;
  readonly gen: EmployeeGenerator;
  private readonly created: CreatedEmployee[] = [];
  private readonly createdByEmail = new Map<string, CreatedEmployee>();
  private readonly dynamic = new Map<string, Record<string, unknown>>();
  /** Generated employees ended while the sandbox runs (drift), by index. */
  private readonly ended = new Set<number>();
  /** Generated indices by status once some were ended (rebuilt on each change). */
  private readonly statusViews = new Map<EmployeeStatus, Int32Array>();
  /** Generated employees removed while the sandbox runs (a test hook: gone from every list), by index. */
  private readonly removed = new Set<number>();
  /** Fields of generated employees' list items set by a test hook, by index. */
  private readonly patched = new Map<number, Record<string, unknown>>();
  /** Generated indices not removed, once some were (rebuilt on each change). */
  private remaining: Int32Array | undefined;

  constructor(spec: CompanySpec, seed: number, count: number) {
    this.spec = spec;
    this.gen = new EmployeeGenerator(spec, seed, count);
  }

  /** generated + created */
  get size(): number {
    return this.gen.count + this.created.length;
  }

  findById(id: string): EmployeeRef | undefined {
    const i = this.gen.indexOfId(id);
    if (i === undefined || this.removed.has(i)) return undefined;
    return this.refAt(i);
  }

  findByCode(code: string): EmployeeRef | undefined {
    const i = this.gen.indexOfCode(code);
    if (i === undefined || this.removed.has(i)) return undefined;
    return this.refAt(i);
  }

  private refAt(i: number): EmployeeRef | undefined {
    if (i < this.gen.count) return { kind: 'generated', index: i };
    const c = this.created[i - this.gen.count];
    return c ? { kind: 'created', employee: c } : undefined;
  }

  emailInUse(email: string): boolean {
    return this.createdByEmail.has(email.toLowerCase()) || this.gen.indexOfEmail(email) !== undefined;
  }

  item(ref: EmployeeRef): EmployeeListItem {
    if (ref.kind === 'created') return structuredClone(ref.employee.item);
    const patch = this.patched.get(ref.index);
    const item = patch ? { ...this.gen.core(ref.index).item, ...structuredClone(patch) } : this.gen.core(ref.index).item;
    return this.ended.has(ref.index) ? { ...item, status: 'ENDED', endDate: SANDBOX_TODAY } : item;
  }

  status(ref: EmployeeRef): EmployeeStatus {
    if (ref.kind === 'created') return ref.employee.item.status;
    return this.ended.has(ref.index) ? 'ENDED' : this.gen.statusOf(ref.index);
  }

  /** Generated employees with this status, in natural order (ended ones moved to ENDED). */
  private generatedWith(status: EmployeeStatus): Int32Array {
    if (this.ended.size === 0 && this.removed.size === 0) return this.gen.byStatus.get(status)!;
    let view = this.statusViews.get(status);
    if (!view) {
      const out: number[] = [];
      for (let i = 0; i < this.gen.count; i++) if (!this.removed.has(i) && this.status({ kind: 'generated', index: i }) === status) out.push(i);
      view = Int32Array.from(out);
      this.statusViews.set(status, view);
    }
    return view;
  }

  /**
   * Ends an employee (status ENDED, end date today), as offboarding does: it
   * leaves the lists filtered by its old status, so their pages shift.
   */
  end(ref: EmployeeRef): void {
    if (ref.kind === 'created') {
      ref.employee.item.status = 'ENDED';
      ref.employee.item.endDate = SANDBOX_TODAY;
    } else {
      this.ended.add(ref.index);
      this.statusViews.clear();
    }
  }

  /**
   * Drift (the `--drift-rate` fault, and a test hook): the company changes
   * while someone walks its pages. `create` adds an employee at the end of
   * the natural order; `end` ends a random ACTIVE one. Returns its id.
   */
  drift(kind: 'create' | 'end', rng: Rng): string | undefined {
    if (kind === 'end') {
      const active = this.list({ page: 1, pageSize: 1, status: 'ACTIVE' }).total;
      if (active === 0) return undefined;
      const k = Math.floor(rng.next() * active);
      const g = this.generatedWith('ACTIVE');
      const ref: EmployeeRef = k < g.length ? { kind: 'generated', index: g[k]! } : { kind: 'created', employee: this.created.filter((e) => e.item.status === 'ACTIVE')[k - g.length]! };
      this.end(ref);
      return this.idOf(ref);
    }
    const seq = this.created.length;
    const entity = { currency: 'EUR', ...(this.spec.entities[0] ?? { name: this.spec.name, country: 'DEU' }) };
    const body = {
      personal: { firstName: 'Drift', lastName: `Hire ${seq + 1}`, dateOfBirth: '1990-01-01' },
      employment: { workEmail: `drift.hire.${seq + 1}.${Math.floor(rng.next() * 1e9)}@${this.spec.emailDomain}`, startDate: SANDBOX_TODAY, type: 'EMPLOYEE' },
    };
    return this.create(entity, body).item.id;
  }

  idOf(ref: EmployeeRef): string {
    return ref.kind === 'generated' ? this.gen.idOf(ref.index) : ref.employee.item.id;
  }

  profile(ref: EmployeeRef): ProfileSections {
    return ref.kind === 'generated' ? this.gen.profile(ref.index) : structuredClone(ref.employee.profile);
  }

  // ---- list ----

  list(q: ListQuery): { items: EmployeeListItem[]; total: number } {
    const start = (q.page - 1) * q.pageSize;
    if (q.employeeId !== undefined || q.employeeCode !== undefined) {
      // employeeId takes precedence over employeeCode
      const ref = q.employeeId !== undefined ? this.findById(q.employeeId) : this.findByCode(q.employeeCode!);
      const hits = ref && (!q.status || this.status(ref) === q.status) ? [ref] : [];
      return { items: hits.slice(start, start + q.pageSize).map((r) => this.item(r)), total: hits.length };
    }
    const g: IndexView = q.status
      ? viewOf(this.generatedWith(q.status))
      : this.removed.size > 0
        ? viewOf(this.generatedRemaining())
        : { length: this.gen.count, at: (k) => k };
    const c = q.status ? this.created.filter((e) => e.item.status === q.status) : this.created;
    const total = g.length + c.length;
    const end = Math.min(total, start + q.pageSize);
    const refs: EmployeeRef[] = [];
    if (start < end) {
      const at = q.sortBy !== undefined || q.sortOrder !== undefined ? this.sortedAccessor(g, c) : (p: number) => naturalAt(g, c, p);
      for (let p = start; p < end; p++) refs.push(at(q.sortOrder === 'DESC' ? total - 1 - p : p));
    }
    return { items: refs.map((r) => this.item(r)), total };
  }

  /** Accessor for the merge (by start date, generated first on ties) of g and c. */
  private sortedAccessor(g: IndexView, c: CreatedEmployee[]): (p: number) => EmployeeRef {
    if (c.length === 0) return (p) => ({ kind: 'generated', index: g.at(p) });
    const day = (e: CreatedEmployee) => isoToDay(e.item.startDate) || 0;
    const sorted = [...c].sort((a, b) => day(a) - day(b) || a.seq - b.seq);
    // merged position of each created employee
    const positions = sorted.map((e, j) => this.upperBound(g, day(e)) + j);
    return (p) => {
      const j = lowerBound(positions, p);
      if (j < positions.length && positions[j] === p) return { kind: 'created', employee: sorted[j]! };
      return { kind: 'generated', index: g.at(p - j) };
    };
  }

  /** first k with startDay(g[k]) > day */
  private upperBound(g: IndexView, day: number): number {
    let lo = 0;
    let hi = g.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.gen.startDayOf(g.at(mid)) <= day) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Generated employees not removed, in natural order. */
  private generatedRemaining(): Int32Array {
    if (!this.remaining) {
      const out: number[] = [];
      for (let i = 0; i < this.gen.count; i++) if (!this.removed.has(i)) out.push(i);
      this.remaining = Int32Array.from(out);
    }
    return this.remaining;
  }

  /**
   * Test hook (`sandbox.edit`): the company as it is between two exports.
   * `remove` takes employees out of every list (as if deleted); `set`
   * replaces fields of their list items. Unknown ids are ignored.
   */
  edit(plan: { remove?: readonly string[]; set?: readonly { id: string; fields: Record<string, unknown> }[] }): void {
    for (const id of plan.remove ?? []) {
      const ref = this.findById(id);
      if (ref?.kind === 'generated') this.removed.add(ref.index);
      else if (ref) this.created.splice(this.created.indexOf(ref.employee), 1);
    }
    for (const { id, fields } of plan.set ?? []) {
      const ref = this.findById(id);
      if (ref?.kind === 'generated') this.patched.set(ref.index, { ...this.patched.get(ref.index), ...structuredClone(fields) });
      else if (ref) Object.assign(ref.employee.item, structuredClone(fields));
    }
    this.remaining = undefined;
    this.statusViews.clear();
  }

  // ---- trackers ----

  onboarding(f: TrackerFilter): OnboardingTrackerItem[] {
    return this.tracker(f, 'ONBOARDING', (r) =>
      r.kind === 'generated' ? this.gen.onboardingItem(r.index) : { id: r.employee.item.id, employeeCode: r.employee.item.employeeCode, stage: r.employee.stage },
    );
  }

  offboarding(f: TrackerFilter): OffboardingTrackerItem[] {
    return this.tracker(f, 'OFFBOARDING', (r) =>
      r.kind === 'generated'
        ? this.gen.offboardingItem(r.index)
        : { id: r.employee.item.id, employeeCode: r.employee.item.employeeCode, stage: 'NOTICE_SERVED', pendingDocuments: [] },
    );
  }

  private tracker<T>(f: TrackerFilter, status: EmployeeStatus, make: (r: EmployeeRef) => T): T[] {
    if (f.employeeId !== undefined || f.employeeCode !== undefined) {
      const ref = f.employeeId !== undefined ? this.findById(f.employeeId) : this.findByCode(f.employeeCode!);
      if (!ref || this.status(ref) !== status) return [];
      if (f.employeeId !== undefined && f.employeeCode !== undefined && this.item(ref).employeeCode !== f.employeeCode) return [];
      return [make(ref)];
    }
    const out: T[] = [];
    for (const i of this.generatedWith(status)) out.push(make({ kind: 'generated', index: i }));
    for (const e of this.created) if (e.item.status === status) out.push(make({ kind: 'created', employee: e }));
    return out;
  }

  // ---- writes ----

  create(entity: { name: string; country: string; currency: string }, body: unknown, now = new Date()): CreatedEmployee {
    const seq = this.created.length;
    const index = this.gen.count + seq;
    const employee = buildCreated({
      company: this.spec,
      entity,
      index,
      seq,
      id: this.gen.idOf(index),
      employeeCode: this.gen.codeOf(index),
      body,
      manager: this.gen.count > 0 ? this.gen.core(0) : undefined,
      now,
    });
    this.created.push(employee);
    this.createdByEmail.set(employee.item.workEmail.toLowerCase(), employee);
    return employee;
  }

  /** Stores PATCHed dynamic sections (merged per section). */
  setDynamic(ref: EmployeeRef, values: Record<string, unknown>): void {
    const id = this.idOf(ref);
    const current = this.dynamic.get(id) ?? {};
    this.dynamic.set(id, { ...current, ...structuredClone(values) });
    if (ref.kind === 'created' && ref.employee.stage === 'AWAITING_DYNAMIC_DETAILS') ref.employee.stage = 'DOCUMENTS_PENDING';
  }

  dynamicOf(ref: EmployeeRef): Record<string, unknown> | undefined {
    const v = this.dynamic.get(this.idOf(ref));
    return v ? structuredClone(v) : undefined;
  }
}

function viewOf(a: Int32Array): IndexView {
  return { length: a.length, at: (k) => a[k]! };
}

function naturalAt(g: IndexView, c: CreatedEmployee[], p: number): EmployeeRef {
  return p < g.length ? { kind: 'generated', index: g.at(p) } : { kind: 'created', employee: c[p - g.length]! };
}

/** first j with a[j] >= x */
function lowerBound(a: number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

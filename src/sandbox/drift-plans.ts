// The company moving under a walk: drift scheduled by a test (`sandbox.drift`)
// and drawn at --drift-rate, applied just before an employee list is answered.
import type { Faults } from './faults.js';
import type { CompanyStore } from './store.js';

type Company = 'A' | 'B';

export interface DriftPlan {
  create?: number;
  end?: number;
  /** 1-based, counted from when the plan is made; default 1 */
  atListRequest?: number;
  company?: Company;
}

export class DriftPlans {
  private readonly plans: { at: number; create: number; end: number; company: Company; done: (ids: string[]) => void }[] = [];
  private listRequests = 0;

  constructor(
    private readonly stores: Record<Company, CompanyStore>,
    private readonly faults: Faults,
  ) {}

  /** Resolves with the ids created or ended once the plan has happened. */
  schedule(plan: DriftPlan): Promise<string[]> {
    return new Promise((resolve) => {
      this.plans.push({ at: this.listRequests + Math.max(1, plan.atListRequest ?? 1), create: plan.create ?? 0, end: plan.end ?? 0, company: plan.company ?? 'A', done: resolve });
    });
  }

  /** Before an employee list of `company` is answered: scheduled drift, then the --drift-rate draw. */
  beforeList(company: Company): void {
    this.listRequests++;
    const store = this.stores[company];
    const rng = this.faults.driftRng;
    for (let k = this.plans.length - 1; k >= 0; k--) {
      const plan = this.plans[k]!;
      if (plan.company !== company || this.listRequests < plan.at) continue;
      this.plans.splice(k, 1);
      const ids: (string | undefined)[] = [];
      for (let i = 0; i < plan.create; i++) ids.push(store.drift('create', rng));
      for (let i = 0; i < plan.end; i++) ids.push(store.drift('end', rng));
      plan.done(ids.filter((x): x is string => x !== undefined));
    }
    const kind = this.faults.pickDrift();
    if (kind) store.drift(kind, rng);
  }
}

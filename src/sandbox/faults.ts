// Fault injection: deterministic rules (injectFault) first, then seeded random
// rates; plus the responses each fault kind produces.
import { error, type RequestInfo, type SbxResponse } from './http.js';
import { hash32, Rng } from './prng.js';

export type FaultKind = '503' | '429' | '500' | 'reset' | 'html502' | 'badjson';

export interface FaultRule {
  kind: FaultKind;
  /** how many matching requests get the fault; Infinity allowed */
  times: number;
  /** a string matches the request path exactly (no query); a RegExp is tested against it */
  path?: string | RegExp;
  /** case-insensitive HTTP method */
  method?: string;
}

export interface FaultSettings {
  latencyMs: number;
  failRate: number;
  retryAfterSeconds: number;
  resetRate: number;
  html502Rate: number;
  /** 0..1 share of employee-list requests before which the company changes (an employee created or ended) */
  driftRate: number;
}

export type DriftKind = 'create' | 'end';

const FAULT_KINDS: readonly FaultKind[] = ['503', '429', '500', 'reset', 'html502', 'badjson'];

function rate(v: number | undefined, fallback: number): number {
  if (v === undefined || !Number.isFinite(v)) return fallback;
  return Math.min(1, Math.max(0, v));
}

export class Faults {
  private settings: FaultSettings;
  private readonly rules: { rule: FaultRule; left: number }[] = [];
  private readonly rng: Rng;
  /** Its own sequence, so turning drift on does not change which requests fail. */
  readonly driftRng: Rng;

  constructor(seed: number, initial: Partial<FaultSettings> = {}) {
    this.rng = new Rng(hash32(seed, 0xfa17));
    this.driftRng = new Rng(hash32(seed, 0xd71f));
    this.settings = { latencyMs: 0, failRate: 0, retryAfterSeconds: 1, resetRate: 0, html502Rate: 0, driftRate: 0 };
    this.set(initial);
  }

  get latencyMs(): number {
    return this.settings.latencyMs;
  }

  get retryAfterSeconds(): number {
    return this.settings.retryAfterSeconds;
  }

  set(f: Partial<FaultSettings>): void {
    const s = this.settings;
    this.settings = {
      latencyMs: f.latencyMs !== undefined && Number.isFinite(f.latencyMs) ? Math.max(0, f.latencyMs) : s.latencyMs,
      failRate: rate(f.failRate, s.failRate),
      retryAfterSeconds:
        f.retryAfterSeconds !== undefined && Number.isFinite(f.retryAfterSeconds) ? Math.max(0, Math.round(f.retryAfterSeconds)) : s.retryAfterSeconds,
      resetRate: rate(f.resetRate, s.resetRate),
      html502Rate: rate(f.html502Rate, s.html502Rate),
      driftRate: rate(f.driftRate, s.driftRate),
    };
  }

  /** Whether the company changes before this list request, and how: half creations, half endings. */
  pickDrift(): DriftKind | null {
    const rate = this.settings.driftRate;
    if (rate <= 0) return null;
    const a = this.driftRng.next();
    const b = this.driftRng.next();
    if (a >= rate) return null;
    return b < 0.5 ? 'create' : 'end';
  }

  /**
   * Adds a rule. `times: 0` (or less) instead removes the pending rules with
   * the same kind, path and method, e.g. to end a `times: Infinity` rule.
   */
  inject(rule: FaultRule): void {
    if (!FAULT_KINDS.includes(rule.kind)) throw new Error(`unknown fault kind ${String(rule.kind)}`);
    const times = rule.times === Infinity ? Infinity : Math.floor(rule.times);
    if (Number.isNaN(times)) throw new Error('fault times must be a number');
    if (times <= 0) {
      for (let k = this.rules.length - 1; k >= 0; k--) if (sameTarget(this.rules[k]!.rule, rule)) this.rules.splice(k, 1);
      return;
    }
    this.rules.push({ rule: { ...rule }, left: times });
  }

  /**
   * The fault for this request, or null. `eligibleForRates` is false for
   * requests that only explicit rules naming their path may fault (the JWKS).
   */
  pick(method: string, path: string, eligibleForRates: boolean): FaultKind | null {
    for (let k = 0; k < this.rules.length; k++) {
      const entry = this.rules[k]!;
      const { rule } = entry;
      if (rule.method && rule.method.toUpperCase() !== method.toUpperCase()) continue;
      if (rule.path !== undefined) {
        if (typeof rule.path === 'string' ? rule.path !== path : !matches(rule.path, path)) continue;
      } else if (!eligibleForRates) {
        continue;
      }
      entry.left--;
      if (entry.left <= 0) this.rules.splice(k, 1);
      return rule.kind;
    }
    if (!eligibleForRates) return null;
    // Always draw three numbers so the sequence does not depend on the rates.
    const a = this.rng.next();
    const b = this.rng.next();
    const c = this.rng.next();
    const s = this.settings;
    if (a < s.resetRate) return 'reset';
    if (b < s.html502Rate) return 'html502';
    if (c < s.failRate) return '503';
    return null;
  }

  response(kind: FaultKind, req: RequestInfo): SbxResponse {
    const retryAfter = { 'retry-after': String(this.settings.retryAfterSeconds) };
    switch (kind) {
      case 'reset':
        return { status: 0, reset: true };
      case '503': {
        const r = error(503, req);
        return { ...r, headers: { ...r.headers, ...retryAfter } };
      }
      case '429': {
        const r = error(429, req, { message: 'Too many requests' });
        return { ...r, headers: { ...r.headers, ...retryAfter } };
      }
      case '500':
        return error(500, req);
      case 'html502':
        return {
          status: 502,
          headers: { 'content-type': 'text/html' },
          body: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
        };
      case 'badjson':
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: '{"data":[{"id":"3f2a9c1e-1b2c-4d5e-8f90-a1b2c3d4e5f6","employeeCode":"ACME-00001","firstName":"Ann',
        };
    }
  }
}

function sameTarget(a: FaultRule, b: FaultRule): boolean {
  const path = (p: FaultRule['path']) => (p instanceof RegExp ? `re:${p.source}/${p.flags}` : p === undefined ? '' : `s:${p}`);
  return a.kind === b.kind && path(a.path) === path(b.path) && (a.method ?? '').toUpperCase() === (b.method ?? '').toUpperCase();
}

function matches(re: RegExp, s: string): boolean {
  re.lastIndex = 0;
  return re.test(s);
}

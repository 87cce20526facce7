// The endpoint handlers of the spec: parameter rules, company-scoped reads
// and writes, and the events that writes announce. Faults, auth and routing
// live in gateway.ts, the HTTP plumbing in server.ts.
import type { ErrorDetail } from './errors.js';
import { createSections, getSchema, getServedSchema, listEntities, validateCreate, validateDynamic } from './forms.js';
import { error, json, type RequestInfo, type SbxResponse } from './http.js';
import { UUID_RE } from './prng.js';
import type { CompanyStore, EmployeeRef } from './store.js';
import { EMPLOYEE_STATUSES, PROFILE_SECTIONS, type EmployeeStatus, type ProfileSection } from './types.js';

export interface RouteContext {
  store: CompanyStore;
  req: RequestInfo;
  /** parsed JSON body (POST/PATCH only) */
  body?: unknown;
  /** announces an employee event (signed and delivered after the response, if a webhook URL is set) */
  emit(eventType: string, data: Record<string, unknown>): void;
}

export type Handler = (ctx: RouteContext, params: string[]) => SbxResponse | Promise<SbxResponse>;

export interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

export const JWKS_PATH = '/v1/partner/.well-known/jwks.json';

const SECTION_RE = PROFILE_SECTIONS.join('|');

export const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: /^\/v1\/employees$/, handler: listEmployees },
  { method: 'GET', pattern: /^\/v1\/employees\/onboarding-tracker$/, handler: (ctx) => tracker(ctx, 'onboarding') },
  { method: 'GET', pattern: /^\/v1\/employees\/offboarding-tracker$/, handler: (ctx) => tracker(ctx, 'offboarding') },
  { method: 'GET', pattern: /^\/v1\/employees\/dynamic-details\/schema$/, handler: formSchema },
  { method: 'POST', pattern: /^\/v1\/employees\/gp-employments$/, handler: createGpEmployee },
  { method: 'PATCH', pattern: /^\/v1\/employees\/([^/]+)\/dynamic-details$/, handler: (ctx, [id]) => submitDynamicDetails(ctx, id!) },
  {
    method: 'GET',
    pattern: new RegExp(`^/v1/employees/([^/]+)/(${SECTION_RE})$`),
    handler: (ctx, [id, section]) => profileSection(ctx, id!, section as ProfileSection),
  },
];

// ---- parameter helpers ----

interface Problems {
  /** malformed values: 400 */
  bad: ErrorDetail[];
  /** well-formed but invalid values: 422 */
  invalid: ErrorDetail[];
}

function problems(): Problems {
  return { bad: [], invalid: [] };
}

function respondProblems(p: Problems, req: RequestInfo): SbxResponse | undefined {
  if (p.bad.length > 0) return error(400, req, { details: p.bad });
  if (p.invalid.length > 0) return error(422, req, { details: p.invalid });
  return undefined;
}

function intParam(q: URLSearchParams, name: string, fallback: number, min: number, max: number, p: Problems): number {
  const raw = q.get(name);
  if (raw === null) return fallback;
  if (!/^[+-]?\d+$/.test(raw.trim())) {
    p.bad.push({ field: name, message: 'must be an integer' });
    return fallback;
  }
  const n = Number(raw);
  if (n < min || n > max) {
    p.invalid.push({ field: name, message: max === Infinity ? `must be >= ${min}` : `must be between ${min} and ${max}` });
    return fallback;
  }
  return n;
}

function enumParam<T extends string>(q: URLSearchParams, name: string, allowed: readonly T[], p: Problems): T | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  p.invalid.push({ field: name, message: `must be one of: ${allowed.join(', ')}` });
  return undefined;
}

function uuidParam(q: URLSearchParams, name: string, p: Problems): string | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  if (UUID_RE.test(raw)) return raw.toLowerCase();
  p.invalid.push({ field: name, message: 'must be a valid uuid' });
  return undefined;
}

function stringParam(q: URLSearchParams, name: string, p: Problems): string | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  if (raw.length === 0) {
    p.invalid.push({ field: name, message: 'must not be empty' });
    return undefined;
  }
  return raw;
}

/** Resolves a path employeeId: 422 for a malformed uuid, 404 for an unknown (or other company's) one. */
function resolveEmployee(ctx: RouteContext, rawId: string): EmployeeRef | SbxResponse {
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    id = rawId;
  }
  if (!UUID_RE.test(id)) return error(422, ctx.req, { details: [{ field: 'employeeId', message: 'must be a valid uuid' }] });
  const ref = ctx.store.findById(id.toLowerCase());
  if (!ref) return error(404, ctx.req, { message: `employee ${id} not found` });
  return ref;
}

function isResponse(v: EmployeeRef | SbxResponse): v is SbxResponse {
  return 'status' in v;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// ---- handlers ----

function listEmployees(ctx: RouteContext): SbxResponse {
  const q = ctx.req.query;
  const p = problems();
  const page = intParam(q, 'page', 1, 1, Infinity, p);
  const pageSize = intParam(q, 'pageSize', 20, 1, 100, p);
  const status = enumParam<EmployeeStatus>(q, 'status', EMPLOYEE_STATUSES, p);
  const employeeId = uuidParam(q, 'employeeId', p);
  const employeeCode = stringParam(q, 'employeeCode', p);
  const sortBy = enumParam(q, 'sortBy', ['startOn'] as const, p);
  const sortOrder = enumParam(q, 'sortOrder', ['ASC', 'DESC'] as const, p);
  const failed = respondProblems(p, ctx.req);
  if (failed) return failed;

  const { items, total } = ctx.store.list({
    page,
    pageSize,
    ...(status ? { status } : {}),
    ...(employeeId !== undefined ? { employeeId } : {}),
    ...(employeeCode !== undefined ? { employeeCode } : {}),
    ...(sortBy ? { sortBy } : {}),
    ...(sortOrder ? { sortOrder } : {}),
  });
  const totalPages = Math.ceil(total / pageSize);
  return json(200, {
    data: items,
    pagination: {
      currentPage: page,
      pageSize,
      totalPages,
      totalItems: total,
      hasNextPage: page < totalPages,
      hasPreviousPage: page > 1,
    },
  });
}

function tracker(ctx: RouteContext, kind: 'onboarding' | 'offboarding'): SbxResponse {
  const q = ctx.req.query;
  const p = problems();
  const employeeId = uuidParam(q, 'employeeId', p);
  const employeeCode = stringParam(q, 'employeeCode', p);
  const failed = respondProblems(p, ctx.req);
  if (failed) return failed;
  const filter = { ...(employeeId !== undefined ? { employeeId } : {}), ...(employeeCode !== undefined ? { employeeCode } : {}) };
  return json(200, kind === 'onboarding' ? ctx.store.onboarding(filter) : ctx.store.offboarding(filter));
}

const EMPLOYMENT_TYPES = ['GLOBAL_PAYROLL'] as const;

function formSchema(ctx: RouteContext): SbxResponse {
  const q = ctx.req.query;
  const p = problems();
  const employmentType = q.get('employmentType');
  if (employmentType === null || employmentType === '') p.invalid.push({ field: 'employmentType', message: 'is required' });
  else enumParam(q, 'employmentType', EMPLOYMENT_TYPES, p);
  const entity = q.get('entity');
  if (employmentType === 'GLOBAL_PAYROLL') {
    if (entity === null || entity === '') {
      p.invalid.push({ field: 'entity', message: 'is required when employmentType is GLOBAL_PAYROLL' });
    } else if (!getSchema(entity)) {
      const known = listEntities().map((e) => e.name).join(', ');
      p.invalid.push({ field: 'entity', message: `unknown legal entity "${entity}"; known entities: ${known}` });
    }
  }
  const failed = respondProblems(p, ctx.req);
  if (failed) return failed;
  return json(200, getServedSchema(entity!));
}

function createGpEmployee(ctx: RouteContext): SbxResponse {
  const body = ctx.body;
  if (!isObject(body)) return error(422, ctx.req, { details: [{ field: 'body', message: 'must be a JSON object' }] });
  const entityName = body.entity;
  if (typeof entityName !== 'string' || entityName.length === 0) {
    return error(422, ctx.req, { details: [{ field: 'entity', message: 'is required (the legal entity name)' }] });
  }
  const entity = listEntities().find((e) => e.name === entityName);
  if (!entity) {
    const known = listEntities().map((e) => e.name).join(', ');
    return error(404, ctx.req, { message: `legal entity "${entityName}" not found; known entities: ${known}` });
  }
  const result = validateCreate(entityName, body);
  if (!result.ok) return error(422, ctx.req, { details: result.details });

  const employment = body.employment as Record<string, unknown>;
  const workEmail = String(employment.workEmail);
  if (ctx.store.emailInUse(workEmail)) {
    return error(409, ctx.req, { message: `an employee with work email ${workEmail} already exists` });
  }
  const created = ctx.store.create(entity, body);
  const e = created.item;
  ctx.emit('EMPLOYEE_CREATED', { id: e.id, customerId: e.customerId, employeeCode: e.employeeCode, status: e.status, type: e.type, country: e.country });
  const res = json(201, {
    id: e.id,
    employeeCode: e.employeeCode,
    employeeId: e.employeeCode,
    status: e.status,
    entity: e.entity,
    country: e.country,
    customerId: e.customerId,
    firstName: e.firstName,
    lastName: e.lastName,
    workEmail: e.workEmail,
    startDate: e.startDate,
    onboardingStage: created.stage,
    submittedSections: createSections(getSchema(entityName)!).filter((s) => s in body),
    createdAt: created.createdAt,
  });
  return { ...res, headers: { ...res.headers, location: `/v1/employees/${e.id}/employment` } };
}

function submitDynamicDetails(ctx: RouteContext, rawId: string): SbxResponse {
  const ref = resolveEmployee(ctx, rawId);
  if (isResponse(ref)) return ref;
  const body = ctx.body;
  if (!isObject(body)) return error(422, ctx.req, { details: [{ field: 'body', message: 'must be a JSON object' }] });
  const item = ctx.store.item(ref);
  const result = validateDynamic(item.entity, body);
  if (!result.ok) {
    if (result.unknownEntity) {
      return error(422, ctx.req, { details: [{ field: 'entity', message: `legal entity "${item.entity}" has no dynamic-details form` }] });
    }
    return error(422, ctx.req, { details: result.details });
  }
  ctx.store.setDynamic(ref, body);
  ctx.emit('EMPLOYEE_UPDATED', {
    id: item.id,
    customerId: item.customerId,
    employeeCode: item.employeeCode,
    status: item.status,
    type: item.type,
    country: item.country,
    updateType: 'legal' in body ? 'PERSONAL_DETAILS' : 'EMPLOYMENT_DETAILS',
  });
  return { status: 204 };
}

function profileSection(ctx: RouteContext, rawId: string, section: ProfileSection): SbxResponse {
  const ref = resolveEmployee(ctx, rawId);
  if (isResponse(ref)) return ref;
  return json(200, ctx.store.profile(ref)[section]);
}

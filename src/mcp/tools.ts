// The tools `partner mcp` offers: each one an input schema (JSON Schema, shown
// to the client) and a handler that validates its input with partner's own
// parsers (options.ts: the same rules and messages as the flags) and calls the
// API through the same functions as the commands (api/employees.ts,
// resolve-employee.ts, the page walk, webhooks/verify.ts).
import type { Context } from '../context.js';
import type { HttpClient, RetryEvent } from '../api/http.js';
import { createGpEmployment, getFormSchema, getProfileSection, listEmployees, offboardingTracker, onboardingTracker, submitDynamicDetails } from '../api/employees.js';
import { resolveEmployee } from '../api/resolve-employee.js';
import { walkPageBatches } from '../api/pages.js';
import { AdaptiveConcurrency } from '../api/adaptive-concurrency.js';
import { newFindings, settleWalk } from '../api/walk-audit.js';
import { employeeMatcher, searchBatches, type SearchCount } from '../api/employee-search.js';
import { EMPLOYEE_STATUSES, PAGE_SIZE_MAX, PROFILE_SECTIONS, SORT_BY_FIELDS, SORT_ORDERS, type Employee, type ProfileSection } from '../api/types.js';
import { CliError, ExitCode, InvalidValuesError, UsageError } from '../errors.js';
import { isUuid, parseChoice, parseInteger, parseText } from '../options.js';
import { maskBankSection } from '../output/mask.js';
import { unsafeKeyPath } from '../safe-keys.js';
import type { FormSchema } from '../forms/schema.js';
import { OUTPUT, read, write, type JsonSchemaObject, type ToolAnnotations, type ToolName } from './describe.js';
import { withToolHint } from './hints.js';

export interface Tool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties: false };
  annotations: ToolAnnotations;
  /** The result's JSON Schema (describe.ts); the result is an object it matches. */
  outputSchema: JsonSchemaObject;
  call(args: Record<string, unknown>, env: ToolEnv): Promise<Record<string, unknown>>;
}

export interface ToolEnv {
  ctx: Context;
  http: () => Promise<HttpClient>;
  reveal: boolean;
  signal: AbortSignal;
  /** Set by a tool that walks pages: told about the client's retries (429/503 lower its concurrency). */
  onRetry?: (e: RetryEvent) => void;
}

/** search_employees returns at most this many matches. */
const SEARCH_MAX = 500;
const SEARCH_DEFAULT = 50;

const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra });
const int = (description: string, min: number, max: number) => ({ type: 'integer', description, minimum: min, maximum: max });

/** Keys the schema does not declare are refused: a misspelt filter must not silently list everyone. */
function checkKeys(args: Record<string, unknown>, tool: Tool): void {
  for (const k of Object.keys(args)) if (!Object.hasOwn(tool.inputSchema.properties, k)) throw new UsageError(`${tool.name}: unknown argument "${k.slice(0, 40)}"`, `Arguments: ${Object.keys(tool.inputSchema.properties).join(', ')}`, 'INVALID_ARGUMENT');
  for (const k of tool.inputSchema.required ?? []) if (args[k] === undefined) throw new UsageError(`${tool.name}: missing argument "${k}"`, undefined, 'MISSING_ARGUMENT');
}

function employeeRef(raw: unknown, name: string): string {
  const ref = parseText(name, typeof raw === 'string' ? raw : raw === undefined ? undefined : String(raw), 100);
  if (ref === undefined) throw new UsageError(`${name} is required`, undefined, 'MISSING_ARGUMENT');
  return ref;
}

export const TOOLS: Tool[] = [
  {
    name: 'search_employees',
    annotations: read('Search employees'),
    outputSchema: OUTPUT.search_employees,
    description: 'Find employees whose full name, display name, work email or employee code contains the text (case and accents ignored). Every page is searched on the client (the API has no name search). Optional status filter (applied by the server).',
    inputSchema: {
      type: 'object',
      properties: { text: str('text to look for, e.g. "priya" or "ACME-0001"'), status: str('only employees with this status', { enum: EMPLOYEE_STATUSES }), limit: int(`most matches returned (default ${SEARCH_DEFAULT})`, 1, SEARCH_MAX) },
      required: ['text'],
      additionalProperties: false,
    },
    async call(a, env) {
      const text = employeeRef(a.text, 'text');
      const status = parseChoice('status', a.status, EMPLOYEE_STATUSES);
      const limit = parseInteger('limit', a.limit, { min: 1, max: SEARCH_MAX }) ?? SEARCH_DEFAULT;
      const http = await env.http();
      const findings = newFindings(1);
      const count: SearchCount = { searched: 0, matched: 0 };
      // Polite: at most 4 pages in flight, fewer when the server says 429/503 (the client's retries tell it).
      const adaptive = new AdaptiveConcurrency({ max: 4 });
      env.onRetry = (e) => {
        if (e.status === 429 || e.status === 503) adaptive.congestion(e.waitMs);
      };
      const pages = walkPageBatches<Employee>((page, signal) => listEmployees(http, { page, pageSize: PAGE_SIZE_MAX, status }, signal), { pageSize: PAGE_SIZE_MAX, findings, concurrency: 4, adaptive, signal: env.signal });
      const employees: Employee[] = [];
      for await (const batch of searchBatches(pages, employeeMatcher(text), count, limit)) employees.push(...batch);
      const settled = settleWalk(findings, { rows: employees.length, allowDrift: false });
      if (settled.error) throw settled.error;
      return { searched: count.searched, matched: employees.length, truncated: employees.length >= limit, note: 'searched on the client: every page of the employee list was read', warnings: settled.warnings, employees };
    },
  },
  {
    name: 'list_employees',
    annotations: read('List employees (one page)'),
    outputSchema: OUTPUT.list_employees,
    description: 'One page of the employee list ({data, pagination}), with the server\'s filters. Pages hold at most 100 employees; ask for the next page with page.',
    inputSchema: {
      type: 'object',
      properties: {
        page: int('page number (default 1)', 1, 1_000_000),
        pageSize: int('employees per page (default 20)', 1, PAGE_SIZE_MAX),
        status: str('only employees with this status', { enum: EMPLOYEE_STATUSES }),
        employeeCode: str('exact employee code'),
        employeeId: str('exact employee id (UUID)'),
        sortBy: str('sort field', { enum: SORT_BY_FIELDS }),
        sortOrder: str('sort direction', { enum: SORT_ORDERS }),
      },
      additionalProperties: false,
    },
    async call(a, env) {
      const employeeId = a.employeeId === undefined ? undefined : String(a.employeeId);
      if (employeeId !== undefined && !isUuid(employeeId)) throw new UsageError('employeeId must be a UUID', 'Use employeeCode for a code like ACME-00007.', 'INVALID_ARGUMENT');
      const query = {
        page: parseInteger('page', a.page, { min: 1 }),
        pageSize: parseInteger('pageSize', a.pageSize, { min: 1, max: PAGE_SIZE_MAX }),
        status: parseChoice('status', a.status, EMPLOYEE_STATUSES),
        employeeCode: parseText('employeeCode', a.employeeCode as string | undefined, 100),
        employeeId,
        sortBy: parseChoice('sortBy', a.sortBy, SORT_BY_FIELDS),
        sortOrder: parseChoice('sortOrder', a.sortOrder, SORT_ORDERS),
      };
      return { ...(await listEmployees(await env.http(), query, env.signal)) };
    },
  },
  {
    name: 'trackers',
    annotations: read('Onboarding or offboarding tracker'),
    outputSchema: OUTPUT.trackers,
    description: 'The onboarding or offboarding tracker: where each employee in onboarding (offboarding) stands. Optional filter by one employee.',
    inputSchema: {
      type: 'object',
      properties: { kind: str('which tracker', { enum: ['onboarding', 'offboarding'] }), employeeCode: str('only this employee code'), employeeId: str('only this employee id (UUID)') },
      required: ['kind'],
      additionalProperties: false,
    },
    async call(a, env) {
      const kind = parseChoice('kind', a.kind, ['onboarding', 'offboarding'] as const)!;
      const employeeId = a.employeeId === undefined ? undefined : String(a.employeeId);
      if (employeeId !== undefined && !isUuid(employeeId)) throw new UsageError('employeeId must be a UUID', undefined, 'INVALID_ARGUMENT');
      const query = { employeeId, employeeCode: parseText('employeeCode', a.employeeCode as string | undefined, 100) };
      const http = await env.http();
      return { kind, employees: kind === 'onboarding' ? await onboardingTracker(http, query) : await offboardingTracker(http, query) };
    },
  },
  {
    name: 'get_profile',
    annotations: read('Employee profile'),
    outputSchema: OUTPUT.get_profile,
    description: 'Profile sections of one employee, by id (UUID) or employee code. Bank account numbers and IBANs are masked to their last 4 characters unless the server was started with --reveal.',
    inputSchema: {
      type: 'object',
      properties: { employee: str('employee id (UUID) or employee code'), sections: { type: 'array', items: { type: 'string', enum: PROFILE_SECTIONS }, description: 'sections to fetch (default: personal, contact, employment)' } },
      required: ['employee'],
      additionalProperties: false,
    },
    async call(a, env) {
      const ref = employeeRef(a.employee, 'employee');
      if (a.sections !== undefined && !Array.isArray(a.sections)) throw new UsageError('sections must be a list', `One or more of: ${PROFILE_SECTIONS.join(', ')}`, 'INVALID_ARGUMENT');
      const sections = [...new Set(((a.sections as unknown[] | undefined) ?? ['personal', 'contact', 'employment']).map((s) => parseChoice('sections', s, PROFILE_SECTIONS)!))] as ProfileSection[];
      const http = await env.http();
      const who = await resolveEmployee(http, ref, env.signal);
      const doc: Record<string, unknown> = { id: who.id, employeeCode: who.code ?? null };
      const values = await Promise.all(sections.map((s) => getProfileSection(http, who.id, s, env.signal)));
      sections.forEach((s, i) => (doc[s] = s === 'bank' && !env.reveal ? maskBankSection(values[i]) : values[i]));
      return doc;
    },
  },
  {
    name: 'form_schema',
    annotations: read('GP form of a legal entity'),
    outputSchema: OUTPUT.form_schema,
    description: 'The fields of the form for creating a GP (global payroll) employee in a legal entity: field path, title, kind, whether required, and allowed values.',
    inputSchema: { type: 'object', properties: { entity: str('the legal entity name, e.g. "Acme Deutschland GmbH"') }, required: ['entity'], additionalProperties: false },
    async call(a, env) {
      const entity = employeeRef(a.entity, 'entity');
      const raw = await getFormSchema(await env.http(), { employmentType: 'GLOBAL_PAYROLL', entity });
      const { loadServerForm } = await import('../forms/load.js');
      const { outline } = await import('../forms/outline.js');
      return { entity, fields: outline(loadServerForm(raw, env.ctx.log)) };
    },
  },
  {
    name: 'verify_webhook',
    annotations: read('Verify a webhook'),
    outputSchema: OUTPUT.verify_webhook,
    description: 'Verify a webhook JWS (compact serialisation) against the API\'s published key set: the verdict, the reason when not valid, and the event it carries.',
    inputSchema: { type: 'object', properties: { jws: str('the JWS as received (header.payload.signature)') }, required: ['jws'], additionalProperties: false },
    async call(a, env) {
      if (typeof a.jws !== 'string' || a.jws.trim() === '') throw new UsageError('jws must be a non-empty string', undefined, 'INVALID_ARGUMENT');
      const { keyStoreFor } = await import('../webhooks/source.js');
      const { verifyWebhook, MAX_WEBHOOK_BYTES, tooLargeVerdict } = await import('../webhooks/verify.js');
      if (Buffer.byteLength(a.jws) > MAX_WEBHOOK_BYTES) return { ...tooLargeVerdict() };
      return { ...(await verifyWebhook(a.jws.trim(), await keyStoreFor(env.ctx, { cache: true }))) };
    },
  },
];

/** The values of a write tool: a JSON object, as a values file holds it (section -> field -> value). */
function valuesOf(raw: unknown): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError('values must be an object: {section: {field: value}}', 'form_schema lists the fields of an entity.', 'INVALID_ARGUMENT');
  if (JSON.stringify(raw).length > 256 * 1024) throw new UsageError('values are larger than 256 KiB', undefined, 'INPUT_TOO_LARGE');
  const unsafe = unsafeKeyPath(raw);
  if (unsafe !== undefined) throw new UsageError(`values: "${unsafe.slice(0, 120)}" is not a field of any form`, '__proto__, constructor and prototype are never field names; form_schema lists the fields of an entity.', 'INVALID_ARGUMENT');
  return structuredClone(raw as Record<string, unknown>);
}

function confirmOf(raw: unknown): boolean {
  if (raw !== undefined && typeof raw !== 'boolean') throw new UsageError('confirm must be true or false', undefined, 'INVALID_ARGUMENT');
  return raw === true;
}

/**
 * The values checked against the server's form, as `gp create --from-file`
 * checks them (forms/inputs.ts): the request bodies, or FORM_INVALID with
 * every field's problem.
 */
async function validated(env: ToolEnv, http: HttpClient, entity: string, values: Record<string, unknown>, sections: 'all' | 'dynamic') {
  const { loadServerForm } = await import('../forms/load.js');
  const { collectValues, fillFixed, issuesOf } = await import('../forms/inputs.js');
  const { buildBodies, dynamicBody, dynamicKeys } = await import('../forms/bodies.js');
  const form = loadServerForm(await getFormSchema(http, { employmentType: 'GLOBAL_PAYROLL', entity }), env.ctx.log);
  const keys = sections === 'all' ? form.sections.map((x) => x.key) : dynamicKeys(form);
  if (keys.length === 0) throw new UsageError(`The form of ${entity} has no dynamic sections; there is nothing to submit`, undefined, 'NO_DYNAMIC_SECTIONS');
  if (Object.hasOwn(values, 'entity') && values.entity !== entity && !form.sections.some((x) => x.key === 'entity')) throw new UsageError(`values names entity "${String(values.entity).slice(0, 80)}" but the entity is "${entity}"`, 'Leave entity out of values, or make it the same.', 'INVALID_ARGUMENT');
  const collected = await collectValues(form, {}, { fromFile: 'values', fileValues: values, sets: [] }, env.ctx, entity);
  fillFixed(form, collected.doc, keys);
  const issues = issuesOf(form, collected, keys);
  if (sections === 'dynamic') {
    for (const key of Object.keys(collected.doc)) {
      if (!keys.includes(key) && form.sections.some((x) => x.key === key)) issues.push({ path: key, message: 'is not a dynamic section (it is sent when the employee is created)', text: `${key} is not a dynamic section` });
    }
  }
  // The hint (naming form_schema and values) is the tool's: hints.ts.
  if (issues.length) throw new InvalidValuesError(`${issues.length} value${issues.length === 1 ? ' is' : 's are'} missing or invalid; nothing was sent`, undefined, issues.map((i) => ({ field: i.path, message: i.text })));
  return { form, ...(sections === 'all' ? buildBodies(form, entity, collected.doc) : { create: undefined, dynamic: dynamicBody(form, collected.doc) ?? {} }) };
}

/** A body as a tool result shows it: the form's secret fields masked unless the server was started with --reveal. */
async function shownBody(env: ToolEnv, form: FormSchema, body: Record<string, unknown> | undefined): Promise<Record<string, unknown> | null> {
  if (!body) return null;
  const { maskSecrets } = await import('../forms/secrets.js');
  return maskSecrets(form, body, { reveal: env.reveal });
}

/**
 * The PATCH after a successful POST failed: the employee exists. The error
 * says so (message, hint and `progress` data), or an agent reading only
 * "failed" would call create_gp_employee again and make a second employee.
 */
function createdButNotSubmitted(err: unknown, id: string): never {
  const failure = err instanceof CliError ? err : new CliError(`Could not submit the dynamic details: ${(err as Error)?.message ?? String(err)}`, { code: 'UNEXPECTED', exitCode: ExitCode.FAILURE, cause: err });
  const text = `The employee was created (id ${id}); only its dynamic details were not submitted. Do not create it again: call submit_dynamic_details with employee "${id}" and the dynamic sections of the same values.`;
  failure.progress = { text, data: { created: true, employeeId: id, dynamicDetailsSubmitted: false, next: text } };
  throw failure;
}

const NOT_SENT = 'Validated against the server\'s form; nothing was sent. Call again with confirm: true to send these bodies.';

/**
 * A write tool: who or where it writes (`target`), the form values, and
 * confirm. The arguments are read the same way for each; `send` validates
 * and, only when confirmed, sends.
 */
function writeTool(
  name: ToolName,
  annotations: ToolAnnotations,
  description: string,
  target: { key: string; description: string },
  valuesDescription: string,
  send: (ref: string, values: Record<string, unknown>, confirm: boolean, http: HttpClient, env: ToolEnv) => Promise<Record<string, unknown>>,
): Tool {
  return {
    name,
    description,
    annotations,
    outputSchema: OUTPUT[name],
    inputSchema: {
      type: 'object',
      properties: { [target.key]: str(target.description), values: { type: 'object', description: valuesDescription }, confirm: { type: 'boolean', description: 'true to send; otherwise a dry run' } },
      required: [target.key, 'values'],
      additionalProperties: false,
    },
    async call(a, env) {
      const ref = employeeRef(a[target.key], target.key);
      const values = valuesOf(a.values);
      const confirm = confirmOf(a.confirm);
      return send(ref, values, confirm, await env.http(), env);
    },
  };
}

/** Only with `partner mcp --allow-write`: they change data, and only when the call says confirm: true. */
export const WRITE_TOOLS: Tool[] = [
  writeTool(
    'create_gp_employee',
    // Adds an employee, overwrites nothing; a second confirmed call makes a second employee.
    write('Create a GP employee', { destructive: false, idempotent: false }),
    'Create a GP (global payroll) employee in a legal entity from form values ({section: {field: value}}, see form_schema). The values are validated against the server\'s form first; without confirm: true nothing is sent and the validated request bodies are returned (a dry run).',
    { key: 'entity', description: 'the legal entity name' },
    'the form values: {section: {field: value}}',
    async (entity, values, confirm, http, env) => {
      const bodies = await validated(env, http, entity, values, 'all');
      if (!confirm) return { sent: false, note: NOT_SENT, create: await shownBody(env, bodies.form, bodies.create), dynamicDetails: await shownBody(env, bodies.form, bodies.dynamic) };
      const created = await createGpEmployment(http, bodies.create!);
      const id = typeof created.id === 'string' ? created.id : undefined;
      if (bodies.dynamic && id) await submitDynamicDetails(http, id, bodies.dynamic).catch((err: unknown) => createdButNotSubmitted(err, id));
      return { sent: true, created, dynamicDetailsSubmitted: Boolean(bodies.dynamic && id) };
    },
  ),
  writeTool(
    'submit_dynamic_details',
    // Replaces the details the employee had; the same values twice leave what once leaves.
    write('Submit dynamic details', { destructive: true, idempotent: true }),
    'Submit the dynamic details (the country-specific sections) of an existing employee, by id or code. Validated against the form of the employee\'s entity first; without confirm: true nothing is sent and the validated body is returned.',
    { key: 'employee', description: 'employee id (UUID) or employee code' },
    'the dynamic sections: {section: {field: value}}',
    async (ref, values, confirm, http, env) => {
      const who = await resolveEmployee(http, ref, env.signal);
      const employment = (await getProfileSection(http, who.id, 'employment', env.signal)) as Record<string, unknown> | null;
      const entity = employment && typeof employment.entity === 'string' ? employment.entity : undefined;
      if (!entity) throw new UsageError(`The employment section of ${ref} names no legal entity`, undefined, 'NO_ENTITY');
      const { form, dynamic } = await validated(env, http, entity, values, 'dynamic');
      if (!confirm) return { sent: false, note: NOT_SENT, employeeId: who.id, dynamicDetails: await shownBody(env, form, dynamic) };
      await submitDynamicDetails(http, who.id, dynamic);
      return { sent: true, employeeId: who.id, employeeCode: who.code ?? null };
    },
  ),
];

/** The tools a server offers: the read tools, and the write tools with --allow-write; only those named when `only` is given (--tools). */
export function toolsFor(allowWrite: boolean, only?: readonly string[]): Tool[] {
  const all = allowWrite ? [...TOOLS, ...WRITE_TOOLS] : TOOLS;
  return only ? all.filter((t) => only.includes(t.name)) : all;
}

/** Runs one tool call of a server offering `env.tools` (default: every tool --allow-write allows): the input checked against the declared arguments first; an error's hint speaks of tools and arguments. */
export async function callTool(name: string, args: Record<string, unknown> | undefined, env: ToolEnv & { tools?: Tool[]; allowWrite?: boolean }): Promise<Record<string, unknown>> {
  const tools = env.tools ?? toolsFor(env.allowWrite === true);
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    const offered = `Tools offered: ${tools.map((t) => t.name).join(', ')}.`;
    if (!env.allowWrite && WRITE_TOOLS.some((t) => t.name === name)) throw new UsageError(`${name} changes data and is off`, `Start the server with partner mcp --allow-write to offer it. ${offered}`, 'WRITE_NOT_ALLOWED');
    const known = [...TOOLS, ...WRITE_TOOLS].some((t) => t.name === name);
    throw new UsageError(known ? `${name} is not offered by this server` : `Unknown tool "${name.slice(0, 60)}"`, known ? `${offered} (the server was started with --tools)` : offered, known ? 'TOOL_NOT_OFFERED' : 'UNKNOWN_TOOL');
  }
  const a = args ?? {};
  try {
    checkKeys(a, tool);
    return await tool.call(a, env);
  } catch (err) {
    throw withToolHint(err, name, a);
  }
}

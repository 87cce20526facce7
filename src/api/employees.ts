import { ResponseFormatError } from '../errors.js';
import { isUuid } from '../options.js';
import { sanitizeTerminal } from '../text/sanitize.js';
import type { HttpClient } from './http.js';
import { rememberRawRows } from '../json/raw-rows.js';
import type { EmployeePage, OffboardingTrackerItem, OnboardingTrackerItem, ProfileSection } from './types.js';

// One typed function per endpoint of the spec. Paths and query names live here only.

export interface ListQuery {
  page?: number;
  pageSize?: number;
  status?: string;
  employeeId?: string;
  employeeCode?: string;
  sortBy?: string;
  sortOrder?: string;
}

export async function listEmployees(http: HttpClient, query: ListQuery, signal?: AbortSignal): Promise<EmployeePage> {
  const { body, text } = await http.send<EmployeePage>('GET', '/v1/employees', { query: { ...query }, signal });
  if (!body || !Array.isArray(body.data) || typeof body.pagination !== 'object' || body.pagination === null) {
    throw new ResponseFormatError('The employee list answer has no data array or pagination object', 200, JSON.stringify(body ?? null).slice(0, 160));
  }
  // Each row's own text, for -o ndjson/json to write as it came (once checked, made safe to print).
  if (text !== undefined) rememberRawRows(text, body.data);
  return body;
}

export interface TrackerQuery {
  employeeId?: string;
  employeeCode?: string;
}

export async function onboardingTracker(http: HttpClient, query: TrackerQuery): Promise<OnboardingTrackerItem[]> {
  return expectArray(await http.get<OnboardingTrackerItem[]>('/v1/employees/onboarding-tracker', { ...query }), 'onboarding tracker');
}

export async function offboardingTracker(http: HttpClient, query: TrackerQuery): Promise<OffboardingTrackerItem[]> {
  return expectArray(await http.get<OffboardingTrackerItem[]>('/v1/employees/offboarding-tracker', { ...query }), 'offboarding tracker');
}

/**
 * An employee id taken from an answer, checked before it goes into a path:
 * the spec says uuid, and an id such as `..` would turn
 * /v1/employees/../personal into /v1/personal. `source` says which answer
 * gave it (`The create answer`), for the BAD_RESPONSE message.
 */
export function checkedEmployeeId(id: unknown, source: string, status = 200): string {
  if (typeof id === 'string' && isUuid(id)) return id;
  const shown = JSON.stringify(id ?? null) ?? String(id);
  throw new ResponseFormatError(
    `${source} gave the employee id ${sanitizeTerminal(shown.length > 60 ? `${shown.slice(0, 60)}…` : shown)}, which is not a UUID; partner does not use it in a request`,
    status,
    sanitizeTerminal(shown.slice(0, 160)),
  );
}

/** `/v1/employees/{id}/{tail}`, the id checked (every id in a path came from the user, checked, or from an answer). */
function employeePath(employeeId: string, tail: string): string {
  return `/v1/employees/${encodeURIComponent(checkedEmployeeId(employeeId, 'The server'))}/${tail}`;
}

export async function getProfileSection(http: HttpClient, employeeId: string, section: ProfileSection, signal?: AbortSignal): Promise<unknown> {
  return (await http.send('GET', employeePath(employeeId, section), { signal })).body;
}

export async function getFormSchema(http: HttpClient, query: { employmentType: string; entity?: string }): Promise<unknown> {
  return http.get('/v1/employees/dynamic-details/schema', { ...query });
}

/** POST is never retried automatically (the retry policy only retries GET). */
export async function createGpEmployment(http: HttpClient, body: unknown): Promise<Record<string, unknown>> {
  const res = await http.send<Record<string, unknown>>('POST', '/v1/employees/gp-employments', { body });
  return res.body ?? {};
}

export async function submitDynamicDetails(http: HttpClient, employeeId: string, body: unknown): Promise<void> {
  await http.send('PATCH', employeePath(employeeId, 'dynamic-details'), { body });
}

function expectArray<T>(value: unknown, what: string): T[] {
  if (!Array.isArray(value)) throw new ResponseFormatError(`The ${what} answer is not a JSON array`, 200, JSON.stringify(value ?? null).slice(0, 160));
  return value as T[];
}

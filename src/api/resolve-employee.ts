// The one way a command finds the employee the user named (an id or a code).
// Every answer is checked again here: a server that ignores the list's
// `employeeCode` filter, or answers for someone else, must never make us read
// or write another employee.
import { q, suggestion } from '../text/command-line.js';
import { ApiError, CliError, ExitCode } from '../errors.js';
import { isUuid } from '../options.js';
import { checkedEmployeeId, listEmployees } from './employees.js';
import type { HttpClient } from './http.js';

export interface ResolvedEmployee {
  /** What the user typed. */
  ref: string;
  id: string;
  /** Known when the reference was a code (or the list answer carried it). */
  code?: string;
  name?: string;
}

/** A reference that matches no employee of the token's company: exit 5, like a 404. */
export class EmployeeNotFoundError extends CliError {
  constructor(
    readonly ref: string,
    kind: 'code' | 'id' = 'code',
    /** The one existing code that differs from `ref` only in case. */
    readonly suggestion?: string,
    /** The 404 answer it was read from (its status and correlation id are shown). */
    cause?: unknown,
  ) {
    super(`No employee with ${kind} "${ref}" in your company${suggestion ? ` (did you mean ${suggestion}?)` : ''}`, {
      code: 'EMPLOYEE_NOT_FOUND',
      exitCode: ExitCode.NOT_FOUND,
      hint: suggestion
        ? `Employee codes are matched exactly, case included: use ${suggestion}.`
        : kind === 'code'
          ? 'Check the code with `partner employees list --employee-code CODE`, or pass the employee id (a UUID).'
          : 'Check the id with `partner employees list --employee-id ID`; a token only sees the employees of its own company.',
      cause,
    });
  }
}

/** The human-readable code of a record: `employeeCode`, or `employeeId` (the spec's other name for it) when that is missing. */
export function codeOf(record: unknown): string | undefined {
  if (record === null || typeof record !== 'object') return undefined;
  const r = record as Record<string, unknown>;
  if (typeof r.employeeCode === 'string') return r.employeeCode;
  return typeof r.employeeId === 'string' && !isUuid(r.employeeId) ? r.employeeId : undefined;
}

/** The uuid of a record, when it has one that is a string. */
function idOf(record: unknown): string | undefined {
  const id = record !== null && typeof record === 'object' ? (record as Record<string, unknown>).id : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * Whether a record the server returned is the employee the user named: the
 * same id (case aside, UUIDs are case-insensitive) or exactly the same code.
 * The filters a command sent are never trusted to have been applied.
 */
export function isEmployee(record: unknown, named: { id?: string; code?: string }): boolean {
  if (named.id !== undefined && idOf(record)?.toLowerCase() !== named.id.toLowerCase()) return false;
  if (named.code !== undefined && codeOf(record) !== named.code) return false;
  return named.id !== undefined || named.code !== undefined;
}

/**
 * An employee id (UUID) is used as it is (the first request on it says 404
 * when it names nobody: see notFoundFor); anything else is an employee code,
 * looked up through the list endpoint's exact `employeeCode` filter and
 * matched again here. Two employees with one code is refused, not guessed.
 */
export async function resolveEmployee(http: HttpClient, ref: string, signal?: AbortSignal): Promise<ResolvedEmployee> {
  if (isUuid(ref)) return { ref, id: ref.toLowerCase() };
  const page = await listEmployees(http, { employeeCode: ref, pageSize: 2 }, signal);
  const hits = page.data.filter((e) => idOf(e) !== undefined && isEmployee(e, { code: ref }));
  const ids = new Set(hits.map((e) => idOf(e)!.toLowerCase()));
  if (ids.size > 1) {
    throw new CliError(`${ids.size} employees have the code "${ref}"`, { code: 'AMBIGUOUS_EMPLOYEE', exitCode: ExitCode.FAILURE, hint: suggestion('Pass the employee id (a UUID) instead; list them with:', `partner employees list --employee-code ${q(ref)} --fields id,employeeCode,fullName`) });
  }
  const hit = hits[0];
  if (!hit) throw new EmployeeNotFoundError(ref, 'code', await caseTwin(http, ref, page.data, signal));
  const name = (hit as { fullName?: unknown }).fullName;
  // The id goes into every later path: a server that answers `..` must not make us ask for /v1/personal.
  const id = checkedEmployeeId(idOf(hit), `The employee list answer for the code "${ref}"`);
  return { ref, id, code: ref, name: typeof name === 'string' ? name : undefined };
}

/**
 * The one existing code that differs from `ref` only in case, if there is
 * exactly one: from the answer already at hand (a server that ignored the
 * filter), else from one look-up of the upper- and one of the lower-case
 * form. Only ever a suggestion: a code is never matched in another case.
 */
async function caseTwin(http: HttpClient, ref: string, seen: unknown[], signal?: AbortSignal): Promise<string | undefined> {
  const twins = (records: unknown[]) => [...new Set(records.map(codeOf).filter((c): c is string => c !== undefined && c !== ref && c.toLowerCase() === ref.toLowerCase()))];
  let found = twins(seen);
  for (const variant of [ref.toUpperCase(), ref.toLowerCase()]) {
    if (found.length > 0) break;
    if (variant === ref) continue;
    try {
      found = twins((await listEmployees(http, { employeeCode: variant, pageSize: 2 }, signal)).data);
    } catch (err) {
      if (signal?.aborted) throw err;
      return undefined; // only a suggestion: the not-found error stands
    }
  }
  return found.length === 1 ? found[0] : undefined;
}

/** A 404 on the first request about a resolved employee (an id naming nobody of this company) as the one not-found error. */
export function notFoundFor(err: unknown, employee: ResolvedEmployee): unknown {
  if (err instanceof ApiError && err.status === 404) return new EmployeeNotFoundError(employee.ref, isUuid(employee.ref) ? 'id' : 'code', undefined, err);
  return err;
}

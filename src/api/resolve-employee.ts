import { CliError, ExitCode } from '../errors.js';
import { isUuid } from '../options.js';
import { listEmployees } from './employees.js';
import type { HttpClient } from './http.js';
import type { Employee } from './types.js';

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
  ) {
    super(`No employee with ${kind} "${ref}" in your company`, {
      code: 'EMPLOYEE_NOT_FOUND',
      exitCode: ExitCode.NOT_FOUND,
      hint:
        kind === 'code'
          ? 'Check the code with `partner employees list --employee-code CODE`, or pass the employee id (a UUID).'
          : 'Check the id with `partner employees list --employee-id ID`; a token only sees the employees of its own company.',
    });
  }
}

/**
 * An employee id (UUID) is used as it is; anything else is an employee code,
 * looked up through the list endpoint's exact `employeeCode` filter. The
 * answer is matched again here, so a server that ignored the filter cannot
 * make us pick the wrong person.
 */
export async function resolveEmployee(http: HttpClient, ref: string, signal?: AbortSignal): Promise<ResolvedEmployee> {
  if (isUuid(ref)) return { ref, id: ref.toLowerCase() };
  const page = await listEmployees(http, { employeeCode: ref, pageSize: 2 }, signal);
  const hit = page.data.find((e: Partial<Employee> | null) => e !== null && typeof e === 'object' && typeof e.id === 'string' && (e.employeeCode === ref || e.employeeId === ref));
  if (!hit) throw new EmployeeNotFoundError(ref);
  const name = typeof hit.fullName === 'string' ? hit.fullName : undefined;
  return { ref, id: hit.id, code: typeof hit.employeeCode === 'string' ? hit.employeeCode : ref, name };
}

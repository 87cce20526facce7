// a tool error's hint names tools and arguments, not CLI flags.
import { describe, expect, it } from 'vitest';
import { CliError, InvalidValuesError, UsageError } from '../../../src/errors.js';
import { EmployeeNotFoundError } from '../../../src/api/resolve-employee.js';
import { withToolHint } from '../../../src/mcp/hints.js';

const hintOf = (err: unknown) => (err as CliError).hint;

describe('withToolHint', () => {
  it('invalid values: names the tool, values and form_schema with the entity; never a flag', () => {
    const err = withToolHint(new InvalidValuesError('2 values are missing', 'Fix the values in --from-file / --set', []), 'create_gp_employee', { entity: 'Acme GmbH' });
    expect(hintOf(err)).toBe('Fix the fields listed in details in values and call create_gp_employee again; form_schema with entity "Acme GmbH" lists every field, its kind, whether it is required and its choices. Nothing was sent.');
    const dyn = withToolHint(new InvalidValuesError('1 value is missing', undefined, []), 'submit_dynamic_details', { employee: 'ACME-1' });
    expect(hintOf(dyn)).toMatch(/^Fix the fields listed in details in values and call submit_dynamic_details again; form_schema \(with the entity of the employee\)/);
  });

  it('an employee not found or ambiguous: search_employees, list_employees and the employee argument', () => {
    expect(hintOf(withToolHint(new EmployeeNotFoundError('ACME-9'), 'get_profile', {}))).toMatch(/search_employees .* list_employees \(employeeCode\), then pass its id or code as employee\.$/);
    const ambiguous = new CliError('2 employees have the code "X"', { code: 'AMBIGUOUS_EMPLOYEE', exitCode: 1, hint: 'partner employees list --employee-code X' });
    expect(hintOf(withToolHint(ambiguous, 'get_profile', {}))).toMatch(/^Pass the employee id \(a UUID\)/);
  });

  it('a hint naming the flags of a tool\'s arguments is left out; hints about setting up the server stay', () => {
    const flagHint = withToolHint(new UsageError('bad', 'Use --employee-code for a code', 'X'), 'list_employees', {});
    expect(hintOf(flagHint)).toBeUndefined();
    const command = withToolHint(new UsageError('bad', 'See `partner gp schema --entity NAME`', 'X'), 'form_schema', {});
    expect(hintOf(command)).toBeUndefined();
    const auth = withToolHint(new CliError('not logged in', { code: 'NOT_AUTHENTICATED', exitCode: 3, hint: 'Run `partner auth login`, or set PARTNER_TOKEN.' }), 'list_employees', {});
    expect(hintOf(auth)).toBe('Run `partner auth login`, or set PARTNER_TOKEN.');
    const plain = new Error('boom');
    expect(withToolHint(plain, 'trackers', {})).toBe(plain);
  });
});

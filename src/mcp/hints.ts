// A failed tool call's hint speaks to an agent: it names the tools and
// arguments to use next, not the CLI flags and commands a person would type
// (the errors come from the same code as the commands', with their hints).
import { CliError } from '../errors.js';

const CLI_INPUT = /--(from-file|set|entity|employee-code|employee-id|fields|page|page-size|status|sort-by|sort-order|search|jq|resume|dry-run|all|limit|file)\b|`partner (gp|employees|profile|trackers|dynamic-details|webhook) /;

/** The hint for an error of `tool`, by error code; undefined keeps the error's own. */
function hintFor(err: CliError, tool: string, args: Record<string, unknown>): string | undefined {
  const entity = typeof args.entity === 'string' ? `entity "${args.entity.slice(0, 100)}"` : 'the entity';
  const fields = tool === 'submit_dynamic_details' ? 'form_schema (with the entity of the employee) lists the fields; only its dynamic-details sections are sent here' : `form_schema with ${entity} lists every field, its kind, whether it is required and its choices`;
  switch (err.code) {
    case 'FORM_INVALID':
      return `Fix the fields listed in details in values and call ${tool} again; ${fields}. Nothing was sent.`;
    case 'INVALID_VALUES_FILE':
      return `values is one object {section: {field: value}}; ${fields}.`;
    case 'NO_DYNAMIC_SECTIONS':
      return 'Call create_gp_employee with the whole form instead.';
    case 'EMPLOYEE_NOT_FOUND':
      return `Find the employee with search_employees (text: a name, e-mail or code) or list_employees (employeeCode), then pass its id or code as ${tool === 'get_profile' || tool === 'submit_dynamic_details' ? 'employee' : 'the argument'}.`;
    case 'AMBIGUOUS_EMPLOYEE':
      return 'Pass the employee id (a UUID) instead of the code; list_employees with employeeCode lists the employees with that code.';
    default:
      // A hint naming the flags or commands that stand for a tool's arguments is no use to an agent: left out.
      // Hints about the server's own setup (partner auth login, partner doctor, partner mcp --allow-write) stay: the person running it acts on them.
      return err.hint !== undefined && CLI_INPUT.test(err.hint) ? '' : undefined;
  }
}

/** Gives a tool's error the hint an agent can act on (in place; returns it). */
export function withToolHint(err: unknown, tool: string, args: Record<string, unknown>): unknown {
  if (!(err instanceof CliError)) return err;
  const hint = hintFor(err, tool, args);
  if (hint !== undefined) Object.defineProperty(err, 'hint', { value: hint || undefined, configurable: true, enumerable: true, writable: false });
  return err;
}

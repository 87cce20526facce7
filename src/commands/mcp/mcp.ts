// `partner mcp`: a Model Context Protocol server over stdio, for AI assistants
// and agents (run: ./mcp.run.ts; the tools: src/mcp/tools.ts).
import { defineCommand } from '../../command.js';
import { UsageError } from '../../errors.js';
import { bool, custom } from '../../flags.js';
import { READ_TOOL_NAMES, TOOL_NAMES, WRITE_TOOL_NAMES } from '../../mcp/describe.js';

/** --tools a,b: known tool names, each once. */
function toolList(raw: string, name: string): string[] {
  const names = [...new Set(raw.split(',').map((t) => t.trim()).filter((t) => t !== ''))];
  const listed = `Tools: ${READ_TOOL_NAMES.join(', ')}; with --allow-write also ${WRITE_TOOL_NAMES.join(', ')}.`;
  if (names.length === 0) throw new UsageError(`--${name} needs one or more tool names, separated by commas`, listed, 'INVALID_OPTION');
  const unknown = names.filter((t) => !(TOOL_NAMES as readonly string[]).includes(t));
  if (unknown.length) throw new UsageError(`--${name}: no tool named ${unknown.map((t) => `"${t.slice(0, 40)}"`).join(', ')}`, listed, 'INVALID_OPTION');
  return names;
}

export const mcp = defineCommand({
  name: 'mcp',
  summary: 'serve partner to AI assistants and agents over the Model Context Protocol (stdio)',
  flags: {
    allowWrite: bool('offer the write tools (create_gp_employee, submit_dynamic_details); each validates against the server\'s form and sends only when the call says confirm: true'),
    tools: custom('offer only these tools (comma-separated names, e.g. search_employees,get_profile)', 'names', toolList),
    reveal: bool('show bank account numbers and IBANs in full in profile results (default: masked to the last 4 characters), and secret form values in the bodies a write tool returns (default: ********)'),
  },
  refine: (o) => {
    const write = (o.tools ?? []).filter((t) => (WRITE_TOOL_NAMES as readonly string[]).includes(t));
    if (write.length && !o.allowWrite) throw new UsageError(`--tools names ${write.join(', ')}, which change data`, 'Add --allow-write to offer them.', 'INVALID_OPTION');
    return o;
  },
  details: `Speaks MCP (JSON-RPC over stdin/stdout) until stdin closes; nothing but the protocol is written to stdout, logs go to stderr.
Read-only tools: search_employees (every page searched on the client, case and accents ignored), list_employees (one page, at most 100), trackers (onboarding or offboarding), get_profile (sections of one employee by id or code; bank numbers masked unless --reveal), form_schema (the GP form of an entity, as its fields), verify_webhook (a JWS against the API's key set).
With --allow-write also: create_gp_employee (entity + form values) and submit_dynamic_details (employee + dynamic sections). Each validates the values against the server's form first and returns the validated request bodies without sending anything unless the call says confirm: true; the form's secret fields (tax ids, account numbers...) are shown as ******** unless --reveal.
--tools search_employees,get_profile offers only the tools named (an unknown name is a usage error listing them).
Each tool carries annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint: every tool calls the API) and an outputSchema; a result is its JSON document as text and as structuredContent (numbers longer than a double holds keep their digits in the text only). An error's hint names the tool and arguments to use next.
The global flags choose the API: partner --sandbox mcp needs no account; --profile NAME uses that profile's token, which never appears in a tool result, log or error. A failure is a tool error carrying partner's error document ({"error": {code, status, message, hint, exitCode, ...}}).
Client configuration (Claude Desktop, VS Code, Cursor...): {"mcpServers": {"partner": {"command": "partner", "args": ["mcp"]}}}; add "--sandbox" before "mcp" to try it.`,
  examples: ['partner --sandbox mcp   # an MCP client starts it and talks to it over stdin/stdout', 'partner mcp --reveal'],
  // Prompts or prints for as long as it runs: never through a pager.
  pager: false,
  load: () => import('./mcp.run.js'),
});

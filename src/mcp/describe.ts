// What an MCP client is told about each tool besides its input: annotations
// (read or write, destructive, idempotent, open world) and the JSON Schema of
// its result (`outputSchema`; the result is sent as `structuredContent` too).
// The schemas say what partner promises: a client validates every result
// against them, so fields the API may add are allowed (objects stay open).

/** Every tool partner mcp has: the read tools, then the write tools (offered with --allow-write). */
export const READ_TOOL_NAMES = ['search_employees', 'list_employees', 'trackers', 'get_profile', 'form_schema', 'verify_webhook'] as const;
export const WRITE_TOOL_NAMES = ['create_gp_employee', 'submit_dynamic_details'] as const;
export type ToolName = (typeof READ_TOOL_NAMES)[number] | (typeof WRITE_TOOL_NAMES)[number];
export const TOOL_NAMES: readonly ToolName[] = [...READ_TOOL_NAMES, ...WRITE_TOOL_NAMES];

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export type JsonSchemaObject = { type: 'object'; properties: Record<string, unknown>; required?: string[]; description?: string };

// Every tool calls the Partner API over the network: data other people change, so open world.
/** Reads only: calling it again changes nothing. */
export const read = (title: string): ToolAnnotations => ({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });

/** Changes data (when confirmed). `destructive`: may overwrite what is there; `idempotent`: the same call twice leaves what one leaves. */
export const write = (title: string, o: { destructive: boolean; idempotent: boolean }): ToolAnnotations => ({ title, readOnlyHint: false, destructiveHint: o.destructive, idempotentHint: o.idempotent, openWorldHint: true });

const object = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)): JsonSchemaObject => ({ type: 'object', properties, required });
const S = { type: 'string' };
const SN = { type: ['string', 'null'] };
const INT = { type: 'integer', minimum: 0 };
const BOOL = { type: 'boolean' };
const OBJ = { type: 'object' };
const list = (items: unknown) => ({ type: 'array', items });

const employee = { ...object({ id: S, employeeCode: SN, fullName: SN, status: S }, ['id']), description: 'an employee as the API lists it (more fields may follow)' };
const pagination = object({ currentPage: INT, pageSize: INT, totalPages: INT, totalItems: INT, hasNextPage: BOOL, hasPreviousPage: BOOL }, []);
const trackerEntry = object({ id: S, employeeCode: S, stage: S, pendingDocuments: list(S) }, ['id', 'stage']);
const outlineRow = object({ field: S, title: S, kind: S, required: S, details: S });

export const OUTPUT: Record<ToolName, JsonSchemaObject> = {
  search_employees: object({ searched: INT, matched: INT, truncated: BOOL, note: S, warnings: list(S), employees: list(employee) }),
  list_employees: object({ data: list(employee), pagination }),
  trackers: object({ kind: { type: 'string', enum: ['onboarding', 'offboarding'] }, employees: list(trackerEntry) }),
  get_profile: { ...object({ id: S, employeeCode: SN }), description: 'id, employeeCode, and one key per section asked for (its fields as the API gives them)' },
  form_schema: object({ entity: S, fields: list(outlineRow) }),
  verify_webhook: object(
    { valid: BOOL, reason: SN, message: SN, signatureValid: BOOL, kid: SN, alg: SN, header: { type: ['object', 'null'] }, payload: {}, eventType: SN, meaning: SN, timestamp: SN, subject: SN, status: SN, warnings: list(S), errors: list(S), retryAfterMs: { type: 'number', minimum: 0 } },
    ['valid', 'reason', 'message', 'signatureValid', 'warnings', 'errors'],
  ),
  create_gp_employee: object(
    { sent: BOOL, note: S, create: { ...OBJ, description: 'the validated POST body (dry run)' }, dynamicDetails: { type: ['object', 'null'], description: 'the validated PATCH body (dry run)' }, created: { ...OBJ, description: 'the API\'s answer to the POST' }, dynamicDetailsSubmitted: BOOL },
    ['sent'],
  ),
  submit_dynamic_details: object({ sent: BOOL, note: S, employeeId: S, employeeCode: SN, dynamicDetails: { ...OBJ, description: 'the validated PATCH body (dry run)' } }, ['sent', 'employeeId']),
};

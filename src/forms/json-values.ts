// The smallest pieces of reading a form: a JSON Schema object and the two
// checks every reader of one needs. Here, not in schema.ts, so that the
// field-list translation (which schema.ts loads) can use them without
// importing schema.ts back.
export type JsonSchema = Record<string, unknown>;

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A non-blank string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

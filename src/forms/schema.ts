// Loading a server form schema (json-schema-form dialect, draft 2020-12 or
// 07) into sections. Only what the engine needs is read; unknown keywords
// are carried along untouched and never rejected.
import { withExactNumbers } from '../json/lossless-number.js';
import { CliError, ExitCode } from '../errors.js';
import { isUnsafeKey, own } from '../safe-keys.js';
import { describeShape, FieldListError, isFieldList, translateFieldList } from './field-list.js';

import { isObj, str, type JsonSchema } from './json-values.js';

export { isObj, str, type JsonSchema } from './json-values.js';
export type Draft = '2020-12' | '07';

export interface Section {
  key: string;
  title: string;
  description?: string;
  /** Submitted later with PATCH …/dynamic-details. */
  dynamic: boolean;
  /** Listed in the root's `required`. */
  required: boolean;
  schema: JsonSchema;
}

export interface FormSchema {
  /** JSON Schema; for a field-definition list, its translation. */
  root: JsonSchema;
  draft: Draft;
  title?: string;
  sections: Section[];
  /** What the server sent: JSON Schema or a field-definition list (translated into `root`). */
  format: 'json-schema' | 'field-list';
  /** Parts of a field-definition list translated with a guess (unknown types…). */
  warnings: string[];
}

const FORMATS_HINT =
  'See the document with `partner gp schema --entity NAME -o json`. To onboard anyway, write the request bodies by hand: `partner gp create --entity NAME --body-file post.json`, then `partner dynamic-details submit EMPLOYEE --body-file patch.json`.';

/** The server's form document is in no format partner understands (exit 1). */
export class FormFormatError extends CliError {
  constructor(message: string) {
    super(message, { code: 'FORM_FORMAT', exitCode: ExitCode.FAILURE, hint: FORMATS_HINT });
  }
}

/** Draft 07 (and older) when `$schema` says so; 2020-12 otherwise (the convention's default). */
export function draftOf(root: JsonSchema): Draft {
  const s = typeof root.$schema === 'string' ? root.$schema : '';
  return /draft-0[4-7]/.test(s) ? '07' : '2020-12';
}

/** Follows local `$ref`s (`#/$defs/x`, `#/definitions/x`, any JSON pointer); sibling keywords win over the target's. */
export function resolveRef(root: JsonSchema, schema: unknown, depth = 0): unknown {
  if (!isObj(schema) || typeof schema.$ref !== 'string' || depth > 20) return schema;
  const target = pointer(root, schema.$ref);
  if (target === undefined) return schema;
  const { $ref: _ref, ...rest } = schema;
  const resolved = resolveRef(root, target, depth + 1);
  if (!isObj(resolved)) return Object.keys(rest).length ? rest : resolved;
  return { ...resolved, ...rest };
}

function pointer(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const parts = ref.slice(1).split('/').slice(1).map((p) => decodeURIComponent(p).replace(/~1/g, '/').replace(/~0/g, '~'));
  let cur: unknown = root;
  for (const p of parts) {
    if (isObj(cur)) cur = own(cur, p);
    else if (Array.isArray(cur) && /^\d+$/.test(p)) cur = cur[Number(p)];
    else return undefined;
  }
  return cur;
}

/** Keys in `x-jsf-order` first (those that exist), then the rest in property order. */
export function ordered(keys: string[], order: unknown): string[] {
  const first = Array.isArray(order) ? order.filter((k): k is string => typeof k === 'string' && keys.includes(k)) : [];
  const seen = new Set(first);
  return [...new Set(first), ...keys.filter((k) => !seen.has(k))];
}

export function presentation(schema: JsonSchema): Record<string, unknown> {
  return isObj(schema['x-jsf-presentation']) ? schema['x-jsf-presentation'] : {};
}

const truthy = (v: unknown) => v !== undefined && v !== null && v !== false && v !== 0 && v !== '' && v !== 'false';

/**
 * A secret field: any truthy `maskSecret` (servers send `true` or a number
 * such as 2) in its presentation or on the schema, `inputType: "password"`,
 * `format: "password"` or `writeOnly`. Field-list PASSWORD/SECRET types are
 * translated into these markers. Secrets are masked everywhere and never
 * stored in drafts.
 */
export function isSecretSchema(s: JsonSchema): boolean {
  const p = presentation(s);
  return truthy(p.maskSecret) || truthy(s.maskSecret) || s.writeOnly === true || s.format === 'password' || p.inputType === 'password';
}

/**
 * Reads a schema the server sent: JSON Schema, or a field-definition list
 * translated into JSON Schema first (field-list.ts). Sections are the
 * top-level properties; dynamic ones come from `x-dynamic-sections` and/or a
 * section's `x-submit: "dynamic-details"`.
 */
export function loadSchema(raw: unknown): FormSchema {
  refuseUnsafeNames(raw);
  // Its bounds, enums and defaults are computed with and sent: a number a double cannot hold is refused, never rounded.
  raw = withExactNumbers(raw, 'the form from the server');
  if (isFieldList(raw)) {
    let translated;
    try {
      translated = translateFieldList(raw);
    } catch (err) {
      if (err instanceof FieldListError) throw new FormFormatError(`The form from the server looks like a field-definition list, but ${err.message}`);
      throw err;
    }
    refuseUnsafeNames(translated.schema);
    return { ...fromJsonSchema(translated.schema), format: 'field-list', warnings: translated.warnings };
  }
  if (!isObj(raw) || !isObj(raw.properties)) {
    throw new FormFormatError(
      `The form from the server is neither JSON Schema (an object with top-level "properties", one per section) nor a field-definition list ("sections": [{key, fields: […]}] or "fields": […]); it is ${describeShape(raw)}`,
    );
  }
  return { ...fromJsonSchema(raw), format: 'json-schema', warnings: [] };
}

/**
 * A form that names a field `__proto__`, `constructor` or `prototype`, or
 * holds a `__proto__` key anywhere, is refused, naming it: those are
 * JavaScript's own members, never the API's fields, and answers built under
 * them would reach the prototype of partner's objects. Walks at most 64 levels.
 */
function refuseUnsafeNames(raw: unknown): void {
  const walk = (v: unknown, parentKey: string | undefined, fields: string[], room: number): void => {
    if (v === null || typeof v !== 'object' || room === 0) return;
    if (Array.isArray(v)) {
      for (const x of v) walk(x, undefined, fields, room - 1);
      return;
    }
    const inProperties = parentKey === 'properties';
    for (const key of Object.keys(v)) {
      const at = inProperties ? [...fields, key] : fields;
      if (key === '__proto__' || (inProperties && isUnsafeKey(key))) {
        throw new FormFormatError(`The form from the server has a ${inProperties ? 'field' : 'member'} named "${key}"${at.length ? ` (${at.join('.')})` : ''}; partner refuses that name: it is part of JavaScript's objects, not a field the API defines`);
      }
      walk((v as Record<string, unknown>)[key], key, at, room - 1);
    }
  };
  walk(raw, undefined, [], 64);
}

function fromJsonSchema(raw: JsonSchema): Omit<FormSchema, 'format' | 'warnings'> {
  const root = raw;
  const props = root.properties as Record<string, unknown>;
  const listed = Array.isArray(root['x-dynamic-sections']) ? (root['x-dynamic-sections'] as unknown[]).filter((s): s is string => typeof s === 'string') : [];
  const required = Array.isArray(root.required) ? (root.required as unknown[]).filter((s): s is string => typeof s === 'string') : [];
  const sections: Section[] = [];
  for (const key of ordered(Object.keys(props), root['x-jsf-order'])) {
    const s = resolveRef(root, props[key]);
    if (s === false) continue;
    const schema = isObj(s) ? s : {};
    if (schema.readOnly === true) continue;
    sections.push({
      key,
      title: str(schema.title) ?? key,
      description: str(schema.description),
      dynamic: listed.includes(key) || schema['x-submit'] === 'dynamic-details',
      required: required.includes(key),
      schema,
    });
  }
  return { root, draft: draftOf(root), title: str(root.title), sections };
}

export function sectionOf(form: FormSchema, key: string): Section | undefined {
  return form.sections.find((s) => s.key === key);
}

/**
 * The schemas that may describe the child `part` (a property name or an array
 * index) of any of `schemas`, through $ref, allOf/anyOf/oneOf and then/else.
 * Conditions are not evaluated: every branch that could apply is included.
 */
export function childSchemas(form: FormSchema, schemas: unknown[], part: string): unknown[] {
  const next: unknown[] = [];
  const index = /^\d+$/.test(part);
  const visit = (s: unknown, depth: number) => {
    const r = resolveRef(form.root, s);
    if (!isObj(r) || depth > 12) return;
    if (index && r.items !== undefined) next.push(r.items);
    if (isObj(r.properties) && Object.hasOwn(r.properties, part)) next.push(r.properties[part]);
    for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(r[k])) for (const x of r[k] as unknown[]) visit(x, depth + 1);
    for (const k of ['then', 'else']) if (r[k] !== undefined) visit(r[k], depth + 1);
  };
  for (const s of schemas) visit(s, 0);
  return next;
}

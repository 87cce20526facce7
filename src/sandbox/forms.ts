// Per-entity GP form schemas and validation of the POST / PATCH bodies built
// from them (ajv, draft 2020-12, all errors, compiled once per entity).
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ENTITY_FORMS, type EntityForm, type JsonSchema } from './schemas.js';

export type { JsonSchema } from './schemas.js';

export interface FieldError {
  /** dot path, e.g. `personal.dateOfBirth`; `body` for the body itself */
  field: string;
  message: string;
}

export type FormValidation =
  | { ok: true }
  | { ok: false; unknownEntity: boolean; details: FieldError[] };

// ajv and ajv-formats are CommonJS; their default export is the module object.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;

const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: false });
addFormats(ajv);

const byName = new Map<string, EntityForm>(ENTITY_FORMS.map((f) => [f.name, f]));
const createValidators = new Map<string, ValidateFunction>();
const dynamicValidators = new Map<string, ValidateFunction>();

/** Legal entities that have a GP form. */
export function listEntities(): { name: string; country: string; currency: string }[] {
  return ENTITY_FORMS.map(({ name, country, currency }) => ({ name, country, currency }));
}

/** The entity's form schema (a copy), or undefined for an unknown entity. */
export function getSchema(entity: string): JsonSchema | undefined {
  const form = byName.get(entity);
  return form ? structuredClone(form.schema) : undefined;
}

/** What GET …/dynamic-details/schema serves for the entity (a copy): its JSON Schema, or a field-definition list. */
export function getServedSchema(entity: string): unknown {
  const form = byName.get(entity);
  return form ? structuredClone(form.served ?? form.schema) : undefined;
}

/** Names of the sections submitted with PATCH …/dynamic-details. */
export function dynamicSections(schema: JsonSchema): string[] {
  const props = sectionsOf(schema);
  const listed = Array.isArray(schema['x-dynamic-sections']) ? (schema['x-dynamic-sections'] as unknown[]).filter((s): s is string => typeof s === 'string') : [];
  const marked = Object.entries(props)
    .filter(([, s]) => isObject(s) && s['x-submit'] === 'dynamic-details')
    .map(([k]) => k);
  return Object.keys(props).filter((k) => listed.includes(k) || marked.includes(k));
}

/** Names of the sections sent with POST /v1/employees/gp-employments. */
export function createSections(schema: JsonSchema): string[] {
  const dyn = dynamicSections(schema);
  return Object.keys(sectionsOf(schema)).filter((k) => !dyn.includes(k));
}

/** Validates a POST /v1/employees/gp-employments body `{entity, <section>: {…}}`. */
export function validateCreate(entity: string, body: unknown): FormValidation {
  const form = byName.get(entity);
  if (!form) return unknownEntity(entity);
  let validate = createValidators.get(entity);
  if (!validate) {
    validate = ajv.compile(restrict(form.schema, createSections(form.schema), 'create', entity));
    createValidators.set(entity, validate);
  }
  return run(validate, body);
}

/** Validates a PATCH …/dynamic-details body `{<dynamic section>: {…}}`. */
export function validateDynamic(entity: string, body: unknown): FormValidation {
  const form = byName.get(entity);
  if (!form) return unknownEntity(entity);
  let validate = dynamicValidators.get(entity);
  if (!validate) {
    validate = ajv.compile(restrict(form.schema, dynamicSections(form.schema), 'dynamic', entity));
    dynamicValidators.set(entity, validate);
  }
  return run(validate, body);
}

// ---- internals ----

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sectionsOf(schema: JsonSchema): Record<string, unknown> {
  return isObject(schema.properties) ? schema.properties : {};
}

function unknownEntity(entity: string): FormValidation {
  const known = ENTITY_FORMS.map((f) => f.name).join(', ');
  return { ok: false, unknownEntity: true, details: [{ field: 'entity', message: `unknown legal entity "${entity}"; known entities: ${known}` }] };
}

/** The schema cut down to some sections; unknown top-level members are refused. */
function restrict(schema: JsonSchema, sections: string[], mode: 'create' | 'dynamic', entity: string): JsonSchema {
  const props = sectionsOf(schema);
  const properties: Record<string, unknown> = {};
  for (const s of sections) properties[s] = props[s];
  const required = (Array.isArray(schema.required) ? (schema.required as unknown[]) : []).filter(
    (r): r is string => typeof r === 'string' && sections.includes(r),
  );
  const out: JsonSchema = { type: 'object', properties, additionalProperties: false };
  if (schema.$defs !== undefined) out.$defs = schema.$defs;
  if (mode === 'create') {
    properties.entity = { type: 'string', const: entity };
    out.required = ['entity', ...required];
  } else {
    out.minProperties = 1;
  }
  return out;
}

function run(validate: ValidateFunction, body: unknown): FormValidation {
  if (!isObject(body)) return { ok: false, unknownEntity: false, details: [{ field: 'body', message: 'must be a JSON object' }] };
  if (validate(body)) return { ok: true };
  return { ok: false, unknownEntity: false, details: toDetails(validate.errors ?? []) };
}

function pointerToDot(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function join(base: string, leaf: string): string {
  return base ? `${base}.${leaf}` : leaf;
}

const FORMAT_MESSAGES: Record<string, string> = {
  date: 'must be a date in the form YYYY-MM-DD',
  email: 'must be a valid e-mail address',
  'date-time': 'must be a date-time in ISO 8601 form',
  uri: 'must be a valid URI',
};

/** ajv errors -> readable `{field, message}` entries (deduplicated). */
export function toDetails(errors: ErrorObject[]): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  const add = (field: string, message: string) => {
    const f = field || 'body';
    const key = `${f}\u0000${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ field: f, message });
    }
  };
  for (const e of errors) {
    const path = pointerToDot(e.instancePath);
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
      case 'if':
        break; // the failing then/else branch reports the real problem
      case 'const':
        // a failed option of a oneOf/anyOf list is reported by the oneOf itself
        if (/\/(oneOf|anyOf)\/\d+\/const$/.test(e.schemaPath)) break;
        add(path, `must be ${JSON.stringify(params.allowedValue)}`);
        break;
      case 'required':
        add(join(path, String(params.missingProperty)), 'is required');
        break;
      case 'additionalProperties':
        add(join(path, String(params.additionalProperty)), 'is not an allowed field');
        break;
      case 'false schema':
        add(path, 'is not allowed here');
        break;
      case 'format':
        add(path, FORMAT_MESSAGES[String(params.format)] ?? `must be a valid ${String(params.format)}`);
        break;
      case 'pattern':
        add(path, `must match the pattern ${String(params.pattern)}`);
        break;
      case 'enum':
        add(path, `must be one of: ${(params.allowedValues as unknown[]).map((v) => String(v)).join(', ')}`);
        break;
      case 'oneOf':
      case 'anyOf': {
        const parent = e.parentSchema as Record<string, unknown> | undefined;
        const list = parent?.[e.keyword];
        if (Array.isArray(list) && list.every((o) => isObject(o) && 'const' in o)) {
          add(path, `must be one of: ${list.map((o) => String((o as Record<string, unknown>).const)).join(', ')}`);
        } else {
          add(path, e.message ?? 'is invalid');
        }
        break;
      }
      case 'minLength':
        add(path, params.limit === 1 ? 'must not be empty' : `must have at least ${String(params.limit)} characters`);
        break;
      case 'maxLength':
        add(path, `must have at most ${String(params.limit)} characters`);
        break;
      case 'minProperties':
        add(path, path ? (e.message ?? 'is invalid') : 'must contain at least one section');
        break;
      default:
        add(path, e.message ?? 'is invalid');
    }
  }
  return out;
}

import Ajv2020Module from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSections, dynamicSections, getSchema, listEntities, startSandbox, validateCreate, validateDynamic, type Sandbox } from '../../../src/sandbox/index.js';
import { call, deuBody, expectErrorShape, indBody } from './helpers.js';
import { FIELD_LIST_FORM } from '../../../src/sandbox/field-list-form.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox();
});
afterAll(async () => {
  await s.close();
});

const ENTITIES = ['Acme Deutschland GmbH', 'Acme India Pvt Ltd', 'Acme Sverige AB'];
/** The entities whose form is served as JSON Schema (Acme Sverige AB's is a field-definition list). */
const JSON_SCHEMA_ENTITIES = ENTITIES.slice(0, 2);
const schemaPath = (entity: string) => `/v1/employees/dynamic-details/schema?employmentType=GLOBAL_PAYROLL&entity=${encodeURIComponent(entity)}`;

/** every sub-schema, depth first */
function* walk(node: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(node)) for (const n of node) yield* walk(n);
  else if (node && typeof node === 'object') {
    yield node as Record<string, unknown>;
    for (const v of Object.values(node)) yield* walk(v);
  }
}

describe('forms module', () => {
  it('lists three entities in different countries', () => {
    const list = listEntities();
    expect(list.map((e) => e.name)).toEqual(ENTITIES);
    expect(new Set(list.map((e) => e.country)).size).toBe(3);
    expect(getSchema('Nope GmbH')).toBeUndefined();
  });

  it('splits sections into create and dynamic ones', () => {
    const schema = getSchema(ENTITIES[0]!)!;
    expect(dynamicSections(schema)).toEqual(['legal', 'customFields']);
    expect(createSections(schema)).toEqual(['personal', 'contact', 'address', 'employment', 'compensation', 'bank']);
  });

  it('reports unknown entities', () => {
    const r = validateCreate('Nope GmbH', {});
    expect(r).toMatchObject({ ok: false, unknownEntity: true });
    expect(validateDynamic('Nope GmbH', {})).toMatchObject({ ok: false, unknownEntity: true });
  });

  it.each(JSON_SCHEMA_ENTITIES)('the schema of %s is valid draft 2020-12 and uses the dialect', (entity) => {
    const schema = getSchema(entity)!;
    const ajv = new Ajv2020Module.default({ strict: false });
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema['x-dynamic-sections']).toEqual(['legal', 'customFields']);
    const nodes = [...walk(schema)];
    const has = (pred: (n: Record<string, unknown>) => boolean) => nodes.some(pred);
    expect(has((n) => Array.isArray(n['x-jsf-order']))).toBe(true);
    expect(has((n) => n.format === 'email')).toBe(true);
    expect(has((n) => n.format === 'date')).toBe(true);
    expect(has((n) => Array.isArray(n.enum))).toBe(true);
    expect(has((n) => Array.isArray(n.oneOf) && (n.oneOf as Record<string, unknown>[]).every((o) => 'const' in o && 'title' in o))).toBe(true);
    expect(has((n) => typeof n.pattern === 'string')).toBe(true);
    expect(has((n) => typeof n.minimum === 'number' && typeof n.maximum === 'number')).toBe(true);
    expect(has((n) => 'if' in n && 'then' in n && 'else' in n)).toBe(true);
    expect(has((n) => Array.isArray(n.allOf) && (n.allOf as Record<string, unknown>[]).some((x) => 'if' in x))).toBe(true);
    expect(has((n) => n.type === 'boolean')).toBe(true);
    expect(has((n) => (n['x-jsf-presentation'] as Record<string, unknown> | undefined)?.maskSecret === true || n.writeOnly === true)).toBe(true);
    expect(has((n) => n.type === 'array' && (n['x-jsf-presentation'] as Record<string, unknown> | undefined)?.inputType === 'group-array')).toBe(true);
    expect(has((n) => typeof n.title === 'string' && typeof n.description === 'string')).toBe(true);
  });

  it('getSchema returns a copy', () => {
    const a = getSchema(ENTITIES[0]!)!;
    a.title = 'changed';
    expect(getSchema(ENTITIES[0]!)!.title).not.toBe('changed');
  });

  it('accepts the sample bodies', () => {
    expect(validateCreate(ENTITIES[0]!, deuBody())).toEqual({ ok: true });
    expect(validateCreate(ENTITIES[1]!, indBody())).toEqual({ ok: true });
  });
});

describe('GET /v1/employees/dynamic-details/schema', () => {
  it.each(JSON_SCHEMA_ENTITIES)('returns the schema of %s', async (entity) => {
    const r = await call(s, schemaPath(entity));
    expect(r.status).toBe(200);
    expect(r.body).toEqual(getSchema(entity));
    expect(r.body['x-entity']).toBe(entity);
  });

  it('serves Acme Sverige AB\'s form as a field-definition list, and validates bodies with its own JSON Schema', async () => {
    const r = await call(s, schemaPath('Acme Sverige AB'));
    expect(r.status).toBe(200);
    expect(r.body).toEqual(FIELD_LIST_FORM);
    expect(r.body.properties).toBeUndefined();
    expect(new Ajv2020Module.default({ strict: false }).validateSchema(getSchema('Acme Sverige AB')!)).toBe(true);
    expect(validateDynamic('Acme Sverige AB', { tax: { personnummer: '1', taxTable: 30 } })).toMatchObject({ ok: false, details: [{ field: 'tax.personnummer' }] });
  });

  it('employmentType is required and must be known', async () => {
    let b = expectErrorShape(await call(s, '/v1/employees/dynamic-details/schema?entity=Acme%20India%20Pvt%20Ltd'), 422, 'VALIDATION_ERROR');
    expect(b.error.details[0].field).toBe('employmentType');
    b = expectErrorShape(await call(s, '/v1/employees/dynamic-details/schema?employmentType=EOR&entity=Acme%20India%20Pvt%20Ltd'), 422, 'VALIDATION_ERROR');
    expect(b.error.details[0]).toEqual({ field: 'employmentType', message: 'must be one of: GLOBAL_PAYROLL' });
  });

  it('entity is required for GLOBAL_PAYROLL; an unknown one is named with the known ones', async () => {
    let b = expectErrorShape(await call(s, '/v1/employees/dynamic-details/schema?employmentType=GLOBAL_PAYROLL'), 422, 'VALIDATION_ERROR');
    expect(b.error.details[0].field).toBe('entity');
    b = expectErrorShape(await call(s, schemaPath('Initech LLC')), 422, 'VALIDATION_ERROR');
    expect(b.error.details[0].field).toBe('entity');
    expect(b.error.details[0].message).toContain('Initech LLC');
    expect(b.error.details[0].message).toContain('Acme Deutschland GmbH');
  });
});

// nothing a server, a values file, a spreadsheet or an MCP
// client names can change partner's own objects. Every place that builds
// objects from such keys is fed `__proto__`, `constructor` and `prototype`
// (as JSON.parse makes them: own keys), and Object.prototype must be exactly
// as it was; inputs that name them are refused with the name in the message.
import { afterEach, describe, expect, it } from 'vitest';
import { getAt, setAt } from '../../src/forms/paths.js';
import { childSchemas, loadSchema } from '../../src/forms/schema.js';
import { merge } from '../../src/forms/questions.js';
import { applySets, mergeValues, parseSetFlag, parseValuesText, schemasAt } from '../../src/forms/values.js';
import { compact, requestDoc } from '../../src/forms/answers.js';
import { validateDoc } from '../../src/forms/validate.js';
import { allFields } from '../../src/forms/questions.js';
import { sheetOf } from '../../src/forms/bulk/read.js';
import { flatten, getPath, pickFields } from '../../src/output/fields.js';
import { humanLabel } from '../../src/output/key-value.js';
import { apiErrorFrom } from '../../src/api/errors.js';
import { callTool } from '../../src/mcp/tools.js';
import { own, put, unsafeKeyPath } from '../../src/safe-keys.js';
import { CliError } from '../../src/errors.js';

const NAMES = ['__proto__', 'constructor', 'prototype'] as const;
const BEFORE = Object.getOwnPropertyNames(Object.prototype).sort();
/** A payload that would mark Object.prototype if a walk reached it. */
const payload = (name: string) => JSON.parse(`{"${name}": {"polluted": "yes", "toString": "no"}}`) as Record<string, unknown>;

function untouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(BEFORE);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(typeof {}.toString).toBe('function');
}

afterEach(untouched);

/** The error a call throws (the test fails if it does not throw a CliError). */
function thrown(f: () => unknown): CliError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(CliError);
    return err as CliError;
  }
  throw new Error('expected an error');
}

const FORM = {
  type: 'object',
  properties: { personal: { type: 'object', properties: { firstName: { type: 'string' }, note: { type: 'object' } }, required: ['firstName'] } },
  required: ['personal'],
};

describe.each(NAMES)('the key %s', (name) => {
  it('dot paths: setAt writes an own property, getAt reads only own properties', () => {
    const doc: Record<string, unknown> = {};
    setAt(doc, [name, 'polluted'], 'yes');
    setAt(doc, ['personal', name, 'polluted'], 'yes');
    expect(Object.hasOwn(doc, name)).toBe(true);
    expect(getAt(doc, [name, 'polluted'])).toBe('yes');
    expect(getAt({}, [name])).toBeUndefined();
    expect(getAt({ a: {} }, ['a', name, 'polluted'])).toBeUndefined();
    setAt(doc, [name], undefined);
    expect(Object.hasOwn(doc, name)).toBe(false);
    setAt({}, [name], undefined);
  });

  it('values merged from files and drafts keep the key as data, never as a prototype', () => {
    const merged = mergeValues({ personal: {} }, { personal: payload(name) });
    expect(Object.getPrototypeOf(merged.personal)).toBe(Object.prototype);
    expect(Object.keys(merged.personal as object)).toEqual([name]);
    const top = mergeValues({}, payload(name));
    expect(Object.getPrototypeOf(top)).toBe(Object.prototype);
    expect(JSON.stringify(top)).toBe(JSON.stringify(payload(name)));
  });

  it('compact (what a request carries) keeps the key as data', () => {
    const c = compact({ s: payload(name) }) as Record<string, Record<string, unknown>>;
    expect(Object.getPrototypeOf(c.s)).toBe(Object.prototype);
    expect(Object.keys(c.s)).toEqual([name]);
  });

  it('a form schema with a field of that name is refused, naming it', () => {
    const raw = JSON.parse(JSON.stringify(FORM)) as { properties: { personal: { properties: Record<string, unknown> } } };
    raw.properties.personal.properties = { ...raw.properties.personal.properties, ...payload(name) };
    const err = thrown(() => loadSchema(raw));
    expect(err.code).toBe('FORM_FORMAT');
    expect(err.message).toContain(`"${name}" (personal.${name})`);
    // A section of that name, too.
    expect(thrown(() => loadSchema({ type: 'object', properties: payload(name) })).message).toContain(`"${name}"`);
  });

  it('a field-definition list with a field or section of that name is refused, naming it', () => {
    const fields = { sections: [{ key: 'personal', fields: [{ key: 'firstName', type: 'TEXT' }, { key: name, type: 'TEXT' }] }] };
    expect(thrown(() => loadSchema(fields)).message).toContain(`personal.${name}`);
    const sections = { sections: [{ key: name, fields: [{ key: 'a', type: 'TEXT' }] }] };
    expect(thrown(() => loadSchema(sections)).message).toContain(`"${name}"`);
  });

  it('a schema is only looked up through its own properties', () => {
    const form = loadSchema(FORM);
    expect(childSchemas(form, [form.root], name)).toEqual([]);
    expect(schemasAt(form, ['personal', name])).toEqual([]);
    expect(schemasAt(form, [name, 'polluted'])).toEqual([]);
    // An answers document with the key: not a section, and no field reads an inherited value.
    const doc = { personal: { firstName: 'Ada' }, ...payload(name) };
    expect(validateDoc(form, doc).map((i) => i.path)).toContain(name);
    expect(allFields(form, { personal: {} }).map((f) => f.id)).toEqual(['personal.firstName', 'personal.note']);
    expect(requestDoc(form, { personal: { firstName: 'Ada' } })).toEqual({ personal: { firstName: 'Ada' } });
  });

  it('merging schema keywords keeps the key as data', () => {
    const form = loadSchema(FORM);
    const merged = merge(form, [{ type: 'string' }, payload(name)]);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(merged.type).toBe('string');
    expect(Object.keys(merged)).toEqual(['type', name]);
  });

  it('a values file, --set and a spreadsheet header naming it are refused before anything is built', () => {
    const file = thrown(() => parseValuesText(JSON.stringify({ personal: payload(name) }).replace('"personal"', '"personal"'), 'values.json'));
    expect(file.code).toBe('INVALID_VALUES_FILE');
    expect(file.message).toContain(`"personal.${name}"`);
    const set = thrown(() => parseSetFlag(`personal.${name}.polluted=yes`));
    expect(set.code).toBe('INVALID_OPTION');
    expect(set.exitCode).toBe(2);
  });

  it('a spreadsheet header naming it is refused', async () => {
    await expect(sheetOf(`personal.firstName,personal.${name}.polluted\nAda,yes\n`, 'sheet.csv')).rejects.toMatchObject({ code: 'INVALID_CSV', message: expect.stringContaining(`personal.${name}.polluted`) });
  });

  it('--set pairs applied to a form (coming from elsewhere than the flag) stay data', () => {
    const form = loadSchema(FORM);
    const doc: Record<string, unknown> = {};
    applySets(form, doc, [{ path: [name, 'polluted'], text: 'yes', raw: '' }]);
    expect(Object.hasOwn(doc, name)).toBe(true);
  });

  it('answers shown with --fields, flattened for CSV or labelled read only own properties', () => {
    const answer = { id: 'x', ...payload(name) };
    expect(flatten(answer)).toEqual({ id: 'x', [`${name}.polluted`]: 'yes', [`${name}.toString`]: 'no' });
    expect(getPath({ id: 'x' }, name)).toBeUndefined();
    expect(getPath(answer, `${name}.polluted`)).toBe('yes');
    const picked = pickFields(answer, [`${name}.polluted`, 'id']);
    expect(JSON.stringify(picked)).toBe(JSON.stringify({ [name]: { polluted: 'yes' }, id: 'x' }));
    expect(pickFields({ id: 'x' }, [`${name}.polluted`])[name]).toEqual({ polluted: null });
    expect(flatten(JSON.parse(`{"${name}": {}}`))).toEqual(JSON.parse(`{"${name}": {}}`));
    expect(humanLabel(name)).toEqual(expect.any(String));
  });

  it('an error body with the key is read as data', () => {
    const err = apiErrorFrom(409, JSON.stringify({ ...payload(name), message: 'exists' }), {}, '/v1/x');
    expect(err.message).toBe('exists');
    expect(err.details).toEqual([]);
  });

  it('an MCP call naming it as an argument or in its values is refused', async () => {
    const env = { ctx: {} as never, http: () => Promise.reject(new Error('no request expected')), reveal: false, signal: new AbortController().signal, allowWrite: true };
    await expect(callTool('list_employees', payload(name), env)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(callTool('create_gp_employee', { entity: 'E', values: { personal: payload(name) } }, env)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(`personal.${name}`) });
  });
});

describe('safe-keys', () => {
  it('own reads only own properties; put defines one even for __proto__', () => {
    expect(own({}, 'constructor')).toBeUndefined();
    expect(own({ a: 1 }, 'a')).toBe(1);
    const o: Record<string, unknown> = {};
    put(o, '__proto__', { polluted: 'yes' });
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(['__proto__']);
  });

  it('unsafeKeyPath names the first unsafe key, through arrays, within its depth', () => {
    expect(unsafeKeyPath({ a: [{ b: 1 }, JSON.parse('{"__proto__": 1}')] })).toBe('a.1.__proto__');
    expect(unsafeKeyPath({ a: { prototype: 1 } })).toBe('a.prototype');
    expect(unsafeKeyPath({ a: { b: 'constructor' } })).toBeUndefined();
    expect(unsafeKeyPath({ a: { b: { constructor: 1 } } }, 2)).toBeUndefined();
    expect(unsafeKeyPath({ a: { b: { constructor: 1 } } }, 3)).toBe('a.b.constructor');
  });
});

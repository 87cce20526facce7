// The exact JSON Schema a field-definition list becomes (the README's mapping
// table, member by member), and the words of describeShape.
import { describe, expect, it } from 'vitest';
import { describeShape, translateFieldList } from '../../../src/forms/field-list.js';

describe('translateFieldList', () => {
  it('maps every type, option form and validation member exactly', () => {
    const t = translateFieldList({
      title: 'T',
      label: 'ignored when a title exists',
      description: 'D',
      sections: [
        {
          key: 'a',
          title: 'Section A',
          label: 'Label A wins',
          description: 'About A',
          required: true,
          fields: [
            { key: 'text', label: 'Text', title: 'not used', type: 'TEXT', validation: { pattern: '^x', minLength: 2, maxLength: 9 }, description: 'help' },
            { key: 'short', type: 'TEXT', validation: { min: 1, max: 3 }, helpText: 'ht' },
            { key: 'area', type: 'TEXTAREA', hint: 'h' },
            { key: 'phone', type: 'PHONE', placeholder: 'ph', pattern: '^\\+' },
            { key: 'num', type: 'NUMBER', validation: { min: 0.5, max: 9.5, minLength: 3 } },
            { key: 'int', type: 'INTEGER', validation: { min: 'x', max: Infinity }, defaultValue: 3 },
            { key: 'date', type: 'DATE', validation: { minLength: 10 } },
            { key: 'mail', type: 'EMAIL', defaultValue: null },
            { key: 'flag', type: 'BOOLEAN', defaultValue: false },
            { key: 'pick', type: 'SELECT', options: [{ value: 'A', label: 'Alpha' }, { key: 'B', title: 'Beta' }, { id: 'C' }, 'D', { label: 'no value' }] },
            { key: 'nums', type: 'SELECT', allowedValues: [1, 2.5, null, { x: 1 }] },
            { key: 'ints', type: 'TEXT', allowedValues: [1, 2], validation: { minLength: 1 } },
            { key: 'many', type: 'MULTI_SELECT', allowedValues: ['x', 'y'], validation: { min: 1, max: 2 } },
            { key: 'free', type: 'MULTI_SELECT' },
            { key: 'pw', type: 'PASSWORD', validation: { pattern: '^[0-9]{4}$' } },
            { key: 'sec', type: 'SECRET', readOnly: true },
            { key: 'masked', type: 'TEXT', maskSecret: 2 },
            { key: 'plain', type: 'TEXT', maskSecret: 0 },
            { key: 'odd', type: 42 },
          ],
        },
        { key: 'b', dynamic: true, fields: [] },
        { name: 'c', 'x-submit': 'dynamic-details', fields: [{ name: 'x', type: 'text', required: true }] },
        { id: 'd', fields: [] },
      ],
    });
    expect(t.warnings).toEqual(['a.free: a MULTI_SELECT without allowedValues or options; asked as a comma-separated list']);
    expect(t.schema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      'x-form-format': 'field-list',
      title: 'T',
      description: 'D',
      'x-dynamic-sections': ['b', 'c'],
      'x-jsf-order': ['a', 'b', 'c', 'd'],
      required: ['a', 'c'],
      properties: {
        a: {
          type: 'object',
          title: 'Label A wins',
          description: 'About A',
          additionalProperties: false,
          'x-jsf-order': ['text', 'short', 'area', 'phone', 'num', 'int', 'date', 'mail', 'flag', 'pick', 'nums', 'ints', 'many', 'free', 'pw', 'sec', 'masked', 'plain', 'odd'],
          properties: {
            text: { type: 'string', title: 'Text', description: 'help', 'x-jsf-presentation': { inputType: 'text' }, pattern: '^x', minLength: 2, maxLength: 9 },
            short: { type: 'string', description: 'ht', 'x-jsf-presentation': { inputType: 'text' }, minLength: 1, maxLength: 3 },
            area: { type: 'string', description: 'h', 'x-jsf-presentation': { inputType: 'textarea' } },
            phone: { type: 'string', description: 'ph', 'x-jsf-presentation': { inputType: 'tel' }, pattern: '^\\+' },
            num: { type: 'number', 'x-jsf-presentation': { inputType: 'number' }, minimum: 0.5, maximum: 9.5 },
            int: { type: 'integer', 'x-jsf-presentation': { inputType: 'number' }, default: 3 },
            date: { type: 'string', format: 'date', 'x-jsf-presentation': { inputType: 'date' }, minLength: 10 },
            mail: { type: 'string', format: 'email', 'x-jsf-presentation': { inputType: 'email' } },
            flag: { type: 'boolean', 'x-jsf-presentation': { inputType: 'checkbox' }, default: false },
            pick: { type: 'string', 'x-jsf-presentation': { inputType: 'select' }, oneOf: [{ const: 'A', title: 'Alpha' }, { const: 'B', title: 'Beta' }, { const: 'C', title: 'C' }, { const: 'D', title: 'D' }] },
            nums: { type: 'number', 'x-jsf-presentation': { inputType: 'select' }, oneOf: [{ const: 1, title: '1' }, { const: 2.5, title: '2.5' }] },
            ints: { type: 'integer', 'x-jsf-presentation': { inputType: 'select' }, oneOf: [{ const: 1, title: '1' }, { const: 2, title: '2' }] },
            many: { type: 'array', uniqueItems: true, items: { type: 'string', oneOf: [{ const: 'x', title: 'x' }, { const: 'y', title: 'y' }] }, 'x-jsf-presentation': { inputType: 'checkbox' }, minItems: 1, maxItems: 2 },
            free: { type: 'array', uniqueItems: true, items: { type: 'string' }, 'x-jsf-presentation': { inputType: 'checkbox' } },
            pw: { type: 'string', 'x-jsf-presentation': { inputType: 'password', maskSecret: true }, pattern: '^[0-9]{4}$' },
            sec: { type: 'string', 'x-jsf-presentation': { inputType: 'password', maskSecret: true }, readOnly: true },
            masked: { type: 'string', 'x-jsf-presentation': { inputType: 'text', maskSecret: 2 } },
            plain: { type: 'string', 'x-jsf-presentation': { inputType: 'text' } },
            odd: { type: 'string', 'x-jsf-presentation': { inputType: 'text' } },
          },
        },
        b: { type: 'object', additionalProperties: false, 'x-jsf-order': [], properties: {} },
        c: { type: 'object', additionalProperties: false, 'x-jsf-order': ['x'], properties: { x: { type: 'string', 'x-jsf-presentation': { inputType: 'text' } } }, required: ['x'] },
        d: { type: 'object', additionalProperties: false, 'x-jsf-order': [], properties: {} },
      },
    });
  });

  it('a condition: declared only in its branch, forbidden otherwise, known to additionalProperties through patternProperties', () => {
    const t = translateFieldList({
      sections: [
        {
          key: 's',
          fields: [
            { key: 'kind', type: 'SELECT', allowedValues: ['A', 'B'] },
            { key: 'x.y', type: 'TEXT', required: true, dependsOn: { field: 'kind', equals: 'A' } },
            { key: 'z', type: 'INTEGER', visibleWhen: { field: 's.kind', in: ['A', 'B'] } },
          ],
        },
      ],
    });
    const s = (t.schema.properties as Record<string, Record<string, unknown>>).s;
    expect(s.properties).toEqual({ kind: { type: 'string', 'x-jsf-presentation': { inputType: 'select' }, oneOf: [{ const: 'A', title: 'A' }, { const: 'B', title: 'B' }] } });
    expect(s.patternProperties).toEqual({ '^(x\\.y|z)$': true });
    expect(s.allOf).toEqual([
      { if: { properties: { kind: { const: 'A' } }, required: ['kind'] }, then: { properties: { 'x.y': { type: 'string', 'x-jsf-presentation': { inputType: 'text' } } }, required: ['x.y'] }, else: { properties: { 'x.y': false } } },
      { if: { properties: { kind: { enum: ['A', 'B'] } }, required: ['kind'] }, then: { properties: { z: { type: 'integer', 'x-jsf-presentation': { inputType: 'number' } } } }, else: { properties: { z: false } } },
    ]);
    expect(s.required).toBeUndefined();
    expect(t.schema.required).toEqual([]);
    expect(t.warnings).toEqual([]);
  });

  it('errors name the broken part', () => {
    expect(() => translateFieldList({ sections: [1] })).toThrow('every entry of "sections" must be an object {key, label, fields: […]}');
    expect(() => translateFieldList({ sections: [{ key: 'a', fields: [] }, { key: 'a', fields: [] }] })).toThrow('two sections have the key "a"');
    expect(() => translateFieldList({ fields: [null] })).toThrow('field 1 is not an object');
    expect(() => translateFieldList({ fields: [{}, { type: 'TEXT' }] })).toThrow('field 1 has no "key" (or "name")');
    expect(() => translateFieldList({ sections: [{ key: 's', fields: [{ key: 'a' }, 'b'] }] })).toThrow('field 2 of section "s" is not an object');
    expect(() => translateFieldList({ fields: [{ key: 'a' }, { key: 'a' }] })).toThrow('two fields are called "a"');
  });
});

describe('describeShape', () => {
  it('says what the document is', () => {
    expect(describeShape(null)).toBe('null');
    expect(describeShape('x')).toBe('a JSON string');
    expect(describeShape(3)).toBe('a JSON number');
    expect(describeShape([])).toBe('a JSON array of 0');
    expect(describeShape({})).toBe('an empty object');
    expect(describeShape({ a: 1, b: 2 })).toBe('an object with "a", "b"');
    const nine = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`k${i}`, i]));
    expect(describeShape(nine)).toBe('an object with "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", …');
    const eight = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i]));
    expect(describeShape(eight)).toBe('an object with "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"');
    expect(describeShape({ ['x'.repeat(50)]: 1 })).toBe(`an object with "${'x'.repeat(40)}"`);
  });
});

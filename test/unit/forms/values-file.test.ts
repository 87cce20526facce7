// what a values file (--from-file, MCP values) may hold
// besides plain values: choices by title, and placeholders of a skeleton
// (`gp template --values`) left unfilled.
import { describe, expect, it } from 'vitest';
import { loadSchema } from '../../../src/forms/schema.js';
import { choicesByTitle, dropPlaceholders, placeholder, toValue } from '../../../src/forms/values.js';
import { valuesSkeleton } from '../../../src/commands/gp/template-values.js';

const form = loadSchema({
  type: 'object',
  required: ['s'],
  properties: {
    s: {
      type: 'object',
      required: ['tax'],
      properties: {
        tax: { type: 'integer', title: 'Tax class', oneOf: [{ const: 1, title: 'I — single' }, { const: 2, title: 'II — single parent' }, { const: 3, title: 'III — married' }] },
        pick: { type: 'string', oneOf: [{ const: 'FT', title: 'Full time' }, { const: 'PT', title: 'Part time' }] },
        dash: { type: 'string', oneOf: [{ const: 'A', title: 'X - one' }, { const: 'B', title: 'X - two' }] },
        rows: { type: 'array', title: 'Rows', items: { type: 'object', required: ['kind'], properties: { kind: { type: 'string', oneOf: [{ const: 'K1', title: 'Kind one' }] }, note: { type: 'string' } } } },
        text: { type: 'string', title: 'Text' },
      },
    },
  },
});

describe('choicesByTitle', () => {
  it('a choice by title, or by the head of its title, becomes its value', () => {
    const doc: Record<string, unknown> = { s: { tax: 'I', pick: 'part time', rows: [{ kind: 'Kind one' }] } };
    choicesByTitle(form, doc);
    expect(doc).toEqual({ s: { tax: 1, pick: 'PT', rows: [{ kind: 'K1' }] } });
    const full: Record<string, unknown> = { s: { tax: 'III — married' } };
    choicesByTitle(form, full);
    expect(full).toEqual({ s: { tax: 3 } });
  });

  it('values, unknown words, non-choice fields and an ambiguous title head are left for validation', () => {
    const doc: Record<string, unknown> = { s: { tax: 2, pick: 'FT', dash: 'X', text: 'Full time', other: 'I' }, nope: { tax: 'I' } };
    const before = structuredClone(doc);
    choicesByTitle(form, doc);
    expect(doc).toEqual(before);
    const unknown: Record<string, unknown> = { s: { tax: 'VII' } };
    choicesByTitle(form, unknown);
    expect(unknown).toEqual({ s: { tax: 'VII' } });
  });

  it('--set and CSV take the title head as well (one conversion for all)', () => {
    const s = (form.root.properties as Record<string, { properties: Record<string, unknown> }>).s.properties.tax as Record<string, unknown>;
    expect(toValue(form, s, 'II')).toEqual({ ok: true, value: 2 });
    expect(toValue(form, s, 'ii')).toEqual({ ok: true, value: 2 });
  });
});

describe('dropPlaceholders', () => {
  it('placeholders left in are fields not given; a list entry, object or section of placeholders only goes too', () => {
    const doc: Record<string, unknown> = { entity: 'E', s: { tax: placeholder('Tax class: required'), text: 'kept', rows: [{ kind: placeholder('k'), note: placeholder('n') }] }, t: { a: placeholder('a') } };
    expect(dropPlaceholders(doc)).toEqual(['s.tax', 's.rows.0.kind', 's.rows.0.note', 't.a']);
    expect(doc).toEqual({ entity: 'E', s: { text: 'kept' } });
  });

  it('a partly filled entry keeps what was filled; values that merely look alike are kept', () => {
    const doc: Record<string, unknown> = { s: { rows: [{ kind: 'K1', note: placeholder('n') }], text: '<fill in: no end', other: 'fill in: x>', empty: [], zero: 0, nil: null } };
    expect(dropPlaceholders(doc)).toEqual(['s.rows.0.note']);
    expect(doc).toEqual({ s: { rows: [{ kind: 'K1' }], text: '<fill in: no end', other: 'fill in: x>', empty: [], zero: 0, nil: null } });
  });
});

describe('valuesSkeleton', () => {
  it('every field at its place, a placeholder saying required or not, kind and choices; a group holds one entry', () => {
    const doc = valuesSkeleton(form, 'Acme') as { entity: string; s: Record<string, unknown> };
    expect(doc.entity).toBe('Acme');
    expect(Object.keys(doc.s)).toEqual(['tax', 'pick', 'dash', 'rows', 'text']);
    expect(doc.s.tax).toBe(placeholder('Tax class: required; select; one of: 1 (I — single), 2 (II — single parent), 3 (III — married)'));
    expect(doc.s.text).toBe(placeholder('Text: optional; text; a string'));
    expect(doc.s.rows).toEqual([{ kind: placeholder('kind: required; select; one of: K1 (Kind one)'), note: placeholder('note: optional; text; a string') }]);
  });

  it('unfilled, it drops to nothing but the entity; filled, it is the values', () => {
    const empty = valuesSkeleton(form, 'Acme');
    dropPlaceholders(empty);
    expect(empty).toEqual({ entity: 'Acme' });
    const filled = valuesSkeleton(form, 'Acme') as { s: Record<string, unknown> };
    filled.s.tax = 'I';
    dropPlaceholders(filled);
    choicesByTitle(form, filled);
    expect(filled).toEqual({ entity: 'Acme', s: { tax: 1 } });
  });
});

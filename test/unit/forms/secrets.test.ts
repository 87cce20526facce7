// Secret fields: any truthy maskSecret (the reference forms send 2),
// inputType/format password, writeOnly; masked on review and in the schema
// outline; never kept in drafts (asked again on resume).
import { describe, expect, it } from 'vitest';
import { isSecretSchema, loadSchema } from '../../../src/forms/schema.js';
import { allFields, kindOf } from '../../../src/forms/questions.js';
import { maskedNote, maskSecrets, secretsResumeNote, withoutSecrets } from '../../../src/forms/secrets.js';
import { displayValue } from '../../../src/forms/display.js';
import type { Wizard } from '../../../src/forms/wizard.js';
import { reviewText } from '../../../src/forms/review.js';
import { outline } from '../../../src/forms/outline.js';
import { colors } from '../../../src/output/colors.js';
import { getSchema } from '../../../src/sandbox/forms.js';

const form = loadSchema({
  type: 'object',
  required: ['id'],
  properties: {
    id: {
      type: 'object',
      title: 'Identity',
      properties: {
        nationalId: { type: 'string', title: 'National id', 'x-jsf-presentation': { inputType: 'text', maskSecret: 2 } },
        ssn: { type: 'string', title: 'SSN', maskSecret: 1 },
        pin: { type: 'string', title: 'PIN', 'x-jsf-presentation': { inputType: 'password' } },
        word: { type: 'string', title: 'Word', format: 'password' },
        name: { type: 'string', title: 'Name', 'x-jsf-presentation': { inputType: 'text', maskSecret: 0 } },
        plain: { type: 'string', title: 'Plain', 'x-jsf-presentation': { maskSecret: false } },
        kids: { type: 'array', title: 'Kids', items: { type: 'object', properties: { kidId: { type: 'string', title: 'Kid id', 'x-jsf-presentation': { maskSecret: 2 } }, kidName: { type: 'string', title: 'Kid name' } } } },
      },
    },
  },
});

describe('secret fields', () => {
  it('any truthy maskSecret, password input or format, and writeOnly make a field secret; falsy values do not', () => {
    for (const v of [true, 1, 2, 'yes']) expect(isSecretSchema({ 'x-jsf-presentation': { maskSecret: v } })).toBe(true);
    for (const v of [false, 0, null, '', 'false', undefined]) expect(isSecretSchema({ 'x-jsf-presentation': { maskSecret: v } })).toBe(false);
    expect(isSecretSchema({ maskSecret: 2 })).toBe(true);
    expect(isSecretSchema({ maskSecret: 0 })).toBe(false);
    expect(isSecretSchema({ writeOnly: true })).toBe(true);
    expect(isSecretSchema({ writeOnly: false })).toBe(false);
    expect(isSecretSchema({ format: 'password' })).toBe(true);
    expect(isSecretSchema({ 'x-jsf-presentation': { inputType: 'password' } })).toBe(true);
    expect(isSecretSchema({ type: 'string', 'x-jsf-presentation': { inputType: 'text' } })).toBe(false);
  });

  it('the questions of such fields are secret (masked input), the others are not', () => {
    const kinds = Object.fromEntries(allFields(form, { id: { kids: [{}] } }).map((f) => [f.id, f.kind]));
    expect(kinds).toEqual({ 'id.nationalId': 'secret', 'id.ssn': 'secret', 'id.pin': 'secret', 'id.word': 'secret', 'id.name': 'text', 'id.plain': 'text', 'id.kids': 'group', 'id.kids.0.kidId': 'secret', 'id.kids.0.kidName': 'text' });
    expect(kindOf(form, { type: 'string', 'x-jsf-presentation': { maskSecret: 2 } })).toBe('secret');
  });

  it('the review masks them (numeric maskSecret included), in group items too', () => {
    const doc = { id: { nationalId: 'NAT-123456', ssn: '078-05-1120', name: 'Ada', kids: [{ kidId: 'KID-999', kidName: 'Bo' }] } };
    const w = { form, doc, asked: new Set<string>(), sections: ['id'], prompter: undefined as never, colors: colors(false), save: () => undefined } satisfies Wizard;
    const text = reviewText(w);
    expect(text).toContain('National id: ********');
    expect(text).toContain('SSN: ********');
    expect(text).toMatch(/Kids #1\n\s+Kid id: \*{8}/);
    expect(text).toContain('Name: Ada');
    for (const s of ['NAT-123456', '078-05-1120', 'KID-999']) expect(text).not.toContain(s);
    const field = allFields(form, doc).find((f) => f.id === 'id.nationalId')!;
    expect(displayValue(field, 'NAT-123456')).toBe('********');
  });

  it('the sandbox forms mark Aadhaar and the German social security number with maskSecret: 2, and they are secret', () => {
    const ind = loadSchema(getSchema('Acme India Pvt Ltd'));
    const rows = outline(ind);
    const aadhaar = rows.find((r) => r.field === 'legal.aadhaar')!;
    expect(aadhaar.kind).toBe('secret');
    expect(aadhaar.details).toMatch(/(^|; )secret(;|$)/);
    const deu = loadSchema(getSchema('Acme Deutschland GmbH'));
    expect(outline(deu).find((r) => r.field === 'legal.socialSecurityNumber')?.kind).toBe('secret');
  });

  it('drafts keep no secret values and forget that secret questions were asked', () => {
    const doc = { id: { nationalId: 'NAT-123456', pin: '1234', name: 'Ada', kids: [{ kidId: 'KID-999', kidName: 'Bo' }] } };
    const asked = ['id.nationalId', 'id.ssn', 'id.pin', 'id.name', 'id.kids', 'id.kids.0.kidId', 'id.kids.0.kidName', 'section:id'];
    const kept = withoutSecrets(form, doc, asked);
    expect(kept.answers).toEqual({ id: { name: 'Ada', kids: [{ kidName: 'Bo' }] } });
    expect(kept.asked).toEqual(['id.name', 'id.kids', 'id.kids.0.kidName', 'section:id']);
    expect(kept.dropped.sort()).toEqual(['Kid id', 'National id', 'PIN']);
    // The answers themselves are untouched (the wizard keeps them in memory).
    expect(doc.id.nationalId).toBe('NAT-123456');
    expect(JSON.stringify(kept)).not.toMatch(/NAT-123456|1234|KID-999/);
  });

  it('the resume note names the secret questions that are asked again', () => {
    expect(secretsResumeNote(form, { id: {} })).toBe('Secret answers (National id, SSN, PIN, Word) are never stored in drafts; they are asked again.');
    const plain = loadSchema({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } } } });
    expect(secretsResumeNote(plain, {})).toBe('');
  });
});

describe('numeric secrets', () => {
  const form = loadSchema({
    type: 'object',
    properties: { legal: { type: 'object', title: 'Legal', properties: { pin: { type: 'integer', title: 'PIN', maskSecret: 2 }, rate: { type: 'number', title: 'Rate', 'x-jsf-presentation': { inputType: 'password' } }, age: { type: 'integer', title: 'Age' } } } },
  });
  const at = (k: string) => (form.root.properties as Record<string, { properties: Record<string, never> }>).legal.properties[k];

  it('are asked masked whatever their type, and their answers stay numbers', async () => {
    const { toValue } = await import('../../../src/forms/values.js');
    expect(kindOf(form, at('pin'))).toBe('secret');
    expect(kindOf(form, at('rate'))).toBe('secret');
    expect(kindOf(form, at('age'))).toBe('integer');
    expect(toValue(form, at('pin'), '1234')).toEqual({ ok: true, value: 1234 });
    expect(toValue(form, at('rate'), '12.5')).toEqual({ ok: true, value: 12.5 });
    expect(toValue(form, at('pin'), 'abc')).toMatchObject({ ok: false });
  });
});

describe('maskSecrets: the one masking of a form\'s values for a view', () => {
  const doc = { id: { nationalId: 'N-1', ssn: 'S-2', pin: 1234, word: '', name: 'Ada', plain: 'p', kids: [{ kidId: 'K-3', kidName: 'Byron' }] } };

  it('every secret field with a value is ********, group items too; the rest and the original are unchanged', () => {
    const before = structuredClone(doc);
    const shown = maskSecrets(form, doc);
    expect(shown).toEqual({ id: { nationalId: '********', ssn: '********', pin: '********', word: '', name: 'Ada', plain: 'p', kids: [{ kidId: '********', kidName: 'Byron' }] } });
    expect(doc).toEqual(before);
    expect(shown).not.toBe(doc);
  });

  it('--reveal returns the values as they are; the note names what was masked only when something was', () => {
    expect(maskSecrets(form, doc, { reveal: true })).toBe(doc);
    expect(maskedNote(form, doc)).toBe(' Secret values (National id, SSN, PIN, Kid id) are shown as ********; --reveal shows them.');
    expect(maskedNote(form, doc, true)).toBe('');
    expect(maskedNote(form, { id: { name: 'Ada' } })).toBe('');
  });
});

// The one sandbox entity whose form is served as a field-definition list
// (the other common shape of HR form APIs) instead of JSON Schema, so the
// CLI's second form format is exercised for real. `FIELD_LIST_FORM` is what
// GET …/dynamic-details/schema returns; `FIELD_LIST_SCHEMA` is the sandbox's
// own JSON Schema of the same rules, written independently of the CLI's
// translation, used to validate the POST and PATCH bodies.
import type { JsonSchema } from './schemas.js';

export const FIELD_LIST_ENTITY = { name: 'Acme Sverige AB', country: 'SWE', currency: 'SEK' } as const;

const DEPARTMENTS = ['Engineering', 'Product', 'Data', 'Finance', 'People Operations', 'Sales', 'Marketing', 'Customer Success', 'Legal', 'Operations'];
const GENDERS = [
  { value: 'FEMALE', label: 'Female' },
  { value: 'MALE', label: 'Male' },
  { value: 'NON_BINARY', label: 'Non-binary' },
  { value: 'UNDISCLOSED', label: 'Prefer not to say' },
];
const TERMS = [
  { value: 'PERMANENT', label: 'Permanent (tillsvidare)' },
  { value: 'FIXED_TERM', label: 'Fixed term (visstid)' },
];
const LANGUAGES = ['SV', 'EN', 'FI', 'DE'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const PHONE = '^\\+[1-9][0-9 ]{6,20}$';
const PERSONNUMMER = '^[0-9]{8}-[0-9]{4}$';
const COST_CENTER = '^CC-[0-9]{4}$';

export const FIELD_LIST_FORM = {
  formId: 'gp-swe-2025-01',
  title: `New Global Payroll employee — ${FIELD_LIST_ENTITY.name}`,
  sections: [
    {
      key: 'personal',
      label: 'Personal details',
      description: 'As in the passport or national ID card.',
      fields: [
        { key: 'firstName', label: 'First name', type: 'TEXT', required: true, validation: { minLength: 1, maxLength: 100 } },
        { key: 'lastName', label: 'Last name', type: 'TEXT', required: true, validation: { minLength: 1, maxLength: 100 } },
        { key: 'dateOfBirth', label: 'Date of birth', type: 'DATE', required: true },
        { key: 'gender', label: 'Gender', type: 'SELECT', required: true, options: GENDERS },
      ],
    },
    {
      key: 'contact',
      label: 'Contact',
      fields: [
        { key: 'personalEmail', label: 'Personal e-mail', type: 'EMAIL', required: true },
        { key: 'personalPhoneNumber', label: 'Mobile phone', type: 'PHONE', validation: { pattern: PHONE }, helpText: 'International format, e.g. +46 70 123 45 67.' },
        { key: 'languages', label: 'Working languages', type: 'MULTI_SELECT', allowedValues: LANGUAGES },
      ],
    },
    {
      key: 'employment',
      label: 'Employment',
      fields: [
        { key: 'workEmail', label: 'Work e-mail', type: 'EMAIL', required: true },
        { key: 'startDate', label: 'Start date', type: 'DATE', required: true },
        { key: 'designation', label: 'Job title', type: 'TEXT', required: true, validation: { maxLength: 100 } },
        { key: 'department', label: 'Department', type: 'SELECT', required: true, allowedValues: DEPARTMENTS },
        { key: 'term', label: 'Contract term', type: 'SELECT', required: true, options: TERMS, defaultValue: 'PERMANENT' },
        { key: 'endDate', label: 'Contract end date', type: 'DATE', required: true, dependsOn: { field: 'term', equals: 'FIXED_TERM' } },
        { key: 'weeklyHours', label: 'Weekly hours', type: 'INTEGER', defaultValue: 40, validation: { min: 1, max: 40 } },
        { key: 'baseSalary', label: 'Monthly gross salary (SEK)', type: 'NUMBER', required: true, validation: { min: 1 } },
        { key: 'remote', label: 'Works remotely', type: 'BOOLEAN' },
        { key: 'remoteDays', label: 'Remote days a week', type: 'INTEGER', visibleWhen: { field: 'remote', in: [true] }, validation: { min: 1, max: 5 } },
        { key: 'notes', label: 'Notes for payroll', type: 'TEXTAREA', validation: { maxLength: 500 } },
        { key: 'badgeName', label: 'Name on badge', type: 'SHORT_TEXT' },
      ],
    },
    {
      key: 'tax',
      label: 'Tax and social security',
      description: 'Sent after the employee record exists.',
      submit: 'dynamic-details',
      fields: [
        { key: 'personnummer', label: 'Personnummer', type: 'SECRET', required: true, validation: { pattern: PERSONNUMMER }, helpText: 'YYYYMMDD-NNNN.' },
        { key: 'taxTable', label: 'Tax table', type: 'INTEGER', required: true, validation: { min: 29, max: 42 } },
        { key: 'churchMember', label: 'Member of the Church of Sweden', type: 'BOOLEAN' },
        { key: 'parish', label: 'Parish', type: 'TEXT', required: true, dependsOn: { field: 'churchMember', equals: true } },
      ],
    },
    {
      key: 'custom',
      label: 'Company custom fields',
      dynamic: true,
      fields: [
        { key: 'costCenter', label: 'Cost center', type: 'TEXT', required: true, validation: { pattern: COST_CENTER } },
        { key: 'tShirtSize', label: 'T-shirt size', type: 'SELECT', allowedValues: SIZES },
      ],
    },
  ],
};

const s = (extra: JsonSchema = {}): JsonSchema => ({ type: 'string', ...extra });
const date = { type: 'string', format: 'date' };
const obj = (properties: Record<string, unknown>, required: string[], extra: JsonSchema = {}): JsonSchema => ({ type: 'object', additionalProperties: false, properties, required, ...extra });

export const FIELD_LIST_SCHEMA: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  'x-dynamic-sections': ['tax', 'custom'],
  required: ['personal', 'contact', 'employment', 'tax', 'custom'],
  properties: {
    personal: obj({ firstName: s({ minLength: 1, maxLength: 100 }), lastName: s({ minLength: 1, maxLength: 100 }), dateOfBirth: date, gender: { enum: GENDERS.map((g) => g.value) } }, ['firstName', 'lastName', 'dateOfBirth', 'gender']),
    contact: obj({ personalEmail: s({ format: 'email' }), personalPhoneNumber: s({ pattern: PHONE }), languages: { type: 'array', uniqueItems: true, items: { enum: LANGUAGES } } }, ['personalEmail']),
    employment: obj(
      {
        workEmail: s({ format: 'email' }),
        startDate: date,
        designation: s({ maxLength: 100 }),
        department: { enum: DEPARTMENTS },
        term: { enum: TERMS.map((t) => t.value) },
        endDate: date,
        weeklyHours: { type: 'integer', minimum: 1, maximum: 40 },
        baseSalary: { type: 'number', minimum: 1 },
        remote: { type: 'boolean' },
        remoteDays: { type: 'integer', minimum: 1, maximum: 5 },
        notes: s({ maxLength: 500 }),
        badgeName: s(),
      },
      ['workEmail', 'startDate', 'designation', 'department', 'term', 'baseSalary'],
      { if: { properties: { term: { const: 'FIXED_TERM' } }, required: ['term'] }, then: { required: ['endDate'] } },
    ),
    tax: obj(
      { personnummer: s({ pattern: PERSONNUMMER }), taxTable: { type: 'integer', minimum: 29, maximum: 42 }, churchMember: { type: 'boolean' }, parish: s() },
      ['personnummer', 'taxTable'],
      { if: { properties: { churchMember: { const: true } }, required: ['churchMember'] }, then: { required: ['parish'] } },
    ),
    custom: obj({ costCenter: s({ pattern: COST_CENTER }), tShirtSize: { enum: SIZES } }, ['costCenter']),
  },
};

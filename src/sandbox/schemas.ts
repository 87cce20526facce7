// The GP employee form schema of each legal entity the sandbox knows:
// JSON Schema draft 2020-12 with json-schema-form hints (see ARCHITECTURE.md,
// "Dynamic-details form convention"). Sections listed in x-dynamic-sections
// are submitted later with PATCH …/dynamic-details; the others form the body
// of POST /v1/employees/gp-employments.

import { FIELD_LIST_ENTITY, FIELD_LIST_FORM, FIELD_LIST_SCHEMA } from './field-list-form.js';

export type JsonSchema = Record<string, unknown>;

export interface EntityForm {
  name: string;
  country: string;
  currency: string;
  /** The rules the sandbox validates bodies with (JSON Schema). */
  schema: JsonSchema;
  /** What GET …/dynamic-details/schema serves when it is not `schema` itself (a field-definition list). */
  served?: unknown;
}

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

const text = (title: string, extra: JsonSchema = {}): JsonSchema => ({
  type: 'string',
  title,
  'x-jsf-presentation': { inputType: 'text' },
  ...extra,
});

const date = (title: string, description?: string): JsonSchema => ({
  type: 'string',
  format: 'date',
  title,
  ...(description ? { description } : {}),
  'x-jsf-presentation': { inputType: 'date' },
});

const options = (title: string, items: [string | number, string][], inputType = 'select', extra: JsonSchema = {}): JsonSchema => ({
  type: typeof items[0]?.[0] === 'number' ? 'integer' : 'string',
  title,
  oneOf: items.map(([c, t]) => ({ const: c, title: t })),
  'x-jsf-presentation': { inputType },
  ...extra,
});

const DEPARTMENT_NAMES = ['Engineering', 'Product', 'Data', 'Finance', 'People Operations', 'Sales', 'Marketing', 'Customer Success', 'Legal', 'Operations'];

interface CountryFormParts {
  phonePattern: string;
  phoneExample: string;
  postalPattern: string;
  postalDescription: string;
  subdivisions: [string, string][];
  maxWeeklyHours: number;
  maxProbationMonths: number;
  payFrequencies: [string, string][];
  bank: JsonSchema;
  legal: JsonSchema;
  /** Optional nested objects added at the end of the employment section. */
  employmentExtras?: Record<string, JsonSchema>;
}

function personalSection(): JsonSchema {
  return {
    type: 'object',
    title: 'Personal details',
    description: 'Legal name and identity of the employee, as in their passport or ID card.',
    additionalProperties: false,
    'x-jsf-order': ['firstName', 'middleName', 'lastName', 'dateOfBirth', 'gender', 'maritalStatus', 'nationality'],
    required: ['firstName', 'lastName', 'dateOfBirth', 'gender', 'nationality'],
    properties: {
      firstName: text('First name', { minLength: 1, maxLength: 100 }),
      middleName: text('Middle name', { maxLength: 100, description: 'Leave empty if none.' }),
      lastName: text('Last name', { minLength: 1, maxLength: 100 }),
      dateOfBirth: date('Date of birth', 'YYYY-MM-DD.'),
      gender: options('Gender', [['FEMALE', 'Female'], ['MALE', 'Male'], ['NON_BINARY', 'Non-binary'], ['UNDISCLOSED', 'Prefer not to say']], 'radio'),
      maritalStatus: {
        type: 'string',
        title: 'Marital status',
        enum: ['SINGLE', 'MARRIED', 'DIVORCED', 'WIDOWED', 'DOMESTIC_PARTNERSHIP'],
        'x-jsf-presentation': { inputType: 'select' },
      },
      nationality: text('Nationality', { description: 'Three-letter ISO 3166-1 alpha-3 country code, e.g. DEU.', pattern: '^[A-Z]{3}$' }),
    },
  };
}

function contactSection(p: CountryFormParts): JsonSchema {
  return {
    type: 'object',
    title: 'Contact details',
    additionalProperties: false,
    'x-jsf-order': ['personalEmail', 'personalPhoneNumber', 'emergencyContactName', 'emergencyContactPhone', 'emergencyContactRelationship'],
    required: ['personalEmail', 'personalPhoneNumber'],
    properties: {
      personalEmail: { type: 'string', format: 'email', title: 'Personal e-mail', 'x-jsf-presentation': { inputType: 'email' } },
      personalPhoneNumber: text('Personal phone number', { description: `International format, e.g. ${p.phoneExample}.`, pattern: p.phonePattern }),
      emergencyContactName: text('Emergency contact name', { maxLength: 200 }),
      emergencyContactPhone: text('Emergency contact phone', { pattern: p.phonePattern }),
      emergencyContactRelationship: {
        type: 'string',
        title: 'Relationship to the emergency contact',
        enum: ['SPOUSE', 'PARTNER', 'PARENT', 'SIBLING', 'CHILD', 'FRIEND', 'OTHER'],
        'x-jsf-presentation': { inputType: 'select' },
      },
    },
  };
}

function addressSection(p: CountryFormParts): JsonSchema {
  return {
    type: 'object',
    title: 'Home address',
    description: 'Current residential address.',
    additionalProperties: false,
    'x-jsf-order': ['addressLine1', 'addressLine2', 'city', 'subdivision', 'postalCode'],
    required: ['addressLine1', 'city', 'postalCode'],
    properties: {
      addressLine1: text('Address line 1', { minLength: 1, maxLength: 200 }),
      addressLine2: text('Address line 2', { maxLength: 200 }),
      city: text('City', { minLength: 1, maxLength: 100 }),
      subdivision: options('State / region', p.subdivisions),
      postalCode: text('Postal code', { pattern: p.postalPattern, description: p.postalDescription }),
    },
  };
}

function employmentSection(p: CountryFormParts): JsonSchema {
  return {
    type: 'object',
    title: 'Employment terms',
    additionalProperties: false,
    'x-jsf-order': ['workEmail', 'startDate', 'designation', 'department', 'type', 'term', 'endDate', 'weeklyHours', 'probationMonths', 'remoteWork', ...Object.keys(p.employmentExtras ?? {})],
    required: ['workEmail', 'startDate', 'designation', 'department', 'type', 'term'],
    properties: {
      workEmail: { type: 'string', format: 'email', title: 'Work e-mail', description: 'Must be unique within the company.', 'x-jsf-presentation': { inputType: 'email' } },
      startDate: date('Start date'),
      designation: text('Job title', { minLength: 2, maxLength: 100 }),
      department: { type: 'string', title: 'Department', enum: DEPARTMENT_NAMES, 'x-jsf-presentation': { inputType: 'select' } },
      type: options('Employee type', [['EMPLOYEE', 'Employee'], ['HR_MEMBER', 'HR team member']], 'radio'),
      term: options('Contract term', [['PERMANENT', 'Permanent'], ['FIXED_TERM', 'Fixed term']], 'radio'),
      endDate: date('Contract end date', 'Only for fixed-term contracts.'),
      weeklyHours: {
        type: 'number',
        title: 'Weekly working hours',
        minimum: 1,
        maximum: p.maxWeeklyHours,
        default: 40,
        'x-jsf-presentation': { inputType: 'number' },
      },
      probationMonths: {
        type: 'integer',
        title: 'Probation period (months)',
        minimum: 0,
        maximum: p.maxProbationMonths,
        'x-jsf-presentation': { inputType: 'number' },
      },
      remoteWork: { type: 'boolean', title: 'Works remotely', default: false, 'x-jsf-presentation': { inputType: 'checkbox' } },
      ...p.employmentExtras,
    },
    allOf: [
      {
        if: { properties: { term: { const: 'FIXED_TERM' } }, required: ['term'] },
        then: { required: ['endDate'] },
      },
    ],
  };
}

function compensationSection(currency: string, p: CountryFormParts): JsonSchema {
  return {
    type: 'object',
    title: 'Compensation',
    description: 'Base salary, pay frequency and a one-off signing bonus.',
    additionalProperties: false,
    'x-jsf-order': ['baseSalary', 'currency', 'payFrequency', 'hasSigningBonus', 'signingBonusAmount'],
    required: ['baseSalary', 'currency', 'payFrequency'],
    properties: {
      baseSalary: {
        type: 'number',
        title: 'Annual gross base salary',
        exclusiveMinimum: 0,
        maximum: 100000000,
        'x-jsf-presentation': { inputType: 'money', currency },
      },
      currency: { type: 'string', title: 'Currency', enum: [currency], default: currency, 'x-jsf-presentation': { inputType: 'select' } },
      payFrequency: options('Pay frequency', p.payFrequencies, 'radio'),
      hasSigningBonus: { type: 'boolean', title: 'Signing bonus', default: false, 'x-jsf-presentation': { inputType: 'checkbox' } },
      signingBonusAmount: {
        type: 'number',
        title: 'Signing bonus amount',
        minimum: 0,
        maximum: 1000000,
        'x-jsf-presentation': { inputType: 'money', currency },
      },
    },
    if: { properties: { hasSigningBonus: { const: true } }, required: ['hasSigningBonus'] },
    then: { required: ['signingBonusAmount'] },
    else: { properties: { signingBonusAmount: false } },
  };
}

function customFieldsSection(): JsonSchema {
  return {
    type: 'object',
    title: 'Company custom fields',
    'x-submit': 'dynamic-details',
    additionalProperties: false,
    'x-jsf-order': ['costCenter', 'laptop', 'languages', 'tShirtSize'],
    required: ['costCenter'],
    properties: {
      costCenter: text('Cost center', { pattern: '^CC-[0-9]{4}$', description: 'Format CC-1234.' }),
      laptop: options('Laptop', [['MACOS', 'MacBook Pro'], ['WINDOWS', 'Windows laptop'], ['LINUX', 'Linux laptop']], 'radio'),
      languages: {
        type: 'array',
        title: 'Working languages',
        description: 'Pick every language the employee works in.',
        uniqueItems: true,
        maxItems: 6,
        items: { type: 'string', enum: ['EN', 'DE', 'FR', 'ES', 'HI', 'TA'] },
        'x-jsf-presentation': { inputType: 'checkbox' },
      },
      tShirtSize: { type: 'string', title: 'T-shirt size', enum: ['XS', 'S', 'M', 'L', 'XL', 'XXL'], 'x-jsf-presentation': { inputType: 'select' } },
    },
  };
}

function entitySchema(name: string, country: string, currency: string, countryName: string, p: CountryFormParts): JsonSchema {
  const id = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return {
    $schema: DRAFT,
    $id: `https://sandbox.partner.invalid/schemas/gp-employments/${id}`,
    title: `New Global Payroll employee — ${name}`,
    description: `Everything needed to create and onboard a Global Payroll employee employed by ${name} (${countryName}).`,
    type: 'object',
    'x-entity': name,
    'x-country': country,
    'x-dynamic-sections': ['legal', 'customFields'],
    'x-jsf-order': ['personal', 'contact', 'address', 'employment', 'compensation', 'bank', 'legal', 'customFields'],
    required: ['personal', 'contact', 'employment', 'compensation', 'legal', 'customFields'],
    properties: {
      personal: personalSection(),
      contact: contactSection(p),
      address: addressSection(p),
      employment: employmentSection(p),
      compensation: compensationSection(currency, p),
      bank: p.bank,
      legal: p.legal,
      customFields: customFieldsSection(),
    },
  };
}

const DEU_PARTS: CountryFormParts = {
  phonePattern: '^\\+[1-9][0-9 ]{6,20}$',
  phoneExample: '+49 151 2345 6789',
  postalPattern: '^[0-9]{5}$',
  postalDescription: 'Five digits (Postleitzahl).',
  subdivisions: [
    ['DE-BW', 'Baden-Württemberg'], ['DE-BY', 'Bayern'], ['DE-BE', 'Berlin'], ['DE-HB', 'Bremen'], ['DE-HH', 'Hamburg'],
    ['DE-HE', 'Hessen'], ['DE-NI', 'Niedersachsen'], ['DE-NW', 'Nordrhein-Westfalen'], ['DE-SN', 'Sachsen'],
  ],
  maxWeeklyHours: 48,
  maxProbationMonths: 6,
  payFrequencies: [['MONTHLY', 'Monthly']],
  bank: {
    type: 'object',
    title: 'Salary bank account',
    additionalProperties: false,
    'x-jsf-order': ['accountHolderName', 'iban', 'bic', 'bankName'],
    required: ['accountHolderName', 'iban'],
    properties: {
      accountHolderName: text('Account holder', { minLength: 1, maxLength: 200 }),
      iban: text('IBAN', { pattern: '^DE[0-9]{20}$', description: 'German IBAN without spaces, e.g. DE89370400440532013000.', 'x-jsf-presentation': { inputType: 'text', maskSecret: true } }),
      bic: text('BIC', { pattern: '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$' }),
      bankName: text('Bank name', { maxLength: 100 }),
    },
  },
  legal: {
    type: 'object',
    title: 'Tax and social security',
    description: 'Submitted after the employee record exists.',
    'x-submit': 'dynamic-details',
    additionalProperties: false,
    'x-jsf-order': ['taxId', 'taxClass', 'socialSecurityNumber', 'healthInsurance', 'churchTaxLiable', 'denomination', 'children'],
    required: ['taxId', 'taxClass', 'socialSecurityNumber', 'churchTaxLiable'],
    properties: {
      taxId: text('Tax identification number (Steuer-ID)', { pattern: '^[0-9]{11}$', description: 'Eleven digits.', writeOnly: true, 'x-jsf-presentation': { inputType: 'text', maskSecret: true } }),
      taxClass: options('Tax class (Steuerklasse)', [[1, 'I — single'], [2, 'II — single parent'], [3, 'III — married, higher earner'], [4, 'IV — married, equal earners'], [5, 'V — married, lower earner'], [6, 'VI — second job']]),
      socialSecurityNumber: text('Social security number', { pattern: '^[0-9]{8}[A-Z][0-9]{3}$', description: 'Rentenversicherungsnummer, e.g. 12345678A123.', 'x-jsf-presentation': { inputType: 'text', maskSecret: 2 } }),
      healthInsurance: { type: 'string', title: 'Health insurance', enum: ['TK', 'AOK', 'BARMER', 'DAK', 'PRIVATE'], 'x-jsf-presentation': { inputType: 'select' } },
      churchTaxLiable: { type: 'boolean', title: 'Liable to church tax', 'x-jsf-presentation': { inputType: 'checkbox' } },
      denomination: options('Denomination', [['RK', 'Roman Catholic'], ['EV', 'Protestant'], ['OTHER', 'Other church tax collecting body']]),
      children: {
        type: 'array',
        title: 'Children',
        description: 'For child allowances (Kinderfreibetrag).',
        maxItems: 10,
        'x-jsf-presentation': { inputType: 'group-array', addFieldText: 'Add child' },
        items: {
          type: 'object',
          additionalProperties: false,
          'x-jsf-order': ['firstName', 'dateOfBirth'],
          required: ['firstName', 'dateOfBirth'],
          properties: {
            firstName: text('First name', { minLength: 1, maxLength: 100 }),
            dateOfBirth: date('Date of birth'),
          },
        },
      },
    },
    allOf: [
      {
        if: { properties: { churchTaxLiable: { const: true } }, required: ['churchTaxLiable'] },
        then: { required: ['denomination'] },
      },
    ],
  },
};

const IND_PARTS: CountryFormParts = {
  phonePattern: '^\\+[1-9][0-9 ]{6,20}$',
  phoneExample: '+91 98765 43210',
  postalPattern: '^[1-9][0-9]{5}$',
  postalDescription: 'Six-digit PIN code.',
  subdivisions: [
    ['IN-KA', 'Karnataka'], ['IN-MH', 'Maharashtra'], ['IN-TN', 'Tamil Nadu'], ['IN-TG', 'Telangana'], ['IN-DL', 'Delhi'],
    ['IN-GJ', 'Gujarat'], ['IN-WB', 'West Bengal'], ['IN-UP', 'Uttar Pradesh'],
  ],
  maxWeeklyHours: 48,
  maxProbationMonths: 6,
  payFrequencies: [['MONTHLY', 'Monthly']],
  // An optional nested object holding a yes/no: it must be possible to leave it out entirely.
  employmentExtras: {
    relocation: {
      type: 'object',
      title: 'Relocation support',
      description: 'Only when the employee moves city for the job.',
      additionalProperties: false,
      'x-jsf-order': ['fromCity', 'allowance', 'housingProvided'],
      required: ['fromCity', 'allowance'],
      properties: {
        fromCity: text('Moving from (city)', { minLength: 1, maxLength: 100 }),
        allowance: { type: 'number', title: 'Relocation allowance', minimum: 0, maximum: 10000000, 'x-jsf-presentation': { inputType: 'money', currency: 'INR' } },
        housingProvided: { type: 'boolean', title: 'Company housing', 'x-jsf-presentation': { inputType: 'checkbox' } },
      },
    },
  },
  bank: {
    type: 'object',
    title: 'Salary bank account',
    additionalProperties: false,
    'x-jsf-order': ['accountHolderName', 'accountNumber', 'ifsc', 'bankName', 'accountType'],
    required: ['accountHolderName', 'accountNumber', 'ifsc'],
    properties: {
      accountHolderName: text('Account holder', { minLength: 1, maxLength: 200 }),
      accountNumber: text('Account number', { pattern: '^[0-9]{9,18}$', description: '9 to 18 digits.', 'x-jsf-presentation': { inputType: 'text', maskSecret: true } }),
      ifsc: text('IFSC', { pattern: '^[A-Z]{4}0[A-Z0-9]{6}$', description: 'e.g. HDFC0001234.' }),
      bankName: text('Bank name', { maxLength: 100 }),
      accountType: options('Account type', [['SAVINGS', 'Savings'], ['CURRENT', 'Current']], 'radio'),
    },
  },
  legal: {
    type: 'object',
    title: 'Tax and statutory details',
    description: 'Submitted after the employee record exists.',
    'x-submit': 'dynamic-details',
    additionalProperties: false,
    'x-jsf-order': ['pan', 'aadhaar', 'taxRegime', 'pfOptIn', 'uan', 'nominees'],
    required: ['pan', 'taxRegime', 'pfOptIn'],
    properties: {
      pan: text('PAN', { pattern: '^[A-Z]{5}[0-9]{4}[A-Z]$', description: 'Permanent Account Number, e.g. ABCDE1234F.', 'x-jsf-presentation': { inputType: 'text', maskSecret: true } }),
      aadhaar: text('Aadhaar number', { pattern: '^[0-9]{12}$', 'x-jsf-presentation': { inputType: 'text', maskSecret: 2 } }),
      taxRegime: options('Income tax regime', [['NEW', 'New regime (default)'], ['OLD', 'Old regime']], 'radio'),
      pfOptIn: { type: 'boolean', title: 'Enrol in Provident Fund (EPF)', 'x-jsf-presentation': { inputType: 'checkbox' } },
      uan: text('Universal Account Number (UAN)', { pattern: '^[0-9]{12}$', description: 'Twelve digits; required when enrolling in EPF.' }),
      nominees: {
        type: 'array',
        title: 'EPF nominees',
        minItems: 0,
        maxItems: 5,
        'x-jsf-presentation': { inputType: 'group-array', addFieldText: 'Add nominee' },
        items: {
          type: 'object',
          additionalProperties: false,
          'x-jsf-order': ['name', 'relationship', 'sharePercent'],
          required: ['name', 'relationship', 'sharePercent'],
          properties: {
            name: text('Nominee name', { minLength: 1, maxLength: 200 }),
            relationship: { type: 'string', title: 'Relationship', enum: ['SPOUSE', 'PARENT', 'CHILD', 'SIBLING'], 'x-jsf-presentation': { inputType: 'select' } },
            sharePercent: { type: 'integer', title: 'Share (%)', minimum: 1, maximum: 100, 'x-jsf-presentation': { inputType: 'number' } },
          },
        },
      },
    },
    if: { properties: { pfOptIn: { const: true } }, required: ['pfOptIn'] },
    then: { required: ['uan'] },
  },
};

export const ENTITY_FORMS: readonly EntityForm[] = [
  { name: 'Acme Deutschland GmbH', country: 'DEU', currency: 'EUR', schema: entitySchema('Acme Deutschland GmbH', 'DEU', 'EUR', 'Germany', DEU_PARTS) },
  { name: 'Acme India Pvt Ltd', country: 'IND', currency: 'INR', schema: entitySchema('Acme India Pvt Ltd', 'IND', 'INR', 'India', IND_PARTS) },
  { ...FIELD_LIST_ENTITY, schema: FIELD_LIST_SCHEMA, served: FIELD_LIST_FORM },
];

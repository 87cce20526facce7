// Spreadsheets for bulk onboarding tests of "Acme Sverige AB" (the sandbox's
// field-list form): one valid row per person, written as CSV with blank and
// "#" rows where a test puts them.
export const SWE = 'Acme Sverige AB';

export const SWE_COLUMNS = ['personal.firstName', 'personal.lastName', 'personal.dateOfBirth', 'personal.gender', 'contact.personalEmail', 'employment.workEmail', 'employment.startDate', 'employment.designation', 'employment.department', 'employment.term', 'employment.baseSalary', 'tax.personnummer', 'tax.taxTable', 'custom.costCenter'];

export type Row = Record<string, string>;

export const workEmail = (tag: string, i: number) => `edit${i}.${tag}@acme.example`;

/** Employee i of a batch: valid, with a work e-mail of its own. */
export function person(tag: string, i: number, first = `Test${i}`): Row {
  return {
    'personal.firstName': first,
    'personal.lastName': `Bulk ${tag}`,
    'personal.dateOfBirth': '1990-01-01',
    'personal.gender': 'Female',
    'contact.personalEmail': `p${i}.${tag}@example.org`,
    'employment.workEmail': workEmail(tag, i),
    'employment.startDate': '2025-11-01',
    'employment.designation': 'Engineer',
    'employment.department': 'Data',
    'employment.term': 'PERMANENT',
    'employment.baseSalary': '52000',
    'tax.personnummer': `19900101-${String(1000 + i)}`,
    'tax.taxTable': '32',
    'custom.costCenter': 'CC-4100',
  };
}

/** A blank line, or a row whose first cell starts with "#": both skipped by --from-csv (they still count as spreadsheet rows). */
export const BLANK = 'blank';
export const COMMENT = 'comment';

/** The CSV text: the header, then each row (a person, BLANK or COMMENT). */
export function csvText(rows: (Row | typeof BLANK | typeof COMMENT)[], columns = SWE_COLUMNS): string {
  const esc = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const line = (r: Row | string) => (r === BLANK ? '' : r === COMMENT ? `# a note,${columns.slice(1).map(() => '').join(',')}` : columns.map((c) => esc((r as Row)[c] ?? '')).join(','));
  return `${[columns.join(','), ...rows.map(line)].join('\r\n')}\r\n`;
}

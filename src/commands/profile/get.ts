// `partner profile get`: the profile sections of one or more employees (run: ./get.run.ts).
import { defineCommand } from '../../command.js';
import { PROFILE_SECTIONS, type ProfileSection } from '../../api/types.js';
import { UsageError } from '../../errors.js';
import { arg, bool, int, path } from '../../flags.js';
import { parseText } from '../../options.js';
import { closest } from '../../text/suggest.js';

const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 16;
/** An employee code as the API hands them out (ACME-00007), or a UUID. */
const CODE_OR_ID = /^(?:[A-Z0-9]+(?:[-_][A-Z0-9]+)*|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export function employeeRef(raw: string, what: string): string {
  return parseText(what, raw)!;
}

function sectionOf(word: string): ProfileSection | undefined {
  return PROFILE_SECTIONS.find((s) => s === word.toLowerCase());
}

function unknownSection(word: string): UsageError {
  const w = word.toLowerCase();
  const near = closest(w, PROFILE_SECTIONS, 2) ?? PROFILE_SECTIONS.find((s) => w.startsWith(s) || s.startsWith(w));
  return new UsageError(`Unknown section "${word.slice(0, 40)}"${near ? ` (did you mean ${near}?)` : ''}`, `Sections: ${PROFILE_SECTIONS.join(', ')}. Name none for all of them.`, 'INVALID_SECTION');
}

/**
 * Positional arguments: employees first, then sections. With --from-file
 * every argument is a section. A lower-case word is a misspelt section, not
 * an employee, when it is close to a section name or when the employees
 * named so far look like codes (ACME-00007) or ids: caught before any request.
 */
function splitArgs(words: string[], fromFile: boolean): { employees: string[]; sections: ProfileSection[] } {
  const employees: string[] = [];
  const sections: ProfileSection[] = [];
  for (const [i, word] of words.entries()) {
    const section = sectionOf(word);
    const employeesDone = fromFile || sections.length > 0;
    const looksLikeSection = /^[a-z]+$/.test(word) && (closest(word, PROFILE_SECTIONS, 2) !== undefined || (employees.length > 0 && employees.every((e) => CODE_OR_ID.test(e) && /\d/.test(e))));
    if (i === 0 && !fromFile) {
      if (section) throw new UsageError(`Name an employee before the sections (got "${word}")`, 'For example: partner profile get ACME-00007 personal bank', 'MISSING_EMPLOYEE');
      employees.push(employeeRef(word, 'employee'));
    } else if (section) {
      if (!sections.includes(section)) sections.push(section);
    } else if (employeesDone || looksLikeSection) {
      throw unknownSection(word);
    } else {
      employees.push(employeeRef(word, 'employee'));
    }
  }
  return { employees, sections };
}

export const get = defineCommand({
  name: 'get',
  summary: 'show the profile of one or more employees, every section or the ones named',
  args: {
    employeeAndSections: arg.rest(`employee ids (UUID) or codes, then section names: ${PROFILE_SECTIONS.join(', ')} (default: all)`),
  },
  flags: {
    fromFile: path('read employee ids or codes from a file, one per line ("-" for stdin; blank lines and # comments skipped)'),
    concurrency: int(`employees fetched at once, 1 to ${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY}); the sections of each are fetched in parallel`, { min: 1, max: MAX_CONCURRENCY, default: DEFAULT_CONCURRENCY }),
    reveal: bool('show the full bank account number in the table (masked to its last 4 characters otherwise)'),
  },
  // A profile is its id and its sections; the fields inside a section are checked against the first answer.
  output: { formats: ['table', 'json', 'ndjson', 'csv'], quiet: true, recordFields: ['id', ...PROFILE_SECTIONS] },
  refine: (o) => {
    const { employees, sections } = splitArgs(o.employeeAndSections, o.fromFile !== undefined);
    if (employees.length === 0 && o.fromFile === undefined) {
      throw new UsageError('Name at least one employee (id or code), or use --from-file', 'For example: partner profile get ACME-00007', 'MISSING_EMPLOYEE');
    }
    return {
      employees: [...new Set(employees)],
      sections: sections.length ? sections : [...PROFILE_SECTIONS],
      fromFile: o.fromFile,
      concurrency: o.concurrency,
      reveal: o.reveal,
      /** One employee named on the command line: JSON is an object, not an array. */
      single: employees.length === 1 && o.fromFile === undefined,
    };
  },
  details: `Output:
  table   a key/value block per section, nested values as sub-blocks, null as "-". The bank account number is masked (****1234) unless --reveal.
  json    one object keyed by section (plus "id"); an array of them for several employees.
  ndjson  one flat record per employee with dot-path keys (personal.firstName, address.currentAddress.city, education.0.degree …); --fields picks columns.
  csv     the same flat records as columns.
JSON, NDJSON and CSV are for scripts and always carry the full values. The education section's list is unwrapped: education.0.degree, not education.education.0.degree.

If a section fails, the others are still shown, the failure is reported on stderr, and the exit code is that of the worst failure (5 not found, 1 server error …).`,
  examples: [
    'partner profile get ACME-00007',
    'partner profile get ACME-00007 personal bank --reveal',
    'partner profile get ACME-00007 ACME-00012 -o csv > profiles.csv',
    'partner employees list --all -q | partner profile get --from-file - -o ndjson --fields id,personal.fullLegalName',
  ],
  load: () => import('./get.run.js'),
});

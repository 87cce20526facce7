// `partner gp create`: a GP employee from the entity's form (run: ./create.run.ts).
import { defineCommand } from '../../command.js';
import { bool, choice, custom, int, path, repeated, text } from '../../flags.js';
import { draftIdOf } from '../../forms/draft-id.js';
import { BULK_DEFAULT_CONCURRENCY, BULK_MAX_CONCURRENCY, CSV_ENCODINGS } from '../../forms/bulk/limits.js';
import { UsageError } from '../../errors.js';
import { parseSetFlag } from '../../forms/set-flag.js';
import { EMPLOYEE_FIELDS } from '../../api/types.js';

export const create = defineCommand({
  name: 'create',
  summary: "create a GP employee: an interactive wizard built from the entity's form, or values from a file / --set",
  flags: {
    entity: text('legal entity the employee is hired by (asked on a terminal when missing)', { placeholder: 'name' }),
    fromFile: path('JSON values shaped like the schema, sections nested ("-" reads stdin); no prompts'),
    set: repeated('one value, typed by the schema; no prompts', 'section.field=value', (v) => parseSetFlag(v)),
    dryRun: bool('validate and print both request bodies (JSON) without sending'),
    resume: bool('continue the saved draft of this entity (on a terminal, pick one when there are several)'),
    draft: custom('continue this draft (its id, from `partner drafts list`); implies --resume, names the entity', 'id', (raw, name) => draftIdOf(raw, name)),
    bodyFile: path('send this hand-written POST body (JSON, "-" reads stdin) as it is, after showing it; for any server'),
    yes: bool('with --body-file: send without asking'),
    reveal: bool('show the values of secret fields (tax ids, account numbers…) in the dry run and the body shown, instead of ********'),
    fromCsv: path('bulk onboarding: one employee per row of this CSV (header: field paths, as `gp template` writes it; "-" reads stdin, with --results); every row is checked first'),
    skipInvalid: bool('with --from-csv: create the valid rows even when some rows are invalid'),
    results: path('with --from-csv: the results CSV (default: NAME.results.csv beside NAME.csv); its journal is PATH.journal', { role: 'output' }),
    concurrency: int(`with --from-csv: rows created at once, 1 to ${BULK_MAX_CONCURRENCY} (default ${BULK_DEFAULT_CONCURRENCY}); fewer while the server answers 429/503`, { min: 1, max: BULK_MAX_CONCURRENCY }),
    encoding: choice(CSV_ENCODINGS, 'with --from-csv: how the file is encoded (default utf-8; a spreadsheet saved by Excel on Windows in Western Europe: windows-1252)'),
  },
  // What it prints: the created employee (the spec does not list the 201 body: an employee record and what the
  // sandbox adds), or with --dry-run the request bodies, JSON whatever the terminal. Checked before anything is
  // sent; a field the answer then lacks is a warning, as the employee exists by then.
  output: { formats: ['table', 'json'], jsonFlag: 'dryRun', recordFields: [...EMPLOYEE_FIELDS, 'onboardingStage', 'submittedSections', 'createdAt', 'create', 'dynamicDetails'] },
  refine: (o) => {
    const resume = o.resume || o.draft !== undefined;
    if (o.bodyFile !== undefined && (o.fromFile !== undefined || o.set.length > 0 || resume)) {
      throw new UsageError('--body-file sends a hand-written body as it is; it cannot be combined with --from-file, --set, --resume or --draft', undefined, 'INVALID_OPTION');
    }
    if (o.fromCsv !== undefined && (o.fromFile !== undefined || o.set.length > 0 || resume || o.bodyFile !== undefined)) {
      throw new UsageError('--from-csv takes every value from the spreadsheet; it cannot be combined with --from-file, --set, --resume, --draft or --body-file', undefined, 'INVALID_OPTION');
    }
    if (o.fromCsv === undefined && (o.skipInvalid || o.results !== undefined)) throw new UsageError('--skip-invalid and --results go with --from-csv', undefined, 'INVALID_OPTION');
    if (o.fromCsv === undefined && (o.concurrency !== undefined || o.encoding !== undefined)) throw new UsageError('--concurrency and --encoding go with --from-csv', undefined, 'INVALID_OPTION');
    if (o.fromCsv === '-' && o.results === undefined && !o.dryRun) throw new UsageError('--from-csv - (stdin) needs --results PATH: the results file and the journal that makes a re-run safe live there', undefined, 'INVALID_OPTION');
    if (o.yes && o.bodyFile === undefined) throw new UsageError('--yes goes with --body-file', undefined, 'INVALID_OPTION');
    return {
      entity: o.entity,
      fromFile: o.fromFile,
      sets: o.set,
      dryRun: o.dryRun,
      resume,
      draft: o.draft,
      bodyFile: o.bodyFile,
      yes: o.yes,
      reveal: o.reveal,
      fromCsv: o.fromCsv,
      skipInvalid: o.skipInvalid,
      results: o.results,
      concurrency: o.concurrency ?? BULK_DEFAULT_CONCURRENCY,
      encoding: o.encoding ?? 'utf-8',
    };
  },
  details: `Answers are saved as a draft (config dir, mode 0600) after every question; Ctrl-C keeps it and --resume continues. A successful submit deletes it. A draft belongs to the run that made it: declining the draft offered on a terminal starts a new one beside it, and --from-file/--set runs never replace or delete a wizard's draft (a failed one keeps its values as a draft of its own). With several drafts, --resume asks which one on a terminal and otherwise names them: continue one with --draft ID. \`partner drafts list\` shows them, \`partner drafts discard\` removes them.
Numbers: a dot marks decimals; digits may be grouped (2,400,000 or 24,00,000 or 2 400 000). A single dot or comma before exactly three digits (85.000, 85,000) could mean 85 or 85000 and is refused: type 85000 (or 85). The review shows amounts grouped by spaces with their currency (85 000 EUR).
The non-dynamic sections are POSTed to /v1/employees/gp-employments, then the dynamic sections are PATCHed to the new employee's dynamic-details.
The result (or, with --dry-run, the request bodies) is printed as a table on a terminal and as JSON when piped.

With --from-csv, every row is checked before anything is sent (--dry-run stops there). Then --concurrency rows are created at once (each row's POST, then its PATCH), fewer while the server answers 429/503 (after its Retry-After). Results go to FILE.results.csv in input order (row, employeeId, employeeCode, outcome, error); its journal, PATH.journal, records each row before its POST and after each answer, so running the same command again (after a failure, Ctrl-C or a crash) creates no employee twice and misses none: a row whose POST answer was lost is looked up by its work e-mail first, a row whose PATCH failed gets the PATCH only. The journal knows a row by its work e-mail and values, not its place: rows may be deleted, inserted or moved between runs; two rows with one work e-mail are invalid; a row already sent that has changed since (its values or its work e-mail) stops the run before anything is sent (BULK_ROWS_CHANGED, exit 2). Ctrl-C stops starting rows, lets the rows in flight finish and writes the results (exit 130).
The file is read as UTF-8 (a BOM is fine); bytes that are not UTF-8 are refused with their row and column, never replaced: name the encoding with --encoding. At most 32 MiB, from a file, a pipe or a device alike.`,
  examples: [
    'partner gp create --entity "Acme Deutschland GmbH"',
    'partner gp create --entity "Acme Deutschland GmbH" --resume',
    'partner gp create --entity "Acme Deutschland GmbH" --from-file values.json --dry-run',
    'partner gp create --entity "Acme Sverige AB" --body-file post.json --yes',
    'partner gp template --entity "Acme India Pvt Ltd" -o csv > hires.csv',
    'partner gp create --entity "Acme India Pvt Ltd" --from-csv hires.csv',
    'partner gp create --entity "Acme India Pvt Ltd" --from-csv hires.csv --dry-run',
    'partner gp create --entity "Acme Deutschland GmbH" --from-csv hires.csv --encoding windows-1252 --concurrency 8',
  ],
  // Prompts or prints for as long as it runs: never through a pager.
  pager: false,
  // A sheet of any length, read, checked and sent row by row: on the worker thread with bounded memory (--from-csv -,
  // stdin, stays on the main thread, which has it).
  worker: { anyOf: ['fromCsv'] },
  load: () => import('./create.run.js'),
});

import type { Context } from '../../context.js';
import { getProfileSection } from '../../api/employees.js';
import type { HttpClient } from '../../api/http.js';
import { EmployeeNotFoundError, resolveEmployee } from '../../api/resolve-employee.js';
import { PROFILE_SECTIONS, type ProfileSection } from '../../api/types.js';
import { ApiError, CliError, exitCodeFor, InterruptedError, UsageError, worstExitCode } from '../../errors.js';
import { readInputFile } from '../../input.js';
import { mapOrdered } from '../../concurrency.js';
import { employeeRef } from './get.js';
import { isUuid } from '../../options.js';
import type { OptionsOf } from '../../command.js';
import type { get } from './get.js';
import { checkFieldsPresent, flatten, getPath } from '../../output/fields.js';
import { fitError, renderError, renderErrorJson } from '../../output/render-error.js';
import { sanitizeCell } from '../../text/sanitize.js';
import { renderKeyValue } from '../../output/table.js';
import { ACCOUNT_KEY, maskAccount } from '../../output/mask.js';
import { writeList, writeRecord, type ListSpec } from '../../output/writer.js';
import { put } from '../../safe-keys.js';

export type GetOptions = OptionsOf<typeof get>;

const MAX_FILE_BYTES = 8 * 1024 * 1024;

/** The spec's fields per section (dot paths inside the section), in spec order: the default CSV columns. */
export const SECTION_FIELDS: Record<ProfileSection, string[]> = {
  personal: ['firstName', 'middleName', 'lastName', 'fullLegalName', 'dateOfBirth', 'gender', 'maritalStatus', 'age', 'religion', 'nationalities.0.country', 'nationalities.0.type'],
  contact: ['personalEmail', 'personalPhoneNumber', 'emergencyContact.name', 'emergencyContact.phoneNumber', 'emergencyContact.relationship'],
  address: ['currentAddress', 'permanentAddress'].flatMap((a) => ['addressLine1', 'addressLine2', 'streetName', 'landmark', 'city', 'subdivision', 'country', 'postalCode'].map((f) => `${a}.${f}`)),
  bank: ['accountNumber', 'accountHolderName', 'bankName', 'branchName', 'swiftCode', 'localBankCode', 'accountType', 'currency', 'country'],
  education: ['0.lastSchoolAttended', '0.degree', '0.yearOfPassing', '0.grade', '0.gpa'],
  employment: ['employeeCode', 'workEmail', 'entity', 'country', 'startDate', 'status', 'endDate', 'designation', 'department', 'type', 'term', 'noticePeriod.value', 'noticePeriod.unit', 'reportsTo.id', 'reportsTo.firstName', 'reportsTo.lastName', 'reportsTo.designation'],
  // Not in the spec: columns come from the data.
  compensation: [],
};

/** Employee references from a file or stdin: one per line, blank lines and # comments skipped. */
async function readRefs(path: string, ctx: Context): Promise<string[]> {
  const text = await readInputFile(path, { flag: '--from-file', maxBytes: MAX_FILE_BYTES, stdin: ctx.io.stdin, signal: ctx.signal });
  const refs: string[] = [];
  for (const [i, line] of text.split(/\r?\n/).entries()) {
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    refs.push(employeeRef(t, `--from-file line ${i + 1}`));
  }
  return refs;
}

interface Failure {
  /** Absent: the whole employee failed (not found, unresolvable). */
  section?: ProfileSection;
  error: unknown;
}

export interface ProfileResult {
  ref: string;
  id?: string;
  code?: string;
  name?: string;
  values: Map<ProfileSection, unknown>;
  failures: Failure[];
  /** Fails the whole command (401, Ctrl-C). */
  fatal?: unknown;
}

function isFatal(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted || err instanceof InterruptedError || (err instanceof ApiError && err.status === 401);
}

async function fetchProfile(http: HttpClient, ref: string, sections: ProfileSection[], signal: AbortSignal): Promise<ProfileResult> {
  const result: ProfileResult = { ref, values: new Map(), failures: [] };
  try {
    const resolved = await resolveEmployee(http, ref, signal);
    Object.assign(result, { id: resolved.id, code: resolved.code, name: resolved.name });
  } catch (error) {
    if (isFatal(error, signal)) return { ...result, fatal: error };
    result.failures.push({ error });
    return result;
  }
  const settled = await Promise.allSettled(sections.map((s) => getProfileSection(http, result.id!, s, signal)));
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') result.values.set(sections[i], normalise(sections[i], s.value));
    else if (isFatal(s.reason, signal)) result.fatal ??= s.reason;
    else result.failures.push({ section: sections[i], error: s.reason });
  });
  // Every section 404: the id names no employee of this company; say so once.
  if (result.values.size === 0 && result.failures.length > 0 && result.failures.every((f) => f.error instanceof ApiError && f.error.status === 404)) {
    result.failures = [{ error: new EmployeeNotFoundError(ref, isUuid(ref) ? 'id' : 'code', undefined, result.failures[0]!.error) }];
    result.id = undefined;
  }
  return result;
}

/** The education record is `{education: [...]}`: unwrapped so paths read education.0.degree. Anything else is kept as sent. */
function normalise(section: ProfileSection, value: unknown): unknown {
  if (section === 'education' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const list = (value as Record<string, unknown>).education;
    if (keys.length === 1 && Array.isArray(list)) return list;
  }
  return value;
}

/** The document of one employee: its id, then one key per section fetched. */
export function profileDocument(r: ProfileResult, sections: ProfileSection[]): Record<string, unknown> {
  const doc: Record<string, unknown> = { id: r.id ?? null };
  for (const s of sections) if (r.values.has(s)) doc[s] = r.values.get(s);
  return doc;
}

/** CSV columns: id, then per section the spec's fields followed by whatever else the data carries. */
export function csvColumns(sections: ProfileSection[], records: Record<string, unknown>[]): string[] {
  const cols: string[] = [];
  const seen = new Set<string>();
  const add = (key: string) => {
    if (seen.has(key)) return;
    // A null or empty parent (reportsTo: null) is already covered by its spec columns.
    if (cols.some((c) => c.startsWith(`${key}.`))) return;
    seen.add(key);
    cols.push(key);
  };
  add('id');
  for (const s of sections) {
    for (const f of SECTION_FIELDS[s]) add(`${s}.${f}`);
    for (const rec of records) for (const key of Object.keys(rec)) if (key.startsWith(`${s}.`) || key === s) add(key);
  }
  for (const rec of records) for (const key of Object.keys(rec)) add(key);
  return cols;
}

function flatRecord(doc: Record<string, unknown>, fields?: string[]): Record<string, unknown> {
  if (!fields) return flatten(doc);
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = getPath(doc, f);
    put(out, f, v === undefined ? null : v);
  }
  return out;
}

function tableBlock(r: ProfileResult, sections: ProfileSection[], opts: GetOptions, ctx: Context): string {
  const c = ctx.colors;
  const personal = r.values.get('personal') as Record<string, unknown> | undefined;
  const employment = r.values.get('employment') as Record<string, unknown> | undefined;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const code = r.code ?? str(employment?.employeeCode) ?? r.ref;
  const name = str(personal?.fullLegalName) ?? r.name;
  let out = `${c.bold(sanitizeCell([code, name, r.id].filter(Boolean).join(' · ')))}\n`;
  if (opts.out.fields) {
    const rec = flatRecord(profileDocument(r, sections), opts.out.fields);
    return `${out}${renderKeyValue(rec, 1, { width: ctx.io.columns })}\n`;
  }
  for (const s of sections) {
    if (!r.values.has(s)) continue;
    const mask = s === 'bank' && !opts.reveal ? (path: string, v: unknown) => (ACCOUNT_KEY.test(path.slice(path.lastIndexOf('.') + 1)) ? maskAccount(v) : v) : undefined;
    out += `\n${c.bold(s)}\n${renderKeyValue(r.values.get(s), 1, { mask, width: ctx.io.columns, labels: 'human' })}`;
  }
  return `${out}\n`;
}

function reportFailure(ctx: Context, r: ProfileResult, f: Failure, onlyOne: boolean, json: boolean): void {
  // Errors follow the data: one JSON line per failure when the output is JSON.
  if (json) {
    ctx.io.stderr.write(renderErrorJson(f.error, { employee: r.ref, section: f.section ?? null }));
    return;
  }
  const c = ctx.errColors;
  const text = renderError(f.error, c, ctx.globals.debug);
  const label = f.section && !onlyOne ? `${r.ref}: section ${f.section}` : r.ref;
  const prefix = `${c.red('Error:')} `;
  // "No employee with code X" already names the employee.
  const labelled = f.error instanceof EmployeeNotFoundError ? text : text.startsWith(prefix) ? `${prefix}${sanitizeCell(label)}: ${text.slice(prefix.length)}` : text;
  ctx.io.stderr.write(fitError(labelled, ctx.io.stderrColumns, ctx.globals.debug));
}

export async function run(opts: GetOptions, ctx: Context): Promise<number> {
  const refs = [...opts.employees];
  if (opts.fromFile !== undefined) refs.push(...(await readRefs(opts.fromFile, ctx)));
  const unique = [...new Set(refs)];
  if (unique.length === 0) throw new UsageError(`No employees in --from-file ${opts.fromFile}`, 'Give one employee id or code per line.', 'MISSING_EMPLOYEE');
  const output = opts.out;
  const { sections } = opts;
  // One connection per request in flight (each employee's sections at once): a smaller pool queues
  // them (32 of 112 at --concurrency 16 ran 2.2-3.0x a client with all in flight). Bounded by the
  // flags: at most 16 employees x 7 sections.
  const http = await ctx.http({ connections: opts.concurrency * Math.max(1, sections.length) });
  const out = ctx.io.stdout;

  const codes: number[] = [];
  // An id and a code of the same person are one employee.
  const emitted = new Set<string>();
  const results = mapOrdered(unique, opts.concurrency, (ref) =>
    fetchProfile(http, ref, sections, ctx.signal).catch((fatal: unknown) => ({ ref, values: new Map(), failures: [], fatal }) as ProfileResult),
  );
  // Each profile that has something to show, its failures reported on stderr first.
  const profiles = (async function* () {
    for await (const r of results) {
      if (r.fatal !== undefined) throw r.fatal;
      // Several sections failing the same way (403 on each) are one message.
      const collapse = r.failures.length > 1 && r.failures.length === sections.length && r.failures.every((f) => f.error instanceof CliError && f.error.code === (r.failures[0].error as CliError).code);
      for (const f of collapse ? [r.failures[0]] : r.failures) {
        reportFailure(ctx, r, f, collapse, output.errors === 'json');
        codes.push(exitCodeFor(f.error));
      }
      if (r.id === undefined || (r.values.size === 0 && r.failures.length > 0) || emitted.has(r.id)) continue;
      emitted.add(r.id);
      const doc = profileDocument(r, sections);
      // A section's fields are known only from the answer: the first one must have every --fields path, or nothing is written (exit 2).
      if (emitted.size === 1 && output.fields) checkFieldsPresent(doc, output.fields);
      yield { r, doc };
    }
  })();

  if (output.format === 'table' && !output.quiet && output.jq === undefined) {
    // A key/value block per employee, as each arrives.
    for await (const p of profiles) await writeRecord(ctx.io, out, p.doc, output, { table: () => tableBlock(p.r, sections, opts, ctx), tableFields: true, unknownFields: 'ignore' });
  } else if (opts.single && !output.quiet && (output.format === 'json' || output.jq !== undefined)) {
    // One employee named: one object, not an array. Nothing for one that failed: stderr says why.
    let only: Record<string, unknown> | undefined;
    for await (const p of profiles) only = p.doc;
    if (only) await writeRecord(ctx.io, out, only, output);
  } else if (output.format === 'ndjson' || output.format === 'csv') {
    // Flat records with dot-path keys (--fields picks paths of the document).
    const flat = async function* () {
      for await (const p of profiles) yield flatRecord(p.doc, output.fields);
    };
    // CSV columns depend on every record (compensation has no fixed fields): the records are kept, not the HTTP responses.
    const rows: Record<string, unknown>[] = [];
    if (output.format === 'csv' && !output.quiet) for await (const rec of flat()) rows.push(rec);
    const cols = output.format === 'csv' ? (output.fields ?? csvColumns(sections, rows)) : [];
    const spec: ListSpec = { columns: [], csvColumns: cols.map((key) => ({ key, value: (item: unknown) => (item as Record<string, unknown>)[key] })), idField: 'id' };
    await writeList(ctx.io, out, output.format === 'csv' && !output.quiet ? rows : flat(), spec, { ...output, fields: undefined });
  } else {
    const docs = async function* () {
      for await (const p of profiles) yield p.doc;
    };
    await writeList(ctx.io, out, docs(), { columns: [], csvColumns: [], idField: 'id' }, output);
  }
  return worstExitCode(codes);
}

import { readFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { getProfileSection } from '../../api/employees.js';
import type { HttpClient } from '../../api/http.js';
import { EmployeeNotFoundError, resolveEmployee } from '../../api/resolve-employee.js';
import { PROFILE_SECTIONS, type ProfileSection } from '../../api/types.js';
import { ApiError, CliError, exitCodeFor, InterruptedError, UsageError, worstExitCode } from '../../errors.js';
import { readAll } from '../../input.js';
import { colorAllowed } from '../../io.js';
import { isUuid, parseInteger, parseText } from '../../options.js';
import { colors } from '../../output/colors.js';
import { csvRecord } from '../../output/csv.js';
import { flatten, getPath, pickFields } from '../../output/fields.js';
import { outputOptions, parseOutputFlags, type OutputFlags } from '../../output/options.js';
import { renderError, renderErrorJson } from '../../output/render-error.js';
import { errorFormatFor } from '../../output/error-format.js';
import { sanitizeCell } from '../../output/sanitize.js';
import { writeChunk } from '../../output/stream.js';
import { renderKeyValue } from '../../output/table.js';
import { writeDocument } from '../../output/writer.js';

export interface GetOptions extends OutputFlags {
  /** Ids or codes from the command line, in order. */
  employees: string[];
  sections: ProfileSection[];
  fromFile?: string;
  concurrency: number;
  reveal: boolean;
  /** One employee named on the command line: JSON is an object, not an array. */
  single: boolean;
}

const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 16;
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

function sectionOf(arg: string): ProfileSection | undefined {
  return PROFILE_SECTIONS.find((s) => s === arg.toLowerCase());
}

function unknownSection(arg: string): UsageError {
  const near = PROFILE_SECTIONS.find((s) => distance(s, arg.toLowerCase()) <= 2);
  return new UsageError(`Unknown section "${arg.slice(0, 40)}"${near ? ` (did you mean ${near}?)` : ''}`, `Sections: ${PROFILE_SECTIONS.join(', ')}. Name none for all of them.`, 'INVALID_SECTION');
}

/**
 * Positional arguments: employees first, then sections. With --from-file
 * every argument is a section. A lower-case word close to a section name is
 * taken for a misspelt section, not an employee code.
 */
export function parse(args: string[], raw: Record<string, unknown>): GetOptions {
  const fromFile = raw.fromFile === undefined ? undefined : String(raw.fromFile);
  if (fromFile !== undefined && fromFile.trim() === '') throw new UsageError('--from-file needs a path, or - for stdin', undefined, 'INVALID_OPTION');
  const employees: string[] = [];
  const sections: ProfileSection[] = [];
  for (const [i, arg] of args.entries()) {
    const section = sectionOf(arg);
    const employeesDone = fromFile !== undefined || sections.length > 0;
    if (i === 0 && fromFile === undefined) {
      if (section) throw new UsageError(`Name an employee before the sections (got "${arg}")`, 'For example: partner profile get ACME-00007 personal bank', 'MISSING_EMPLOYEE');
      employees.push(employeeRef(arg, 'employee'));
    } else if (section) {
      if (!sections.includes(section)) sections.push(section);
    } else if (employeesDone || (/^[a-z]+$/.test(arg) && PROFILE_SECTIONS.some((s) => distance(s, arg) <= 2))) {
      throw unknownSection(arg);
    } else {
      employees.push(employeeRef(arg, 'employee'));
    }
  }
  if (employees.length === 0 && fromFile === undefined) {
    throw new UsageError('Name at least one employee (id or code), or use --from-file', 'For example: partner profile get ACME-00007', 'MISSING_EMPLOYEE');
  }
  const flags = parseOutputFlags(raw);
  return {
    ...flags,
    employees: [...new Set(employees)],
    sections: sections.length ? sections : [...PROFILE_SECTIONS],
    fromFile,
    concurrency: parseInteger('--concurrency', raw.concurrency, { min: 1, max: MAX_CONCURRENCY }) ?? DEFAULT_CONCURRENCY,
    reveal: Boolean(raw.reveal),
    single: employees.length === 1 && fromFile === undefined,
  };
}

function employeeRef(raw: string, what: string): string {
  return parseText(what, raw)!;
}

/** Employee references from a file or stdin: one per line, blank lines and # comments skipped. */
async function readRefs(path: string, ctx: Context): Promise<string[]> {
  let text: string;
  if (path === '-') {
    text = await readAll(ctx.io.stdin, MAX_FILE_BYTES, ctx.signal);
  } else {
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : (err as Error).message;
      throw new UsageError(`Cannot read --from-file ${path}: ${why}`, undefined, 'INVALID_OPTION');
    }
    if (Buffer.byteLength(text) > MAX_FILE_BYTES) throw new UsageError(`--from-file ${path} is too large (over ${MAX_FILE_BYTES} bytes)`, undefined, 'INPUT_TOO_LARGE');
  }
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
    result.failures = [{ error: new EmployeeNotFoundError(ref, isUuid(ref) ? 'id' : 'code') }];
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

/** Bounded concurrency, results in input order; `fn` never rejects. */
async function* ordered<T, R>(inputs: T[], limit: number, fn: (input: T) => Promise<R>): AsyncGenerator<R> {
  const pending: Promise<R>[] = [];
  let next = 0;
  const launch = () => {
    if (next < inputs.length) {
      pending[next] = fn(inputs[next]);
      next++;
    }
  };
  for (let k = 0; k < limit; k++) launch();
  for (let i = 0; i < inputs.length; i++) {
    const r = await pending[i];
    delete pending[i];
    launch();
    yield r;
  }
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
    out[f] = v === undefined ? null : v;
  }
  return out;
}

/** The account number on screen: its last 4 characters. */
export function maskAccount(value: unknown): unknown {
  if (value === null || value === undefined || typeof value === 'object') return value;
  const text = String(value);
  return text.length <= 4 ? '****' : `****${text.slice(-4)}`;
}

function tableBlock(r: ProfileResult, sections: ProfileSection[], opts: GetOptions, ctx: Context): string {
  const c = ctx.colors;
  const personal = r.values.get('personal') as Record<string, unknown> | undefined;
  const employment = r.values.get('employment') as Record<string, unknown> | undefined;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const code = r.code ?? str(employment?.employeeCode) ?? r.ref;
  const name = str(personal?.fullLegalName) ?? r.name;
  let out = `${c.bold(sanitizeCell([code, name, r.id].filter(Boolean).join(' · ')))}\n`;
  if (opts.fields) {
    const rec = flatRecord(profileDocument(r, sections), opts.fields);
    return `${out}${renderKeyValue(rec, 1, { width: ctx.io.columns })}\n`;
  }
  for (const s of sections) {
    if (!r.values.has(s)) continue;
    const mask = s === 'bank' && !opts.reveal ? (path: string, v: unknown) => (/(^|\.)(accountNumber|iban)$/i.test(path) ? maskAccount(v) : v) : undefined;
    out += `\n${c.bold(s)}\n${renderKeyValue(r.values.get(s), 1, { mask, width: ctx.io.columns, labels: 'human' })}`;
  }
  return `${out}\n`;
}

function reportFailure(ctx: Context, r: ProfileResult, f: Failure, onlyOne: boolean, json: boolean): void {
  // Errors follow the data: one JSON line per failure when the output is JSON (issue 12).
  if (json) {
    ctx.io.stderr.write(renderErrorJson(f.error, { employee: r.ref, section: f.section ?? null }));
    return;
  }
  const c = colors(ctx.io.stderrIsTTY && colorAllowed(ctx.env, { color: ctx.globals.color }));
  const text = renderError(f.error, c, ctx.globals.debug);
  const label = f.section && !onlyOne ? `${r.ref}: section ${f.section}` : r.ref;
  const prefix = `${c.red('Error:')} `;
  // "No employee with code X" already names the employee.
  const labelled = f.error instanceof EmployeeNotFoundError ? text : text.startsWith(prefix) ? `${prefix}${sanitizeCell(label)}: ${text.slice(prefix.length)}` : text;
  ctx.io.stderr.write(labelled);
}

export async function run(opts: GetOptions, ctx: Context): Promise<number> {
  if (opts.jq !== undefined) await (await import('../../output/jq.js')).checkJqFilter(opts.jq);
  const refs = [...opts.employees];
  if (opts.fromFile !== undefined) refs.push(...(await readRefs(opts.fromFile, ctx)));
  const unique = [...new Set(refs)];
  if (unique.length === 0) throw new UsageError(`No employees in --from-file ${opts.fromFile}`, 'Give one employee id or code per line.', 'MISSING_EMPLOYEE');
  const output = outputOptions(opts, ctx.io);
  const { sections } = opts;
  const http = await ctx.api({ connections: Math.min(32, opts.concurrency * sections.length) });
  const out = ctx.io.stdout;

  const codes: number[] = [];
  // An id and a code of the same person are one employee.
  const emitted = new Set<string>();
  const docs: Record<string, unknown>[] = [];
  const results = ordered(unique, opts.concurrency, (ref) =>
    fetchProfile(http, ref, sections, ctx.signal).catch((fatal: unknown) => ({ ref, values: new Map(), failures: [], fatal }) as ProfileResult),
  );
  for await (const r of results) {
    if (r.fatal !== undefined) throw r.fatal;
    // Several sections failing the same way (403 on each) are one message.
    const collapse = r.failures.length > 1 && r.failures.length === sections.length && r.failures.every((f) => f.error instanceof CliError && f.error.code === (r.failures[0].error as CliError).code);
    for (const f of collapse ? [r.failures[0]] : r.failures) {
      reportFailure(ctx, r, f, collapse, output.jq !== undefined || errorFormatFor(output.format) === 'json');
      codes.push(exitCodeFor(f.error));
    }
    if (r.id === undefined || (r.values.size === 0 && r.failures.length > 0) || emitted.has(r.id)) continue;
    emitted.add(r.id);
    const doc = profileDocument(r, sections);
    if (output.quiet) {
      await writeChunk(out, `${sanitizeCell(r.id)}\n`);
    } else if (output.jq !== undefined || output.format === 'json') {
      docs.push(output.fields ? { ...pickFields(doc, output.fields) } : doc);
    } else if (output.format === 'ndjson') {
      await writeChunk(out, `${JSON.stringify(flatRecord(doc, output.fields))}\n`);
    } else if (output.format === 'csv') {
      docs.push(flatRecord(doc, output.fields));
    } else {
      await writeChunk(out, tableBlock(r, sections, opts, ctx));
    }
  }

  if (!output.quiet && (output.jq !== undefined || output.format === 'json')) {
    const value = opts.single ? (docs[0] ?? null) : docs;
    // Nothing to show for a single employee that failed: the error on stderr says why.
    if (!(opts.single && docs.length === 0)) await writeDocument(ctx.io, out, value, { jq: output.jq });
  } else if (output.format === 'csv' && !output.quiet) {
    const cols = output.fields ?? csvColumns(sections, docs);
    await writeChunk(out, csvRecord(cols, true));
    for (const rec of docs) await writeChunk(out, csvRecord(cols.map((k) => rec[k]), output.csvRaw));
  }
  return worstExitCode(codes);
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length];
}

import { STATUS_CODES } from 'node:http';
import type { Context } from '../../context.js';
import type { OptionsOf } from '../../command.js';
import type { api, ApiParam } from './api.js';
import { checkApiPath } from '../../api/api-path.js';
import type { HttpClient, Query } from '../../api/http.js';
import type { Page } from '../../api/pages.js';
import { walkPageBatches } from '../../api/pages.js';
import { AdaptiveConcurrency } from '../../api/adaptive-concurrency.js';
import { newFindings, settleWalk } from '../../api/walk-audit.js';
import { ApiError, CliError, ExitCode, UsageError } from '../../errors.js';
import { readInputFile } from '../../input.js';
import { LosslessNumber } from '../../json/lossless-number.js';
import { parseJsonExact } from '../../json/parse-exact.js';
import { batched } from '../../output/batch.js';
import { rememberRawRows } from '../../json/raw-rows.js';
import { sanitizeTerminal } from '../../text/sanitize.js';
import { writeChunk } from '../../output/stream.js';
import type { Column } from '../../output/table.js';
import { checkKnownFields } from '../../output/fields.js';
import { writeList, writeRecord, type ListSpec } from '../../output/writer.js';
import type { Pagination } from '../../api/types.js';

export type ApiOptions = OptionsOf<typeof api>;

/** A request body from --input or a -F @file: at most this much. */
const MAX_INPUT_BYTES = 1024 * 1024;
/** One answer (one page with --paginate): at most this much is read. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Pages in flight with --paginate (as `employees list --all` by default). */
const PAGINATE_CONCURRENCY = 8;
/** CSV columns are the keys of the first records (a list has no declared record). */
const COLUMN_SAMPLE = 1000;

export async function run(opts: ApiOptions, ctx: Context): Promise<void> {
  const adaptive = opts.paginate ? new AdaptiveConcurrency({ max: PAGINATE_CONCURRENCY, onChange: (n, why) => ctx.log.debug(`pages in flight: ${n} (${why})`) }) : undefined;
  const http = await ctx.http({
    connections: opts.paginate ? PAGINATE_CONCURRENCY + 1 : 1,
    onRetry: (e) => {
      if (e.status === 429 || e.status === 503) adaptive?.congestion(e.waitMs);
    },
  });
  // Before anything is read or sent: the path must stay on the configured API.
  const target = checkApiPath(opts.apiPath, http.baseUrl!);
  const params = await resolveParams([...opts.rawField, ...opts.field], ctx);
  const query: Query = Object.fromEntries(target.query);
  let body: unknown;
  if (opts.paramsInQuery) for (const [k, v] of params) query[k] = v === null ? 'null' : String(v);
  else if (params.length > 0) body = Object.fromEntries(params);
  if (opts.input !== undefined) body = parseJsonInput(await readInputFile(opts.input, { flag: '--input', maxBytes: MAX_INPUT_BYTES, stdin: ctx.io.stdin, signal: ctx.signal }));
  const headers = Object.fromEntries(opts.header);

  if (opts.paginate) return paginate(opts, ctx, http, target.path, query, headers, adaptive!);

  const res = await http.send(opts.method, target.path, { query, body, headers, signal: ctx.signal, maxBytes: MAX_RESPONSE_BYTES }).catch(async (err: unknown) => {
    // -i on an error answer: its status line, headers and body first, as on success (gh api -i); then the error.
    if (opts.include && err instanceof ApiError && err.answer) await writeErrorAnswer(ctx, http, err);
    throw err;
  });
  if (opts.include) await writeChunk(ctx.io.stdout, statusBlock(res.status, res.headers, http));
  if (res.body === undefined) return;
  if (res.text !== undefined && isPage(res.body)) rememberRawRows(res.text, res.body.data);
  await writeDocument(opts, ctx, res.body);
}

/** -f values as typed; -F values typed (JSON literals) or read from @file. */
async function resolveParams(params: ApiParam[], ctx: Context): Promise<[string, unknown][]> {
  const out: [string, unknown][] = [];
  for (const p of params) {
    if (!p.typed) out.push([p.key, p.value]);
    else if (p.value.startsWith('@')) out.push([p.key, await readInputFile(p.value.slice(1), { flag: `-F ${p.key}=@`, maxBytes: MAX_INPUT_BYTES, stdin: ctx.io.stdin, signal: ctx.signal })]);
    else out.push([p.key, typedValue(p.value)]);
  }
  return out;
}

/** A JSON number token (RFC 8259): what -F sends as a number. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * `gh api -F` rules: true, false, null and numbers are JSON; anything else
 * stays a string. A number is sent with its digits as typed, however many
 * (12345678901234567890 is not rounded, 1.0 stays 1.0): http.ts writes a
 * LosslessNumber's text.
 */
export function typedValue(v: string): unknown {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (v === 'null') return null;
  if (JSON_NUMBER.test(v)) return String(Number(v)) === v ? Number(v) : new LosslessNumber(v);
  return v;
}

function parseJsonInput(text: string): unknown {
  try {
    // The body is sent with its numbers as written in the file (http.ts writes a LosslessNumber's text).
    return parseJsonExact(text);
  } catch (err) {
    throw new UsageError(`--input is not valid JSON: ${(err as Error).message.slice(0, 120)}`, 'The body is sent as JSON; check the file.', 'INVALID_INPUT');
  }
}

/** `HTTP/1.1 200 OK` and the response headers (the token masked, made safe to print), then an empty line. */
function statusBlock(status: number, headers: Record<string, string | string[] | undefined>, http: HttpClient): string {
  let text = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd() + '\n';
  for (const [name, value] of Object.entries(headers)) {
    for (const v of Array.isArray(value) ? value : [value ?? '']) text += `${sanitizeTerminal(name)}: ${sanitizeTerminal(http.redactText(String(v)))}\n`;
  }
  return `${text}\n`;
}

/** An error answer under -i: status line and headers, then its body as it came (the token masked, made safe to print). */
async function writeErrorAnswer(ctx: Context, http: HttpClient, err: ApiError): Promise<void> {
  const { headers, text } = err.answer!;
  const body = text.trim() === '' ? '' : `${sanitizeTerminal(http.redactText(text)).trimEnd()}\n`;
  await writeChunk(ctx.io.stdout, statusBlock(err.status, headers, http) + body);
}

function isPage(v: unknown): v is Page<unknown> {
  return typeof v === 'object' && v !== null && Array.isArray((v as Page<unknown>).data) && typeof (v as Page<unknown>).pagination === 'object' && (v as Page<unknown>).pagination !== null;
}

/**
 * One answer through the output layer. A list ({data, pagination} or a bare
 * array) goes record by record when -o ndjson/csv or --fields ask for it;
 * otherwise (and with --jq) the document is printed as it came.
 */
async function writeDocument(opts: ApiOptions, ctx: Context, doc: unknown): Promise<void> {
  const out = opts.out;
  const items = Array.isArray(doc) ? doc : isPage(doc) ? doc.data : undefined;
  if (items && out.jq === undefined && (out.format !== 'json' || out.fields)) {
    const spec = listSpec(items.slice(0, COLUMN_SAMPLE), out.fields);
    if (isPage(doc)) spec.pagination = () => doc.pagination;
    await writeList(ctx.io, ctx.io.stdout, items, spec, out);
    return;
  }
  await writeRecord(ctx.io, ctx.io.stdout, doc, out);
}

/**
 * Columns for a list partner has no declaration of: the top-level keys of the
 * sample, in order of first appearance. A --fields name none of them has is a
 * usage error before anything is written (the records are known only now).
 */
function listSpec(sample: unknown[], fields: string[] | undefined): ListSpec {
  const keys = new Set<string>();
  for (const item of sample) if (item !== null && typeof item === 'object' && !Array.isArray(item)) for (const k of Object.keys(item)) keys.add(k);
  if (fields && keys.size > 0) checkKnownFields(fields, [...keys]);
  const columns: Column[] = [...keys].map((key) => ({ key }));
  return { columns, csvColumns: columns };
}

/**
 * --paginate: every page through the walk `employees list --all` uses
 * (ordered, concurrent, integrity-checked), printed as one document
 * {data: [all records], pagination} (the last page's pagination).
 */
async function paginate(opts: ApiOptions, ctx: Context, http: HttpClient, path: string, query: Query, headers: Record<string, string>, adaptive: AdaptiveConcurrency): Promise<void> {
  const startPage = query.page === undefined ? 1 : Number(query.page);
  if (!Number.isInteger(startPage) || startPage < 1) throw new UsageError('--paginate: page must be a whole number, 1 or more', undefined, 'INVALID_OPTION');
  const pageSize = query.pageSize === undefined ? undefined : Number(query.pageSize);
  const findings = newFindings(startPage);
  let lastPagination: Pagination | undefined;
  const fetchPage = async (page: number, signal: AbortSignal): Promise<Page<unknown>> => {
    const res = await http.send('GET', path, { query: { ...query, page }, headers, signal, maxBytes: MAX_RESPONSE_BYTES });
    if (!isPage(res.body)) {
      throw new CliError(`--paginate: the answer of GET ${sanitizeTerminal(path)} is not a paginated list ({"data": [...], "pagination": {...}})`, {
        code: 'NOT_PAGINATED',
        exitCode: ExitCode.FAILURE,
        hint: 'Drop --paginate: this endpoint answers in one document.',
      });
    }
    if (res.text !== undefined) rememberRawRows(res.text, res.body.data);
    return res.body;
  };
  const pages = walkPageBatches<unknown>(fetchPage, {
    startPage,
    pageSize: Number.isFinite(pageSize) ? pageSize : undefined,
    findings,
    concurrency: PAGINATE_CONCURRENCY,
    adaptive,
    signal: ctx.signal,
    onPage: (_page, pagination) => {
      lastPagination = pagination;
    },
  })[Symbol.asyncIterator]();
  // The first page names the CSV columns; it is written like every other.
  const first = await pages.next();
  const spec = listSpec(first.done ? [] : first.value.slice(0, COLUMN_SAMPLE), opts.out.fields);
  spec.pagination = () => lastPagination ?? null;
  async function* all(): AsyncGenerator<unknown[]> {
    try {
      if (first.done) return;
      yield first.value;
      for (let n = await pages.next(); !n.done; n = await pages.next()) yield n.value;
    } finally {
      await pages.return?.(undefined);
    }
  }
  const count = await writeList(ctx.io, ctx.io.stdout, batched(all()), spec, opts.out);
  const settled = settleWalk(findings, { rows: count, allowDrift: opts.allowDrift });
  for (const w of settled.warnings) ctx.log.warn(w);
  if (settled.error) throw settled.error;
}

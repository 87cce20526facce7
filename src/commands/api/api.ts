// `partner api <path>`: an authenticated request to any path of the configured
// API, as `gh api` is for GitHub (run: ./api.run.ts).
import { defineCommand, type Flag } from '../../command.js';
import { UsageError } from '../../errors.js';
import { arg, bool, choice, path, repeated } from '../../flags.js';

export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Headers partner sets itself (or the connection needs): -H cannot replace them. */
const RESERVED_HEADERS = new Set(['authorization', 'host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'keep-alive', 'te', 'trailer', 'proxy-authorization']);
const MAX_PARAM = 8192;

/** One -f/-F parameter as typed: the value is made typed (or read from @file) by the run. */
export interface ApiParam {
  key: string;
  value: string;
  typed: boolean;
}

function param(typed: boolean) {
  return (raw: string, name: string): ApiParam => {
    const eq = raw.indexOf('=');
    if (eq <= 0) throw new UsageError(`${name} needs key=value, not "${raw.slice(0, 40)}"`, `For example ${name} status=ACTIVE`, 'INVALID_OPTION');
    if (raw.length > MAX_PARAM) throw new UsageError(`${name} ${raw.slice(0, 20)}…: longer than ${MAX_PARAM} characters`, typed ? 'Put a long value into a file and pass -F key=@file.' : undefined, 'INVALID_OPTION');
    if (/[\u0000]/.test(raw)) throw new UsageError(`${name} contains a NUL character`, undefined, 'INVALID_OPTION');
    return { key: raw.slice(0, eq), value: raw.slice(eq + 1), typed };
  };
}

/** The files -F key=@file reads (never stdin, "@-"): checked like every input file before anything is read or sent. */
function fileParams(params: ApiParam[]): string[] {
  return params.filter((p) => p.typed && p.value.startsWith('@') && p.value !== '@-').map((p) => p.value.slice(1));
}

function header(raw: string, name: string): [string, string] {
  const colon = raw.indexOf(':');
  const key = colon < 0 ? '' : raw.slice(0, colon).trim();
  const value = colon < 0 ? '' : raw.slice(colon + 1).trim();
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) throw new UsageError(`${name} needs 'Name: value', not "${raw.slice(0, 40)}"`, `For example ${name} 'X-Request-Id: 42'`, 'INVALID_OPTION');
  if (/[\u0000-\u001f\u007f]/.test(value) || value.length > MAX_PARAM) throw new UsageError(`${name} ${key}: the value contains a control character or is too long`, undefined, 'INVALID_OPTION');
  if (RESERVED_HEADERS.has(key.toLowerCase())) {
    throw new UsageError(`${name} ${key}: partner sets this header itself`, key.toLowerCase() === 'authorization' ? 'The token comes from the profile (or PARTNER_TOKEN); use --profile to choose another.' : undefined, 'INVALID_OPTION');
  }
  return [key, value];
}

const withShort = <T>(flag: Flag<T>, short: string): Flag<T> => ({ ...flag, short });

export const api = defineCommand({
  name: 'api',
  summary: 'send an authenticated request to any path of the API (for endpoints partner does not wrap)',
  args: {
    path: arg.required('the path, starting with / (for example /v1/employees); resolved against the base URL, never another host', (raw) => raw),
  },
  flags: {
    method: withShort(choice(API_METHODS, 'the HTTP method (default GET; POST with --input)', { placeholder: 'method' }), 'X'),
    rawField: withShort(repeated('a string parameter key=value (query string for GET and DELETE, JSON body otherwise); repeatable', 'key=value', param(false)), 'f'),
    field: { ...withShort(repeated('a typed parameter: numbers, true, false and null as JSON, @file for a file\'s text (@- for stdin); repeatable', 'key=value', param(true)), 'F'), file: { role: 'input', paths: fileParams } },
    input: path('the JSON request body from this file (- for stdin); -f/-F then go to the query string'),
    header: withShort(repeated("an extra request header 'Name: value' (Authorization cannot be replaced); repeatable", 'header', header), 'H'),
    include: bool('print the status line and the response headers before the body', { short: 'i' }),
    paginate: bool('walk every page of a paginated list ({data, pagination}) and print one document {data: [all], pagination}'),
    allowDrift: bool('with --paginate: keep what was seen when the list changed during the walk or its pages did not add up (exit 0 with a warning; default: exit 1)'),
  },
  output: { formats: ['json', 'ndjson', 'csv'], default: 'json' },
  refine: (o) => {
    const { path: _path, out, ...rest } = o;
    void _path;
    void out;
    // Unlike gh, -f/-F never turn a request into a POST: a read stays a read unless -X (or --input) says otherwise.
    const method = o.method ?? (o.input !== undefined ? 'POST' : 'GET');
    if (o.paginate && method !== 'GET') throw new UsageError('--paginate only applies to GET requests');
    if (o.paginate && o.input !== undefined) throw new UsageError('--paginate cannot be used with --input', 'A paginated list is read with GET; pass query parameters with -f.');
    if (o.paginate && o.include) throw new UsageError('--paginate cannot be used with -i', 'Every page has its own headers; drop -i (or --paginate).');
    // The byte order mark belongs at the very start of the CSV, where -i puts the status line.
    if (o.include && o.out?.bom) throw new UsageError('--bom cannot be used with -i', 'The BOM must be the first bytes of the CSV, and -i prints the status and headers first; drop -i (or --bom).');
    if (o.allowDrift && !o.paginate) throw new UsageError('--allow-drift only applies with --paginate');
    if (o.input !== undefined && method === 'GET') throw new UsageError('--input sends a body, which GET does not have', 'Add -X POST (or PUT, PATCH).');
    if (o.field.some((f) => f.value === '@-') && o.input === '-') throw new UsageError('-F key=@- and --input - both read stdin; only one of them can');
    return { apiPath: o.path, ...rest, method, paramsInQuery: o.input !== undefined || method === 'GET' || method === 'DELETE' };
  },
  details: `The path is resolved against the base URL of the profile (or --base-url, --sandbox): an absolute URL, //host, a backslash or a . or .. segment is refused (exit 2) and nothing is sent; the token never leaves the configured API.
-f key=value is a string; -F key=value is typed (42, 1.5, true, false, null as JSON; @file is the file's text, at most 1 MiB). For GET and DELETE they are the query string; otherwise the JSON body {key: value, ...}. --input FILE sends that JSON as the body.
The answer is printed as JSON. -o ndjson prints one record per line and -o csv one row per record for a list ({data: [...]} or a bare array); --fields picks fields; --jq filters the whole document.
--paginate walks every page with the same ordered concurrent walk and integrity checks as employees list --all, and prints one document {"data": [all records], "pagination": {...}}; --jq runs over that whole document.
Exit codes as every command: 0 ok, 1 failure, 2 usage (a refused path), 3 not authenticated, 4 forbidden, 5 not found, 6 conflict, 7 rejected (400/422).`,
  examples: [
    'partner api /v1/employees -f status=ACTIVE -f pageSize=5',
    'partner api /v1/employees --paginate --jq ".data | length"',
    'partner api /v1/employees/onboarding-tracker -o ndjson',
    'partner api -i /v1/employees -f employeeCode=ACME-00007',
  ],
  load: () => import('./api.run.js'),
});

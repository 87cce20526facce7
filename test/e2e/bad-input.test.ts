// A corpus of bad input, run end to end (the CLI in-process, test/helpers/
// main-in-process.ts, against a real sandbox over HTTP): every case
// must fail with one clear message (the problem, and what to do instead),
// the documented exit code, no stack trace, and no request to the API (the
// sandbox's request log does not grow).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';

let dir: ReturnType<typeof tempDir>;
const sandboxes: Sandbox[] = [];
/** Fixture files, made at test time (big and binary ones are never committed). */
const f: Record<string, string> = {};

const FIXTURES = join(import.meta.dirname, '../fixtures/bad-input');
const HUGE = 'x'.repeat(100 * 1024);
const HUGE_DIGITS = '9'.repeat(100 * 1024);
const ENTITY = 'Acme India Pvt Ltd';
const isRoot = process.getuid?.() === 0;

beforeAll(async () => {
  dir = tempDir();
  const p = (name: string) => join(dir.path, name);
  f.missing = p('does-not-exist.json');
  f.dir = p('a-directory');
  mkdirSync(f.dir);
  f.empty = p('empty.json');
  writeFileSync(f.empty, '');
  f.blank = p('blank.txt');
  writeFileSync(f.blank, '\n\n   \n# only a comment\n');
  f.whitespace = p('whitespace.txt');
  writeFileSync(f.whitespace, '\n \n\t\n\n');
  f.binary = p('binary.bin');
  writeFileSync(f.binary, Buffer.from([0x00, 0xff, 0xfe, 0x1b, 0x5b, 0x32, 0x4a, 0x07, 0x80, 0x81, 0xc3, 0x28]));
  f.big = p('ten-mb.txt');
  writeFileSync(f.big, Buffer.alloc(10 * 1024 * 1024, 'A'));
  f.unreadable = p('unreadable.json');
  writeFileSync(f.unreadable, '{}');
  chmodSync(f.unreadable, 0o000);
  // Small committed fixtures.
  for (const name of ['invalid.json', 'array.json', 'not-jwks.json', 'jwks-no-keys.json', 'values-wrong-type.json', 'junk.jws']) f[name] = join(FIXTURES, name);
});

afterAll(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
  dir.cleanup();
});

/**
 * A sandbox of its own for each case (they start in milliseconds), so the
 * cases can run concurrently and "nothing was sent" is exact per case.
 */
async function sandboxFor(): Promise<{ sandbox: Sandbox; env: NodeJS.ProcessEnv }> {
  const sandbox = await startSandbox({ employees: 45 });
  sandboxes.push(sandbox);
  return { sandbox, env: isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA }) };
}

interface Case {
  /** argv after `partner` (a function when it needs the fixture paths) */
  args: string[] | (() => string[]);
  /** the message must match this (the problem) */
  message: RegExp;
  /** exit code; 2 (usage) unless said */
  code?: number;
  stdin?: string | Buffer | (() => Buffer);
  /** a reason to skip this case in this environment */
  skip?: string;
  /** read-only requests this case needs (the form schema to validate values against); nothing else may be sent */
  reads?: RegExp;
  /** most lines on stderr (default 3: the message, a hint, a pointer to --help); validation lists every field */
  lines?: number;
}

const did = (s: string) => new RegExp(`Did you mean ${s.replace(/[-]/g, '\\-')}\\?`);

// Unknown commands and flags: commander's message plus a "Did you mean".
const unknown: Record<string, Case> = {
  'unknown top-level command': { args: ['employes', 'list'], message: did('employees') },
  'unknown subcommand of employees': { args: ['employees', 'lst'], message: did('list') },
  'unknown subcommand of webhook': { args: ['webhook', 'verfy'], message: did('verify') },
  'unknown subcommand of gp': { args: ['gp', 'craete'], message: did('create') },
  'unknown subcommand of auth': { args: ['auth', 'stauts'], message: did('status') },
  'unknown subcommand of trackers': { args: ['trackers', 'onbaording'], message: did('onboarding') },
  'unknown subcommand of sandbox': { args: ['sandbox', 'strat'], message: did('start') },
  'unknown subcommand of profile': { args: ['profile', 'gte', 'X'], message: did('get') },
  'unknown flag of employees list': { args: ['employees', 'list', '--pag', '2'], message: did('--page') },
  'unknown flag (single dash typo)': { args: ['employees', 'list', '--stauts', 'ACTIVE'], message: did('--status') },
  'unknown flag of webhook verify': { args: ['webhook', 'verify', '--jwks-fil', 'x'], message: did('--jwks-file') },
  'unknown flag of webhook listen': { args: ['webhook', 'listen', '--prot', '1'], message: did('--port') },
  'unknown flag of gp create': { args: ['gp', 'create', '--from-fil', 'x'], message: did('--from-file') },
  'unknown flag of profile get': { args: ['profile', 'get', 'X', '--reveel'], message: did('--reveal') },
  'unknown flag of trackers onboarding': { args: ['trackers', 'onboarding', '--employee-cod', 'X'], message: did('--employee-code') },
  'unknown global flag': { args: ['--debgu', 'employees', 'list'], message: /unknown option '--debgu'/ },
  'unknown command with a huge name': { args: [HUGE], message: /unknown command 'x{60}…'/ },
  'unknown command with an escape sequence': { args: ['\u001b]0;pwned\u0007\u001b[2J'], message: /unknown command/ },
  'unknown flag with an escape sequence': { args: ['employees', 'list', '--\u001b[31mred'], message: /unknown option/ },
};

// Flag values: out of range, wrong type, empty, huge.
const values: Record<string, Case> = {
  'page 0': { args: ['employees', 'list', '--page', '0'], message: /--page must be a whole number of 1 or more/ },
  'page negative': { args: ['employees', 'list', '--page', '-3'], message: /--page/ },
  'page not a number': { args: ['employees', 'list', '--page', 'two'], message: /--page must be a whole number/ },
  'page a fraction': { args: ['employees', 'list', '--page', '1.5'], message: /--page must be a whole number/ },
  'page huge': { args: ['employees', 'list', '--page', HUGE_DIGITS], message: /--page must be a whole number/ },
  'page with an escape sequence (echoed back neutralised)': { args: ['employees', 'list', '--page', '\u001b]0;pwned\u0007\u001b[2J'], message: /--page must be a whole number/ },
  'page empty': { args: ['employees', 'list', '--page', ''], message: /--page must be a whole number/ },
  'page-size 0': { args: ['employees', 'list', '--page-size', '0'], message: /--page-size must be a whole number from 1 to 100/ },
  'page-size 101': { args: ['employees', 'list', '--page-size', '101'], message: /--page-size must be a whole number from 1 to 100/ },
  'page-size hex': { args: ['employees', 'list', '--page-size', '0x10'], message: /--page-size/ },
  'page-size 1e2': { args: ['employees', 'list', '--page-size', '1e2'], message: /--page-size/ },
  // Contradictory or pointless input: a usage error before any request.
  '--page with --all': { args: ['employees', 'list', '--all', '--page', '2'], message: /--page cannot be used with --all/ },
  'a misspelt section after a code': { args: ['profile', 'get', 'ACME-00007', 'banking'], message: /unknown section "banking" \(did you mean bank\?\)/i },
  'a section two edits away': { args: ['profile', 'get', 'ACME-00007', 'personl'], message: /did you mean personal\?/ },
  'timeout 0 names the range': { args: ['--timeout', '0', 'employees', 'list'], message: /greater than 0 and at most 3600/ },
  'status unknown': { args: ['employees', 'list', '--status', 'RETIRED'], message: /--status.*Allowed choices are ONBOARDING, ACTIVE/ },
  'status empty': { args: ['employees', 'list', '--status', ''], message: /--status/ },
  'sort-by unknown': { args: ['employees', 'list', '--sort-by', 'name'], message: /--sort-by.*startOn/ },
  'sort-order unknown': { args: ['employees', 'list', '--sort-order', 'sideways'], message: /--sort-order/ },
  'employee-id malformed': { args: ['employees', 'list', '--employee-id', '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3'], message: /--employee-id must be a UUID/ },
  'employee-id with a bad character': { args: ['employees', 'list', '--employee-id', '3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3g'], message: /--employee-id must be a UUID/ },
  'employee-id with braces': { args: ['employees', 'list', '--employee-id', '{3f2b8c1e-9d4a-4c6e-8b7f-2a1d5e9c0b3a}'], message: /--employee-id must be a UUID/ },
  'employee-id empty': { args: ['employees', 'list', '--employee-id', ''], message: /--employee-id must be a UUID/ },
  'employee-id huge': { args: ['employees', 'list', '--employee-id', HUGE], message: /--employee-id must be a UUID/ },
  'employee-id SQL-ish': { args: ['employees', 'list', '--employee-id', "' OR 1=1 --"], message: /--employee-id must be a UUID/ },
  'employee-code empty': { args: ['employees', 'list', '--employee-code', ''], message: /--employee-code must not be empty/ },
  'employee-code huge': { args: ['employees', 'list', '--employee-code', HUGE], message: /--employee-code is too long/ },
  'employee-code with control characters': { args: ['employees', 'list', '--employee-code', 'A\u001b[2JB'], message: /--employee-code contains control characters/ },
  'limit 0': { args: ['employees', 'list', '--all', '--limit', '0'], message: /--limit/ },
  'limit negative': { args: ['employees', 'list', '--all', '--limit', '-1'], message: /--limit/ },
  'concurrency 0': { args: ['employees', 'list', '--all', '--concurrency', '0'], message: /--concurrency must be a whole number from 1 to 32/ },
  'concurrency 33': { args: ['employees', 'list', '--all', '--concurrency', '33'], message: /--concurrency must be a whole number from 1 to 32/ },
  'output format unknown': { args: ['employees', 'list', '-o', 'xml'], message: /--output.*Allowed choices are table, json, ndjson, csv/ },
  'fields empty': { args: ['employees', 'list', '--fields', ''], message: /Invalid --fields/ },
  'fields only commas': { args: ['employees', 'list', '--fields', ',,,'], message: /--fields/ },
  'flag value missing': { args: ['employees', 'list', '--page'], message: /option '--page <n>' argument missing/ },
  'timeout 0': { args: ['--timeout', '0', 'employees', 'list'], message: /--timeout must be a number of seconds/ },
  'timeout negative': { args: ['--timeout', '-5', 'employees', 'list'], message: /--timeout/ },
  'timeout not a number': { args: ['--timeout', 'soon', 'employees', 'list'], message: /--timeout must be a number of seconds/ },
  'timeout over an hour': { args: ['--timeout', '3601', 'employees', 'list'], message: /--timeout must be a number of seconds/ },
  'timeout huge': { args: ['--timeout', HUGE_DIGITS, 'employees', 'list'], message: /--timeout must be a number of seconds/ },
  'base-url plain http to a remote host': { args: ['--base-url', 'http://api.example.com', 'employees', 'list'], message: /only https:\/\/ is allowed/ },
  'base-url not a URL': { args: ['--base-url', 'not a url', 'employees', 'list'], message: /is not a valid URL/ },
  'base-url ftp': { args: ['--base-url', 'ftp://api.example.com', 'employees', 'list'], message: /only https:\/\// },
  'base-url huge': { args: ['--base-url', `https://${HUGE}.example.com`, 'employees', 'list'], message: /base URL/i },
  'trackers employee-id malformed': { args: ['trackers', 'onboarding', '--employee-id', '123'], message: /--employee-id must be a UUID/ },
  'trackers employee-code empty': { args: ['trackers', 'offboarding', '--employee-code', ''], message: /--employee-code must not be empty/ },
  'trackers employee-code huge': { args: ['trackers', 'offboarding', '--employee-code', HUGE], message: /--employee-code is too long/ },
  'profile get with no employee': { args: ['profile', 'get'], message: /Name at least one employee/ },
  'profile get: section before employee': { args: ['profile', 'get', 'personal'], message: /Name an employee before the sections/ },
  'profile get: misspelt section': { args: ['profile', 'get', 'ACME-00001', 'persnal'], message: /Unknown section "persnal" \(did you mean personal\?\)/ },
  'profile get concurrency 0': { args: ['profile', 'get', 'ACME-00001', '--concurrency', '0'], message: /--concurrency must be a whole number from 1 to 16/ },
  'profile get concurrency 17': { args: ['profile', 'get', 'ACME-00001', '--concurrency', '17'], message: /--concurrency/ },
  'profile get employee huge': { args: ['profile', 'get', HUGE], message: /too long/ },
  'profile get employee with control characters': { args: ['profile', 'get', 'A\u0007B'], message: /control characters/ },
  'gp schema without --entity': { args: ['gp', 'schema'], message: /required option '--entity <name>' not specified/ },
  'gp schema --entity empty': { args: ['gp', 'schema', '--entity', ''], message: /--entity must not be empty/ },
  'gp schema --entity huge': { args: ['gp', 'schema', '--entity', HUGE], message: /--entity is too long/ },
  'gp schema -o csv': { args: ['gp', 'schema', '--entity', ENTITY, '-o', 'csv'], message: /Allowed choices are table, json/ },
  'gp create --set without =': { args: ['gp', 'create', '--entity', ENTITY, '--set', 'personal.firstName'], message: /--set must look like section\.field=value/ },
  'gp create without --entity and no terminal to ask on': { args: ['gp', 'create', '--from-file', '-'], stdin: '{}', message: /--entity is required/ },
  'dynamic-details submit employee with control characters': { args: ['dynamic-details', 'submit', 'A\u001b[2J'], message: /control characters|employee/ },
  'gp create --entity empty': { args: ['gp', 'create', '--entity', '', '--no-input'], message: /--entity/ },
  'gp create --resume with --from-file': { args: () => ['gp', 'create', '--entity', ENTITY, '--resume', '--from-file', f['values-wrong-type.json']!], message: /--resume|draft/ },
  'dynamic-details submit without employee': { args: ['dynamic-details', 'submit'], message: /missing required argument 'employee'/ },
  'dynamic-details submit --set without =': { args: ['dynamic-details', 'submit', 'ACME-00001', '--set', 'legal'], message: /--set must look like section\.field=value/ },
  'webhook listen port 70000': { args: ['webhook', 'listen', '--port', '70000'], message: /--port must be a whole number from 0 to 65535/ },
  'webhook listen port negative': { args: ['webhook', 'listen', '--port', '-1'], message: /--port/ },
  'webhook listen port text': { args: ['webhook', 'listen', '--port', 'http'], message: /--port/ },
  'webhook listen forward-to ftp': { args: ['webhook', 'listen', '--forward-to', 'ftp://x'], message: /--forward-to must be an http\(s\) URL/ },
  'webhook listen forward-to not a URL': { args: ['webhook', 'listen', '--forward-to', 'localhost'], message: /--forward-to/ },
  'webhook listen host not an address': { args: ['webhook', 'listen', '--host', ''], message: /--host/ },
  'webhook listen -o csv': { args: ['webhook', 'listen', '-o', 'csv'], message: /Allowed choices are table, ndjson/ },
  'webhook verify -o yaml': { args: ['webhook', 'verify', 'x', '-o', 'yaml'], message: /Allowed choices are table, json, ndjson, csv/ },
  'webhook verify --jwks-url plain http remote': { args: ['webhook', 'verify', 'x', '--jwks-url', 'http://keys.example.com/jwks.json'], message: /--jwks-url: Refusing/ },
  'webhook verify --jwks-url and --jwks-file': { args: () => ['webhook', 'verify', 'x', '--jwks-url', 'https://keys.example.com/', '--jwks-file', f['not-jwks.json']!], message: /cannot be used together/ },
  'webhook verify argument and --file': { args: () => ['webhook', 'verify', 'x', '--file', f.empty!], message: /not both/ },
  'sandbox start port 65536': { args: ['sandbox', 'start', '--port', '65536'], message: /--port must be a whole number from 0 to 65535/ },
  'sandbox start fail-rate 2': { args: ['sandbox', 'start', '--fail-rate', '2'], message: /--fail-rate must be a number from 0 to 1/ },
  'sandbox start fail-rate text': { args: ['sandbox', 'start', '--fail-rate', 'half'], message: /--fail-rate/ },
  'sandbox start employees text': { args: ['sandbox', 'start', '--employees', 'many'], message: /--employees must be a whole number/ },
  'sandbox start employees huge': { args: ['sandbox', 'start', '--employees', HUGE_DIGITS], message: /--employees must be a whole number/ },
  'sandbox start remote host': { args: ['sandbox', 'start', '--host', '8.8.8.8'], message: /--host must be a loopback address/ },
  'sandbox start latency negative': { args: ['sandbox', 'start', '--latency-ms', '-1'], message: /--latency-ms/ },
  'sandbox emit unknown event': { args: ['sandbox', 'emit', 'EMPLOYEE_HIRED', '--print'], message: /EVENT_TYPE "EMPLOYEE_HIRED" is not an event type of the spec/ },
  'sandbox emit invalid --data JSON': { args: ['sandbox', 'emit', 'EMPLOYEE_CREATED', '--print', '--data', '{'], message: /--data/ },
  'sandbox emit --data not an object': { args: ['sandbox', 'emit', 'EMPLOYEE_CREATED', '--print', '--data', '[1]'], message: /--data/ },
  'auth login remote plain http': { args: ['auth', 'login', '--base-url', 'http://api.example.com', '--with-token'], stdin: 'tok\n', message: /only https:\/\// },
  'auth login empty token on stdin': { args: ['auth', 'login', '--with-token', '--insecure-storage'], stdin: '\n', message: /token/i },
  'completion for an unknown shell': { args: ['completion', 'tcsh'], message: /Allowed choices are bash, zsh, fish/ },
  'doctor -o xml': { args: ['doctor', '-o', 'xml'], message: /Allowed choices are table, json/ },
  'auth status -o xml': { args: ['auth', 'status', '-o', 'xml'], message: /Allowed choices are/ },
  'sandbox emit --to ftp': { args: ['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', 'ftp://x'], message: /--to must be an http\(s\) URL/ },
  'sandbox start --webhook-url ftp': { args: ['sandbox', 'start', '--webhook-url', 'ftp://x'], message: /--webhook-url must be an http\(s\) URL/ },
  'sandbox start --seed negative': { args: ['sandbox', 'start', '--seed', '-1'], message: /--seed must be a whole number/ },
  'sandbox start --reset-rate negative': { args: ['sandbox', 'start', '--reset-rate', '-0.1'], message: /--reset-rate must be a number from 0 to 1/ },
  'sandbox start --html502-rate empty': { args: ['sandbox', 'start', '--html502-rate', ''], message: /--html502-rate/ },
  'webhook listen --events empty': { args: ['webhook', 'listen', '--events', ' , '], message: /--events needs at least one event type/ },
  'webhook listen --events junk': { args: ['webhook', 'listen', '--events', 'EMPLOYEE CREATED'], message: /--events: .* is not an event type name/ },
  'webhook listen --path with a query': { args: ['webhook', 'listen', '--path', '/hook?x=1'], message: /--path must be a URL path/ },
};

// Files: missing, unreadable, a directory, empty, binary, too big, not JSON, wrong JSON.
const files: Record<string, Case> = {
  'profile --from-file missing': { args: () => ['profile', 'get', '--from-file', f.missing!], message: /Cannot read --from-file .*(no such file|ENOENT)/ },
  'profile --from-file unreadable': { args: () => ['profile', 'get', '--from-file', f.unreadable!], message: /Cannot read --from-file/, skip: isRoot ? 'running as root: chmod 000 does not stop root from reading (the directory case covers an unreadable path)' : undefined },
  'profile --from-file a directory': { args: () => ['profile', 'get', '--from-file', f.dir!], message: /Cannot read --from-file .*directory/ },
  'profile --from-file empty': { args: () => ['profile', 'get', '--from-file', f.empty!], message: /No employees in --from-file/ },
  'profile --from-file only blanks and comments': { args: () => ['profile', 'get', '--from-file', f.blank!], message: /No employees in --from-file/ },
  'profile --from-file binary': { args: () => ['profile', 'get', '--from-file', f.binary!], message: /--from-file/ },
  'profile --from-file 10 MB': { args: () => ['profile', 'get', '--from-file', f.big!], message: /--from-file|too large/i },
  'profile --from-file - with binary stdin': { args: ['profile', 'get', '--from-file', '-'], stdin: () => Buffer.from([0, 1, 2, 0x1b, 0x5b, 0x41, 0xff]), message: /control characters|--from-file/ },
  'profile --from-file - with empty stdin': { args: ['profile', 'get', '--from-file', '-'], stdin: '', message: /No employees/ },
  'gp create --from-file missing': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', f.missing!], message: /Cannot read .*does-not-exist\.json/ },
  'gp create --from-file unreadable': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', f.unreadable!], message: /Cannot read/, skip: isRoot ? 'running as root: chmod 000 does not stop root from reading (the directory case covers an unreadable path)' : undefined },
  'gp create --from-file a directory': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', f.dir!], message: /Cannot read|directory/ },
  'gp create --from-file empty': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', f.empty!], message: /is not valid JSON|empty/ },
  'gp create --from-file invalid JSON': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', f['invalid.json']!], message: /is not valid JSON/ },
  'gp create --from-file binary': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', f.binary!], message: /is not valid UTF-8: line 1, byte offset 1/ },
  'gp create --from-file a JSON array': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', f['array.json']!], message: /object/ },
  'gp create --from-file 10 MB': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', f.big!], message: /too large|bytes/i },
  'gp create --from-file - with invalid JSON on stdin': { args: ['gp', 'create', '--entity', ENTITY, '--from-file', '-'], stdin: '{"personal": ', message: /not valid JSON/ },
  'gp create --from-file wrong types, --dry-run': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', f['values-wrong-type.json']!, '--dry-run'], message: /personal.firstName[\s\S]*employment.weeklyHours[\s\S]*compensation.baseSalary/, lines: 30, reads: /^\/v1\/employees\/dynamic-details\/schema$/ },
  'gp create --body-file missing': { args: () => ['gp', 'create', '--entity', ENTITY, '--body-file', f.missing!, '--yes'], message: /Cannot read --body-file .*does-not-exist\.json/ },
  'gp create --body-file a directory': { args: () => ['gp', 'create', '--entity', ENTITY, '--body-file', f.dir!, '--yes'], message: /Cannot read --body-file/ },
  'gp create --body-file binary': { args: () => ['gp', 'create', '--entity', ENTITY, '--body-file', f.binary!, '--yes'], message: /--body-file .* is not valid UTF-8: line 1, byte offset 1/ },
  'gp create --body-file a JSON array': { args: () => ['gp', 'create', '--entity', ENTITY, '--body-file', f['array.json']!, '--yes'], message: /must hold the request body, a JSON object/ },
  'gp create --body-file 10 MB': { args: () => ['gp', 'create', '--entity', ENTITY, '--body-file', f.big!, '--yes'], message: /--body-file .*too large/ },
  'gp create --body-file with --from-file': { args: () => ['gp', 'create', '--entity', ENTITY, '--body-file', f['array.json']!, '--from-file', f['array.json']!], message: /cannot be combined with --from-file/ },
  'dynamic-details --body-file missing': { args: () => ['dynamic-details', 'submit', 'ACME-00001', '--body-file', f.missing!, '--yes'], message: /Cannot read --body-file/ },
  'gp create --from-csv missing': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-csv', f.missing!], message: /Cannot read --from-csv .*does-not-exist\.json/ },
  'gp create --from-csv a directory': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-csv', f.dir!], message: /Cannot read --from-csv/ },
  'gp create --from-csv empty': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-csv', f.empty!], message: /has no header row/ },
  'gp create --from-csv binary': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-csv', f.binary!], message: /is not valid UTF-8: row 1, column 1 /, lines: 3, reads: /^$/ },
  'gp create --from-csv 10 MB of one cell': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-csv', f.big!], message: /has a row over 256 KiB/ },
  'gp create --from-csv without --entity': { args: () => ['gp', 'create', '--from-csv', f.empty!], message: /--from-csv needs --entity/ },
  'gp create --from-csv with --set': { args: () => ['gp', 'create', '--entity', ENTITY, '--from-csv', f.empty!, '--set', 'a.b=c'], message: /cannot be combined with --from-file, --set/ },
  'gp create --skip-invalid without --from-csv': { args: ['gp', 'create', '--entity', ENTITY, '--skip-invalid'], message: /--skip-invalid and --results go with --from-csv/ },
  'dynamic-details --from-file missing': { args: () => ['dynamic-details', 'submit', 'ACME-00001', '--from-file', f.missing!], message: /Cannot read/ },
  'dynamic-details --from-file invalid JSON': { args: () => ['dynamic-details', 'submit', 'ACME-00001', '--from-file', f['invalid.json']!], message: /is not valid JSON/ },
  'verify --jwks-file missing': { args: () => ['webhook', 'verify', 'x.y.z', '--jwks-file', f.missing!], message: /Cannot read --jwks-file/ },
  'verify --jwks-file unreadable': { args: () => ['webhook', 'verify', 'x.y.z', '--jwks-file', f.unreadable!], message: /Cannot read --jwks-file/, skip: isRoot ? 'running as root: chmod 000 does not stop root from reading (the directory case covers an unreadable path)' : undefined },
  'verify --jwks-file a directory': { args: () => ['webhook', 'verify', 'x.y.z', '--jwks-file', f.dir!], message: /--jwks-file/ },
  'verify --jwks-file empty': { args: () => ['webhook', 'verify', 'x.y.z', '--jwks-file', f.empty!], message: /--jwks-file .* is not JSON/ },
  'verify --jwks-file invalid JSON': { args: () => ['webhook', 'verify', 'x.y.z', '--jwks-file', f['invalid.json']!], message: /--jwks-file .* is not JSON/ },
  'verify --jwks-file binary': { args: () => ['webhook', 'verify', 'x.y.z', '--jwks-file', f.binary!], message: /--jwks-file/ },
  'verify --jwks-file 10 MB': { args: () => ['webhook', 'verify', 'x.y.z', '--jwks-file', f.big!], message: /--jwks-file .* is larger than 1 MiB/ },
  'verify --jwks-file JSON but not a key set': { args: () => ['webhook', 'verify', 'x.y.z', '--jwks-file', f['not-jwks.json']!], message: /--jwks-file|key set|keys/ },
  'verify --jwks-file with no keys': { args: () => ['webhook', 'verify', 'x.y.z', '--jwks-file', f['jwks-no-keys.json']!], message: /key/ },
  'verify --file missing': { args: () => ['webhook', 'verify', '--file', f.missing!], message: /Cannot read --file/ },
  'verify --file unreadable': { args: () => ['webhook', 'verify', '--file', f.unreadable!, '--jwks-file', f['not-jwks.json']!], message: /Cannot read --file|--jwks-file/, skip: isRoot ? 'running as root: chmod 000 does not stop root from reading (the directory case covers an unreadable path)' : undefined },
  'verify --file a directory': { args: () => ['webhook', 'verify', '--file', f.dir!], message: /--file .* is not a file/ },
  'verify --file empty': { args: () => ['webhook', 'verify', '--file', f.empty!], message: /holds no JWS/ },
  'verify --file only blank lines': { args: () => ['webhook', 'verify', '--file', f.whitespace!], message: /holds no JWS/ },
  'verify --file empty path': { args: ['webhook', 'verify', '--file', ''], message: /--file must not be empty/ },
  'verify --jwks-file empty path': { args: ['webhook', 'verify', 'x', '--jwks-file', ''], message: /--jwks-file must not be empty/ },
  'verify: nothing on stdin': { args: ['webhook', 'verify'], stdin: '', message: /No JWS given/ },
  'listen --jwks-file missing': { args: () => ['webhook', 'listen', '--jwks-file', f.missing!], message: /Cannot read --jwks-file/ },
  'listen --jwks-file invalid JSON': { args: () => ['webhook', 'listen', '--jwks-file', f['invalid.json']!], message: /--jwks-file .* is not JSON/ },
};

function argsOf(c: Case): string[] {
  return typeof c.args === 'function' ? c.args() : c.args;
}

async function expectRefused(c: Case): Promise<void> {
  const { sandbox, env } = await sandboxFor();
  const before = sandbox.requests.length;
  const stdin = typeof c.stdin === 'function' ? c.stdin() : c.stdin;
  const r = await runMain(argsOf(c), { env, input: stdin });
  const code = c.code ?? 2;
  expect(r.code, r.stderr.slice(0, 600)).toBe(code);
  const lines = r.stderr.trimEnd().split('\n');
  if (lines.at(-1)!.startsWith('{')) {
    // a command whose data goes out as JSON (here: piped) reports the error as one JSON object on stderr
    // (after the field listing of the form engine, for validation failures).
    expect(lines.length, r.stderr.slice(0, 600)).toBeLessThanOrEqual(c.lines ?? 1);
    const { error } = JSON.parse(lines.at(-1)!) as { error: { message: string; hint?: string; exitCode: number; details: { field: string; message: string }[] } };
    expect(error.exitCode).toBe(code);
    const text = [...lines.slice(0, -1), error.message, error.hint ?? '', ...error.details.map((d) => `${d.field}: ${d.message}`)].join('\n');
    expect(text.slice(0, 2000)).toMatch(c.message);
  } else {
    // One clear message first, at most a hint and a pointer to --help after it.
    if (c.lines) expect(lines.some((l) => /^Error: \S/.test(l)), r.stderr.slice(0, 600)).toBe(true);
    else expect(lines[0], r.stderr.slice(0, 600)).toMatch(/^Error: \S/);
    expect(lines.length, r.stderr.slice(0, 600)).toBeLessThanOrEqual(c.lines ?? 3);
    expect(r.stderr.slice(0, 2000)).toMatch(c.message);
  }
  // Never echoes 100 kB back, never a stack trace, never raw control bytes.
  expect(r.stderr.length).toBeLessThan(c.lines ? 4000 : 1000);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  expect(r.stdout).toBe('');
  // Nothing was sent (at most the reads the case needs, never a write).
  const sent = sandbox.requests.slice(before);
  if (c.reads) expect(sent.filter((q) => q.method !== 'GET' || !c.reads!.test(q.path)).map((q) => `${q.method} ${q.path}`)).toEqual([]);
  else expect(sent.map((q) => `${q.method} ${q.path}`)).toEqual([]);
}

function caseTest(name: string, c: Case): void {
  if (c.skip) it.skip(`${name} (skipped: ${c.skip})`, () => undefined);
  else it(name, () => expectRefused(c));
}

describe.concurrent('unknown commands and flags: a "Did you mean", exit 2, nothing sent', () => {
  for (const [name, c] of Object.entries(unknown)) caseTest(name, c);
});

describe.concurrent('bad flag values: out of range, wrong type, empty, huge', () => {
  for (const [name, c] of Object.entries(values)) caseTest(name, c);
});

describe.concurrent('bad files: missing, unreadable, a directory, empty, binary, 10 MB, invalid JSON', () => {
  for (const [name, c] of Object.entries(files)) caseTest(name, c);
});

// Junk where a JWS belongs is not a usage error: it is a webhook that fails
// verification (exit 8, reason MALFORMED or TOO_LARGE) — and the key set is
// never fetched for it (the JWS is parsed before any key is looked up).
describe.concurrent('junk where a JWS belongs: exit 8, MALFORMED / TOO_LARGE, no key-set fetch', () => {
  const junk: Record<string, { arg?: string; stdin?: () => Buffer | string; file?: boolean; reason: string }> = {
    'binary bytes on stdin': { stdin: () => Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x1b, 0x5b, 0x32, 0x4a, 0xc3, 0x28]), reason: 'MALFORMED' },
    '10 MB on stdin': { stdin: () => Buffer.alloc(10 * 1024 * 1024, 'e'), reason: 'TOO_LARGE' },
    'unicode text': { arg: 'Grüße.Ωμέγα.日本語', reason: 'MALFORMED' },
    'emoji in every part': { arg: '🔐.🦄.💥', reason: 'MALFORMED' },
    'a JWS-looking string with an emoji in the signature': { arg: 'eyJhbGciOiJFUzUxMiJ9.eyJhIjoxfQ.abc💥def', reason: 'MALFORMED' },
    'right-to-left override and zero-width joiners': { arg: 'eyJ\u202e\u200dhbGciOi.x.y', reason: 'MALFORMED' },
    'an escape sequence': { arg: '\u001b]0;pwned\u0007.\u001b[2J.x', reason: 'MALFORMED' },
    'a JSON object': { arg: '{"eventType":"EMPLOYEE_CREATED"}', reason: 'MALFORMED' },
    'dots only': { arg: '..', reason: 'MALFORMED' },
    'a 100 kB single part': { arg: HUGE, reason: 'MALFORMED' },
  };
  for (const [name, j] of Object.entries(junk)) {
    it(name, async () => {
      const { sandbox, env } = await sandboxFor();
      const before = sandbox.requests.length;
      const args = ['webhook', 'verify', ...(j.arg !== undefined ? [j.arg] : []), '-o', 'json'];
      const r = await runMain(args, { env, input: j.stdin?.() });
      expect(r.code, r.stderr).toBe(8);
      const verdict = JSON.parse(r.stdout) as { valid: boolean; reason: string; message: string };
      expect(verdict).toMatchObject({ valid: false, reason: j.reason });
      expect(verdict.message).toMatch(/\S/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(sandbox.requests.length - before).toBe(0);
      // The human verdict is one clean line of reason, with no control bytes.
      const t = await runMain([...args.slice(0, -2), '-o', 'table'], { env, input: j.stdin?.() });
      expect(t.code).toBe(8);
      expect(t.stdout).toMatch(new RegExp(`^INVALID\\s+${j.reason}`));
      expect(t.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(t.stdout.length).toBeLessThan(4000);
    });
  }

  it('--file holding junk lines: each line MALFORMED, exit 8, nothing fetched for them', async () => {
    const file = join(dir.path, 'junk-lines.jws');
    writeFileSync(file, Buffer.concat([Buffer.from('🔐.🦄.💥\n'), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from(`${HUGE}\nnot a jws\n`)]));
    const { sandbox, env } = await sandboxFor();
    const before = sandbox.requests.length;
    const r = await runMain(['webhook', 'verify', '--file', file, '-o', 'ndjson'], { env });
    expect(r.code, r.stderr).toBe(8);
    const verdicts = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { reason: string });
    expect(verdicts).toHaveLength(4);
    expect(verdicts.every((v) => v.reason === 'MALFORMED')).toBe(true);
    expect(sandbox.requests.length - before).toBe(0);
  });

  it('the committed junk fixture (mixed garbage lines) is all MALFORMED', async () => {
    const { env } = await sandboxFor();
    const r = await runMain(['webhook', 'verify', '--file', f['junk.jws']!, '-o', 'ndjson'], { env });
    expect(r.code, r.stderr).toBe(8);
    const reasons = r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { reason: string }).reason);
    expect(reasons.length).toBeGreaterThan(3);
    expect(new Set(reasons)).toEqual(new Set(['MALFORMED']));
  });
});

// Not usage errors, but the user's set-up: a clear message and exit 1, never "a bug in partner".
describe.concurrent('a local server that cannot listen: one clear message, exit 1', () => {
  const cases: Record<string, (port: string) => string[]> = {
    // -o table: the text form of the error (piped, listen's output and errors are JSON).
    'webhook listen on a port in use': (port) => ['webhook', 'listen', '--port', port, '-o', 'table'],
    'sandbox start on a port in use': (port) => ['sandbox', 'start', '--port', port],
    'webhook listen on a host name that does not resolve': () => ['webhook', 'listen', '--host', 'no-such-host.invalid', '-o', 'table'],
  };
  for (const [name, args] of Object.entries(cases)) {
    it(name, async () => {
      const { sandbox, env } = await sandboxFor();
      const r = await runMain(args(new URL(sandbox.url).port), { env });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/^(warning: .*\n)?Error: Cannot listen on .*: (the port is already in use|the host name does not resolve)\n[^\n]+\n$/);
      expect(r.stderr).not.toMatch(/bug in partner|\n\s+at /);
    });
  }
});

describe('stack traces only with --debug', () => {
  it('a usage error never shows one, even with --debug', async () => {
    const { env } = await sandboxFor();
    const r = await runMain(['--debug', 'employees', 'list', '--page', '0'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

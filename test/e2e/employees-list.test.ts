import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { isolatedEnv, runCli, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  sandbox = await startSandbox({ employees: 45 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});
beforeEach(() => {
  sandbox.setFaults({ latencyMs: 0, failRate: 0, resetRate: 0, html502Rate: 0, retryAfterSeconds: 1 });
});

const listRequests = () => sandbox.requests.filter((r) => r.path === '/v1/employees').length;

describe('employees list output formats', () => {
  it('prints JSON {data, pagination} for one page when piped', async () => {
    const r = await runMain(['employees', 'list'], { env });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.data).toHaveLength(20);
    expect(body.pagination).toMatchObject({ currentPage: 1, pageSize: 20, totalItems: 45, totalPages: 3, hasNextPage: true });
    expect(r.stderr).toBe('');
  });

  it('prints a table with a footer on request', async () => {
    const r = await runMain(['employees', 'list', '-o', 'table', '--page', '3'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^CODE +NAME +EMAIL/); // no box borders
    expect(r.stdout).toContain('Page 3 of 3 · 45 employees');
    // Escape sequences from the data never reach the terminal.
    expect(r.stdout).not.toMatch(/\u001b/);
  });

  it('prints NDJSON, one employee per line', async () => {
    const r = await runMain(['employees', 'list', '-o', 'ndjson', '--page-size', '7'], { env });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(7);
    for (const l of lines) expect(JSON.parse(l)).toHaveProperty('employeeCode');
  });

  it('prints CSV with every field of the spec as columns', async () => {
    const r = await runMain(['employees', 'list', '-o', 'csv', '--page-size', '5'], { env });
    expect(r.code).toBe(0);
    const rows = parseCsv(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(5);
    expect(Object.keys(rows[0])).toEqual(['id', 'employeeCode', 'employeeId', 'firstName', 'middleName', 'lastName', 'fullName', 'displayName', 'workEmail', 'designation', 'department', 'status', 'type', 'startDate', 'endDate', 'country', 'customerId', 'customerName', 'entity']);
  });

  it('picks and orders columns with --fields', async () => {
    const r = await runMain(['employees', 'list', '-o', 'csv', '--fields', 'workEmail,employeeCode', '--page-size', '2'], { env });
    expect(r.stdout.split('\r\n')[0]).toBe('workEmail,employeeCode');
    expect(r.stderr).toBe('');
  });

  // was a warning and an empty column (exit 0); a CI export must not silently lose a column.
  it('a --fields name the employee record does not have is a usage error naming the fields, nothing written', async () => {
    const r = await runMain(['employees', 'list', '-o', 'csv', '--fields', 'employeeCode,salary', '--page-size', '1'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--fields: "salary" is not a field of this record/);
    expect(r.stderr).toMatch(/The fields of this record: id, employeeCode,/);
    expect(r.stdout).toBe('');
  });

  it('runs on the embedded sandbox with --sandbox and no account', async () => {
    const r = await runMain(['--sandbox', 'employees', 'list', '-o', 'json'], { env: isolatedEnv(dir.path) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data.length).toBeGreaterThan(0);
  });
});

describe('employees list --all', () => {
  it('walks every page and prints every employee exactly once (CSV)', async () => {
    const r = await runMain(['employees', 'list', '--all', '-o', 'csv', '--page-size', '10'], { env });
    expect(r.code).toBe(0);
    const rows = parseCsv(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(45);
    expect(new Set(rows.map((x) => x.id)).size).toBe(45);
    // Same order as the pages themselves.
    const firstPage = JSON.parse((await runMain(['employees', 'list', '--page-size', '10'], { env })).stdout).data.map((e: { id: string }) => e.id);
    expect(rows.slice(0, 10).map((x) => x.id)).toEqual(firstPage);
  });

  it('prints the same {data, pagination} document as one page and honours --limit', async () => {
    const r = await runMain(['employees', 'list', '--all', '--limit', '13', '--page-size', '5'], { env });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.data).toHaveLength(13);
    // The page the 13th employee came from: the last page read, as a walk without --limit ends on its last page.
    expect(doc.pagination).toMatchObject({ currentPage: 3, totalItems: 45, pageSize: 5, hasNextPage: true });
  });

  it('--all --limit 20 -o json carries the pagination of the last page read, as one page and --all without --limit do', async () => {
    const limited = await runCli(['employees', 'list', '--all', '--limit', '20', '-o', 'json'], { env });
    expect(limited.code).toBe(0);
    const doc = JSON.parse(limited.stdout);
    expect(doc.data).toHaveLength(20);
    expect(doc.pagination).toMatchObject({ currentPage: 1, totalItems: 45 });
    // --all reads pages of 100: its one page read is page 1 of 100, as the page itself and the whole walk say.
    const onePage = await runCli(['employees', 'list', '--limit', '20', '--page-size', '100', '-o', 'json'], { env });
    const whole = await runCli(['employees', 'list', '--all', '-o', 'json'], { env });
    expect(doc.pagination).toEqual(JSON.parse(onePage.stdout).pagination);
    expect(doc.pagination).toEqual(JSON.parse(whole.stdout).pagination);
  });

  it('filters by status across pages', async () => {
    const r = await runMain(['employees', 'list', '--all', '--status', 'ACTIVE', '-o', 'ndjson'], { env });
    expect(r.code).toBe(0);
    const statuses = new Set(r.stdout.trim().split('\n').map((l) => JSON.parse(l).status));
    expect([...statuses]).toEqual(['ACTIVE']);
  });

  it('rides out a burst of 503s, honouring Retry-After', async () => {
    sandbox.injectFault({ kind: '503', times: 2, path: '/v1/employees' });
    const r = await runMain(['--debug', 'employees', 'list', '--all', '-o', 'ndjson'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(45);
    expect(r.stderr).toMatch(/retry 1\/4 GET \/v1\/employees\S* after 503, waiting 1000 ms/);
    expect(r.stderr).toMatch(/retry 2\/4/);
  });
});

describe('company scoping', () => {
  it("never shows the first company's employees to the second company's token", async () => {
    const a = JSON.parse((await runMain(['employees', 'list', '--all'], { env })).stdout).data as { id: string; customerId: string }[];
    const rb = await runMain(['employees', 'list', '--all'], { env: { ...env, PARTNER_TOKEN: sandbox.tokens.companyB } });
    expect(rb.code).toBe(0);
    const b = JSON.parse(rb.stdout).data as { id: string; customerId: string }[];
    expect(b.length).toBeGreaterThan(0);
    const idsA = new Set(a.map((e) => e.id));
    expect(b.filter((e) => idsA.has(e.id))).toEqual([]);
    expect(new Set(b.map((e) => e.customerId)).has(a[0].customerId)).toBe(false);
  });
});

describe('invalid input is refused before sending', () => {
  it.each([
    [['--page-size', '500'], /--page-size must be a whole number from 1 to 100/],
    [['--page', '0'], /--page/],
    [['--status', 'RETIRED'], /Allowed choices are ONBOARDING, ACTIVE, OFFBOARDING, ENDED, DELETED/],
    [['--employee-id', 'abc'], /UUID/],
    [['--sort-by', 'name'], /Allowed choices are startOn/],
    [['--sort-order', 'UP'], /ASC, DESC/],
    [['-o', 'xml'], /Allowed choices are table, json, ndjson, csv\.(?![\s\S]*--output-file)/],
    [['--output', 'out.csv'], /Allowed choices are table, json, ndjson, csv[\s\S]*--output is the format; to write to a file, use --output-file out\.csv/],
    [['--pagesize', '5'], /unknown option '--pagesize'[\s\S]*Did you mean --page-size/],
  ])('%j exits 2 with a clear message and sends nothing', async (args, message) => {
    const before = listRequests();
    const r = await runMain(['employees', 'list', ...args], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
    expect(listRequests()).toBe(before);
  });

  it('suggests the closest command for a typo', async () => {
    const r = await runMain(['employes', 'list'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Did you mean employees/);
  });

  it('warns that --employee-id wins over --employee-code', async () => {
    const first = JSON.parse((await runMain(['employees', 'list', '--page-size', '1'], { env })).stdout).data[0];
    const r = await runMain(['employees', 'list', '--employee-id', first.id, '--employee-code', 'NOPE-1'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/employeeId|--employee-id/);
    expect(JSON.parse(r.stdout).data.map((e: { id: string }) => e.id)).toEqual([first.id]);
  });
});

describe('errors from the server', () => {
  it('no token: exit 3 and how to log in', async () => {
    const r = await runMain(['employees', 'list'], { env: { ...env, PARTNER_TOKEN: undefined } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/Not logged in/);
    expect(r.stderr).toMatch(/partner auth login/);
  });

  it('401 for a refused token: exit 3 with code and correlation id', async () => {
    // -o table: the text error block (piped data commands report errors as JSON, )
    const r = await runMain(['employees', 'list', '-o', 'table'], { env: { ...env, PARTNER_TOKEN: 'wrong-token-000000' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/HTTP 401/);
    expect(r.stderr).toMatch(/Correlation id: \S+/);
    expect(r.stderr).not.toContain('wrong-token-000000');
  });

  it('403 for a token without permission: exit 4', async () => {
    // -o table: the text error block (piped data commands report errors as JSON, )
    const r = await runMain(['employees', 'list', '-o', 'table'], { env: { ...env, PARTNER_TOKEN: sandbox.tokens.noPermission } });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/Insufficient permissions/);
    expect(r.stderr).toMatch(/HTTP 403/);
  });

  it('404 (unknown path under the base URL): exit 5', async () => {
    // -o table: the text error block (piped data commands report errors as JSON, )
    const r = await runMain(['employees', 'list', '-o', 'table'], { env: { ...env, PARTNER_BASE_URL: `${sandbox.url}/nowhere` } });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/HTTP 404/);
  });

  it('refuses a plain-http base URL that is not loopback, sending nothing', async () => {
    const r = await runMain(['employees', 'list'], { env: { ...env, PARTNER_BASE_URL: 'http://api.example.com' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/only https:\/\/ is allowed/);
  });

  it('an HTML 502 that persists: exit 1 with status and excerpt', async () => {
    sandbox.injectFault({ kind: 'html502', times: Infinity, path: '/v1/employees' });
    try {
      // -o table: the text error block (piped data commands report errors as JSON, )
      const r = await runMain(['employees', 'list', '-o', 'table'], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/HTTP 502 with a non-JSON body/);
      expect(r.stderr).toMatch(/Bad Gateway/);
    } finally {
      sandbox.injectFault({ kind: 'html502', times: 0, path: '/v1/employees' });
    }
  });

  it('invalid JSON on a 200: exit 1 with an excerpt', async () => {
    sandbox.injectFault({ kind: 'badjson', times: 1, path: '/v1/employees' });
    const r = await runMain(['employees', 'list'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/invalid JSON/);
  });

  it('PARTNER_DEBUG=1 turns the debug log on, PARTNER_DEBUG=0 leaves it off', async () => {
    const on = await runMain(['employees', 'list', '--page-size', '1'], { env: { ...env, PARTNER_DEBUG: '1' } });
    expect(on.stderr).toMatch(/\[debug\] GET /);
    const off = await runMain(['employees', 'list', '--page-size', '1'], { env: { ...env, PARTNER_DEBUG: '0' } });
    expect(off.code).toBe(0);
    expect(off.stderr).toBe('');
  });

  it('never prints the token, even with --debug', async () => {
    const r = await runMain(['--debug', 'employees', 'list'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/employees -> 200/);
    expect(r.stdout + r.stderr).not.toContain(sandbox.tokens.companyA);
  });
});

describe('a server other than the sandbox', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.writeHead(422, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          timestamp: '2026-11-22T10:00:00.000Z',
          code: 'VALIDATION_ERROR',
          message: 'Request validation failed',
          path: req.url,
          correlationId: 'abc-422',
          errors: [{ message: 'must be one of ACTIVE, ONBOARDING, OFFBOARDING', property: 'status' }],
          error: { code: 'VALIDATION_ERROR', message: 'Request validation failed', details: [{ field: 'status', message: 'must be one of ACTIVE, ONBOARDING, OFFBOARDING' }] },
        }),
      );
    });
    const serverAt = await listenOnLoopback(server);
    url = serverAt.url;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('renders a 422 as one block with each failing field: exit 7', async () => {
    // -o table: the text error block (piped data commands report errors as JSON, )
    const r = await runMain(['employees', 'list', '--status', 'DELETED', '-o', 'table'], { env: { ...env, PARTNER_BASE_URL: url } });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/Error: Request validation failed \(VALIDATION_ERROR, HTTP 422\)/);
    expect(r.stderr).toMatch(/- status: must be one of ACTIVE, ONBOARDING, OFFBOARDING/);
    expect(r.stderr).toMatch(/Correlation id: abc-422/);
  });
});

describe('a page past the last one', () => {
  it('says where the last page is (stderr when piped), exit 0', async () => {
    const r = await runMain(['employees', 'list', '--page', '9', '--page-size', '20'], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toEqual([]);
    expect(r.stderr).toMatch(/page 9 is past the last page; the last page is 3 \(45 employees\)/);
  });

  it('a table says it once, in place of "No results."', async () => {
    const r = await runCli(['employees', 'list', '--page', '9', '--page-size', '20', '-o', 'table'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('No employees on page 9; the last page is 3 (45 employees).\n');
    expect(r.stderr).toBe('');
  });
});

describe('what an API command loads', () => {
  it('never undici nor Node’s own copy of it (its cookie helpers used to, through globalThis.Headers), nor built-ins it does not use', async () => {
    // Each of these cost milliseconds of every start (README, Benchmarks); the bundle loads them on first use only.
    // crypto: its ES facade loaded Web Crypto at every start (now the global's, on first use); perf_hooks: `performance`;
    // https and tls: only for an https base URL (the sandbox is http).
    const unused = ['internal/deps/undici/undici', 'child_process', 'http2', 'tty', 'crypto', 'perf_hooks', 'https', 'tls'];
    // undici's HTTP parser is WebAssembly, made at its first connection: on Node 20 the process then waited about
    // 0.25 s at exit for V8 to optimise it. Every request goes through node:http (api/transport.ts).
    const probe = join(dir.path, 'probe.mjs');
    writeFileSync(
      probe,
      `let wasm = 0;\nconst M = WebAssembly.Module;\nWebAssembly.Module = class extends M { constructor(...a) { super(...a); wasm++; } };\n` +
        `process.on('exit', () => process.stderr.write('probe: ' + JSON.stringify(${JSON.stringify(unused)}.filter((m) => process.moduleLoadList.includes('NativeModule ' + m))) + ' wasm: ' + wasm + '\\n'));\n`,
    );
    const r = await runCli(['employees', 'list', '--all', '-o', 'ndjson'], { env: { ...env, NODE_OPTIONS: `--import=${pathToFileURL(probe).href}` } });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(45);
    expect(r.stderr).toBe('probe: [] wasm: 0\n');
  });

  it('a page of names in CJK (and ↵ for a newline) as a table sets up no grapheme segmenter: string-width loads at its first call (~100 ms)', async () => {
    // Counts the segmenters made: string-width makes one when it loads, output/cells.ts one when text has graphemes that join.
    const probe = join(dir.path, 'segmenter-probe.mjs');
    writeFileSync(probe, `let n = 0;\nconst S = Intl.Segmenter;\nIntl.Segmenter = class extends S { constructor(...a) { super(...a); n++; } };\nprocess.on('exit', () => process.stderr.write('segmenters: ' + n + '\\n'));\n`);
    const probed = { ...env, NODE_OPTIONS: `--import=${pathToFileURL(probe).href}` };
    const r = await runCli(['employees', 'list', '-o', 'table'], { env: probed });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('小龙 李');
    expect(r.stdout).toContain('↵');
    expect(r.stderr).toMatch(/^segmenters: 0$/m);
    // A combining mark (Zoë written as e + U+0308) needs the segmenter and string-width: the probe sees both.
    // The sandbox's page, one name changed on its way through.
    const proxy = createServer((req, res) => {
      void fetch(`${sandbox.url}${req.url}`, { headers: { authorization: req.headers.authorization ?? '' } }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end((await answer.text()).replace('"Priya Singh"', '"Zoe\u0308 Priya Singh"'));
      });
    });
    const proxyAt = await listenOnLoopback(proxy);
    try {
      const marks = await runCli(['employees', 'list', '-o', 'table'], { env: { ...probed, PARTNER_BASE_URL: proxyAt.url } });
      expect(marks.code, marks.stderr).toBe(0);
      expect(marks.stdout).toContain('Zoe\u0308 Priya Singh');
      expect(marks.stderr).toMatch(/^segmenters: 2$/m);
    } finally {
      await new Promise<void>((done) => proxy.close(() => done()));
    }
  });

  it('its code from one script, not ES modules (scripts/cli-build-options.mjs, bin/code-cache.js)', async () => {
    // Node's ES module loader costs ~0.4 ms a file before any of it runs, and on Node 20 compiles each at every
    // start; the CLI is one CommonJS script compiled from V8's code cache. A loader hook sees every ES module read.
    const hooks = join(dir.path, 'count-hooks.mjs');
    const preload = join(dir.path, 'count-preload.mjs');
    writeFileSync(hooks, `export async function load(url, context, next) {\n  process.stderr.write('loaded: ' + url.split('/').slice(-2).join('/') + '\\n');\n  return next(url, context);\n}\n`);
    writeFileSync(preload, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const r = await runCli(['employees', 'list', '--all', '-o', 'ndjson'], { env: { ...env, NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` } });
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(45);
    const files = r.stderr.split('\n').filter((l) => l.startsWith('loaded: '));
    // The launcher and its helpers are CommonJS too: a module that loads goes through the hook all the same.
    expect(files).toContain('loaded: bin/partner.js');
    expect(files.filter((f) => f.includes('dist/')), files.join(' ')).toEqual([]);
  });
});

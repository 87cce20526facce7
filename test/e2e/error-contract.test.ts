// what support needs survives every failure. Every command
// that calls the API, against a loopback server (port 0) that answers one
// endpoint with each error status the spec declares for it (the declared
// error body, the correlation id in the body and in x-correlation-id): the
// error carries that status and correlation id, as JSON on stderr (-o json)
// and in the text block. In-process (runMain): stdout and stderr are pipes.
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

const ID = '7d0c2a55-3b1e-4f6a-9c2d-0e8f1a2b3c4d';
const CODE = 'CT-00001';
const ENTITY = 'Contract GmbH';
const EMPLOYEE = { id: ID, employeeCode: CODE, fullName: 'Ada Lovelace', status: 'ONBOARDING', customerName: 'Contract' };
const SCHEMA = {
  type: 'object',
  'x-dynamic-sections': ['legal'],
  properties: {
    personal: { type: 'object', properties: { firstName: { type: 'string' } }, required: ['firstName'] },
    employment: { type: 'object', properties: { workEmail: { type: 'string', format: 'email' } }, required: ['workEmail'] },
    legal: { type: 'object', properties: { taxClass: { type: 'integer' } } },
  },
  required: ['personal', 'employment'],
};
const VALUES = { personal: { firstName: 'Ada' }, employment: { workEmail: 'ada@contract.example' }, legal: { taxClass: 1 } };

/** The declared codes and sample messages (spec, Errors). */
const DECLARED: Record<number, [string, string]> = {
  400: ['BAD_REQUEST', 'Invalid request parameters'],
  401: ['UNAUTHORIZED', 'AUTHORIZATION_MISSING_TOKEN'],
  403: ['FORBIDDEN', 'Insufficient permissions'],
  404: ['NOT_FOUND', 'resource not found'],
  409: ['CONFLICT', 'resource already exists or state conflict'],
  422: ['VALIDATION_ERROR', 'Request validation failed'],
  500: ['INTERNAL_SERVER_ERROR', 'an unexpected error occurred'],
  503: ['SERVICE_UNAVAILABLE', 'upstream dependency error'],
};

/** The endpoint that fails, with which status and correlation id; every other one answers as the spec says. */
let failing: { method: string; path: RegExp; status: number; correlationId: string } | undefined;
let server: Server;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let valuesFile: string;
let bodyFile: string;

function ok(path: string, method: string): [number, unknown] {
  if (path === '/v1/employees') return [200, { data: [EMPLOYEE], pagination: { page: 1, pageSize: 20, totalItems: 1, totalPages: 1 } }];
  if (path.endsWith('-tracker')) return [200, [{ id: ID, employeeCode: CODE, fullName: 'Ada Lovelace', stage: 'CONTRACT' }]];
  if (path === '/v1/employees/dynamic-details/schema') return [200, SCHEMA];
  if (method === 'POST') return [201, { ...EMPLOYEE }];
  if (method === 'PATCH') return [204, undefined];
  if (path.endsWith('/employment')) return [200, { employeeCode: CODE, entity: ENTITY, workEmail: 'ada@contract.example' }];
  return [200, { firstName: 'Ada', lastName: 'Lovelace' }];
}

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const f = failing;
      if (f && f.method === req.method && f.path.test(path)) {
        const [code, message] = DECLARED[f.status]!;
        const details = f.status === 422 ? [{ field: 'personal.firstName', message: 'must not be blank' }] : null;
        const body = { timestamp: '2026-01-01T00:00:00Z', code, message, path, correlationId: f.correlationId, errors: details ? details.map((d) => ({ property: d.field, message: d.message })) : [{ message }], error: { code, message, details } };
        res.writeHead(f.status, { 'content-type': 'application/json', 'x-correlation-id': f.correlationId, 'retry-after': '0' }).end(JSON.stringify(body));
        return;
      }
      const [status, body] = ok(path, req.method!);
      res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' }).end(body === undefined ? undefined : JSON.stringify(body));
    });
  });
  const serverAt = await listenOnLoopback(server);
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: serverAt.url, PARTNER_TOKEN: 'tok_contract_0123456789' });
  valuesFile = join(dir.path, 'values.json');
  writeFileSync(valuesFile, JSON.stringify(VALUES));
  bodyFile = join(dir.path, 'post.json');
  writeFileSync(bodyFile, JSON.stringify({ entity: ENTITY, ...VALUES }));
});
afterAll(async () => {
  await closeServer(server);
  dir.cleanup();
});

const EMPLOYEES = [400, 401, 403, 422, 500, 503];
const TRACKER = [401, 403, 500, 503];
const SCHEMA_GET = [400, 401, 403, 422, 500];
const CREATE = [400, 401, 403, 404, 409, 422, 500];
const PATCH = [400, 401, 403, 404, 422, 500];
const SECTION = [400, 401, 403, 404, 422, 500, 503];
const EMPLOYMENT = [400, 401, 403, 404, 422, 500];

interface Case {
  name: string;
  /** The arguments; `json` adds what makes the error one JSON object (absent: the command has no JSON output). */
  args: () => string[];
  json?: string[];
  text?: string[];
  method: string;
  path: RegExp;
  statuses: number[];
}

const CASES: Case[] = [
  { name: 'employees list', args: () => ['employees', 'list'], json: ['-o', 'json'], text: ['-o', 'csv'], method: 'GET', path: /^\/v1\/employees$/, statuses: EMPLOYEES },
  { name: 'trackers onboarding', args: () => ['trackers', 'onboarding'], json: ['-o', 'json'], text: ['-o', 'csv'], method: 'GET', path: /onboarding-tracker$/, statuses: TRACKER },
  { name: 'trackers offboarding', args: () => ['trackers', 'offboarding'], json: ['-o', 'json'], text: ['-o', 'csv'], method: 'GET', path: /offboarding-tracker$/, statuses: TRACKER },
  { name: 'profile get (the code looked up)', args: () => ['profile', 'get', CODE, 'personal'], json: ['-o', 'json'], text: ['-o', 'csv'], method: 'GET', path: /^\/v1\/employees$/, statuses: EMPLOYEES },
  { name: 'profile get (a section)', args: () => ['profile', 'get', ID, 'personal'], json: ['-o', 'json'], text: ['-o', 'csv'], method: 'GET', path: /\/personal$/, statuses: SECTION },
  { name: 'profile get (employment)', args: () => ['profile', 'get', ID, 'employment'], json: ['-o', 'json'], text: ['-o', 'csv'], method: 'GET', path: /\/employment$/, statuses: EMPLOYMENT },
  { name: 'gp schema', args: () => ['gp', 'schema', '--entity', ENTITY], json: ['-o', 'json'], text: ['-o', 'table'], method: 'GET', path: /schema$/, statuses: SCHEMA_GET },
  { name: 'gp template', args: () => ['gp', 'template', '--entity', ENTITY], json: ['-o', 'json'], text: ['-o', 'csv'], method: 'GET', path: /schema$/, statuses: SCHEMA_GET },
  { name: 'gp create --from-file (the form)', args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', valuesFile], json: ['-o', 'json'], text: ['-o', 'table'], method: 'GET', path: /schema$/, statuses: SCHEMA_GET },
  { name: 'gp create --from-file (the POST)', args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', valuesFile], json: ['-o', 'json'], text: ['-o', 'table'], method: 'POST', path: /gp-employments$/, statuses: CREATE },
  { name: 'gp create --from-file (the PATCH after it)', args: () => ['gp', 'create', '--entity', ENTITY, '--from-file', valuesFile], json: ['-o', 'json'], text: ['-o', 'table'], method: 'PATCH', path: /dynamic-details$/, statuses: PATCH },
  { name: 'gp create --body-file', args: () => ['gp', 'create', '--body-file', bodyFile, '--yes'], json: ['-o', 'json'], text: ['-o', 'table'], method: 'POST', path: /gp-employments$/, statuses: CREATE },
  { name: 'dynamic-details submit (employment)', args: () => ['dynamic-details', 'submit', ID, '--from-file', valuesFile], method: 'GET', path: /\/employment$/, statuses: EMPLOYMENT },
  { name: 'dynamic-details submit (the form)', args: () => ['dynamic-details', 'submit', ID, '--from-file', valuesFile], method: 'GET', path: /schema$/, statuses: SCHEMA_GET },
  { name: 'dynamic-details submit (the PATCH)', args: () => ['dynamic-details', 'submit', ID, '--set', 'legal.taxClass=1'], method: 'PATCH', path: /dynamic-details$/, statuses: PATCH },
  { name: 'api', args: () => ['api', '/v1/employees'], json: [], text: ['-o', 'csv'], method: 'GET', path: /^\/v1\/employees$/, statuses: EMPLOYEES },
  { name: 'api (a POST)', args: () => ['api', '-X', 'POST', '/v1/employees/gp-employments', '--input', bodyFile], json: [], text: ['-o', 'csv'], method: 'POST', path: /gp-employments$/, statuses: CREATE },
];

async function failWith(c: Case, status: number, extra: string[]) {
  failing = { method: c.method, path: c.path, status, correlationId: `corr-${status}-${c.method.toLowerCase()}-7f3a` };
  try {
    return { r: await runMain([...c.args(), ...extra], { env }), correlationId: failing.correlationId };
  } finally {
    failing = undefined;
  }
}

describe.each(CASES)('$name: every declared error status', (c) => {
  it.each(c.statuses)('HTTP %i: the status and the correlation id are in the error', async (status) => {
    if (c.json) {
      const { r, correlationId } = await failWith(c, status, c.json);
      expect(r.code, r.stderr).not.toBe(0);
      const lines = r.stderr.trimEnd().split('\n');
      const doc = JSON.parse(lines[lines.length - 1]!) as { error: { status: number | null; correlationId: string | null } };
      expect(doc.error, r.stderr).toMatchObject({ status, correlationId });
    }
    const { r, correlationId } = await failWith(c, status, c.text ?? []);
    expect(r.code, r.stderr).not.toBe(0);
    expect(r.stderr).toContain(`HTTP ${status}`);
    expect(r.stderr).toContain(correlationId);
  });
});

describe('auth status: the check of the token', () => {
  it.each(EMPLOYEES)('HTTP %i: the check names the status and the correlation id', async (status) => {
    failing = { method: 'GET', path: /^\/v1\/employees$/, status, correlationId: `corr-${status}-status` };
    try {
      const r = await runMain(['auth', 'status', '-o', 'json'], { env });
      expect(r.code).not.toBe(0);
      const doc = JSON.parse(r.stdout) as { check: string };
      expect(doc.check).toContain(`HTTP ${status}`);
      expect(doc.check).toContain(`corr-${status}-status`);
    } finally {
      failing = undefined;
    }
  });
});

describe('gp create on a 409', () => {
  it('says it once, with the status and the correlation id, text and JSON', async () => {
    const c = CASES.find((x) => x.name === 'gp create --from-file (the POST)')!;
    failing = { method: 'POST', path: c.path, status: 409, correlationId: 'corr-409-once' };
    const said = 'an employee with work email ada@contract.example already exists';
    const original = DECLARED[409]!;
    DECLARED[409] = ['CONFLICT', said];
    try {
      const text = await runMain([...c.args(), '-o', 'table'], { env });
      expect(text.code).toBe(6);
      expect(text.stderr).toContain('An employee with these details already exists (work e-mail ada@contract.example)');
      expect(text.stderr.match(/already exists/g)).toHaveLength(1);
      expect(text.stderr).toContain('Server answer: HTTP 409');
      expect(text.stderr).toContain('Correlation id: corr-409-once');
      const json = await runMain([...c.args(), '-o', 'json'], { env });
      const doc = JSON.parse(json.stderr.trimEnd().split('\n').pop()!) as { error: Record<string, unknown> };
      expect(doc.error).toMatchObject({ code: 'CONFLICT', status: 409, correlationId: 'corr-409-once', exitCode: 6 });
      expect(String(doc.error.message).match(/already exists/g)).toHaveLength(1);
    } finally {
      DECLARED[409] = original;
      failing = undefined;
    }
  });
});

// , 7 and 8 against the built CLI: a server that sends a
// form naming a field "__proto__" (gp create, and partner mcp driven by the
// MCP SDK's client over stdio), secret form values in dry runs (terminal,
// pipe, MCP) with the body sent unchanged, and a server whose answers give
// the employee id "..". The servers are loopback (port 0) or the sandbox.
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, expectCode, isolatedEnv, runOnTerminal, sandboxEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { hasScript } from '../helpers/pty.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

const DEU = 'Acme Deutschland GmbH';
const VALUES = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/forms/deu-values.json'), 'utf8')) as Record<string, Record<string, unknown>>;
const SECRETS = [VALUES.legal!.taxId as string, VALUES.legal!.socialSecurityNumber as string, VALUES.bank!.iban as string];
const GOOD = { type: 'object', properties: { personal: { type: 'object', properties: { firstName: { type: 'string' } }, required: ['firstName'] } }, required: ['personal'] };
/** JSON text: JSON.parse makes "__proto__" an own key, as a server's answer would. */
const EVIL = '{"type":"object","properties":{"personal":{"type":"object","properties":{"firstName":{"type":"string"},"__proto__":{"type":"object","properties":{"polluted":{"type":"string","const":"yes"}}}},"required":["firstName"]}},"required":["personal"]}';
const BAD_ID = '..';
const CODE = 'HS-00001';

interface Seen {
  method: string;
  path: string;
}

/** The hostile API: the evil form for entity "Evil", a good one otherwise; the code HS-00001 resolves to the id "..". */
let server: Server;
let seen: Seen[] = [];
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let valuesFile: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const u = new URL(req.url ?? '/', 'http://x');
      seen.push({ method: req.method!, path: u.pathname });
      const json = (status: number, text: string) => res.writeHead(status, { 'content-type': 'application/json', 'x-correlation-id': 'corr-hostile' }).end(text);
      if (u.pathname === '/v1/employees/dynamic-details/schema') return json(200, u.searchParams.get('entity') === 'Evil' ? EVIL : JSON.stringify(GOOD));
      if (u.pathname === '/v1/employees' && req.method === 'GET') {
        return json(200, JSON.stringify({ data: [{ id: BAD_ID, employeeCode: u.searchParams.get('employeeCode') ?? CODE, fullName: 'Dot Dot' }], pagination: { page: 1, pageSize: 2, totalItems: 1, totalPages: 1 } }));
      }
      if (u.pathname === '/v1/employees/gp-employments') return json(201, JSON.stringify({ id: BAD_ID, employeeCode: CODE, status: 'ONBOARDING' }));
      return json(404, JSON.stringify({ code: 'NOT_FOUND', message: `no route ${u.pathname}` }));
    });
  });
  const serverAt = await listenOnLoopback(server);
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: serverAt.url, PARTNER_TOKEN: 'tok_hostile_0123456789' });
  valuesFile = join(dir.path, 'values.json');
  writeFileSync(valuesFile, JSON.stringify({ personal: { firstName: 'Ada' } }));
});
afterAll(async () => {
  await closeServer(server);
  dir.cleanup();
});

type Text = { type: 'text'; text: string };

async function connect(args: string[], e: NodeJS.ProcessEnv) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env: e as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'partner-test', version: '1.0.0' });
  await client.connect(transport);
  // Bounded: a server that stopped answering fails the test instead of hanging it.
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 15_000 });
    return { isError: r.isError === true, doc: JSON.parse((r.content as Text[])[0]!.text) as Record<string, any> };
  };
  return { call, close: () => client.close() };
}

describe('a form naming a field "__proto__" (item 5)', () => {
  it('gp create refuses it, naming the field; nothing is sent', async () => {
    seen = [];
    const r = await runMain(['gp', 'create', '--entity', 'Evil', '--from-file', valuesFile, '-o', 'table'], { env });
    expectCode(r, 1);
    expect(r.stderr).toContain('"__proto__" (personal.__proto__)');
    expect(r.stderr).not.toContain('unexpected failure');
    expect(seen.filter((s) => s.method !== 'GET')).toEqual([]);
  });

  it('partner mcp --allow-write refuses it in a dry run and keeps answering every later call', async () => {
    const m = await connect(['mcp', '--allow-write'], env);
    try {
      const evil = await m.call('create_gp_employee', { entity: 'Evil', values: { personal: { firstName: 'Ada' } } });
      expect(evil.isError).toBe(true);
      expect(evil.doc.error.code).toBe('FORM_FORMAT');
      expect(evil.doc.error.message).toContain('personal.__proto__');
      const fine = await m.call('create_gp_employee', { entity: 'Good', values: { personal: { firstName: 'Ada' } } });
      expect(fine.isError, JSON.stringify(fine.doc)).toBe(false);
      expect(fine.doc.create).toEqual({ entity: 'Good', personal: { firstName: 'Ada' } });
      const schema = await m.call('form_schema', { entity: 'Good' });
      expect(schema.isError).toBe(false);
    } finally {
      await m.close();
    }
  });
});

describe('an employee id ".." in an answer (item 8)', () => {
  it('profile get: BAD_RESPONSE, and no request outside /v1/employees/{uuid}', async () => {
    seen = [];
    const r = await runMain(['profile', 'get', CODE, 'personal', 'bank', '-o', 'json'], { env });
    expectCode(r, 1);
    expect(JSON.parse(r.stderr.trim().split('\n').pop()!).error).toMatchObject({ code: 'BAD_RESPONSE', status: 200 });
    expect(r.stderr).toContain('not a UUID');
    expect(seen.map((s) => s.path)).toEqual(['/v1/employees']);
  });

  it('dynamic-details submit: BAD_RESPONSE before anything is sent', async () => {
    seen = [];
    const r = await runMain(['dynamic-details', 'submit', CODE, '--set', 'personal.firstName=Ada'], { env });
    expectCode(r, 1);
    expect(r.stderr).toContain('not a UUID');
    expect(seen.map((s) => s.path)).toEqual(['/v1/employees']);
  });

  it('gp create: the employee is created, the PATCH is not sent to another path', async () => {
    const withDynamic = { ...GOOD, 'x-dynamic-sections': ['legal'], properties: { ...GOOD.properties, legal: { type: 'object', properties: { note: { type: 'string' } } } } };
    const local = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        seen.push({ method: req.method!, path: new URL(req.url ?? '/', 'http://x').pathname });
        if (req.method === 'GET') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(withDynamic));
        if (req.method === 'POST') return res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: BAD_ID, employeeCode: CODE }));
        res.writeHead(500).end();
      });
    });
    const localAt = await listenOnLoopback(local);
    try {
      seen = [];
      const file = join(dir.path, 'with-dynamic.json');
      writeFileSync(file, JSON.stringify({ personal: { firstName: 'Ada' }, legal: { note: 'x' } }));
      const r = await runMain(['gp', 'create', '--entity', 'Good', '--from-file', file, '-o', 'table'], { env: { ...env, PARTNER_BASE_URL: localAt.url } });
      expectCode(r, 1);
      expect(r.stderr).toContain(`Employee ${CODE} was created`);
      expect(r.stderr).toContain('not a UUID');
      expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /v1/employees/dynamic-details/schema', 'POST /v1/employees/gp-employments']);
    } finally {
      await closeServer(local);
    }
  });

  it('the MCP get_profile tool: a BAD_RESPONSE tool error, no section requested', async () => {
    const m = await connect(['mcp'], env);
    try {
      seen = [];
      const r = await m.call('get_profile', { employee: CODE, sections: ['personal'] });
      expect(r.isError).toBe(true);
      expect(r.doc.error.code).toBe('BAD_RESPONSE');
      expect(seen.map((s) => s.path)).toEqual(['/v1/employees']);
    } finally {
      await m.close();
    }
  });
});

describe('secret form values in every view (item 7)', () => {
  let sbx: Awaited<ReturnType<typeof sandboxEnv>>;
  let deuFile: string;
  beforeAll(async () => {
    sbx = await sandboxEnv();
    deuFile = join(sbx.dir, 'deu.json');
    writeFileSync(deuFile, JSON.stringify(VALUES));
  });
  afterAll(async () => {
    await sbx?.close();
  });
  const noSecret = (text: string) => {
    for (const s of SECRETS) expect(text).not.toContain(s);
  };

  it.skipIf(!hasScript)('gp create --dry-run on a terminal masks taxId, socialSecurityNumber and the IBAN', async () => {
    const screen = await runOnTerminal(['gp', 'create', '--entity', DEU, '--from-file', deuFile, '--dry-run'], { env: sbx.env, columns: 120 });
    expect(screen).toContain('"taxId": "********"');
    expect(screen).toContain('--reveal shows them');
    noSecret(screen);
  });

  it('piped too; --reveal shows them; the body sent carries the real values', async () => {
    const dry = await runMain(['gp', 'create', '--entity', DEU, '--from-file', deuFile, '--dry-run'], { env: sbx.env });
    expectCode(dry, 0);
    noSecret(dry.stdout + dry.stderr);
    const shown = await runMain(['gp', 'create', '--entity', DEU, '--from-file', deuFile, '--dry-run', '--reveal'], { env: sbx.env });
    for (const s of SECRETS) expect(shown.stdout).toContain(s);
    const before = sbx.sandbox.requests.length;
    const made = await runMain(['gp', 'create', '--entity', DEU, '--from-file', deuFile, '-o', 'json'], { env: sbx.env });
    expectCode(made, 0);
    const sent = sbx.sandbox.requests.slice(before).filter((q) => q.method !== 'GET');
    expect(sent.map((q) => q.method)).toEqual(['POST', 'PATCH']);
    expect((sent[0]!.body as { bank: { iban: string } }).bank.iban).toBe(VALUES.bank!.iban);
    expect((sent[1]!.body as { legal: Record<string, unknown> }).legal).toMatchObject({ taxId: VALUES.legal!.taxId, socialSecurityNumber: VALUES.legal!.socialSecurityNumber });
  });

  it('the MCP dry run masks them unless the server was started with --reveal', async () => {
    const values = structuredClone(VALUES);
    const masked = await connect(['mcp', '--allow-write'], sbx.env);
    try {
      const r = await masked.call('create_gp_employee', { entity: DEU, values });
      expect(r.isError, JSON.stringify(r.doc)).toBe(false);
      expect(r.doc.dynamicDetails.legal.taxId).toBe('********');
      expect(r.doc.create.bank.iban).toBe('********');
      noSecret(JSON.stringify(r.doc));
    } finally {
      await masked.close();
    }
    const revealed = await connect(['mcp', '--allow-write', '--reveal'], sbx.env);
    try {
      const r = await revealed.call('create_gp_employee', { entity: DEU, values });
      expect(r.doc.dynamicDetails.legal.taxId).toBe(VALUES.legal!.taxId);
    } finally {
      await revealed.close();
    }
  });
});

// `partner mcp`: driven over stdio by the SDK's own client,
// spawning bin/partner.js --sandbox mcp as an MCP host would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, isolatedEnv, sandboxEnv, tempDir } from '../helpers/cli.js';
import { scriptedServer } from '../helpers/scripted-server.js';

type Text = { type: 'text'; text: string };

async function connect(args: string[], env: NodeJS.ProcessEnv) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env: env as Record<string, string>, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (c) => (stderr += c));
  const client = new Client({ name: 'partner-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as Text[])[0]!.text;
  return { isError: r.isError === true, doc: JSON.parse(text) };
}

let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let s: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  dir = tempDir();
  env = isolatedEnv(dir.path);
  s = await connect(['--sandbox', 'mcp'], env);
}, 30_000);
afterAll(async () => {
  await s?.close();
  dir?.cleanup();
});

describe('partner --sandbox mcp', () => {
  it('lists the read tools with their input schemas', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['form_schema', 'get_profile', 'list_employees', 'search_employees', 'trackers', 'verify_webhook']);
    expect(tools.find((t) => t.name === 'search_employees')!.inputSchema.required).toEqual(['text']);
  });

  it('search_employees finds employees case- and accent-insensitively, searching every page', async () => {
    const r = await call(s.client, 'search_employees', { text: 'JOSE' });
    expect(r.isError).toBe(false);
    expect(r.doc.searched).toBeGreaterThan(20);
    expect(r.doc.employees.map((e: { fullName: string }) => e.fullName)).toContain('José García, Jr.');
  });

  it('list_employees returns one bounded page with the server filters', async () => {
    const r = await call(s.client, 'list_employees', { pageSize: 3, status: 'ACTIVE' });
    expect(r.doc.data).toHaveLength(3);
    expect(r.doc.data.every((e: { status: string }) => e.status === 'ACTIVE')).toBe(true);
    expect(r.doc.pagination.pageSize).toBe(3);
  });

  it('invalid input is a tool error with partner\'s error code and exit code', async () => {
    const big = await call(s.client, 'list_employees', { pageSize: 1000 });
    expect(big.isError).toBe(true);
    expect(big.doc.error.exitCode).toBe(2);
    const typo = await call(s.client, 'list_employees', { stauts: 'ACTIVE' });
    expect(typo.isError).toBe(true);
    expect(typo.doc.error.code).toBe('INVALID_ARGUMENT');
    const unknown = await call(s.client, 'delete_everyone', {});
    expect(unknown.isError).toBe(true);
  });

  it('trackers and form_schema answer from the API', async () => {
    // a result is an object (structuredContent), so the tracker's entries are under `employees`.
    const t = await call(s.client, 'trackers', { kind: 'onboarding' });
    expect(t.doc.kind).toBe('onboarding');
    expect(t.doc.employees.length).toBeGreaterThan(0);
    const f = await call(s.client, 'form_schema', { entity: 'Acme Deutschland GmbH' });
    expect(f.isError).toBe(false);
    expect(f.doc.fields.length).toBeGreaterThan(3);
  });

  it('get_profile masks bank numbers; a missing employee is a not-found tool error (exit code 5)', async () => {
    const p = await call(s.client, 'get_profile', { employee: 'ACME-00001', sections: ['personal', 'bank'] });
    expect(p.isError).toBe(false);
    expect(p.doc.employeeCode).toBe('ACME-00001');
    const text = JSON.stringify(p.doc.bank);
    expect(text).toMatch(/\*\*\*\*/);
    const missing = await call(s.client, 'get_profile', { employee: 'ACME-99999' });
    expect(missing.isError).toBe(true);
    expect(missing.doc.error.exitCode).toBe(5);
  });

  it('verify_webhook gives a verdict for a JWS that does not verify', async () => {
    const r = await call(s.client, 'verify_webhook', { jws: 'eyJhbGciOiJFUzUxMiIsImtpZCI6Im5vLXN1Y2gta2lkIn0.e30.c2ln' });
    expect(r.isError).toBe(false);
    expect(r.doc.valid).toBe(false);
    expect(typeof r.doc.reason).toBe('string');
  });
});

describe('partner mcp --reveal', () => {
  it('shows bank numbers in full', async () => {
    const r = await connect(['--sandbox', 'mcp', '--reveal'], env);
    try {
      const p = await call(r.client, 'get_profile', { employee: 'ACME-00001', sections: ['bank'] });
      expect(JSON.stringify(p.doc.bank)).not.toMatch(/\*\*\*\*/);
    } finally {
      await r.close();
    }
  });
});

describe('partner mcp with a profile token', () => {
  const server = scriptedServer();
  const TOKEN = 'tok_secret_mcp_0123456789abcdefghij';

  it('a server that echoes the Authorization header: the token is in no tool error and not on stderr', async () => {
    server.queue.push((req, res) => res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'BAD', message: `echo ${req.headers.authorization}` } })));
    const r = await connect(['mcp'], { ...env, PARTNER_BASE_URL: server.url, PARTNER_TOKEN: TOKEN, PARTNER_DEBUG: '1' });
    try {
      const res = await r.client.callTool({ name: 'list_employees', arguments: {} });
      expect(res.isError).toBe(true);
      const text = JSON.stringify(res);
      expect(server.seen[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(JSON.parse((res.content as Text[])[0]!.text).error.exitCode).toBe(7);
      expect(text).not.toContain(TOKEN.slice(4, 20));
      expect(r.stderr()).not.toContain(TOKEN.slice(4, 20));
    } finally {
      await r.close();
    }
  });
});

describe('partner mcp write tools', () => {
  let sbx: Awaited<ReturnType<typeof sandboxEnv>>;
  let values: Record<string, unknown>;
  beforeAll(async () => {
    sbx = await sandboxEnv();
    values = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/forms/deu-values.json'), 'utf8'));
  });
  afterAll(async () => {
    await sbx?.close();
  });
  const posts = (before: number) => sbx.sandbox.requests.slice(before).filter((q) => q.method !== 'GET');

  it('are not offered without --allow-write, and refused if called anyway', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('create_gp_employee');
    const r = await call(s.client, 'create_gp_employee', { entity: 'Acme Deutschland GmbH', values: {}, confirm: true });
    expect(r.isError).toBe(true);
    expect(r.doc.error.code).toBe('WRITE_NOT_ALLOWED');
  });

  it('validate against the form, send nothing without confirm: true, then create with it', async () => {
    const w = await connect(['mcp', '--allow-write'], sbx.env);
    try {
      const { tools } = await w.client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_gp_employee', 'submit_dynamic_details']));
      const entity = 'Acme Deutschland GmbH';
      let before = sbx.sandbox.requests.length;
      const bad = await call(w.client, 'create_gp_employee', { entity, values: {}, confirm: true });
      expect(bad.isError).toBe(true);
      expect(bad.doc.error.code).toBe('FORM_INVALID');
      expect(bad.doc.error.details.length).toBeGreaterThan(0);
      expect(posts(before)).toEqual([]);

      before = sbx.sandbox.requests.length;
      const dry = await call(w.client, 'create_gp_employee', { entity, values });
      expect(dry.isError, JSON.stringify(dry.doc)).toBe(false);
      expect(dry.doc.sent).toBe(false);
      expect(dry.doc.create.entity).toBe(entity);
      expect(posts(before)).toEqual([]);

      before = sbx.sandbox.requests.length;
      const made = await call(w.client, 'create_gp_employee', { entity, values, confirm: true });
      expect(made.isError, JSON.stringify(made.doc)).toBe(false);
      expect(made.doc.sent).toBe(true);
      expect(typeof made.doc.created.id).toBe('string');
      expect(posts(before).map((q) => `${q.method} ${q.path}`)).toContain('POST /v1/employees/gp-employments');

      before = sbx.sandbox.requests.length;
      const dyn = await call(w.client, 'submit_dynamic_details', { employee: made.doc.created.id, values: { nope: { x: 1 } } });
      expect(dyn.isError).toBe(true);
      expect(posts(before)).toEqual([]);
    } finally {
      await w.close();
    }
  });

  it('a dynamic-details PATCH that fails after the POST says the employee exists and how to finish', async () => {
    const w = await connect(['mcp', '--allow-write'], sbx.env);
    try {
      const mine = structuredClone(values) as { employment: { workEmail: string } };
      mine.employment.workEmail = 'mcp.patch.fails@acme.example';
      sbx.sandbox.injectFault({ kind: '500', times: Infinity, method: 'PATCH', path: /\/dynamic-details$/ });
      const before = sbx.sandbox.requests.length;
      const r = await call(w.client, 'create_gp_employee', { entity: 'Acme Deutschland GmbH', values: mine, confirm: true });
      sbx.sandbox.injectFault({ kind: '500', times: 0, method: 'PATCH', path: /\/dynamic-details$/ });
      const sent = posts(before);
      expect(sent.map((q) => q.method)).toEqual(expect.arrayContaining(['POST', 'PATCH']));
      const id = /^\/v1\/employees\/([^/]+)\/dynamic-details$/.exec(sent.find((q) => q.method === 'PATCH')!.path)![1];
      expect(r.isError).toBe(true);
      expect(r.doc.error.progress).toMatchObject({ created: true, employeeId: id, dynamicDetailsSubmitted: false });
      expect(r.doc.error.progress.next).toContain(`submit_dynamic_details with employee "${id}"`);
      expect(r.doc.error.progress.next).toMatch(/Do not create it again/);
    } finally {
      await w.close();
    }
  });
});

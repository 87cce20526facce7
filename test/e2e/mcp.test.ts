// `partner mcp` (issue 23 item 4): driven over stdio by the SDK's own client,
// spawning bin/partner.js --sandbox mcp as an MCP host would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, isolatedEnv, tempDir } from '../helpers/cli.js';
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
    const t = await call(s.client, 'trackers', { kind: 'onboarding' });
    expect(Array.isArray(t.doc)).toBe(true);
    expect(t.doc.length).toBeGreaterThan(0);
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

// an MCP server agents understand, driven over stdio by the
// SDK's own client (spawning bin/partner.js, as an MCP host does): tool
// annotations, outputSchema + structuredContent (validated with ajv here, and
// by the SDK client itself), hints that name tools and arguments, --tools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import AjvModule from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, expectCode, isolatedEnv, runCli, sandboxEnv, tempDir } from '../helpers/cli.js';

type Text = { type: 'text'; text: string };
type Tool = Awaited<ReturnType<Client['listTools']>>['tools'][number];

const READ = ['search_employees', 'list_employees', 'trackers', 'get_profile', 'form_schema', 'verify_webhook'];
const ajv = new AjvModule.default({ strict: false, allErrors: true });

async function connect(args: string[], env: NodeJS.ProcessEnv) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, ...args], env: env as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'partner-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A call's text document and structuredContent; the structured one must match the tool's outputSchema. */
async function call(client: Client, tools: Tool[], name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  const doc = JSON.parse((r.content as Text[])[0]!.text);
  if (r.isError !== true) {
    const schema = tools.find((t) => t.name === name)!.outputSchema!;
    const valid = ajv.validate(schema, r.structuredContent);
    expect(valid, `${name}: ${ajv.errorsText(ajv.errors)}`).toBe(true);
    expect(r.structuredContent).toEqual(doc);
  }
  return { isError: r.isError === true, doc, structured: r.structuredContent as Record<string, unknown> | undefined };
}

let sbx: Awaited<ReturnType<typeof sandboxEnv>>;
let client: Client;
let tools: Tool[];
const ENTITY = 'Acme Deutschland GmbH';

beforeAll(async () => {
  sbx = await sandboxEnv();
  client = await connect(['mcp', '--allow-write'], sbx.env);
  tools = (await client.listTools()).tools;
}, 30_000);
afterAll(async () => {
  await client?.close();
  await sbx?.close();
});

describe('tools say what they do (annotations) and what they return (outputSchema)', () => {
  it('every tool carries the four hints, true to what it does', () => {
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual([...READ, 'create_gp_employee', 'submit_dynamic_details'].sort());
    for (const t of tools) {
      for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) expect(typeof t.annotations?.[k], `${t.name}.${k}`).toBe('boolean');
      expect(t.annotations?.openWorldHint, t.name).toBe(true);
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(ajv.validateSchema(t.outputSchema!), t.name).toBe(true);
    }
    for (const name of READ) expect(byName[name]!.annotations, name).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    // A second confirmed create is a second employee; it overwrites nothing.
    expect(byName.create_gp_employee!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    // Dynamic details replace what the employee had; the same values twice leave the same.
    expect(byName.submit_dynamic_details!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
  });

  it('each read tool returns structuredContent matching its outputSchema, the same document as its text', async () => {
    const search = await call(client, tools, 'search_employees', { text: 'a', limit: 5 });
    expect((search.structured!.employees as unknown[]).length).toBe(5);
    const list = await call(client, tools, 'list_employees', { pageSize: 2 });
    expect(list.structured!.data).toHaveLength(2);
    for (const kind of ['onboarding', 'offboarding']) {
      const t = await call(client, tools, 'trackers', { kind });
      expect(t.isError).toBe(false);
      expect(t.structured!.kind).toBe(kind);
      expect(Array.isArray(t.structured!.employees)).toBe(true);
    }
    const profile = await call(client, tools, 'get_profile', { employee: 'ACME-00001', sections: ['personal', 'bank'] });
    expect(profile.structured).toMatchObject({ employeeCode: 'ACME-00001' });
    expect(JSON.stringify(profile.structured!.bank)).toMatch(/\*\*\*\*/);
    const form = await call(client, tools, 'form_schema', { entity: ENTITY });
    expect((form.structured!.fields as { field: string }[]).map((f) => f.field)).toContain('legal.taxClass');
    const verdict = await call(client, tools, 'verify_webhook', { jws: 'eyJhbGciOiJFUzUxMiIsImtpZCI6Im5vLXN1Y2gta2lkIn0.e30.c2ln' });
    expect(verdict.structured!.valid).toBe(false);
  });

  it('a write tool\'s dry run: structuredContent with the validated bodies, nothing sent; choices by title become their values', async () => {
    const values = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/forms/deu-values.json'), 'utf8'));
    values.legal.taxClass = 'I';
    const before = sbx.sandbox.requests.length;
    const dry = await call(client, tools, 'create_gp_employee', { entity: ENTITY, values });
    expect(dry.isError, JSON.stringify(dry.doc)).toBe(false);
    expect(dry.structured).toMatchObject({ sent: false, create: { entity: ENTITY } });
    expect((dry.structured!.create as { legal?: { taxClass?: unknown } }).legal?.taxClass ?? (dry.structured!.dynamicDetails as { legal: { taxClass: unknown } }).legal.taxClass).toBe(1);
    expect(sbx.sandbox.requests.slice(before).filter((q) => q.method !== 'GET')).toEqual([]);
  });
});

describe('errors speak of tools and arguments', () => {
  it('invalid values: the hint names form_schema and values, never a CLI flag', async () => {
    const r = await call(client, tools, 'create_gp_employee', { entity: ENTITY, values: { personal: { firstName: 'Ada' } } });
    expect(r.isError).toBe(true);
    expect(r.doc.error.code).toBe('FORM_INVALID');
    expect(r.doc.error.hint).toContain('form_schema');
    expect(r.doc.error.hint).toContain('values');
    expect(r.doc.error.hint).toContain(ENTITY);
    expect(r.doc.error.hint).not.toMatch(/--[a-z]|partner gp/);
  });

  it('an employee not found: the hint names search_employees and the employee argument', async () => {
    const r = await call(client, tools, 'get_profile', { employee: 'ACME-99999' });
    expect(r.isError).toBe(true);
    expect(r.doc.error.hint).toMatch(/search_employees/);
    expect(r.doc.error.hint).toMatch(/\bemployee\b/);
    expect(r.doc.error.hint).not.toMatch(/--employee-code|partner employees/);
  });
});

describe('partner mcp --tools', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => dir?.cleanup());

  it('offers only the tools named; another is not offered', async () => {
    const c = await connect(['--sandbox', 'mcp', '--tools', 'search_employees,get_profile'], isolatedEnv(dir.path));
    try {
      const listed = (await c.listTools()).tools;
      expect(listed.map((t) => t.name).sort()).toEqual(['get_profile', 'search_employees']);
      const r = await c.callTool({ name: 'list_employees', arguments: {} });
      expect(r.isError).toBe(true);
      const doc = JSON.parse((r.content as Text[])[0]!.text);
      expect(doc.error.code).toBe('TOOL_NOT_OFFERED');
      expect(doc.error.hint).toMatch(/get_profile, search_employees|search_employees, get_profile/);
    } finally {
      await c.close();
    }
  });

  it('an unknown name is a usage error listing the tools', async () => {
    const r = await runCli(['--sandbox', 'mcp', '--tools', 'search_employees,delete_everyone'], { env: isolatedEnv(dir.path), timeoutMs: 15_000 });
    expectCode(r, 2);
    expect(r.stderr).toContain('delete_everyone');
    for (const name of READ) expect(r.stderr).toContain(name);
    expect(r.stdout).toBe('');
  });

  it('a write tool named without --allow-write is a usage error', async () => {
    const r = await runCli(['--sandbox', 'mcp', '--tools', 'create_gp_employee'], { env: isolatedEnv(dir.path), timeoutMs: 15_000 });
    expectCode(r, 2);
    expect(r.stderr).toContain('--allow-write');
  });
});

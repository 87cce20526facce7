// JSON input files with a byte order mark: Windows editors save
// UTF-8 with a BOM; it is accepted and never sent (the server receives the
// exact bytes of the JSON without it). A UTF-16 file (Notepad's "Unicode",
// PowerShell 5's Out-File) is refused, naming what it is, with nothing sent.
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/server.js';
import { expectCode, isolatedEnv, sandboxEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const BODY = '{"personal":{"firstName":"Zoé","lastName":"علی\u200cرضا"}}';
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);

interface Received {
  method: string;
  url: string;
  body: Buffer;
}

let server: Server;
let url: string;
const seen: Received[] = [];
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
const file = (name: string, bytes: Buffer) => {
  const path = join(dir.path, name);
  writeFileSync(path, bytes);
  return path;
};

beforeAll(async () => {
  // Any server (gp create --body-file is "for any server"): answers the schema GET with {} and a POST with a created employee; keeps each body's bytes.
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body: Buffer.concat(chunks) });
      const created = req.method === 'POST';
      res.writeHead(created ? 201 : 200, { 'content-type': 'application/json' }).end(created ? '{"id":"7a1f0000-0000-4000-8000-000000000001","employeeCode":"BOM-1"}' : '{}');
    });
  });
  const serverAt = await listenOnLoopback(server);
  url = serverAt.url;
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: url, PARTNER_TOKEN: 'test-token' });
});
afterAll(async () => {
  await closeServer(server);
  dir.cleanup();
});

const posts = () => seen.filter((r) => r.method === 'POST');

describe('a UTF-8 BOM is accepted and not sent', () => {
  it('gp create --body-file: the POST body is the JSON, byte for byte, without the BOM', async () => {
    seen.length = 0;
    const r = await runMain(['gp', 'create', '--entity', 'Acme', '--body-file', file('body.json', Buffer.concat([BOM, Buffer.from(BODY)])), '--yes'], { env });
    expectCode(r, 0);
    expect(posts()).toHaveLength(1);
    const sent = posts()[0]!.body;
    expect([...sent.subarray(0, 3)]).not.toEqual([...BOM]);
    expect(sent.toString('utf8')).toBe(JSON.stringify({ entity: 'Acme', ...(JSON.parse(BODY) as object) }));
  });
  it('partner api --input (a file, and stdin): the body sent is the JSON without the BOM', async () => {
    seen.length = 0;
    const viaFile = await runMain(['api', '-X', 'POST', '/v1/echo', '--input', file('api.json', Buffer.concat([BOM, Buffer.from(BODY)]))], { env });
    expectCode(viaFile, 0);
    const viaStdin = await runMain(['api', '-X', 'POST', '/v1/echo', '--input', '-'], { env, input: Buffer.concat([BOM, Buffer.from(BODY)]).toString('utf8') });
    expectCode(viaStdin, 0);
    expect(posts().map((p) => p.body.toString('utf8'))).toEqual([BODY, BODY]);
    expect(posts().every((p) => p.body[0] === 0x7b)).toBe(true);
  });
});

describe('a UTF-16 file is refused, nothing sent', () => {
  it.each([
    ['gp create --body-file', (p: string) => ['gp', 'create', '--entity', 'Acme', '--body-file', p, '--yes'], '--body-file'],
    ['partner api --input', (p: string) => ['api', '-X', 'POST', '/v1/echo', '--input', p], '--input'],
  ])('%s: exit 2, the file named UTF-16 LE', async (_, args, flag) => {
    seen.length = 0;
    const path = file('utf16.json', utf16le(BODY));
    const r = await runMain([...args(path), '-o', 'json'], { env: { ...env } });
    expectCode(r, 2);
    const shown = `${r.stderr}`;
    expect(shown).toContain(`${flag} ${path} is UTF-16 LE (it starts with a UTF-16 byte order mark), not UTF-8`);
    expect(shown).toMatch(/Save the file as UTF-8/);
    expect(posts()).toEqual([]);
  });
});

describe('--from-file with a BOM (sandbox, --dry-run: the body that would be sent)', () => {
  let sb: { sandbox: Sandbox; env: NodeJS.ProcessEnv; dir: string; close: () => Promise<void> };
  beforeAll(async () => {
    sb = await sandboxEnv();
  });
  afterAll(() => sb.close());

  it('gp create: the same body as from the file without a BOM', async () => {
    const values = readFileSync(join(import.meta.dirname, '../fixtures/forms/deu-values.json'));
    const plain = join(sb.dir, 'plain.json');
    const withBom = join(sb.dir, 'bom.json');
    writeFileSync(plain, values);
    writeFileSync(withBom, Buffer.concat([BOM, values]));
    const a = await runMain(['gp', 'create', '--entity', 'Acme Deutschland GmbH', '--from-file', withBom, '--dry-run'], { env: sb.env });
    const b = await runMain(['gp', 'create', '--entity', 'Acme Deutschland GmbH', '--from-file', plain, '--dry-run'], { env: sb.env });
    expectCode(a, 0);
    expectCode(b, 0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toContain('\ufeff');
    expect(a.stdout).not.toContain('\\ufeff');
  });
  it('dynamic-details submit: the same PATCH body as without a BOM; UTF-16 refused', async () => {
    const page = await fetch(`${sb.sandbox.url}/v1/employees?pageSize=100`, { headers: { authorization: `Bearer ${sb.sandbox.tokens.companyA}` } });
    const id = ((await page.json()) as { data: { id: string; entity: string }[] }).data.find((e) => e.entity === 'Acme India Pvt Ltd')!.id;
    const values = JSON.stringify({ legal: { pan: 'ABCDE1234F', taxRegime: 'OLD', pfOptIn: false, nominees: [{ name: 'Ravi', relationship: 'PARENT', sharePercent: 100 }] }, customFields: { costCenter: 'CC-0001' } });
    const withBom = join(sb.dir, 'dyn-bom.json');
    writeFileSync(withBom, Buffer.concat([BOM, Buffer.from(values)]));
    const plain = join(sb.dir, 'dyn.json');
    writeFileSync(plain, values);
    const a = await runMain(['dynamic-details', 'submit', id, '--from-file', withBom, '--dry-run'], { env: sb.env });
    const b = await runMain(['dynamic-details', 'submit', id, '--from-file', plain, '--dry-run'], { env: sb.env });
    expectCode(a, 0);
    expectCode(b, 0);
    expect(a.stdout).toBe(b.stdout);
    expect((JSON.parse(a.stdout) as { dynamicDetails: { customFields: unknown } }).dynamicDetails.customFields).toEqual({ costCenter: 'CC-0001' });
    const utf16 = join(sb.dir, 'dyn16.json');
    writeFileSync(utf16, utf16le(values));
    const before = sb.sandbox.requests.filter((q) => q.method === 'PATCH').length;
    const c = await runMain(['dynamic-details', 'submit', id, '--from-file', utf16], { env: sb.env });
    expectCode(c, 2);
    expect(c.stderr).toContain('is UTF-16 LE (it starts with a UTF-16 byte order mark), not UTF-8');
    expect(sb.sandbox.requests.filter((q) => q.method === 'PATCH').length).toBe(before);
  });
});

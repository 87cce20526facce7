// gp create and dynamic-details submit with a scripted prompter against a
// small fake API serving a schema the sandbox does not have: the exact bodies
// the server receives, a 422 mapped back to its question, a 409 explained.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createContext } from '../../../src/context.js';
import { testIO } from '../../../src/io.js';
import { createRun } from '../../../src/commands/gp/create.run.js';
import { submitRun } from '../../../src/commands/dynamic-details/submit.run.js';
import { scripted } from './scripted.js';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/forms/conditional-2020.json'), 'utf8'));
const ID = '11111111-2222-4333-8444-555555555555';

interface Seen {
  method: string;
  url: string;
  body: unknown;
}
let server: Server;
let base: string;
let seen: Seen[] = [];
let answers: { status: number; body?: unknown }[] = [];
let dir: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, body: text ? JSON.parse(text) : undefined });
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      if (req.method === 'GET' && req.url!.startsWith('/v1/employees/dynamic-details/schema')) return send(200, schema);
      if (req.method === 'GET' && req.url!.startsWith(`/v1/employees/${ID}/employment`)) return send(200, { employeeCode: 'X-1', entity: 'Fixture Ltd' });
      const next = answers.shift();
      if (!next) return send(500, { message: 'unexpected request' });
      return send(next.status, next.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address() as { port: number };
  base = `http://127.0.0.1:${addr.port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

beforeEach(() => {
  seen = [];
  answers = [];
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'partner-flow-'));
});

function ctxFor() {
  const io = testIO({ tty: true, canPrompt: true });
  const ctx = createContext({
    io,
    env: { PARTNER_BASE_URL: base, PARTNER_TOKEN: 'tok', PARTNER_CONFIG_DIR: join(dir, 'config') },
    globals: { sandbox: false, debug: false, timeout: 5, color: false, input: true },
    signal: new AbortController().signal,
  });
  return { io, ctx };
}

const writes = () => seen.filter((s) => s.method !== 'GET');
const drafts = () => {
  try {
    return readdirSync(join(dir, 'config', 'drafts'));
  } catch {
    return [];
  }
};

describe('gp create with a scripted prompter', () => {
  it('a 422 is mapped to its question, asked again, and the corrected bodies are sent exactly', async () => {
    answers = [
      { status: 422, body: { code: 'VALIDATION_ERROR', message: 'Request validation failed', error: { code: 'VALIDATION_ERROR', message: 'Request validation failed', details: [{ field: 'a.detail', message: 'is already used by another employee' }] } } },
      { status: 201, body: { id: ID, employeeCode: 'FX-0001', status: 'ONBOARDING' } },
      { status: 204 },
    ];
    const p = scripted([
      [/^Fill in Section B/, true],
      [/^Note/, 'dynamic note'],
      [/^Mode$/, 'Mode Y'],
      [/^Has a pet/, false],
      [/^Detail for Y$/, 'first try'],
      [/^Weekly/, ''],
      [/^Add a pet\?/, false],
      [/^What next/, 'Submit'],
      [/^Detail for Y$/, 'second try'],
      [/^What next/, 'Submit'],
    ]);
    const { io, ctx } = ctxFor();
    const code = await createRun({ entity: 'Fixture Ltd', sets: [], dryRun: false, resume: false, output: 'json', quiet: false, csvRaw: false }, ctx, p);
    await ctx.cleanup();
    expect(p.left()).toEqual([]);
    expect(code).toBe(0);
    expect(p.notes.join('\n')).toContain('✗ Detail for Y is already used by another employee');
    expect(writes()).toEqual([
      { method: 'POST', url: '/v1/employees/gp-employments', body: { entity: 'Fixture Ltd', a: { mode: 'y', hasPet: false, detail: 'first try' } } },
      { method: 'POST', url: '/v1/employees/gp-employments', body: { entity: 'Fixture Ltd', a: { mode: 'y', hasPet: false, detail: 'second try' } } },
      { method: 'PATCH', url: `/v1/employees/${ID}/dynamic-details`, body: { b: { note: 'dynamic note' } } },
    ]);
    expect(seen[0].url).toBe('/v1/employees/dynamic-details/schema?employmentType=GLOBAL_PAYROLL&entity=Fixture+Ltd');
    expect(JSON.parse(io.out())).toEqual({ id: ID, employeeCode: 'FX-0001', status: 'ONBOARDING' });
    expect(io.err()).toContain('Created FX-0001 (ONBOARDING)');
    expect(drafts()).toEqual([]);
  });

  it('a 409 is explained and the review comes back; quitting keeps the draft', async () => {
    answers = [{ status: 409, body: { code: 'CONFLICT', message: 'resource already exists or state conflict' } }];
    const p = scripted([
      [/^Fill in Section B/, false],
      [/^Mode$/, 'Mode X'],
      [/^Has a pet/, false],
      [/^Weekly/, '10'],
      [/^Add a pet\?/, false],
      [/^What next/, 'Submit'],
      [/^What next/, 'Save the draft and quit'],
    ]);
    const { io, ctx } = ctxFor();
    const code = await createRun({ entity: 'Fixture Ltd', sets: [], dryRun: false, resume: false, quiet: false, csvRaw: false }, ctx, p);
    await ctx.cleanup();
    expect(code).toBe(130);
    expect(p.notes.join('\n')).toContain('An employee with these details already exists');
    expect(writes()).toHaveLength(1);
    expect(io.err()).toContain('partner gp create --entity "Fixture Ltd" --resume');
    expect(drafts()).toHaveLength(1);
  });

  it('when the PATCH is refused after the POST, only the dynamic questions are asked again', async () => {
    answers = [
      { status: 201, body: { id: ID, employeeCode: 'FX-0002', status: 'ONBOARDING' } },
      { status: 422, body: { error: { details: [{ field: 'b.note', message: 'is too rude' }] } } },
      { status: 204 },
    ];
    const p = scripted([
      [/^Fill in Section B/, true],
      [/^Note/, 'rude'],
      [/^Mode$/, 'Mode X'],
      [/^Has a pet/, false],
      [/^Weekly/, ''],
      [/^Add a pet\?/, false],
      [/^What next/, 'Submit'],
      [/^Note/, 'polite'],
      [/^What next/, 'Submit the dynamic details'],
    ]);
    const { ctx } = ctxFor();
    expect(await createRun({ entity: 'Fixture Ltd', sets: [], dryRun: false, resume: false, output: 'json', quiet: false, csvRaw: false }, ctx, p)).toBe(0);
    await ctx.cleanup();
    expect(p.left()).toEqual([]);
    expect(writes().map((w) => [w.method, w.body])).toEqual([
      ['POST', { entity: 'Fixture Ltd', a: { mode: 'x', hasPet: false } }],
      ['PATCH', { b: { note: 'rude' } }],
      ['PATCH', { b: { note: 'polite' } }],
    ]);
    expect(drafts()).toEqual([]);
  });
});

describe('dynamic-details submit with a scripted prompter', () => {
  it('asks only the dynamic sections and PATCHes them', async () => {
    answers = [{ status: 204 }];
    const p = scripted([
      [/^Fill in Section B/, true],
      [/^Note/, 'later note'],
      [/^What next/, 'Submit'],
    ]);
    const { io, ctx } = ctxFor();
    expect(await submitRun({ employee: ID, sets: [], resume: false, dryRun: false }, ctx, p)).toBe(0);
    await ctx.cleanup();
    expect(p.asked).toEqual(['Fill in Section B? (optional)', 'Note (optional)', 'What next?']);
    expect(writes()).toEqual([{ method: 'PATCH', url: `/v1/employees/${ID}/dynamic-details`, body: { b: { note: 'later note' } } }]);
    expect(io.err()).toContain('Dynamic details saved for X-1');
  });
});

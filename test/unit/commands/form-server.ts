// A small form server for the scripted-prompter tests of gp create and
// dynamic-details submit: serves the conditional fixture schema, records every
// request, and answers writes from a queue (an unexpected write is a 500).
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach } from 'vitest';
import { createContext } from '../../../src/context.js';
import { testIO } from '../../../src/io.js';
import { useLoopbackServer } from '../../helpers/loopback-server.js';

const schema = JSON.parse(readFileSync(join(import.meta.dirname, '../../fixtures/forms/conditional-2020.json'), 'utf8'));
export const ID = '11111111-2222-4333-8444-555555555555';

interface Seen {
  method: string;
  url: string;
  body: unknown;
}
let answers: { status: number; body?: unknown }[] = [];
/** The answers to the next writes, in order. */
export function answerWith(next: { status: number; body?: unknown }[]): void {
  answers = next;
}
let dir: string;

const server = useLoopbackServer((req, res) => {
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
/** Every request received since the test began (the fixture empties its record before each test). */
export const requests = (): readonly Seen[] => server.requests.map((r) => ({ method: r.method, url: r.url, body: r.body ? JSON.parse(r.body) : undefined }));

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  answers = [];
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'partner-flow-'));
});

export function ctxFor() {
  const io = testIO({ tty: true, canPrompt: true });
  const ctx = createContext({
    io,
    // Every directory partner derives from the environment (config, cache, state: the audit log) lies in the
    // test's own temp dir: without HOME, partner would fall back to the passwd entry's home.
    env: { PARTNER_BASE_URL: server.url, PARTNER_TOKEN: 'tok', HOME: join(dir, 'home'), PARTNER_CONFIG_DIR: join(dir, 'config'), PARTNER_CACHE_DIR: join(dir, 'cache'), PARTNER_STATE_DIR: join(dir, 'state') },
    globals: { sandbox: false, debug: false, timeout: 5, color: false, input: true },
    signal: new AbortController().signal,
  });
  return { io, ctx };
}

export const writes = () => requests().filter((s) => s.method !== 'GET');
export const drafts = () => {
  try {
    return readdirSync(join(dir, 'config', 'drafts'));
  } catch {
    return [];
  }
};

/** The audit records written by this test's contexts (its own state dir: never the account's). */
export const auditRecords = (): string[] => {
  try {
    return readFileSync(join(dir, 'state', 'audit.ndjson'), 'utf8').split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

// A recording GP server on loopback (port 0) for bulk onboarding tests: the
// form of a sandbox entity, POST /v1/employees/gp-employments creating an
// employee for every POST it takes (NO work e-mail uniqueness: a second POST
// of one person is a second employee, the duplicate the journal must
// prevent), PATCH …/dynamic-details, and the employee list (where a re-run
// looks up a POST whose answer was lost). A test refuses chosen POSTs, and
// may act on a request before it is answered (kill the client then: its
// answer is lost, its effect is not).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody } from '../../src/sandbox/errors.js';
import { getServedSchema } from '../../src/sandbox/forms.js';
import { SANDBOX_TOKENS } from '../../src/sandbox/server.js';
import { isolatedEnv, tempDir } from './cli.js';
import { startLoopbackServer } from './loopback-server.js';

export interface RecordedEmployee {
  id: string;
  employeeCode: string;
  workEmail: string;
  body: Record<string, unknown>;
}

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  status: number;
}

export interface GpRecorder {
  url: string;
  /** Every employee created, in order (one per POST taken). */
  readonly employees: RecordedEmployee[];
  readonly requests: RecordedRequest[];
  /** A POST body's status instead of 201 (422 with a field detail, 409, …), or undefined to create it. */
  refuse: (body: Record<string, unknown>) => number | undefined;
  /** Called with each request once its effect is done, before its answer; `false`: never answer it. */
  beforeAnswer: (r: RecordedRequest) => boolean | void;
  close: () => Promise<void>;
}

const workEmailOf = (body: Record<string, unknown>) => String((body.employment as { workEmail?: unknown } | undefined)?.workEmail ?? '');

export async function gpRecorder(entity: string, served?: unknown): Promise<GpRecorder> {
  // `served`: another form than the sandbox entity's (one without a work e-mail field, say).
  const schema = JSON.stringify(served ?? getServedSchema(entity));
  const rec: GpRecorder = { url: '', employees: [], requests: [], refuse: () => undefined, beforeAnswer: () => undefined, close: async () => undefined };

  function answer(req: IncomingMessage, res: ServerResponse, text: string): void {
    const url = new URL(req.url ?? '/', 'http://x');
    const r: RecordedRequest = { method: req.method ?? '', path: url.pathname, body: text ? JSON.parse(text) : undefined, status: 404 };
    let out: unknown = errorBody(404, r.path, randomUUID());
    if (r.method === 'GET' && r.path === '/v1/employees/dynamic-details/schema') {
      r.status = 200;
      out = undefined;
    } else if (r.method === 'POST' && r.path === '/v1/employees/gp-employments') {
      const body = r.body as Record<string, unknown>;
      const refused = rec.refuse(body);
      if (refused !== undefined) {
        r.status = refused;
        out = errorBody(refused, r.path, randomUUID(), refused === 422 ? { details: [{ field: 'employment.designation', message: 'is not a known designation' }] } : {});
      } else {
        const e = { id: randomUUID(), employeeCode: `REC-${rec.employees.length + 1}`, workEmail: workEmailOf(body), body };
        rec.employees.push(e);
        r.status = 201;
        out = { id: e.id, employeeCode: e.employeeCode, workEmail: e.workEmail, status: 'ONBOARDING' };
      }
    } else if (r.method === 'PATCH' && /^\/v1\/employees\/[^/]+\/dynamic-details$/.test(r.path)) {
      r.status = 204;
      out = undefined;
    } else if (r.method === 'GET' && r.path === '/v1/employees') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('pageSize') ?? 20);
      const data = rec.employees.slice((page - 1) * size, page * size).map(({ id, employeeCode, workEmail }) => ({ id, employeeCode, workEmail }));
      const totalPages = Math.max(1, Math.ceil(rec.employees.length / size));
      r.status = 200;
      out = { data, pagination: { currentPage: page, pageSize: size, totalPages, totalItems: rec.employees.length, hasNextPage: page < totalPages, hasPreviousPage: page > 1 } };
    }
    rec.requests.push(r);
    if (rec.beforeAnswer(r) === false) return;
    const payload = r.path.endsWith('/schema') ? schema : out === undefined ? '' : JSON.stringify(out);
    res.writeHead(r.status, payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {});
    res.end(payload);
  }

  const server = await startLoopbackServer(answer);
  rec.url = server.url;
  rec.close = server.close;
  return rec;
}

/**
 * A recorder for `entity` and an isolated environment pointing the CLI at it
 * (the token is never checked); `close` stops it and removes the temp dir.
 */
export async function recorderEnv(entity: string, served?: unknown): Promise<{ rec: GpRecorder; env: NodeJS.ProcessEnv; dir: string; close: () => Promise<void> }> {
  const rec = await gpRecorder(entity, served);
  const dir = tempDir();
  const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: rec.url, PARTNER_TOKEN: SANDBOX_TOKENS.companyA });
  return {
    rec,
    env,
    dir: dir.path,
    close: async () => {
      await rec.close();
      dir.cleanup();
    },
  };
}

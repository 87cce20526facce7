// One way to find an employee: every command that takes an
// employee id or code goes through src/api/resolve-employee.ts, which checks
// the server's answer again. Against a loopback server that ignores the
// employeeCode filter (it always lists ACME-00001 and ACME-00002), nothing is
// ever read from or written to an employee the user did not name.
import { createServer, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectCode, isolatedEnv, tempDir } from '../helpers/cli.js';
import { runMain } from '../helpers/main-in-process.js';
import { closeServer, listenOnLoopback } from '../helpers/loopback-server.js';

const A1 = { id: 'aaaaaaaa-0000-4000-8000-000000000001', employeeCode: 'ACME-00001', employeeId: 'ACME-00001', fullName: 'Ada One', entity: 'Acme Ltd' };
const A2 = { id: 'aaaaaaaa-0000-4000-8000-000000000002', employeeCode: 'ACME-00002', employeeId: 'ACME-00002', fullName: 'Bo Two', entity: 'Acme Ltd' };

let server: Server;
let env: NodeJS.ProcessEnv;
let dir: { path: string; cleanup: () => void };
let seen: { method: string; url: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url! });
      const path = (req.url ?? '').split('?')[0];
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      // The list and the trackers ignore every filter.
      if (req.method === 'GET' && path === '/v1/employees') return send(200, { data: [A1, A2], pagination: { currentPage: 1, pageSize: 20, totalPages: 1, totalItems: 2, hasNextPage: false, hasPreviousPage: false } });
      if (req.method === 'GET' && /tracker$/.test(path)) return send(200, [{ id: A1.id, employeeCode: A1.employeeCode, stage: 'DOCS' }, { id: A2.id, employeeCode: A2.employeeCode, stage: 'DOCS' }]);
      const m = /^\/v1\/employees\/([^/]+)\/(employment|personal)$/.exec(path);
      if (req.method === 'GET' && m) {
        const e = [A1, A2].find((x) => x.id === m[1]);
        if (!e) return send(404, { code: 'NOT_FOUND', message: 'resource not found' });
        return send(200, m[2] === 'employment' ? { employeeCode: e.employeeCode, entity: e.entity } : { firstName: e.fullName });
      }
      if (req.method === 'PATCH') return send(204, {});
      send(404, { code: 'NOT_FOUND', message: 'no such route' });
    });
  });
  const serverAt = await listenOnLoopback(server);
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: serverAt.url, PARTNER_TOKEN: 'lookup-test-token' });
  writeFileSync(join(dir.path, 'patch.json'), JSON.stringify({ customFields: { costCenter: 'CC-1' } }));
});

afterAll(async () => {
  await closeServer(server);
  dir.cleanup();
});

beforeEach(() => {
  seen = [];
});

const patches = () => seen.filter((s) => s.method === 'PATCH');

/** The error a run reported, whether stderr carried it as text or as one JSON line (piped output). */
function reported(stderr: string): { code?: string; text: string } {
  const line = stderr.trim().split('\n').find((l) => l.startsWith('{"error"'));
  if (!line) return { code: /\b([A-Z_]{6,})\b/.exec(stderr)?.[1], text: stderr };
  const e = (JSON.parse(line) as { error: { code: string; message: string; hint?: string } }).error;
  return { code: e.code, text: `${e.message}\n${e.hint ?? ''}` };
}

describe('a server that ignores the employeeCode filter', () => {
  it('dynamic-details submit TYPO-999 --body-file F --yes: exit 5 EMPLOYEE_NOT_FOUND, and no PATCH is sent', async () => {
    const r = await runMain(['dynamic-details', 'submit', 'TYPO-999', '--body-file', join(dir.path, 'patch.json'), '--yes'], { env });
    expectCode(r, 5);
    expect(reported(r.stderr).text).toContain('No employee with code "TYPO-999"');
    expect(r.stderr).not.toContain('saved for');
    expect(patches()).toEqual([]);
    expect(seen.some((s) => s.url.includes('employeeCode=TYPO-999'))).toBe(true);
  });

  it('dynamic-details submit: the same error as profile get (EMPLOYEE_NOT_FOUND, exit 5)', async () => {
    const r = await runMain(['dynamic-details', 'submit', 'TYPO-999', '--from-file', join(dir.path, 'patch.json'), '--dry-run'], { env });
    expectCode(r, 5);
    // No output flag: the error is text, the one resolver's words.
    expect(reported(r.stderr).text).toContain('No employee with code "TYPO-999" in your company');
    const p = await runMain(['profile', 'get', 'TYPO-999', 'personal', '-o', 'json'], { env });
    expectCode(p, 5);
    expect(reported(p.stderr).code).toBe('EMPLOYEE_NOT_FOUND');
  });

  it('the code named is the one written to: ACME-00002 gets the PATCH, not the first row ACME-00001', async () => {
    const r = await runMain(['dynamic-details', 'submit', 'ACME-00002', '--body-file', join(dir.path, 'patch.json'), '--yes'], { env });
    expectCode(r, 0);
    expect(r.stderr).toContain('Dynamic details saved for ACME-00002.');
    expect(patches()).toEqual([{ method: 'PATCH', url: `/v1/employees/${A2.id}/dynamic-details` }]);
  });

  it('an id of nobody: EMPLOYEE_NOT_FOUND exit 5, no PATCH', async () => {
    const r = await runMain(['dynamic-details', 'submit', 'bbbbbbbb-0000-4000-8000-000000000009', '--body-file', join(dir.path, 'patch.json'), '--yes'], { env });
    expectCode(r, 5);
    expect(reported(r.stderr).text).toContain('No employee with id "bbbbbbbb-0000-4000-8000-000000000009" in your company');
    expect(patches()).toEqual([]);
  });

  it('a code differing only in case gets a did-you-mean, never a silent match', async () => {
    const r = await runMain(['dynamic-details', 'submit', 'acme-00002', '--body-file', join(dir.path, 'patch.json'), '--yes'], { env });
    expectCode(r, 5);
    expect(reported(r.stderr).text).toContain('did you mean ACME-00002?');
    expect(patches()).toEqual([]);
    const p = await runMain(['profile', 'get', 'acme-00001', 'personal'], { env });
    expectCode(p, 5);
    expect(reported(p.stderr).text).toContain('did you mean ACME-00001?');
    expect(seen.some((s) => s.url.startsWith(`/v1/employees/${A1.id}/`))).toBe(false);
  });

  it('trackers --employee-code: rows of other employees are left out, with a warning', async () => {
    const r = await runMain(['trackers', 'onboarding', '--employee-code', 'ACME-00002', '-o', 'json'], { env });
    expectCode(r, 0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: A2.id, employeeCode: 'ACME-00002', stage: 'DOCS' }]);
    expect(r.stderr).toContain('1 item for other employees than the one named');
  });
});

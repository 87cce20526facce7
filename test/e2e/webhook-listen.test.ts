import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { BIN, isolatedEnv, ROOT, runCli, tempDir } from '../helpers/cli.js';
import { ecKey, employeeCreated, signEs } from '../unit/webhooks/helpers.js';
import { listen, type Listener } from '../helpers/listen.js';
import { useLoopbackServer } from '../helpers/loopback-server.js';
import { waitFor } from '../helpers/wait-for.js';


let sandbox: Sandbox;
let dir: { path: string; cleanup: () => void };
let env: NodeJS.ProcessEnv;
/** Every forward the receiver got, over the whole file. */
const forwarded: { headers: Record<string, unknown>; body: string }[] = [];
const receiver = useLoopbackServer((req, res, body) => {
  forwarded.push({ headers: req.headers, body });
  res.writeHead(202).end();
});
const receiverUrl = () => `${receiver.url}/hooks`;
const listeners: Listener[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  dir = tempDir();
  env = isolatedEnv(dir.path, { PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
});

afterAll(async () => {
  for (const l of listeners) if (l.child.exitCode === null) l.child.kill('SIGKILL');
  await sandbox.close();
  dir.cleanup();
});

describe('partner webhook listen (built CLI, real sandbox)', () => {
  it('full loop: sandbox emit → webhook listen → forward-to receiver; 401, 400, 413; Ctrl-C exits 130', async () => {
    const l = await listen(['--forward-to', receiverUrl(), '--path', '/webhooks'], env);
    listeners.push(l);
    expect(l.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);

    // 1. A genuine event from `partner sandbox emit`.
    const emit = await runCli(['sandbox', 'emit', 'EMPLOYEE_CREATED', '--to', l.url, '--data', '{"employeeCode":"LOOP-0001"}', '-o', 'table'], { env });
    expect(emit.stderr).toBe('');
    expect(emit.code).toBe(0);
    expect(emit.stdout).toMatch(/^EMPLOYEE_CREATED signed with kid sbx-es512-\S+ -> http:\/\/127\.0\.0\.1:\d+\/webhooks: HTTP 200\n$/);
    await waitFor(() => forwarded.length === 1 && /LOOP-0001/.test(l.stdout()), { what: 'the forwarded event' });
    const fwd = JSON.parse(forwarded[0]!.body);
    expect(fwd).toMatchObject({ eventType: 'EMPLOYEE_CREATED', data: { employeeCode: 'LOOP-0001', status: 'ONBOARDING', type: 'EMPLOYEE' } });
    expect(fwd.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(forwarded[0]!.headers['content-type']).toBe('application/json');
    expect(l.stdout()).toMatch(/^\d\d:\d\d:\d\d {2}200 {2}EMPLOYEE_CREATED {2}LOOP-0001 {2}ONBOARDING {2}-> forwarded 202\n$/m);

    // 2. Key rotation: the sandbox signs with a brand-new kid; listen refetches the key set once.
    const rotated = await runCli(['sandbox', 'emit', 'APPROVAL_REQUEST_APPROVED', '--rotate-key', '--to', l.url, '-o', 'table'], { env });
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(/kid sbx-es512-2-\S+ .*HTTP 200/);
    await waitFor(() => forwarded.length === 2, { what: 'the second forward' });
    expect(JSON.parse(forwarded[1]!.body)).toMatchObject({ eventType: 'APPROVAL_REQUEST_APPROVED', data: { status: 'APPROVED', scope: 'TIME_OFF' } });

    // 3. The earlier shape of a deprecated event is accepted with warnings.
    const legacy = await runCli(['sandbox', 'emit', 'CONTRACT_CREATED', '--legacy', '--to', l.url], { env });
    expect(legacy.code).toBe(0);
    await waitFor(() => /CONTRACT_CREATED/.test(l.stdout()), { what: 'the contract event line' });
    expect(l.stdout()).toMatch(/200 {2}CONTRACT_CREATED .*ACTIVE .*warnings: CONTRACT_CREATED is deprecated; use EMPLOYEE_CREATED/);

    // 4. Forged, malformed and too-large bodies.
    const attacker = ecKey(sandbox.signer.kid);
    const forged = await fetch(l.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(signEs({ alg: 'ES512', kid: sandbox.signer.kid }, employeeCreated(), attacker.privateKey)) });
    expect(forged.status).toBe(401);
    expect((await forged.json()).error).toBe('BAD_SIGNATURE');
    const none = await fetch(l.url, { method: 'POST', body: `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(employeeCreated())).toString('base64url')}.` });
    expect(none.status).toBe(401);
    const malformed = await fetch(l.url, { method: 'POST', body: 'hello.world' });
    expect(malformed.status).toBe(400);
    const huge = await fetch(l.url, { method: 'POST', body: 'a'.repeat(2 * 1024 * 1024) }).catch(() => undefined);
    // The receiver answers 413 without reading the rest; depending on timing the client may see the reset instead.
    if (huge) expect(huge.status).toBe(413);
    const wrongPath = await fetch(new URL('/other', l.url), { method: 'POST', body: 'x' });
    expect(wrongPath.status).toBe(404);
    const get = await fetch(l.url);
    expect(get.status).toBe(405);
    // A genuine signature with a broken shape is 400, not 401.
    const shape = await fetch(l.url, { method: 'POST', body: await sandbox.signer.sign(employeeCreated({ status: 'ENDED' })) });
    expect(shape.status).toBe(400);
    expect((await shape.json()).error).toBe('EVENT_SHAPE');
    await waitFor(() => /INVALID EVENT_SHAPE/.test(l.stdout()), { what: 'the shape line' });
    expect(l.stdout()).toMatch(/401 {2}INVALID BAD_SIGNATURE/);
    expect(l.stdout()).toMatch(/401 {2}INVALID UNSUPPORTED_ALG/);
    expect(l.stdout()).toMatch(/400 {2}INVALID MALFORMED/);
    if (huge) expect(l.stdout()).toMatch(/413 {2}INVALID TOO_LARGE/);
    // Nothing invalid was forwarded.
    expect(forwarded).toHaveLength(3);

    // 5. Ctrl-C stops it cleanly, and says so (one line on stderr, after the Ready line).
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(130);
    expect(l.stderr().trimEnd().split('\n').at(-1)).toBe('Stopped (Ctrl-C).');
  });

  it('--events filters what is reported and forwarded; -o ndjson prints one JSON object per event', async () => {
    const l = await listen(['--events', 'EMPLOYEE_UPDATED', '-o', 'ndjson', '--forward-to', receiverUrl()], env);
    listeners.push(l);
    const before = forwarded.length;
    expect((await fetch(l.url, { method: 'POST', body: await sandbox.signer.sign({ ...employeeCreated(), eventType: 'EMPLOYEE_CREATED' }) })).status).toBe(200);
    const updated = { eventType: 'EMPLOYEE_UPDATED', timestamp: '2025-03-01T09:30:00.000Z', data: { ...(employeeCreated().data as object), status: 'ACTIVE', updateType: 'ADDRESS_DETAILS' } };
    expect((await fetch(l.url, { method: 'POST', body: JSON.stringify(await sandbox.signer.sign(updated)) })).status).toBe(200);
    await waitFor(() => l.stdout().split('\n').filter(Boolean).length === 1 && forwarded.length === before + 1, { what: 'the ndjson line' });
    const line = JSON.parse(l.stdout().trim());
    expect(line).toMatchObject({ httpStatus: 200, valid: true, eventType: 'EMPLOYEE_UPDATED', payload: updated, forward: { status: 202 } });
    expect(JSON.parse(forwarded[before]!.body)).toEqual(updated);
    l.child.kill('SIGINT');
    expect(await l.exited).toBe(130);
  });

  it('usage errors exit 2 before listening', async () => {
    const r = await runCli(['webhook', 'listen', '--forward-to', 'ftp://x'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--forward-to must be an http\(s\) URL/);
    const p = await runCli(['webhook', 'listen', '--port', '70000'], { env });
    expect(p.code).toBe(2);
    // Parked events live in the spool: --max-attempts without it (or without a target) is a usage error.
    const dead = await runCli(['webhook', 'listen', '--max-attempts', '3', '--forward-to', 'http://127.0.0.1:1/'], { env });
    expect(dead.code).toBe(2);
    expect(dead.stderr).toMatch(/--max-attempts needs --spool and --forward-to/);
    expect((await runCli(['webhook', 'listen', '--read-timeout', '100ms'], { env })).code).toBe(2);
    expect((await runCli(['webhook', 'listen', '--max-connections', '3'], { env })).code).toBe(2);
  });

  it('sandbox emit: needs --to or --print, knows every event type, refuses --legacy where no earlier shape exists', async () => {
    expect((await runCli(['sandbox', 'emit', 'EMPLOYEE_CREATED'], { env })).code).toBe(2);
    const unknown = await runCli(['sandbox', 'emit', 'NOPE', '--print'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/APPROVAL_REQUEST_REJECTED/);
    expect((await runCli(['sandbox', 'emit', 'APPROVAL_REQUEST_CREATED', '--legacy', '--print'], { env })).code).toBe(2);
    // --print then verify against the same sandbox: every type of the spec verifies.
    for (const t of ['EMPLOYEE_ACTIVATED', 'EMPLOYEE_UPDATED', 'EMPLOYEE_DEACTIVATED', 'EMPLOYEE_DELETED', 'CONTRACT_ACTIVATED', 'APPROVAL_REQUEST_CREATED', 'APPROVAL_REQUEST_REJECTED']) {
      const printed = await runCli(['sandbox', 'emit', t, '--print'], { env });
      expect(printed.code, printed.stderr).toBe(0);
      const v = await runCli(['webhook', 'verify', '-o', 'json'], { env, input: printed.stdout });
      expect(v.code, v.stdout).toBe(0);
      expect(JSON.parse(v.stdout)).toMatchObject({ valid: true, eventType: t, errors: [] });
    }
    // Seventeen processes: give a loaded machine room.
  }, 90_000);
});

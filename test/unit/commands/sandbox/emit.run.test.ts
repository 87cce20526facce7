// `sandbox emit --to` in-process: the sandbox signs (stubbed API), the JWS
// goes to the receiver through the context's delivery client (the same
// transport, stubbed by nock: an unmatched or unused stub fails), with no token.
import { describe, expect, it } from 'vitest';
import type nock from 'nock';
import { emit } from '../../../../src/commands/sandbox/emit.js';
import { SIGN_PATH } from '../../../../src/commands/sandbox/emit.run.js';
import { ORIGIN, runInProcess } from '../../../helpers/command.js';

const TO = `${ORIGIN}/hook`;

function sign(api: nock.Scope) {
  api.post(SIGN_PATH).reply(200, { jws: 'aaa.bbb.ccc', kid: 'sbx-1' }, { 'content-type': 'application/json' });
}

describe('sandbox emit --to', () => {
  it('POSTs the JWS itself as JSON, without the token, and reports the status (-o json)', async () => {
    let seen: { body: unknown; headers: Record<string, string> } | undefined;
    const r = await runInProcess(emit, ['EMPLOYEE_CREATED'], { to: TO, output: 'json' }, {
      stub: (api) => {
        sign(api);
        // The body as sent (nock's reply function would parse a JSON-labelled body, and the JWS is not JSON).
        api.on('request', (req: { headers: Record<string, string> }, _interceptor: unknown, body: string) => (seen = { body, headers: req.headers }));
        api.post('/hook').reply(202, 'ok');
      },
    });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ eventType: 'EMPLOYEE_CREATED', legacy: false, kid: 'sbx-1', to: TO, status: 202 });
    expect(seen!.body).toBe('aaa.bbb.ccc');
    expect(seen!.headers['content-type']).toBe('application/json');
    expect(seen!.headers.authorization).toBeUndefined();
    expect(seen!.headers['user-agent']).toMatch(/^partner-cli\/\S+ sandbox-emit$/);
  });

  // The error a refusal throws (an error, not a warning that exits 1).
  async function refused(reply: [number, string]) {
    const err = (await runInProcess(emit, ['EMPLOYEE_CREATED'], { to: TO, output: 'table' }, {
      stub: (api) => {
        sign(api);
        api.post('/hook').reply(reply[0], reply[1]);
      },
    }).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code: string; exitCode: number; message: string } | undefined;
    return { err: err! };
  }

  it('a refusal is an error (DELIVERY_REFUSED, exit 1) showing the reply whole (up to 4 KiB), sanitised', async () => {
    const r = await refused([401, `{"error":"BAD_SIGNATURE\u001b[2J"}${'x'.repeat(500)}`]);
    expect(r.err).toMatchObject({ code: 'DELIVERY_REFUSED', exitCode: 1 });
    expect(r.err.message).toMatch(/^The receiver refused the event \(HTTP 401\): \{"error":"BAD_SIGNATURE/);
    expect(r.err.message).not.toContain('\u001b');
    // Whole, but bounded.
    expect(r.err.message.endsWith('x'.repeat(500))).toBe(true);
    const flood = await refused([503, 'y'.repeat(100_000)]);
    expect(flood.err.message).toContain('y'.repeat(4096));
    expect(flood.err.message).not.toContain('y'.repeat(4097));
  });

  it("a receiver's JSON refusal {error, message} is shown as its code and its whole message", async () => {
    const message = 'no key with kid "k2" in the key set from http://127.0.0.1:1/jwks.json; the key set was refetched less than 30 s ago, so it is checked again in 29 s (a rotated key may not be known yet)';
    const r = await refused([503, JSON.stringify({ error: 'UNKNOWN_KID', message })]);
    expect(r.err).toMatchObject({ code: 'DELIVERY_REFUSED', exitCode: 1, message: `The receiver refused the event (HTTP 503 UNKNOWN_KID): ${message}` });
  });

  it('no receiver: DELIVERY_FAILED, saying what to do next', async () => {
    const err = await runInProcess(emit, ['EMPLOYEE_CREATED'], { to: TO }, {
      stub: (api) => {
        sign(api);
        api.post('/hook').replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
      },
    }).catch((e: unknown) => e as { code: string; message: string; hint: string });
    expect(err).toMatchObject({ code: 'DELIVERY_FAILED', message: `Could not deliver EMPLOYEE_CREATED to ${TO}: ECONNREFUSED` });
    expect((err as { hint: string }).hint).toMatch(/partner webhook listen/);
  });
});

// The one decoding of API answers (http.ts): a success is the data and must
// be valid UTF-8 (a Latin-1 body labelled charset=utf-8 is refused, naming the
// request and the byte offset, never decoded with U+FFFD and never retried);
// an error answer's stray byte does not hide its status; a BOM is dropped.
import { describe, expect, it } from 'vitest';
import { scriptedServer, type Handler } from '../../helpers/scripted-server.js';
import { HttpClient, InvalidUtf8ResponseError } from '../../../src/api/http.js';
import { ApiError, ExitCode } from '../../../src/errors.js';

const api = scriptedServer();
const answer =
  (status: number, body: Buffer): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) });
    res.end(body);
  };
const client = () => new HttpClient({ baseUrl: api.url, token: 'tok-abcdef', userAgent: 'partner-cli/9.9.9', timeoutMs: 2000, backoffBaseMs: 1 });
const LATIN1 = Buffer.from('{"fullName":"José Núñez"}', 'latin1');

describe('answers that are not UTF-8', () => {
  it('a 200 in Latin-1: InvalidUtf8ResponseError naming the request with its query and the offset of the é, asked once', async () => {
    api.queue.push(answer(200, LATIN1), answer(200, LATIN1));
    const http = client();
    try {
      const err = await http.get('/v1/employees', { page: 3 }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvalidUtf8ResponseError);
      const e = err as InvalidUtf8ResponseError;
      expect(e.code).toBe('BAD_RESPONSE_ENCODING');
      expect(e.exitCode).toBe(ExitCode.FAILURE);
      expect(e.hint).toMatch(/^The API must answer in UTF-8: .*often Latin-1.* Report it to the API provider, quoting the request\.$/);
      expect(e.message).toBe(`The server sent invalid UTF-8 in the answer of GET ${api.url}/v1/employees?page=3 (HTTP 200): byte offset ${LATIN1.indexOf(0xe9)} of ${LATIN1.length} (0xe9 0x20 0x4e 0xfa); nothing of it was used`);
      expect(api.seen).toHaveLength(1);
    } finally {
      await http.close();
    }
  });
  it('a 404 with a Latin-1 body is still the 404', async () => {
    api.queue.push(answer(404, Buffer.from('{"code":"NOT_FOUND","message":"Kein Mitarbeiter für José"}', 'latin1')));
    const http = client();
    try {
      const err = await http.get('/v1/employees/x/personal').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(404);
    } finally {
      await http.close();
    }
  });
  it('valid UTF-8 is the data, a leading BOM dropped; a typed U+FFFD stays', async () => {
    const body = { fullName: 'José Núñez 李 علی\u200cرضا \ufffd' };
    api.queue.push(answer(200, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(body))])));
    const http = client();
    try {
      expect(await http.get('/v1/x')).toEqual(body);
    } finally {
      await http.close();
    }
  });
});

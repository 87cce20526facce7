// The system keyring's plumbing with stand-in children (small scripts in a
// temp dir) instead of keyring-child.js: the request on stdin (never argv),
// the reply, and a child that hangs, dies or floods is stopped and named.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringError } from '../../../src/config/keyring.js';
import { busAnswers, problemOf, systemKeyring } from '../../../src/config/keyring-system.js';
import { createServer } from 'node:net';
import { tempDir } from '../../helpers/cli.js';

let dir: ReturnType<typeof tempDir>;
const child = (name: string, body: string) => {
  const path = join(dir.path, `${name}.mjs`);
  writeFileSync(path, body);
  return path;
};
const READ_STDIN = `let text = ''; for await (const c of process.stdin) text += c; const req = JSON.parse(text);`;

beforeAll(() => {
  dir = tempDir('partner-keyring-child-');
});
afterAll(() => dir.cleanup());

describe('systemKeyring', () => {
  it('sends the request on stdin (the secret never on argv) and returns the value', async () => {
    const echo = child('echo', `${READ_STDIN} process.stdout.write(JSON.stringify({ ok: true, value: JSON.stringify({ argv: process.argv.slice(2), req }) }));`);
    const k = systemKeyring({ env: process.env, childPath: echo });
    const got = JSON.parse((await k.get('svc', 'acct'))!);
    expect(got).toEqual({ argv: [], req: { op: 'get', service: 'svc', account: 'acct' } });
    const set = child('set', `${READ_STDIN} if (req.op !== 'set' || req.secret !== 's3cret' || process.argv.join(' ').includes('s3cret')) process.exit(9); process.stdout.write(JSON.stringify({ ok: true, value: null }));`);
    await expect(systemKeyring({ env: process.env, childPath: set }).set('svc', 'acct', 's3cret')).resolves.toBeUndefined();
  });

  it('delete is true only when the child says true', async () => {
    const yes = child('yes', `${READ_STDIN} process.stdout.write(JSON.stringify({ ok: true, value: req.op === 'delete' }));`);
    expect(await systemKeyring({ env: process.env, childPath: yes }).delete('s', 'a')).toBe(true);
    const no = child('no', `${READ_STDIN} process.stdout.write(JSON.stringify({ ok: true, value: false }));`);
    expect(await systemKeyring({ env: process.env, childPath: no }).delete('s', 'a')).toBe(false);
  });

  it('a refusal is a KeyringError with the message on one line, without control characters', async () => {
    const refuse = child('refuse', `${READ_STDIN} process.stdout.write(JSON.stringify({ ok: false, message: 'Platform failure:\\n\\u001b[31mlocked' }));`);
    const err = await systemKeyring({ env: process.env, childPath: refuse }).get('s', 'a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeyringError);
    expect(err).toMatchObject({ reason: 'unavailable', message: 'Platform failure: [31mlocked' });
  });

  it('a child that never answers is killed after the time limit: "timeout"', async () => {
    const hang = child('hang', `setInterval(() => {}, 1000);`);
    const err = await systemKeyring({ env: process.env, childPath: hang, timeoutMs: 300 }).get('s', 'a').catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'timeout', message: 'the keyring did not answer within 300 ms (an unlock prompt nobody answered?)' });
  });

  it('a child that dies, answers garbage, floods, or answers a get with a non-string is named', async () => {
    const die = child('die', `process.exit(3);`);
    await expect(systemKeyring({ env: process.env, childPath: die }).get('s', 'a')).rejects.toMatchObject({ reason: 'unavailable', message: 'the keyring helper stopped without an answer (exit 3)' });
    const flood = child('flood', `process.stdout.write('x'.repeat(200000));`);
    await expect(systemKeyring({ env: process.env, childPath: flood }).get('s', 'a')).rejects.toMatchObject({ message: 'the keyring helper answered too much' });
    const odd = child('odd', `process.stdout.write(JSON.stringify({ ok: true, value: true }));`);
    await expect(systemKeyring({ env: process.env, childPath: odd }).get('s', 'a')).rejects.toMatchObject({ message: 'the keyring answered with something other than a token' });
    await expect(systemKeyring({ env: process.env, childPath: join(dir.path, 'absent.mjs') }).get('s', 'a')).rejects.toMatchObject({ reason: 'unavailable', message: expect.stringMatching(/stopped without an answer \(exit 1\)/) });
  });

  it('Ctrl-C stops the call with the signal\'s reason', async () => {
    const hang = child('hang2', `setInterval(() => {}, 1000);`);
    const ac = new AbortController();
    const reason = new Error('Interrupted');
    const p = systemKeyring({ env: process.env, childPath: hang, signal: ac.signal }).get('s', 'a');
    setTimeout(() => ac.abort(reason), 50);
    await expect(p).rejects.toBe(reason);
    const done = new AbortController();
    done.abort(reason);
    await expect(systemKeyring({ env: process.env, childPath: hang, signal: done.signal }).get('s', 'a')).rejects.toBe(reason);
  });

  it('from the sources (no build), the helper is missing and says how to build it', async () => {
    await expect(systemKeyring({ env: process.env }).get('s', 'a')).rejects.toMatchObject({ reason: 'unavailable', message: 'the keyring helper is not built (run `npm run build`)' });
  });
});

describe('which problem kept the keyring from answering (never from the library\'s text)', () => {
  it('a child reply without serviceAnswers is the helper; a keyring that answered a read refused (locked)', async () => {
    expect(await problemOf(undefined, {}, 'linux')).toBe('helper');
    expect(await problemOf(true, {}, 'linux')).toBe('locked');
    expect(await problemOf(false, {}, 'darwin')).toBe('refused');
  });

  it('Linux: no bus address, a bus address whose socket is gone, a bus with no Secret Service', async () => {
    expect(await problemOf(false, {}, 'linux')).toBe('no-bus');
    expect(await problemOf(false, { DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir.path, 'no-such-bus')}` }, 'linux')).toBe('bus-gone');
    const sock = join(dir.path, 'bus');
    const server = createServer((s) => s.destroy());
    await new Promise<void>((resolve) => server.listen(sock, resolve));
    try {
      expect(await busAnswers(`unix:path=${sock},guid=abc`)).toBe(true);
      expect(await problemOf(false, { DBUS_SESSION_BUS_ADDRESS: `unix:path=${sock}` }, 'linux')).toBe('no-service');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await busAnswers('unix:abstract=/tmp/dbus-x')).toBeUndefined();
  });

  it('a child that says the call failed: the error keeps the library text as its message and carries partner\'s problem', async () => {
    const locked = child('locked', `${READ_STDIN} process.stdout.write(JSON.stringify({ ok: false, message: 'Platform failure: prompt dismissed', serviceAnswers: true }));`);
    const err = await systemKeyring({ env: {}, childPath: locked }).set('svc', 'a', 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KeyringError);
    expect(err).toMatchObject({ message: 'Platform failure: prompt dismissed', reason: 'unavailable', problem: 'locked' });
  });
});

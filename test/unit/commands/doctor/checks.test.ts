import { describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkNode, checkProxy, checkSpool, compareVersions, maskProxyUrl } from '../../../../src/commands/doctor/checks.js';
import { JOURNAL } from '../../../../src/webhooks/journal.js';
import { UNREADABLE } from '../../../../src/webhooks/journal-aside.js';
import { compactJournal } from '../../../../src/webhooks/journal-compact.js';

describe('doctor checks', () => {
  it('Node.js: 20.18 or newer passes, older fails with a fix and exit 1', () => {
    expect(compareVersions('20.18.0', [20, 18, 0])).toBe(0);
    expect(compareVersions('v22.1.0', [20, 18, 0])).toBeGreaterThan(0);
    expect(checkNode('20.20.2').status).toBe('ok');
    const old = checkNode('20.17.9');
    expect(old).toMatchObject({ status: 'fail', exitCode: 1 });
    expect(old.fix).toMatch(/Node\.js 20\.18 or newer/);
    expect(checkNode('18.19.0').status).toBe('fail');
  });

  it('proxy URLs lose their credentials; a non-URL is reported', () => {
    expect(maskProxyUrl('http://bob:hunter2@proxy.corp:3128')).toBe('http://***:***@proxy.corp:3128');
    expect(maskProxyUrl('http://proxy.corp:3128/')).toBe('http://proxy.corp:3128');
    expect(maskProxyUrl('proxy.corp:3128')).toBeUndefined();
    expect(maskProxyUrl('not a url')).toBeUndefined();
  });

  it('says which proxy the base URL goes through, by the client rule (NO_PROXY with subdomains, HTTP_PROXY for https when alone; loopback direct)', () => {
    const env = { HTTPS_PROXY: 'http://u:p@proxy.corp:3128', NO_PROXY: '.internal.example,localhost' };
    expect(checkProxy(env, 'https://api.example.com').message).toMatch(/api\.example\.com goes through HTTPS_PROXY$/);
    expect(checkProxy(env, 'https://api.internal.example').message).toMatch(/bypasses the proxy \(NO_PROXY\)$/);
    expect(checkProxy(env, 'https://127.0.0.1:8443').message).toMatch(/127\.0\.0\.1:8443 is loopback, reached directly whatever the proxy$/);
    expect(checkProxy({ HTTP_PROXY: 'http://only-http:3128' }, 'https://x.example').message).toMatch(/x\.example goes through HTTP_PROXY$/);
    expect(checkProxy({ https_proxy: 'http://a', HTTPS_PROXY: 'http://b' }, 'https://x.example').message).toMatch(/^https_proxy=http:\/\/a/);
    expect(checkProxy({}, 'https://x.example')).toMatchObject({ status: 'ok', message: expect.stringMatching(/^none set/) });
    expect(JSON.stringify(checkProxy(env, 'https://api.example.com'))).not.toMatch(/u:p@/);
  });
});

describe('doctor --spool', () => {
  const ev = (id: string) => JSON.stringify({ t: 'event', id, digest: `d-${id}`, receivedAt: '2026-11-01T00:00:00.000Z', eventType: 'EMPLOYEE_CREATED', kid: 'k1', jws: 'j', payload: {}, target: null });
  const scratch = () => mkdtempSync(join(tmpdir(), 'partner-doctor-spool-'));

  it('a spool with a damaged line: WARN, with the count, the aside file and its offsets; a clean one OK; a missing one FAIL', async () => {
    const dir = scratch();
    try {
      chmodSync(dir, 0o700);
      writeFileSync(join(dir, JOURNAL), `${ev('a')}\n{"t":"delivered","id":"a","at":"x"}\n${ev('b')}\n`);
      expect(await checkSpool(dir)).toMatchObject({ status: 'ok', message: `${dir}: 2 event(s) in the journal, 1 undelivered; every line readable` });
      writeFileSync(join(dir, JOURNAL), `${ev('a')}\n${ev('b').replace('"t"', '"t')}\n`);
      const inJournal = await checkSpool(dir);
      expect(inJournal).toMatchObject({ status: 'warn', details: { unreadableInJournal: 1, keptAside: 0 } });
      expect(inJournal.message).toMatch(/1 unreadable line\(s\) still in the journal/);
      await compactJournal(dir, { retainMs: 1, now: () => Date.now() });
      const aside = await checkSpool(dir);
      expect(aside).toMatchObject({ status: 'warn', details: { unreadableInJournal: 0, keptAside: 1, keptAsideOffsets: [ev('a').length + 1] } });
      expect(aside.message).toBe(`${dir}: 1 event(s) in the journal, 1 undelivered; 1 unreadable journal line(s) kept aside in ${join(dir, UNREADABLE)} (offsets ${ev('a').length + 1})`);
      expect(aside.fix).toMatch(/deliver what it held by hand/);
      expect(aside.exitCode).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(await checkSpool(join(tmpdir(), 'partner-no-such-spool-x'))).toMatchObject({ status: 'fail', exitCode: 1 });
  });
});

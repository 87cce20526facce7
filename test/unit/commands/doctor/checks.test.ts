import { describe, expect, it } from 'vitest';
import { checkNode, checkProxy, compareVersions, maskProxyUrl } from '../../../../src/commands/doctor/checks.js';

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

  it('says which proxy the base URL goes through, honouring NO_PROXY like undici', () => {
    const env = { HTTPS_PROXY: 'http://u:p@proxy.corp:3128', NO_PROXY: '.internal.example,localhost' };
    expect(checkProxy(env, 'https://api.example.com').message).toMatch(/api\.example\.com goes through HTTPS_PROXY$/);
    expect(checkProxy(env, 'https://api.internal.example').message).toMatch(/bypasses the proxy \(NO_PROXY\)$/);
    expect(checkProxy({ https_proxy: 'http://a', HTTPS_PROXY: 'http://b' }, 'https://x.example').message).toMatch(/^https_proxy=http:\/\/a/);
    expect(checkProxy({}, 'https://x.example')).toMatchObject({ status: 'ok', message: expect.stringMatching(/^none set/) });
    expect(JSON.stringify(checkProxy(env, 'https://api.example.com'))).not.toMatch(/u:p@/);
  });
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processProbe, runsPartner, statStartTime } from '../../src/process-probe.js';

describe('runsPartner', () => {
  it('knows partner by its program or the first script it runs', () => {
    expect(runsPartner(['/usr/bin/node', '/opt/app/bin/partner.js', 'webhook', 'listen'], '/x/vitest.mjs')).toBe(true);
    expect(runsPartner(['node', '--enable-source-maps', '/usr/local/bin/partner', 'auth'], undefined)).toBe(true);
    expect(runsPartner(['/usr/local/bin/partner'], undefined)).toBe(true);
    expect(runsPartner(['C:\\\\partner.exe'.replace(/\\\\/g, '/')], undefined)).toBe(true);
    expect(runsPartner(['node', 'dist/cli.mjs'], '/repo/dist/cli.mjs')).toBe(true);
  });

  it('anything else is not partner, even with partner among its arguments', () => {
    expect(runsPartner(['sleep', '30'], '/x/bin/partner.js')).toBe(false);
    expect(runsPartner(['/bin/sh', '-c', 'partner auth login'], '/x/bin/partner.js')).toBe(false);
    expect(runsPartner(['node', 'server.js', 'partner.js'], '/x/bin/partner.js')).toBe(false);
    expect(runsPartner(['partner-sync'], undefined)).toBe(false);
    expect(runsPartner([], undefined)).toBe(false);
  });
});

describe('statStartTime', () => {
  it('reads field 22 of /proc/PID/stat, past a name with spaces and parentheses', () => {
    const tail = 'S 1 1 1 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 31714 3133440 347';
    expect(statStartTime(`17264 (cat) ${tail}`)).toBe('31714');
    expect(statStartTime(`17264 (a (b) c) ${tail}`)).toBe('31714');
    expect(statStartTime('17264 (cat) S 1 2')).toBeUndefined();
  });
});

describe.runIf(process.platform !== 'win32')('the probe of this platform', () => {
  it('tells this process, a live partner, a live sleep, and a pid that is gone', async () => {
    const p = processProbe();
    expect(p.self).toBe(process.pid);
    expect(p.alive(process.pid)).toBe(true);
    expect(p.startOf(process.pid)).toMatch(/\S/);
    expect(p.startOf(process.pid)).toBe(p.startOf(process.pid));
    const dir = mkdtempSync(join(tmpdir(), 'partner-probe-'));
    writeFileSync(join(dir, 'partner.js'), 'setTimeout(() => {}, 30000);');
    const partner = spawn(process.execPath, [join(dir, 'partner.js'), 'webhook', 'listen'], { stdio: 'ignore' });
    try {
      await new Promise((r) => partner.once('spawn', r));
      expect(p.isPartner(partner.pid!)).toBe(true);
      expect(p.startOf(partner.pid!)).not.toBe(p.startOf(process.pid));
    } finally {
      partner.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((r) => sleeper.once('spawn', r));
      const pid = sleeper.pid!;
      expect(p.alive(pid)).toBe(true);
      expect(p.isPartner(pid)).toBe(false);
      expect(p.startOf(pid)).toMatch(/\S/);
    } finally {
      sleeper.kill('SIGKILL');
    }
    expect(p.alive(2 ** 30)).toBe(false);
    expect(p.startOf(2 ** 30)).toBeUndefined();
    expect(p.isPartner(2 ** 30)).toBeUndefined();
  });
});

describe('processProbe on a platform that cannot tell', () => {
  it('knows only whether a pid is alive', () => {
    const p = processProbe('win32');
    expect(p.alive(process.pid)).toBe(true);
    expect(p.startOf(process.pid)).toBeUndefined();
    expect(p.isPartner(process.pid)).toBeUndefined();
  });
});

// The systemd unit of docs/guides/webhooks.md is checked
// by systemd-analyze verify where that tool exists (skipped visibly where it
// does not): the unit is taken from the guide itself, so the two never drift.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, ROOT, tempDir } from '../helpers/cli.js';

const GUIDE = join(ROOT, 'docs', 'guides', 'webhooks.md');
const hasSystemd = spawnSync('systemd-analyze', ['--version']).status === 0;

/** The ```ini block after the guide's unit marker. */
function unitFromGuide(): string {
  const m = /<!-- unit:partner-webhooks\.service[^>]*-->\n```ini\n([\s\S]*?)```/.exec(readFileSync(GUIDE, 'utf8'));
  if (!m) throw new Error('no unit block in docs/guides/webhooks.md');
  return m[1]!;
}

function verify(text: string): { status: number | null; output: string } {
  const dir = tempDir();
  try {
    const file = join(dir.path, 'partner-webhooks.service');
    // The unit names the installed command; here it is this checkout's launcher (systemd checks it is executable).
    writeFileSync(file, text.replace('ExecStart=/usr/bin/partner ', `ExecStart=${process.execPath} ${BIN} `));
    const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8', timeout: 30_000 });
    return { status: r.status, output: `${r.stdout}${r.stderr}` };
  } finally {
    dir.cleanup();
  }
}

describe('the systemd unit of the webhooks guide', () => {
  it('has what a service needs: Restart=, the spool under StateDirectory=, a dedicated user, SIGTERM with room for the drain', () => {
    const unit = unitFromGuide();
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^StateDirectory=partner-webhooks$/m);
    expect(unit).toMatch(/--spool \$\{STATE_DIRECTORY\}\/spool/);
    expect(unit).toMatch(/^DynamicUser=yes$/m);
    expect(unit).toMatch(/^TimeoutStopSec=(\d+)s$/m);
    expect(Number(/^TimeoutStopSec=(\d+)s$/m.exec(unit)![1])).toBeGreaterThan(30); // the drain is at most 30 s
  });

  it.skipIf(!hasSystemd)('passes systemd-analyze verify without a warning (and a broken copy does not)', () => {
    const good = verify(unitFromGuide());
    expect(good.output).toBe('');
    expect(good.status).toBe(0);
    const broken = verify(unitFromGuide().replace('Restart=on-failure', 'Restart=sometimes'));
    expect(broken.output).toMatch(/restart specifier/);
  });

  it.runIf(!hasSystemd)('systemd-analyze is not installed here: the verify check is skipped', () => {
    console.warn('SKIPPED: systemd-analyze not found; the unit was not verified');
  });
});

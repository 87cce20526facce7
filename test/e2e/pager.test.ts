// output longer than the terminal goes through a pager, as gh's
// does: PARTNER_PAGER, else the config's "pager", else PAGER, else less -FRX; an empty value means none;
// --no-pager turns it off; never when piped; quitting early is exit 0 and
// Ctrl-C is 130; help pages too. On a real pseudo-terminal (util-linux
// `script`) at 80x24, with a recording pager.
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCode, runCli, runOnTerminal, sandboxEnv } from '../helpers/cli.js';
import { CTRL_C, hasScript, Pty, strip } from '../helpers/pty.js';

let env: NodeJS.ProcessEnv;
let dir: string;
let close: () => Promise<void>;
let recorder: string;
let stubborn: string;
let n = 0;

beforeAll(async () => {
  ({ env, dir, close } = await sandboxEnv());
  // A pager that keeps what it was given (and says so on the terminal), as less would show it.
  recorder = join(dir, 'record-pager.mjs');
  writeFileSync(recorder, "import { writeFileSync } from 'node:fs';\nconst chunks = [];\nprocess.stdin.on('data', (c) => chunks.push(c)).on('end', () => { writeFileSync(process.argv[2], Buffer.concat(chunks)); process.stdout.write('PAGER DONE\\n'); });\n");
  // A pager that, like less, ignores Ctrl-C and waits for the person; it ends on SIGTERM.
  stubborn = join(dir, 'stubborn-pager.mjs');
  writeFileSync(stubborn, "import { writeFileSync } from 'node:fs';\nprocess.on('SIGINT', () => undefined);\nprocess.on('SIGTERM', () => { writeFileSync(process.argv[2], 'ended'); process.exit(0); });\nprocess.stdout.write('PAGER OPEN\\n');\nprocess.stdin.resume();\nsetTimeout(() => process.exit(3), 20000);\n");
});

afterAll(async () => {
  await close?.();
});

/** A fresh file for the recording pager, and the PARTNER_PAGER that writes it. */
function recording(): { file: string; pager: string } {
  const file = join(dir, `paged-${++n}.txt`);
  return { file, pager: `${process.execPath} ${recorder} ${file}` };
}

const LONG = ['employees', 'list', '--page-size', '40', '-o', 'table'];
/** Terminal text as one line of words: colour codes out, a wrapped message joined. */
const flat = (out: string) => strip(out).replace(/\s+/g, ' ');
const at80x24 = { columns: 80, rows: 24 };

describe.skipIf(!hasScript)('the pager', () => {
  it('takes a table taller than the terminal, footer included, and exits 0', async () => {
    const { file, pager } = recording();
    const out = await runOnTerminal(LONG, { env: { ...env, PARTNER_PAGER: pager }, ...at80x24 });
    expect(out).toContain('PAGER DONE');
    const paged = readFileSync(file, 'utf8');
    expect(paged.split('\n').filter((l) => /^ACME-\d{5} /.test(l))).toHaveLength(40);
    expect(paged).toMatch(/Page 1 of 2 · 45 employees/);
    // Nothing of it went to the terminal besides the pager.
    expect(out).not.toMatch(/ACME-00001/);
  });

  it('is not started for output that fits', async () => {
    const { file, pager } = recording();
    const out = await runOnTerminal(['employees', 'list', '--page-size', '5', '-o', 'table'], { env: { ...env, PARTNER_PAGER: pager }, ...at80x24 });
    expect(existsSync(file)).toBe(false);
    expect(out).toMatch(/ACME-00005/);
  });

  it('uses PAGER when PARTNER_PAGER is not set, and none when PARTNER_PAGER is empty', async () => {
    const a = recording();
    const { PARTNER_PAGER: _, ...noPartnerPager } = env;
    await runOnTerminal(LONG, { env: { ...noPartnerPager, PAGER: a.pager }, ...at80x24 });
    expect(readFileSync(a.file, 'utf8')).toMatch(/ACME-00040/);
    const b = recording();
    const out = await runOnTerminal(LONG, { env: { ...env, PARTNER_PAGER: '', PAGER: b.pager }, ...at80x24 });
    expect(existsSync(b.file)).toBe(false);
    expect(out).toMatch(/ACME-00040/);
  });

  it('is the config file\'s "pager" when PARTNER_PAGER is not set (before PAGER); "" there turns it off; PARTNER_PAGER still wins', async () => {
    const { PARTNER_PAGER: _, ...noPartnerPager } = env;
    const withConfig = (pager: string) => {
      const configDir = join(dir, `config-${++n}`);
      mkdirSync(configDir, { mode: 0o700 });
      writeFileSync(join(configDir, 'config.json'), JSON.stringify({ pager, profiles: {} }), { mode: 0o600 });
      return { ...noPartnerPager, PARTNER_CONFIG_DIR: configDir };
    };
    const viaConfig = recording();
    const viaPager = recording();
    await runOnTerminal(LONG, { env: { ...withConfig(viaConfig.pager), PAGER: viaPager.pager }, ...at80x24 });
    expect(readFileSync(viaConfig.file, 'utf8')).toMatch(/ACME-00040/);
    expect(existsSync(viaPager.file)).toBe(false);
    // Help too (answered before the CLI loads).
    const help = recording();
    await runOnTerminal(['help', 'gp', 'create'], { env: withConfig(help.pager), ...at80x24 });
    expect(readFileSync(help.file, 'utf8')).toMatch(/^Create a GP employee/i);
    const off = recording();
    const out = await runOnTerminal(LONG, { env: { ...withConfig(''), PAGER: off.pager }, ...at80x24 });
    expect(existsSync(off.file)).toBe(false);
    expect(out).toMatch(/ACME-00040/);
    const overridden = recording();
    await runOnTerminal(LONG, { env: { ...withConfig(''), PARTNER_PAGER: overridden.pager }, ...at80x24 });
    expect(readFileSync(overridden.file, 'utf8')).toMatch(/ACME-00040/);
  });

  it('is refused from a config file that other users can write, or that another user owns, with a warning', async () => {
    const { PARTNER_PAGER: _, ...noPartnerPager } = env;
    const configDir = join(dir, `config-${++n}`);
    mkdirSync(configDir, { mode: 0o700 });
    const config = join(configDir, 'config.json');
    const planted = recording();
    writeFileSync(config, JSON.stringify({ pager: planted.pager, profiles: {} }), { mode: 0o600 });
    chmodSync(config, 0o666);
    const out = await runOnTerminal(LONG, { env: { ...noPartnerPager, PARTNER_CONFIG_DIR: configDir, PAGER: '' }, ...at80x24 });
    expect(existsSync(planted.file)).toBe(false);
    expect(out).toMatch(/ACME-00040/);
    expect(flat(out).match(/warning: the pager set in \S*config\.json is not run: other users can write it \(mode 666\)/g)).toHaveLength(1);
    // Help is not paged by it either.
    const help = await runOnTerminal(['help', 'gp', 'create'], { env: { ...noPartnerPager, PARTNER_CONFIG_DIR: configDir, PAGER: '' }, ...at80x24 });
    expect(existsSync(planted.file)).toBe(false);
    expect(flat(help)).toMatch(/not run: other users can write it/);
    // Another user's file (only root can make one here).
    if (process.getuid?.() === 0) {
      chmodSync(config, 0o644);
      chownSync(config, 65534, 65534);
      const owned = await runOnTerminal(LONG, { env: { ...noPartnerPager, PARTNER_CONFIG_DIR: configDir, PAGER: '' }, ...at80x24 });
      expect(existsSync(planted.file)).toBe(false);
      expect(flat(owned)).toMatch(/not run: it belongs to another user \(uid 65534\)/);
    }
  });

  it('is turned off by --no-pager', async () => {
    const { file, pager } = recording();
    const out = await runOnTerminal([...LONG, '--no-pager'], { env: { ...env, PARTNER_PAGER: pager }, ...at80x24 });
    expect(existsSync(file)).toBe(false);
    expect(out).toMatch(/ACME-00040/);
  });

  it('is never used when stdout is piped', async () => {
    const { file, pager } = recording();
    const r = await runCli(LONG, { env: { ...env, PARTNER_PAGER: pager } });
    expectCode(r, 0);
    expect(existsSync(file)).toBe(false);
    expect(r.stdout).toMatch(/ACME-00040/);
  });

  it('quitting it early is a normal exit (0), and the page\'s footer is still seen below it', async () => {
    const p = new Pty(LONG, { ...env, PARTNER_PAGER: 'head -3' }, at80x24);
    try {
      expect(await p.done).toBe(0);
      const lines = p.out.trim().split('\n');
      // What the pager showed (3 lines), then where the next page is.
      expect(lines).toHaveLength(4);
      expect(lines[1]).toMatch(/^ACME-00001 /);
      expect(lines[3]).toBe('Page 1 of 2 · 45 employees · next: --page 2, or --all');
    } finally {
      p.kill();
    }
  });

  it('is not started for output exactly as tall as the terminal (24 lines, footer included, on 24 rows); one more row pages', async () => {
    // At 80 columns: the header, 20 rows, two lines on the hidden columns and the footer.
    const fits = recording();
    const out = strip(await runOnTerminal(['employees', 'list', '--page-size', '20', '-o', 'table'], { env: { ...env, PARTNER_PAGER: fits.pager }, ...at80x24 }));
    expect(existsSync(fits.file)).toBe(false);
    expect(out.trim().split('\n')).toHaveLength(24);
    expect(out).toMatch(/^CODE +NAME/);
    expect(out).toMatch(/ACME-00020[^]*\nPage 1 of 3 · 45 employees · next: --page 2, or --all\n/);
    const taller = recording();
    await runOnTerminal(['employees', 'list', '--page-size', '21', '-o', 'table'], { env: { ...env, PARTNER_PAGER: taller.pager }, ...at80x24 });
    expect(readFileSync(taller.file, 'utf8').trim().split('\n')).toHaveLength(25);
  });

  it('counts rows, not lines: a line wider than the terminal takes several', async () => {
    // 15 lines of a key/value block whose long values wrap at 40 columns: more rows than 24.
    const { file, pager } = recording();
    const out = await runOnTerminal(['employees', 'list', '--page-size', '3', '-o', 'json'], { env: { ...env, PARTNER_PAGER: pager }, columns: 40, rows: 24 });
    expect(out).toContain('PAGER DONE');
    expect(readFileSync(file, 'utf8')).toMatch(/"pagination"/);
  });

  it('says once, on stderr, that a pager that is not installed was not used, and prints the output', async () => {
    const out = await runOnTerminal(LONG, { env: { ...env, PARTNER_PAGER: 'nosuchpager-partner-test' }, ...at80x24 });
    expect(out).toMatch(/ACME-00040/);
    expect(flat(out).match(/warning: the pager "nosuchpager-partner-test" \(PARTNER_PAGER\) was not found/g)).toHaveLength(1);
    const help = await runOnTerminal(['help', 'gp', 'create'], { env: { ...env, PARTNER_PAGER: 'nosuchpager-partner-test' }, ...at80x24 });
    expect(help).toMatch(/^Create a GP employee/im);
    expect(flat(help).match(/warning: the pager "nosuchpager-partner-test"/g)).toHaveLength(1);
  });

  it('holds what stderr says while the pager has the screen, and writes it after', async () => {
    const { file, pager } = recording();
    const out = await runOnTerminal(['employees', 'list', '--search', 'an', '-o', 'table'], { env: { ...env, PARTNER_PAGER: pager }, columns: 80, rows: 5 });
    expect(readFileSync(file, 'utf8')).toMatch(/^CODE +NAME/);
    // The search's count goes to stderr: after the pager, not over it.
    expect(out).toMatch(/PAGER DONE\n[^]*Searched 45 employees/);
    expect(out).not.toMatch(/Searched[^]*PAGER DONE/);
  });

  it('goes with partner on Ctrl-C: exit 130, the pager ended', async () => {
    const marker = join(dir, `stopped-${++n}`);
    const p = new Pty(LONG, { ...env, PARTNER_PAGER: `${process.execPath} ${stubborn} ${marker}` }, at80x24);
    try {
      await p.expect(/PAGER OPEN/);
      p.send(CTRL_C);
      expect(await Promise.race([p.done, new Promise((r) => setTimeout(() => r('timeout'), 10_000))])).toBe(130);
      // The pager did not stay behind on the terminal partner left.
      expect(readFileSync(marker, 'utf8')).toBe('ended');
    } finally {
      p.kill();
    }
  });

  it('pages help taller than the terminal', async () => {
    const { file, pager } = recording();
    const out = await runOnTerminal(['help', 'gp', 'create'], { env: { ...env, PARTNER_PAGER: pager }, ...at80x24 });
    expect(out).toContain('PAGER DONE');
    expect(readFileSync(file, 'utf8')).toMatch(/^Create a GP employee/i);
  });
});

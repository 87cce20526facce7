// Output longer than the terminal goes through a pager, as gh's does:
// PARTNER_PAGER, else the config file's "pager", else PAGER, else
// `less -FRX`; an empty value (or `cat`) means none.
// Only on a terminal (a pipe or a file is never paged), only for commands
// that allow it (not the wizard, not `webhook listen`), never with
// --no-pager, and only for output taller than the screen (in rows: a line
// wider than the terminal takes several). Quitting the pager early is a
// normal end (the output's reader went away, exit 0); Ctrl-C stops the
// pager with the command (130). The config file is read by the entry
// points (config/pager-setting.ts), which hand in what it says.
import type { ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { wrapMessage } from '../text/wrap.js';
import { ScreenRows, screenRows } from './screen-rows.js';

// child_process is loaded when a pager starts: help (which imports this module) must not pay for it.
const childProcess = () => process.getBuiltinModule('node:child_process') as typeof import('node:child_process');

/** What the entry point read of the config file's "pager" (config/pager-setting.ts ConfiguredPager). */
export interface PagerConfig {
  pager?: string;
  /** The config's pager is not run: why, said as a warning. */
  refused?: string;
}

/** Where the pager's warnings go: stderr, and whether it takes colour and how wide it is. */
export interface WarningTarget {
  stderr: NodeJS.WritableStream | Writable;
  stderrColor?: boolean;
  stderrColumns?: number;
}

/** The pager to run and where it was set (for a message that names it). */
export interface PagerChoice {
  command: string;
  from: string;
}

/**
 * The pager to run, or undefined for none: PARTNER_PAGER, then the config's
 * "pager" (asked only when PARTNER_PAGER is not set), then PAGER (set but
 * empty: none), then `less -FRX`. A config pager that was refused is passed
 * over, with its warning.
 */
export function pagerChoice(env: NodeJS.ProcessEnv, config: () => PagerConfig = () => ({}), warn: (message: string) => void = () => undefined): PagerChoice | undefined {
  let chosen: PagerChoice;
  if (env.PARTNER_PAGER !== undefined) chosen = { command: env.PARTNER_PAGER, from: 'PARTNER_PAGER' };
  else {
    const c = config();
    if (c.refused) warn(c.refused);
    if (c.pager !== undefined) chosen = { command: c.pager, from: 'the config file\'s "pager"' };
    else if (env.PAGER !== undefined) chosen = { command: env.PAGER, from: 'PAGER' };
    else chosen = { command: 'less -FRX', from: 'the default' };
  }
  const trimmed = chosen.command.trim();
  // `cat` as a pager is no pager (git's rule too): write directly.
  return trimmed === '' || trimmed === 'cat' ? undefined : { command: trimmed, from: chosen.from };
}

/** The same warning is written once per run, whichever path (help, a command) meets it again. */
const warned = new Set<string>();

/** A warning line as the logger writes it (output/colors.ts writeWarning), without loading chalk for help. */
function warnOnce(to: WarningTarget, message: string): void {
  if (warned.has(message)) return;
  warned.add(message);
  const label = to.stderrColor ? '\x1b[33mwarning:\x1b[39m' : 'warning:';
  to.stderr.write(`${wrapMessage(`${label} ${message}`, to.stderrColumns)}\n`);
}

/** The pager could not be started: said once, and the output is written as it is. */
function cannotStart(choice: PagerChoice, err: NodeJS.ErrnoException): string {
  const what = err.code === 'ENOENT' ? 'was not found' : `could not be started (${err.code ?? err.message})`;
  return `the pager "${choice.command}" (${choice.from}) ${what}; the output is shown without a pager. Set PARTNER_PAGER to a pager you have (less, more), or to "" for none.`;
}

/** Whether a pager is wanted: --no-pager (anywhere before `--`) turns it off. */
export function pagerWanted(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return !(end === -1 ? argv : argv.slice(0, end)).includes('--no-pager');
}

/**
 * How to start `command`: plain words are run directly (no shell needed, and
 * a missing program is a clean ENOENT); anything a shell must read (quotes,
 * variables, pipes) goes through `sh -c`, as git does with its pager.
 */
function argvOf(command: string): [string, string[]] {
  if (/['"`$\\|&;<>()*?~]/.test(command)) return ['sh', ['-c', command]];
  const words = command.split(/\s+/);
  return [words[0]!, words.slice(1)];
}

/** less reads LESS when it starts: -F quits at once on one screen, -R passes colour, -X leaves the text on the screen. */
function pagerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' };
}

/** What a pager needs to know of the terminal and the run: its size, stderr for warnings, the config's pager. */
export interface PagerTerminal extends WarningTarget {
  rows: number | undefined;
  columns: number | undefined;
  /** The config file's "pager", read on demand (config/pager-setting.ts). */
  config?: () => PagerConfig;
}

/**
 * Help (answered before the CLI loads, synchronously): through the pager when
 * it is taller than the terminal. false: not paged (write it yourself).
 */
export function pageText(text: string, term: PagerTerminal, env: NodeJS.ProcessEnv, argv: readonly string[]): boolean {
  if (!term.rows || !pagerWanted(argv) || screenRows(text, term.columns) <= term.rows) return false;
  const choice = pagerChoice(env, term.config, (m) => warnOnce(term, m));
  if (!choice) return false;
  const [file, args] = argvOf(choice.command);
  const r = childProcess().spawnSync(file, args, { input: text, stdio: ['pipe', 'inherit', 'inherit'], env: pagerEnv(env) });
  // A pager that could not start (not installed): said, and the text is written as it is.
  if (r.error) warnOnce(term, cannotStart(choice, r.error));
  return !r.error;
}

/** The most stderr that is held while the pager has the screen (warnings, a progress bar's frames). */
const MAX_HELD_STDERR = 1024 * 1024;

/**
 * stdout on a terminal, for a command that allows a pager: what is written is
 * held until it is taller than the terminal (more rows than it has), then the
 * pager starts and everything streams into it (output that fits is written as
 * it is when the command ends). While the pager has the screen, stderr is held
 * (`HeldStderr`) and written when it has ended, so nothing draws over it.
 */
export class PagedStdout extends Writable {
  private held: Buffer[] = [];
  private readonly screen: ScreenRows;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** A line to show again once the pager has ended (keepInView). */
  private footer: string | undefined;
  readonly stderr: HeldStderr;

  constructor(
    private readonly target: NodeJS.WriteStream,
    stderr: NodeJS.WriteStream,
    private choice: PagerChoice | undefined,
    private readonly env: NodeJS.ProcessEnv,
    private readonly warnings: WarningTarget = { stderr },
  ) {
    super();
    this.stderr = new HeldStderr(stderr);
    this.screen = new ScreenRows(target.columns);
  }

  /**
   * A line the reader must see even when they quit the pager before its end (a
   * page's footer: where the next page is). It is written as part of the output
   * as usual, and once more below the pager when one was shown.
   */
  keepInView(line: string): void {
    this.footer = line;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (this.child) {
      this.toPager(chunk, done);
      return;
    }
    if (!this.choice) {
      this.target.write(chunk, (err) => done(err ?? null));
      return;
    }
    this.held.push(chunk);
    // Output that fits the screen (as many rows as it has, or fewer) is not paged.
    if (this.screen.add(chunk) <= (this.target.rows || 24)) {
      done();
      return;
    }
    this.start(done);
  }

  override _final(done: (err?: Error | null) => void): void {
    if (!this.child) {
      const rest = Buffer.concat(this.held);
      this.held = [];
      if (rest.length === 0) done();
      else this.target.write(rest, (err) => done(err ?? null));
      return;
    }
    this.child.stdin!.end();
    void this.exited.then(() => done());
  }

  /** Ends the output and waits for the pager (the person reading it) to finish; then the footer again, and what stderr held. */
  async close(): Promise<void> {
    if (!this.writableEnded && !this.destroyed) this.end();
    if (!this.writableFinished && !this.destroyed) await new Promise<void>((resolve) => this.once('finish', resolve).once('error', () => resolve()).once('close', resolve));
    await this.exited;
    if (this.child && this.footer !== undefined) {
      const footer = `${this.footer}\n`;
      this.footer = undefined;
      await new Promise<void>((resolve) => this.target.write(footer, () => resolve()));
    }
    this.stderr.release();
  }

  /** Ctrl-C: the pager goes with the command (less would otherwise keep the terminal after partner has exited). */
  stop(): void {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
  }

  private start(done: (err?: Error | null) => void): void {
    const choice = this.choice!;
    const [file, args] = argvOf(choice.command);
    const child = childProcess().spawn(file, args, { stdio: ['pipe', 'inherit', 'inherit'], env: pagerEnv(this.env) });
    this.exited = new Promise((resolve) => child.once('close', () => resolve()));
    let spawned = false;
    let startFailed: NodeJS.ErrnoException | undefined;
    child.once('spawn', () => (spawned = true));
    child.once('error', (err: NodeJS.ErrnoException) => {
      // The pager is not installed (ENOENT) or cannot run: write directly, as without one.
      if (this.child === child && !spawned) startFailed = err;
    });
    // The pager quit (q) before reading everything: the output's reader went away, as with `| head`.
    child.stdin!.on('error', () => undefined);
    this.child = child;
    this.stderr.hold();
    const held = Buffer.concat(this.held);
    this.held = [];
    this.toPager(held, (err) => {
      if (err && startFailed) {
        this.child = undefined;
        this.choice = undefined;
        this.exited = Promise.resolve();
        this.stderr.release();
        warnOnce(this.warnings, cannotStart(choice, startFailed));
        this.target.write(held, (e) => done(e ?? null));
        return;
      }
      done(err);
    });
  }

  /** Into the pager, as fast as it reads: the next chunk waits only when the pipe is full. */
  private toPager(chunk: Buffer, done: (err?: Error | null) => void): void {
    const stdin = this.child!.stdin!;
    const gone = () => done(Object.assign(new Error('the pager has ended'), { code: 'EPIPE' }));
    if (stdin.destroyed || !stdin.writable) {
      gone();
      return;
    }
    if (stdin.write(chunk)) {
      done();
      return;
    }
    const settle = (ok: boolean) => {
      stdin.off('drain', onDrain).off('close', onClose);
      if (ok) done();
      else gone();
    };
    const onDrain = () => settle(true);
    const onClose = () => settle(false);
    stdin.on('drain', onDrain).on('close', onClose);
  }
}

/** stderr, held while the pager has the screen and written when it ends. */
export class HeldStderr extends Writable {
  private holding = false;
  private held: Buffer[] = [];
  private size = 0;

  constructor(private readonly target: NodeJS.WriteStream) {
    super();
  }

  // Straight through while nothing is held: written when write() returns, as Node's own stderr
  // (a process.exit() right after loses nothing).
  override write(chunk: unknown, ...rest: unknown[]): boolean {
    const args = [chunk, ...rest] as Parameters<Writable['write']>;
    return this.holding ? super.write(...args) : this.target.write(...(args as Parameters<NodeJS.WriteStream['write']>));
  }

  hold(): void {
    this.holding = true;
  }

  release(): void {
    if (!this.holding) return;
    this.holding = false;
    const rest = Buffer.concat(this.held);
    this.held = [];
    if (rest.length) this.target.write(rest);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (!this.holding) {
      this.target.write(chunk, (err) => done(err ?? null));
      return;
    }
    // Beyond the bound (a long walk's progress frames), the oldest go: the last frame and the last messages matter.
    this.held.push(chunk);
    this.size += chunk.length;
    while (this.size > MAX_HELD_STDERR && this.held.length > 1) this.size -= this.held.shift()!.length;
    done();
  }

  // Node's stderr properties that callers read (the progress bar's width).
  get columns(): number | undefined {
    return this.target.columns;
  }

  get isTTY(): boolean {
    return Boolean(this.target.isTTY);
  }
}

/** What the pager is installed on: the IO's streams (replaced) and its terminal facts. */
interface PagerIO {
  stdout: NodeJS.WritableStream | Writable;
  stderr: NodeJS.WritableStream | Writable;
  stdoutIsTTY: boolean;
  stderrColor?: boolean;
  stderrColumns?: number;
}

/**
 * Puts a pager between the command and a terminal's stdout (and holds stderr
 * while it shows), when stdout is a terminal and a pager is set. Returns it,
 * or undefined when output goes out as it is. `config`: the config file's
 * "pager", as the entry point read it (config/pager-setting.ts).
 */
export function installPager(io: PagerIO, env: NodeJS.ProcessEnv, config?: () => PagerConfig): PagedStdout | undefined {
  if (!io.stdoutIsTTY || io.stdout !== process.stdout) return undefined;
  const warnings = { stderr: process.stderr, stderrColor: io.stderrColor, stderrColumns: io.stderrColumns };
  const choice = pagerChoice(env, config, (m) => warnOnce(warnings, m));
  if (!choice) return undefined;
  const paged = new PagedStdout(process.stdout, process.stderr, choice, env, warnings);
  io.stdout = paged;
  io.stderr = paged.stderr;
  return paged;
}

/** Tells the pager under `out`, if there is one, of a line the reader must see (PagedStdout.keepInView). */
export function keepInView(out: NodeJS.WritableStream | Writable, line: string): void {
  if (out instanceof PagedStdout) out.keepInView(line);
}

// Output longer than the terminal goes through a pager, as gh's does:
// PARTNER_PAGER, else the config file's "pager", else PAGER, else
// `less -FRX`; an empty value (or `cat`) means none.
// Only on a terminal (a pipe or a file is never paged), only for commands
// that allow it (not the wizard, not `webhook listen`), never with
// --no-pager. Quitting the pager early is a normal end (the output's reader
// went away, exit 0); Ctrl-C stops the pager with the command (130).
import type { ChildProcess } from 'node:child_process';
import { Writable } from 'node:stream';
import { readConfigFile } from '../config/file.js';
import { configFile } from '../config/paths.js';

// child_process is loaded when a pager starts: help (which imports this module) must not pay for it.
const childProcess = () => process.getBuiltinModule('node:child_process') as typeof import('node:child_process');

/**
 * The config file's "pager" (gh's `pager` key), read only on a terminal; a
 * file that cannot be read sets none here (the command that needs the file
 * says what is wrong with it, help does not have to).
 */
export function configuredPager(env: NodeJS.ProcessEnv): string | undefined {
  try {
    return readConfigFile(configFile(env)).pager;
  } catch {
    return undefined;
  }
}

/** The pager to run, or undefined for none: PARTNER_PAGER, then the config's "pager", then PAGER (set but empty: none), then `less -FRX`. */
export function pagerCommand(env: NodeJS.ProcessEnv, configured: () => string | undefined = () => configuredPager(env)): string | undefined {
  const chosen = env.PARTNER_PAGER ?? configured() ?? env.PAGER ?? 'less -FRX';
  const trimmed = chosen.trim();
  // `cat` as a pager is no pager (git's rule too): write directly.
  return trimmed === '' || trimmed === 'cat' ? undefined : trimmed;
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

/** Lines `text` takes, counting a last line without a newline. */
function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Help (answered before the CLI loads, synchronously): through the pager when
 * it is taller than the terminal. false: not paged (write it yourself).
 */
export function pageText(text: string, rows: number | undefined, env: NodeJS.ProcessEnv, argv: readonly string[]): boolean {
  if (!rows || !pagerWanted(argv) || lineCount(text) < rows) return false;
  const command = pagerCommand(env);
  if (!command) return false;
  const [file, args] = argvOf(command);
  const r = childProcess().spawnSync(file, args, { input: text, stdio: ['pipe', 'inherit', 'inherit'], env: pagerEnv(env) });
  // A pager that could not start (not installed): the text is written as it is.
  return !r.error;
}

/** The most stderr that is held while the pager has the screen (warnings, a progress bar's frames). */
const MAX_HELD_STDERR = 1024 * 1024;

/**
 * stdout on a terminal, for a command that allows a pager: what is written is
 * held until it is taller than the terminal, then the pager starts and
 * everything streams into it (a short output is written as it is when the
 * command ends). While the pager has the screen, stderr is held
 * (`HeldStderr`) and written when it has ended, so nothing draws over it.
 */
export class PagedStdout extends Writable {
  private held: Buffer[] = [];
  private lines = 0;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  readonly stderr: HeldStderr;

  constructor(
    private readonly target: NodeJS.WriteStream,
    stderr: NodeJS.WriteStream,
    private command: string | undefined,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    super();
    this.stderr = new HeldStderr(stderr);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (this.child) {
      this.toPager(chunk, done);
      return;
    }
    if (!this.command) {
      this.target.write(chunk, (err) => done(err ?? null));
      return;
    }
    this.held.push(chunk);
    this.lines += lineCount(chunk.toString('latin1'));
    if (this.lines < (this.target.rows || 24)) {
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

  /** Ends the output and waits for the pager (the person reading it) to finish; then what stderr held is written. */
  async close(): Promise<void> {
    if (!this.writableEnded && !this.destroyed) this.end();
    if (!this.writableFinished && !this.destroyed) await new Promise<void>((resolve) => this.once('finish', resolve).once('error', () => resolve()).once('close', resolve));
    await this.exited;
    this.stderr.release();
  }

  /** Ctrl-C: the pager goes with the command (less would otherwise keep the terminal after partner has exited). */
  stop(): void {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
  }

  private start(done: (err?: Error | null) => void): void {
    const [file, args] = argvOf(this.command!);
    const child = childProcess().spawn(file, args, { stdio: ['pipe', 'inherit', 'inherit'], env: pagerEnv(this.env) });
    this.exited = new Promise((resolve) => child.once('close', () => resolve()));
    let startFailed = false;
    child.once('error', (err: NodeJS.ErrnoException) => {
      // The pager is not installed (ENOENT): write directly, as without one.
      if (this.child === child && err.code === 'ENOENT') startFailed = true;
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
        this.command = undefined;
        this.stderr.release();
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
}

/**
 * Puts a pager between the command and a terminal's stdout (and holds stderr
 * while it shows), when stdout is a terminal and a pager is set. Returns it,
 * or undefined when output goes out as it is.
 */
export function installPager(io: PagerIO, env: NodeJS.ProcessEnv): PagedStdout | undefined {
  if (!io.stdoutIsTTY || io.stdout !== process.stdout) return undefined;
  const command = pagerCommand(env);
  if (!command) return undefined;
  const paged = new PagedStdout(process.stdout, process.stderr, command, env);
  io.stdout = paged;
  io.stderr = paged.stderr;
  return paged;
}

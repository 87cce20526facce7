// The CLI driven through a real pseudo-terminal (util-linux `script`) with
// keystrokes. Output is kept with ANSI sequences stripped (for matching) and
// raw (to prove a secret never reached the terminal in any form).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, isolatedEnv, ROOT, tempDir } from './cli.js';
import { waitFor } from './wait-for.js';

export const ENTER = '\r';
export const DOWN = '\x1b[B';
export const UP = '\x1b[A';
export const SPACE = ' ';
export const BACKSPACE = '\x7f';
export const CTRL_C = '\x03';
export const hasScript = existsSync('/usr/bin/script');

// eslint-disable-next-line no-control-regex
export const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b[()][0-9A-Za-z]/g, '').replace(/\r/g, '');

export class Pty {
  readonly child: ChildProcess;
  out = '';
  raw = '';
  private pos = 0;
  readonly done: Promise<number | null>;

  constructor(args: string[], env: NodeJS.ProcessEnv, size: { columns: number; rows: number } = { columns: 200, rows: 50 }) {
    const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    this.child = spawn('/usr/bin/script', ['-qfec', `stty cols ${size.columns} rows ${size.rows}; exec ${quoted}`, '/dev/null'], { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const take = (c: Buffer) => {
      const text = c.toString('utf8');
      this.raw += text;
      this.out += strip(text);
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
    this.done = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  /** Waits for `re` in the output after the last match. */
  async expect(re: RegExp, timeoutMs = 10_000): Promise<void> {
    let end = -1;
    const seen = () => {
      const m = re.exec(this.out.slice(this.pos));
      if (m) end = this.pos + m.index + m[0].length;
      return m !== null;
    };
    await waitFor(seen, { timeoutMs, what: () => `${re} in:\n${this.out.slice(this.pos).slice(-1500)}` });
    this.pos = end;
  }

  send(keys: string): void {
    this.child.stdin!.write(keys);
  }

  /** Waits for a question, then answers it. */
  async answer(question: RegExp, keys: string): Promise<void> {
    await this.expect(question);
    await new Promise((r) => setTimeout(r, 30));
    this.send(keys);
  }

  /** Types text one key at a time (as a person would), then Enter. */
  async type(text: string): Promise<void> {
    for (const ch of text) {
      this.send(ch);
      await new Promise((r) => setTimeout(r, 5));
    }
    this.send(ENTER);
  }

  /** The CLI process under `script` (script execs it through sh -c ... exec). */
  cliPid(): number {
    const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(this.child.pid)], { encoding: 'utf8' }).trim();
    return Number(out.split(/\s+/)[0]);
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/**
 * Fresh config homes (so no draft of another test is offered), each with ptys
 * running the CLI against `url()` with `token`. `close()` kills every pty and
 * removes every home.
 */
export function ptySessions(url: () => string, token: string) {
  const dirs: { cleanup: () => void }[] = [];
  const ptys: Pty[] = [];
  return {
    session(): { env: NodeJS.ProcessEnv; drafts: string; start: (args: string[], size?: { columns: number; rows: number }) => Pty } {
      const dir = tempDir();
      dirs.push(dir);
      const env = isolatedEnv(dir.path, { PARTNER_BASE_URL: url(), PARTNER_TOKEN: token, TERM: 'xterm' });
      return {
        env,
        drafts: join(dir.path, 'config', 'drafts'),
        start: (args, size) => {
          const p = new Pty(args, env, size);
          ptys.push(p);
          return p;
        },
      };
    },
    close(): void {
      for (const p of ptys) p.kill();
      for (const d of dirs) d.cleanup();
    },
  };
}

// Every `partner …` command shown in README.md runs as written against a
// sandbox started here, and ends with the documented exit code (a trailing
// `# exit N` comment; 0 otherwise). Commands that cannot run as written are
// listed in SPECIAL with the reason and what is done instead.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server.js';
import { BIN, ROOT, isolatedEnv, tempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait-for.js';
import { listenOnLoopback } from '../helpers/loopback-server.js';

interface Command {
  line: string;
  exit: number;
  /** The README line number, for failure messages. */
  at: number;
}

/** Commands of README code blocks (sh: whole lines; yaml: `run:` steps), in document order. */
export function extractCommands(markdown: string): Command[] {
  const out: Command[] = [];
  let lang: string | undefined;
  markdown.split('\n').forEach((raw, i) => {
    const fence = /^\s*```(\w*)\s*$/.exec(raw);
    if (fence) {
      lang = lang === undefined ? fence[1] || 'text' : undefined;
      return;
    }
    if (lang !== 'sh' && lang !== 'yaml') return;
    let text = raw.trim();
    if (lang === 'yaml') {
      const run = /^-?\s*run:\s*(.+)$/.exec(text);
      if (!run) return;
      text = run[1]!;
    }
    const exit = /#\s*exit (\d+)\s*$/.exec(text);
    // Comments are not part of the command (a # inside quotes never starts one here).
    const command = text.replace(/\s+#\s.*$/, '').trim();
    const isPartner = /^(?:[A-Z_]+=\S+\s+)*(?:partner|node bin\/partner\.js)\s/.test(command.replace(/^npm ci && /, '')) || /^source <\(partner\s/.test(command) || /\|\s*partner\s/.test(command);
    if (isPartner) out.push({ line: command, exit: exit ? Number(exit[1]) : 0, at: i + 1 });
  });
  return out;
}

/** Commands that cannot run as written, with the reason; `run` is what the test does instead (none: skipped). */
const SPECIAL: { match: RegExp; reason: string }[] = [
  { match: /^partner auth login --base-url https:\/\/api\.example\.com$/, reason: 'hidden TTY prompt against a real server (login is tested in test/e2e/auth.test.ts)' },
  { match: /\| partner auth login --base-url https:\/\/api\.example\.com --with-token$/, reason: 'needs the real server at api.example.com (login --with-token is tested in test/e2e/auth.test.ts)' },
  { match: /^partner auth switch staging$/, reason: 'needs a saved profile "staging" (auth switch is tested in test/e2e/auth.test.ts)' },
  { match: /^partner sandbox start --port 8080$/, reason: 'runs until Ctrl-C; this test starts the same sandbox in-process instead' },
  { match: /^partner webhook listen /, reason: 'runs until Ctrl-C on a fixed port: run below on port 0, forwarding to a local receiver, then stopped' },
  { match: /^partner sandbox emit EMPLOYEE_CREATED --to http:\/\/127\.0\.0\.1:4242\/$/, reason: 'needs the receiver above: run below against its real port' },
  { match: /^partner webhook replay --spool /, reason: 'needs a spool filled by a running receiver and an app on port 3000 (listen --spool and replay are tested in test/e2e/webhook-delivery.test.ts)' },
];

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const commands = extractCommands(readme);

let sandbox: Sandbox;
let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let work: string;

beforeAll(async () => {
  sandbox = await startSandbox({});
  dir = tempDir();
  const bin = join(dir.path, 'bin');
  const home = join(dir.path, 'home');
  work = join(dir.path, 'work');
  for (const d of [bin, work, join(home, '.local/share/bash-completion/completions'), join(home, '.config/fish/completions')]) mkdirSync(d, { recursive: true });
  // `partner` on PATH is this clone's bin/partner.js; `node bin/partner.js` runs from the clone.
  symlinkSync(BIN, join(bin, 'partner'));
  // The values file the GP section passes with --from-file (a valid answer set for Acme Deutschland GmbH).
  copyFileSync(join(ROOT, 'test/fixtures/forms/deu-values.json'), join(work, 'values.json'));
  // The hand-written bodies the field-list section passes with --body-file (Acme Sverige AB).
  copyFileSync(join(ROOT, 'test/fixtures/forms/swe-post.json'), join(work, 'post.json'));
  copyFileSync(join(ROOT, 'test/fixtures/forms/swe-patch.json'), join(work, 'patch.json'));
  env = isolatedEnv(dir.path, { PATH: `${bin}:${process.env.PATH}`, HOME: home, PARTNER_BASE_URL: sandbox.url, PARTNER_TOKEN: sandbox.tokens.companyA });
});
afterAll(async () => {
  await sandbox.close();
  dir.cleanup();
});

/** Runs one README line in bash (asynchronously: the sandbox answers from this process). */
function shell(line: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // `node bin/partner.js` is the clone's launcher (made absolute); files the commands write land in the scratch dir.
  const script = line.replace(/(^|&& |\| )node bin\/partner\.js /g, `$1node ${JSON.stringify(BIN)} `);
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs at most `n` jobs at once; the others wait for a slot in call order. */
function limiter(n: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (job) => {
    if (active >= n) await new Promise<void>((r) => waiting.push(r));
    else active++;
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

describe('README', () => {
  it('shows commands in every use section', () => {
    expect(commands.length).toBeGreaterThan(25);
    for (const s of ['employees list', 'trackers onboarding', 'profile get', 'gp create', 'gp schema', 'webhook verify', 'webhook listen', 'doctor', 'completion bash', 'auth status']) {
      expect(commands.some((c) => c.line.includes(s)), s).toBe(true);
    }
    expect(readme).toContain('npm ci && node bin/partner.js --sandbox employees list -o table');
    expect(readme).toContain('npm ci && npm test');
  });

  it('every command runs as written against the sandbox, with the documented exit code', { timeout: 240_000 }, async () => {
    const failures: string[] = [];
    let ran = 0;
    const slot = limiter(4);
    // Lines run side by side, except that a line naming a file an earlier line writes (`> FILE`,
    // `--output-file FILE`) waits for that line: hires.csv, event.jws, employees.csv.
    const written = new Map<string, Promise<unknown>>();
    const runs = commands.map((c) => {
      if (SPECIAL.some((s) => s.match.test(c.line))) return undefined;
      // Quick start: `npm ci` is the install step (.ci/run does it on a fresh clone); the partner part runs here.
      const line = c.line.replace(/^npm ci && /, '');
      const after = [...written].filter(([file]) => line.includes(file)).map(([, done]) => done);
      const run = Promise.all(after).then(() => slot(() => shell(line, work)));
      for (const [, file] of line.matchAll(/(?:>|--output-file)\s+(\S+)/g)) written.set(file!, run.catch(() => undefined));
      return run;
    });
    // Checked in README order, each line as it was when they ran one by one.
    for (const [i, run] of runs.entries()) {
      if (!run) continue;
      const c = commands[i]!;
      const r = await run;
      ran++;
      if (r.code !== c.exit) failures.push(`README.md:${c.at}: \`${c.line}\` exited ${r.code}, documented ${c.exit}\n${r.stderr.slice(0, 400)}`);
      // The token never appears in any output.
      if (`${r.stdout}${r.stderr}`.includes(sandbox.tokens.companyA)) failures.push(`README.md:${c.at}: \`${c.line}\` printed the token`);
    }
    expect(failures).toEqual([]);
    expect(ran).toBeGreaterThan(18);
  });

  it('is for users: at most 15,000 bytes, no project history or internal words', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15_000);
    for (const word of [/\bissue\s*#?\d+/i, /#\d{2,}\b/, /red[ -]team/i, /\bround\b/i, /farm.bench/i, /\bmutation/i, /\bstryker\b/i, /\b[0-9a-f]{7,40}\b/]) expect(readme).not.toMatch(word);
  });

  it('links only to files that exist', () => {
    for (const [, target] of readme.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)) {
      if (/^https?:/.test(target!)) continue;
      expect(existsSync(join(ROOT, target!)), target).toBe(true);
    }
  });

  it('every special case is still in the README (the list stays honest)', () => {
    for (const s of SPECIAL) expect(commands.some((c) => s.match.test(c.line)), String(s.match)).toBe(true);
  });

  it('the webhook receiver walkthrough: listen forwards a sandbox event to the app', async () => {
    const received: unknown[] = [];
    const app: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.end('ok');
      });
    });
    const appAt = await listenOnLoopback(app);
    const appUrl = `${appAt.url}/webhooks`;
    const listenLine = commands.find((c) => c.line.startsWith('partner webhook listen '))!.line;
    const args = listenLine.replace(/^partner /, '').split(/\s+/).map((a) => (a === '4242' ? '0' : a === 'http://localhost:3000/webhooks' ? appUrl : a));
    // As on a terminal: the event lines (piped, listen would print NDJSON).
    const listen = spawn(process.execPath, [BIN, ...args, '-o', 'table'], { env, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    listen.stdout.on('data', (c: Buffer) => (out += c));
    listen.stderr.on('data', (c: Buffer) => (err += c));
    try {
      await waitFor(() => /Listening for webhooks on (http:\/\/\S+?\/) /.test(err));
      const url = /Listening for webhooks on (http:\/\/\S+?\/) /.exec(err)![1]!;
      const emitLine = commands.find((c) => c.line.startsWith('partner sandbox emit EMPLOYEE_CREATED --to '))!.line.replace('http://127.0.0.1:4242/', url);
      const r = await shell(emitLine, work);
      expect(r.code).toBe(0);
      // Piped, the delivery report is JSON; on a terminal it is the line `… -> URL: HTTP 200`.
      expect(JSON.parse(r.stdout)).toMatchObject({ eventType: 'EMPLOYEE_CREATED', status: 200 });
      await waitFor(() => /forwarded 200/.test(out));
      expect(out).toMatch(/ 200 {2}EMPLOYEE_CREATED {2}\S+ {2}ONBOARDING {2}-> forwarded 200/);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ eventType: 'EMPLOYEE_CREATED', data: { status: 'ONBOARDING' } });
    } finally {
      const closed = new Promise((r) => listen.on('close', r));
      listen.kill('SIGINT');
      await closed;
      await new Promise((r) => app.close(r));
    }
  });
});

// `partner webhook listen` as a child process, for the receiver's e2e tests.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, isolatedEnv, ROOT, tempDir } from './cli.js';

export interface Listener {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Spawns `partner webhook listen` and waits for its Ready line (the URL it
 * listens on). `track` collects the child so the test can kill it at the end.
 */
export function listen(args: string[], env: NodeJS.ProcessEnv, track?: ChildProcessWithoutNullStreams[], o: { fdLimit?: number } = {}): Promise<Listener> {
  // The event lines people read (piped, listen prints NDJSON unless -o table).
  const argv = [BIN, 'webhook', 'listen', ...(args.includes('-o') ? [] : ['-o', 'table']), ...args];
  // A low open-files limit is set by a shell that then becomes the receiver (exec: the same pid).
  const child =
    o.fdLimit === undefined
      ? spawn(process.execPath, argv, { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
      : spawn('bash', ['-c', `ulimit -n ${o.fdLimit} && exec "$0" "$@"`, process.execPath, ...argv], { env, cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  track?.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`listen did not start: ${err}`)), 15_000);
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /Listening for webhooks on (\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, stdout: () => out, stderr: () => err, exited });
      }
    });
    exited.then(() => reject(new Error(`listen exited: ${err}`)));
  });
}

/** A receiver test's surroundings: a temp dir, an isolated env, and a key-set file holding `jwks` (call cleanup() at the end). */
export function receiverFixture(jwks: Record<string, unknown>[]): { dir: { path: string; cleanup: () => void }; env: NodeJS.ProcessEnv; jwksFile: string } {
  const dir = tempDir();
  const jwksFile = join(dir.path, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify({ keys: jwks }));
  return { dir, env: isolatedEnv(dir.path), jwksFile };
}

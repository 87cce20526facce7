// `partner sandbox start` ends as it began, in words: a stop signal closes
// the sandbox, says so in one line on stderr and exits 130 (it is no
// declared service, so SIGTERM is an interruption too).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, spawnCli, tempDir } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait-for.js';

let dir: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  dir = tempDir('partner-sandbox-start-');
  env = isolatedEnv(dir.path);
});
afterAll(() => dir.cleanup());

/** Whether a TCP connection to the URL's port is refused (nothing listens there any more). */
function refused(url: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(Number(url.port), url.hostname);
    s.on('connect', () => (s.destroy(), resolve(false)));
    s.on('error', () => resolve(true));
  });
}

describe('sandbox start stopped by a signal', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal}: one line on stderr saying it stopped, exit 130, the port released`, async () => {
      const run = spawnCli(['sandbox', 'start', '--port', '0'], { env, timeoutMs: 20_000 });
      // The stderr hint is written after the banner, both once main's signal handlers are in place; the two
      // pipes are read apart, so wait for both.
      await waitFor(() => run.stderr().includes('Press Ctrl-C to stop.\n') && /listening on http:\/\/\S+\n/.test(run.stdout()), 15_000);
      const url = new URL(/listening on (http:\/\/\S+)/.exec(run.stdout())![1]!);
      run.child.kill(signal);
      const r = await run.done;
      expect(r.code, r.stderr).toBe(130);
      // Exactly the hint, then the one line, and nothing else (no "Interrupted.", no stack).
      expect(r.stderr).toBe(`Press Ctrl-C to stop.\nStopped the sandbox at ${url.origin}.\n`);
      expect(r.stdout).not.toMatch(/Stopped/);
      expect(await refused(url)).toBe(true);
    });
  }
});

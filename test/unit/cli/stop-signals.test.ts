// The entry point's stop signals, in-process: the same abort for SIGINT,
// SIGTERM and SIGHUP; a second Ctrl-C (or kill) exits at once, a second
// SIGHUP does not (a closing terminal and its shell may each send one, and
// the cleanup must get its second).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli.js';
import { testIO } from '../../../src/io.js';
import { waitFor } from '../../helpers/wait-for.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** `sandbox start` in-process (it serves until stopped); resolves once it listens. */
async function serving() {
  const io = testIO();
  const listeners = SIGNALS.map((s) => process.listenerCount(s));
  const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  const done = within(main(['sandbox', 'start', '--port', '0'], io), 10_000);
  await waitFor(() => /listening on/.test(io.out()), { timeoutMs: 10_000 });
  // The forced exit a second after the first signal is a timer: held, then dropped, so it never fires here.
  vi.useFakeTimers({ toFake: ['setTimeout'] });
  return { io, exit, done, listeners };
}

/** `p`, or a failure after `ms` (a command that did not stop). */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done within ${ms} ms`)), ms);
  });
  late.catch(() => undefined);
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

describe('stop signals', () => {
  for (const signal of SIGNALS) {
    it(`${signal}: the command stops and cleans up (the port released), exit 130`, async () => {
      const { io, exit, done, listeners } = await serving();
      const url = /listening on (http:\/\/\S+)/.exec(io.out())![1]!;
      process.emit(signal, signal);
      expect(await done).toBe(130);
      expect(exit).not.toHaveBeenCalled();
      await expect(fetch(url)).rejects.toThrow();
      // Its handlers are gone with it.
      expect(SIGNALS.map((s) => process.listenerCount(s))).toEqual(listeners);
    });
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`a second ${signal} exits at once`, async () => {
      const { exit, done } = await serving();
      process.emit(signal, signal);
      process.emit(signal, signal);
      expect(exit).toHaveBeenCalledWith(130);
      await done;
    });
  }

  it('a second SIGHUP leaves the cleanup running', async () => {
    const { exit, done } = await serving();
    process.emit('SIGHUP', 'SIGHUP');
    process.emit('SIGHUP', 'SIGHUP');
    expect(exit).not.toHaveBeenCalled();
    expect(await done).toBe(130);
    expect(exit).not.toHaveBeenCalled();
  });
});

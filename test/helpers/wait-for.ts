// The one wait of the tests: poll until something holds, or fail saying what
// was awaited. The bound is generous on purpose (a passing test never waits it
// out; a loaded 2-core machine must not fail a test that would pass): the
// default stays under vitest's testTimeout, so this message is the one shown.

export interface WaitOptions {
  /** How long at the most (default 20 s, under the 30 s testTimeout). */
  timeoutMs?: number;
  /** What is awaited, for the failure's message ("the Ready line", "3 deliveries"); a function is asked at the time of the failure (what was seen by then). */
  what?: string | (() => string);
  /** Between two checks (default 20 ms). */
  intervalMs?: number;
}

/** Resolves once `predicate()` is true (it may be async); rejects after `timeoutMs`, naming `what`. A number is `timeoutMs` alone. */
export async function waitFor(predicate: () => boolean | Promise<boolean>, options: WaitOptions | number = {}): Promise<void> {
  const o = typeof options === 'number' ? { timeoutMs: options } : options;
  const timeoutMs = o.timeoutMs ?? 20_000;
  const end = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${(typeof o.what === 'function' ? o.what() : o.what) ?? 'a condition'}`);
    await new Promise((r) => setTimeout(r, o.intervalMs ?? 20));
  }
}

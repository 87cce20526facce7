// conf's signal hooks, taken off again (conf-engine.ts). A module of its own so
// that it runs before conf loads: conf-engine.ts imports it first.
/**
 * Signals for which loading conf must not change what the process does. conf
 * loads atomically, which loads when-exit: it hooks these signals (process.once)
 * to remove temp files and then re-raises the signal. cli.ts takes a second
 * Ctrl-C as "exit now", so that re-raise would cut short the cleanup of the
 * first (an export's temp file, a spool's lock). Its hooks on these signals are
 * taken off again; its 'exit' hook stays, and removes conf's temp files on every
 * exit (cli.ts ends a stopped command with process.exit too).
 */
export const HOOKED_SIGNALS: readonly NodeJS.Signals[] = [
  'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGALRM', 'SIGABRT', 'SIGVTALRM', 'SIGXCPU', 'SIGXFSZ',
  'SIGUSR2', 'SIGTRAP', 'SIGSYS', 'SIGQUIT', 'SIGIOT', 'SIGIO', 'SIGPOLL', 'SIGPWR', 'SIGSTKFLT',
];

/** The listeners on each signal when this module ran: before conf loaded (conf-engine.ts imports this module first). */
const listenersBefore = new Map(HOOKED_SIGNALS.map((s) => [s, new Set(process.rawListeners(s))]));

/** Takes off every listener added to these signals since this module ran: conf's (through atomically's when-exit). */
export function dropConfSignalHooks(): void {
  for (const [signal, before] of listenersBefore) {
    for (const l of process.rawListeners(signal)) if (!before.has(l)) process.removeListener(signal, l as (...args: unknown[]) => void);
  }
}


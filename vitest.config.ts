import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**', 'dist/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Processes, not threads: tests that run the CLI in-process (test/helpers/main-in-process.ts)
    // change the directory (process.chdir is not allowed in a worker thread) and process.exitCode,
    // and install signal handlers, as the CLI does.
    pool: 'forks',
    // Two cores in CI: one file per core. The files that still spawn the CLI spend most of their
    // time in those children, which need the cores too; more workers only add contention.
    maxWorkers: 2,
    // A test that fails gets one second run. The e2e tests run real processes, servers and
    // pseudo-terminals on a shared 2-core machine, where a busy moment can miss a bound that
    // holds with room to spare otherwise; a test that fails twice fails. (Timing goals are
    // benchmarks, never tests: this is about waits, not speed.)
    retry: 1,
  },
});

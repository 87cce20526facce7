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
    // Hermetic: HOME, the XDG directories and the passwd home point into one temporary directory
    // of the run, and the run fails if partner's directories under the real home change
    // (test/setup/global.ts). No retry: a flaky test is fixed or removed, never run twice.
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/worker.ts'],
  },
});

// Mutation testing (`npm run mutate`, outside `npm test`): a check that can be
// deleted while every test still passes is untested. Runs the unit tests only
// (the e2e tests run the bundled dist/, which mutants of src/ never reach).
// One file at a time: `npm run mutate -- --mutate src/api/pages.ts`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: ['src/pid-lock.ts', 'src/webhooks/verify.ts', 'src/webhooks/jws.ts', 'src/webhooks/signature.ts', 'src/webhooks/reasons.ts', 'src/webhooks/journal.ts', 'src/webhooks/journal-writer.ts', 'src/api/pages.ts', 'src/api/walk-audit.ts', 'src/api/id-set.ts', 'src/api/http.ts', 'src/api/redact.ts', 'src/api/adaptive-concurrency.ts', 'src/concurrency.ts', 'src/output/csv.ts', 'src/output/sanitize.ts', 'src/forms/typed-text.ts', 'src/forms/bulk/journal.ts', 'src/audit/log.ts'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  // A mutant that hangs a test (a promise never settled) is killed once this passes, on top of 1.5x the
  // covering tests' own time; at 20 s the timeouts alone made the full run take hours (37 in concurrency.ts).
  timeoutMS: 5000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: 85 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};

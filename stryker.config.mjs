// Mutation testing (`npm run mutate`, outside `npm test`): a check that can be
// deleted while every test still passes is untested. Runs the unit tests only
// (the e2e tests run the bundled dist/, which mutants of src/ never reach).
// One file at a time: `npm run mutate -- --mutate src/api/pages.ts`.
// Stryker's vitest runner runs the tests in worker threads, where a test that sets process.env.TZ
// does not change the zone (it does in the forked processes of `npm test`): the zone the local-time
// tests set is given here, before the runners start, so they inherit it.
process.env.TZ = 'Asia/Kolkata';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: ['src/pid-lock.ts', 'src/webhooks/verify.ts', 'src/webhooks/jws.ts', 'src/webhooks/signature.ts', 'src/webhooks/reasons.ts', 'src/webhooks/journal.ts', 'src/webhooks/journal-writer.ts', 'src/api/pages.ts', 'src/api/walk-audit.ts', 'src/api/id-set.ts', 'src/api/http.ts', 'src/api/answer-reader.ts', 'src/api/deadline.ts', 'src/api/node-transport.ts', 'src/api/redact.ts', 'src/api/adaptive-concurrency.ts', 'src/concurrency.ts', 'src/output/csv.ts', 'src/output/sanitize.ts', 'src/forms/typed-text.ts', 'src/forms/bulk/journal.ts', 'src/forms/bulk/identity.ts', 'src/audit/log.ts', 'src/audit/read.ts', 'src/audit/fields.ts', 'src/config/token-store.ts', 'src/forms/drafts.ts'],
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

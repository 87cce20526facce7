import { defineConfig } from 'vitest/config';

// The single-file executable's test (.ci/run runs it; not part of npm test: it builds the
// executable, over a minute on two cores).
export default defineConfig({
  test: {
    include: ['test/binary/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: 'forks',
  },
});

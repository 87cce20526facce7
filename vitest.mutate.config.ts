import { defineConfig } from 'vitest/config';

// The mutation run's test set: the unit tests, which import src/ directly.
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts'],
    exclude: ['node_modules/**', 'dist/**', '.stryker-tmp/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});

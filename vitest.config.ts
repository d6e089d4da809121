// One `npm test` runs unit, integration and end-to-end tests. The global setup starts a
// Firebase Auth emulator (and a testcontainers PostgreSQL where Docker exists).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    // The flaky reporter lists browser tests that passed only on their retry.
    reporters: ['default', './tests/helpers/flaky-reporter.ts'],
  },
});

import { defineConfig } from 'vitest/config';

// Unit tests run in parallel; the suites that drive the real adb server and Appium
// share one machine-wide adb server, so they run one file at a time.
export default defineConfig({
  test: {
    // One temp directory for the whole run, removed at its end: the suite leaves no litter.
    globalSetup: ['test/support/suiteTmp.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

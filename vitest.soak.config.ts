import { defineConfig } from 'vitest/config';

// `npm run soak`: the reliability runs too long for CI (issue 7). One file at a time: they
// drive real adb servers, Appium and many harness processes on a two-core machine.
export default defineConfig({
  test: {
    include: ['test/soak/**/*.soak.test.ts'],
    fileParallelism: false,
    globalSetup: ['test/support/suiteTmp.ts'],
    testTimeout: 3_600_000,
    hookTimeout: 300_000,
  },
});

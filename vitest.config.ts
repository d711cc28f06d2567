import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './test/run/heavyFirst.js';

// Unit tests run in parallel. The suites that drive the real adb and Appium run two files at a
// time: each file has its own adb server, Appium and ports, and its own temp directory
// (test/support/fileTmp.ts), where the cross-process device lock lives.
export default defineConfig({
  test: {
    // One temp directory for the whole run, removed at its end: the suite leaves no litter.
    globalSetup: ['test/support/suiteTmp.ts'],
    // Two workers on the 2-core CI machine: an end-to-end file mostly waits on its device and
    // Appium, so a second file beside it uses the core the first leaves idle.
    maxWorkers: 2,
    // The longest files start first (a fresh clone has no timing cache; test/run/heavyFirst.ts).
    sequence: { sequencer: HeavyFirstSequencer },
    // The suites check behaviour, not speed (speed is `npm run bench`, under the real timing): the
    // virtual device's recorded costs (seconds per dump) would not fit CI's 15 minutes.
    // ANDROID_MCP_FIND_TIMEOUT: the suites check that a missing element is refused, not how long the
    // refusal waits (the 10 s default is the unit tests', uiActionTap.test.ts); under `fast` timing the
    // double's screens are there at once, so 2 s instead of 10 s saves 8 s on each of the ~27 refusals.
    // Harness processes inherit it (the stacks that build a clean environment pass it on).
    env: { ANDROID_MCP_VIRTUAL_DEVICE_TIMING: 'fast', ANDROID_MCP_FIND_TIMEOUT: '2' },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'packages/*/test/unit/**/*.test.ts'],
          setupFiles: ['test/support/fileTmp.ts'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          setupFiles: ['test/support/fileTmp.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

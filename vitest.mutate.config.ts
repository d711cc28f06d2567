import { defineConfig } from 'vitest/config';

// Stryker's run of the unit tier (stryker.config.mjs): the unit project alone, in one worker, as
// the mutation run is given one core (concurrency 1) on the shared 2-core machine. The
// integration and end-to-end tiers start adb, Appium and a device per file: far too slow to run
// once per mutant, and what they guard of the core the unit tier must guard on its own.
// MUTATE_TESTS (comma-separated globs) narrows the tests to those aimed at the mutated files, for a
// run on a busy machine: the score is then a lower bound (a mutant only a farther test kills counts as
// survived), and docs/internals/verification.md says which runs were narrowed.
const narrowed = process.env.MUTATE_TESTS?.split(',').filter(Boolean);

export default defineConfig({
  test: {
    globalSetup: ['test/support/suiteTmp.ts'],
    include: narrowed ?? ['test/unit/**/*.test.ts'],
    // ui_get_tree on synthetic huge screens tokenises every part of each answer (2-4 s a test when quiet):
    // under a mutation run's instrumentation on a loaded runner it passes its 60 s, and the dry run fails.
    // What it guards of the summary's cut, summaryBudget.test.ts asserts at the exact byte.
    exclude: ['test/unit/application/answerBudget.test.ts'],
    setupFiles: ['test/support/fileTmp.ts'],
    testTimeout: 20_000,
    maxWorkers: 1,
  },
});

// Mutation testing of the core (docs/internals/verification.md, "Mutation testing"): small deliberate bugs
// put into the domain, the guards, the lock and the summary one at a time; the unit tier must
// fail on each. `npm run mutate` runs every folder below; one folder at a time is
// `npm run mutate -- --mutate 'src/domain/summary/**/*.ts'`. Kept off the CI path (hours on
// two cores): the scheduled/manual workflow .github/workflows/mutation.yml runs it.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  // A mutant that does not type-check is no bug a test must catch: the checker drops it first.
  checkers: ['typescript'],
  // MUTATE_TSCONFIG narrows what the checker type-checks, for a run on a busy machine: the checker, not
  // the tests, takes most of a mutant's time, and it re-checks every importer of the mutated file.
  // tsconfig.mutate-domain.json is the domain alone (it imports nothing outside itself), so a domain
  // mutant that only an importer outside it would refuse is run against the tests instead of dropped.
  tsconfigFile: process.env.MUTATE_TSCONFIG ?? 'tsconfig.build.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  // One core: the machine has two, shared with the rest of the work.
  concurrency: 1,
  // A rerun tests only the mutants whose code or covering tests changed.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  // Room for a loaded runner: a mutant that only makes a test slow is not counted as killed.
  timeoutMS: 20_000,
  timeoutFactor: 2,
  // The first run of the unit tier under coverage takes minutes on a loaded 2-core runner.
  dryRunTimeoutMinutes: 30,
  mutate: [
    // The domain: model, selectors, refs, summary, errors, validation, sanitising, artifact ids.
    'src/domain/**/*.ts',
    // The guards outside the domain: the artifact resource, HTTP auth and request guards, the adb command list.
    'src/mcp/artifactResource.ts',
    'src/transports/http/httpToken.ts',
    'src/transports/http/requestGuards.ts',
    'src/infrastructure/adb/adbCommands.ts',
    // The cross-process device lock.
    'src/infrastructure/lock/**/*.ts',
  ],
  ignorePatterns: ['artifacts', 'bench/results', 'dist', 'reports', '.appium-logs', 'coverage', '*.mcpb'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: null },
};

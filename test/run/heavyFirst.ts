/**
 * The order the suite's files start in: the longest first, so that the two workers of the 2-core
 * CI machine end together instead of one running a long file alone at the end.
 *
 * Vitest's own order starts the files its cache says took longest, but a fresh clone (CI) has no
 * cache, and then it starts the largest files first: a short file of few lines that runs for minutes
 * (the fixtures sweep) started ten minutes into the run. The table below is that missing cache,
 * checked in: each file's seconds in one full run on the 2-core box (the JSON reporter's duration
 * plus the time its worker spent before the first test, its stack's start), rounded. Only the
 * order uses them, nothing asserts them; a file not listed runs after the listed ones of its
 * project, in Vitest's order. Refresh the figures when a file's time changes a lot
 * (`npx vitest run --reporter=json --outputFile=...`, then per file: end − start). Since that run
 * the suites' refused finds wait 2 s instead of 10 s (about 8 s less per refusal, most in trace,
 * oracle, tasks, flowRepair, flowRunner and reliabilityFaults): only the two entries whose place
 * that moves were changed, by estimate; the next full run's figures replace them.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SECONDS_PER_FILE: Readonly<Record<string, number>> = {
  'test/e2e/oracle.test.ts': 230,
  // 354 s in the run of 2026-12-08 00:08 tapping every dump; now one part of three is tapped per run
  // (its taps took 109-132 s of those 354) and the others only read (28 reads: 44 s at load 15 here).
  'test/e2e/fixturesSweep.test.ts': 150,
  'test/integration/trace.test.ts': 137,
  'test/e2e/flowRepair.test.ts': 126,
  'test/integration/bundle.test.ts': 91,
  'test/integration/quirksIdle.test.ts': 86,
  'test/integration/quirks.test.ts': 79,
  'test/integration/reliabilityInjection.test.ts': 75,
  'test/integration/agentCli.test.ts': 70,
  'test/integration/reliabilityFaults.test.ts': 68,
  'test/e2e/exportReplay.test.ts': 62,
  'test/integration/seleniumGridMany.test.ts': 62,
  'test/integration/rest.test.ts': 61,
  'test/integration/http.test.ts': 56,
  'test/integration/docsCommands.test.ts': 55,
  'test/integration/flowRunner.test.ts': 48,
  // Under npm test it packs the dist/ npm test built instead of a second build (~26 s of CPU less).
  'test/integration/package.test.ts': 50,
  'test/integration/reliabilityLock.test.ts': 41,
  // Its two refused finds wait 2 s instead of 10 s (ANDROID_MCP_FIND_TIMEOUT, vitest.config.ts).
  'test/integration/tasks.test.ts': 33,
  'test/e2e/mcpApp.test.ts': 41,
  'test/integration/remoteGrid.test.ts': 37,
  'test/integration/doctorVirtualDevice.test.ts': 36,
  'test/integration/managedAppiumHarness.test.ts': 34,
  'test/integration/reliabilityOwners.test.ts': 34,
  'test/integration/noLitter.test.ts': 31,
  'test/integration/secureAndDeviceErrors.test.ts': 29,
  'test/integration/screencapSizes.test.ts': 28,
  'test/integration/quirksLock.test.ts': 28,
  'test/unit/application/answerBudget.test.ts': 26,
  'test/e2e/screenShapes.test.ts': 25,
  'test/integration/flowLease.test.ts': 25,
  'test/e2e/toolsets.test.ts': 23,
  'test/integration/quirksGestures.test.ts': 23,
  'test/integration/remoteMode.test.ts': 22,
  'test/integration/seleniumGrid.test.ts': 22,
  'test/integration/restManyDevices.test.ts': 20,
};

/** The file's path from the repository's root, with forward slashes (the table's keys). */
function relativePath(spec: TestSpecification): string {
  const root = spec.project.config.root.replace(/\\/g, '/').replace(/\/?$/, '/');
  const file = spec.moduleId.replace(/\\/g, '/');
  return file.startsWith(root) ? file.slice(root.length) : file;
}

export function secondsOf(path: string): number {
  return SECONDS_PER_FILE[path] ?? -1;
}

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's order keeps the projects apart (they run one after the other): only the order
    // inside each project changes, and a stable sort keeps Vitest's order among unlisted files.
    const ordered = await super.sort(files);
    const projects: TestSpecification[][] = [];
    for (const spec of ordered) {
      const last = projects.at(-1);
      if (last !== undefined && last[0]!.project.name === spec.project.name) last.push(spec);
      else projects.push([spec]);
    }
    return projects.flatMap((group) =>
      group
        .map((spec, index) => ({ spec, index, seconds: secondsOf(relativePath(spec)) }))
        .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
        .map(({ spec }) => spec),
    );
  }
}

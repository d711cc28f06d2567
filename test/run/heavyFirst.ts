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
 * (`npx vitest run --reporter=json --outputFile=...`, then per file: end − start, plus the gap since
 * the file its worker ran before). The figures are those of the fresh-clone run of 2026-12-08 00:08
 * UTC (files of 10 s and more); the entries with a comment changed since, by estimate, and the next
 * full run's figures replace them. Packing those figures in this order on two workers ends within
 * 2 s of each other (about 1,270 s each), with the previous table too: the order is not what keeps
 * the suite long, the sum of the files is.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const SECONDS_PER_FILE: Readonly<Record<string, number>> = {
  // Its FLOW-SEL-ALL-1 row (52 s of it) taps without observe since: that row 7 % less, measured loaded.
  'test/e2e/oracle.test.ts': 266,
  'test/integration/trace.test.ts': 129,
  // 354 s in that run, tapping every dump; now one part of three is tapped per run (that run's
  // taps of the three parts: 113, 109 and 132 s) and the others only read: an estimate.
  'test/e2e/fixturesSweep.test.ts': 150,
  // Most of it before the first test: the pack and the install of the tarball (beforeAll). That run
  // started vitest itself, not through npm test, so its pack ran prepack's build (27.7 s); under
  // npm test it packs npm test's build (10.4 s here at load 21, with its install 74.2 s).
  'test/integration/package.test.ts': 113,
  'test/integration/quirksIdle.test.ts': 83,
  'test/e2e/exportReplay.test.ts': 82,
  'test/e2e/flowRepair.test.ts': 81,
  'test/integration/reliabilityLock.test.ts': 79,
  'test/e2e/screenShapes.test.ts': 77,
  'test/integration/bundle.test.ts': 75,
  'test/integration/reliabilityInjection.test.ts': 74,
  'test/e2e/mcpApp.test.ts': 70,
  'test/integration/quirks.test.ts': 69,
  'test/integration/reliabilityFaults.test.ts': 67,
  'test/integration/flowRunner.test.ts': 65,
  'test/integration/tasks.test.ts': 64,
  'test/integration/agentCli.test.ts': 61,
  'test/integration/rest.test.ts': 60,
  'test/integration/screencapSizes.test.ts': 60,
  'test/integration/seleniumGridMany.test.ts': 60,
  'test/integration/http.test.ts': 58,
  'test/integration/remoteGrid.test.ts': 50,
  'test/integration/docsCommands.test.ts': 41,
  'test/integration/reliabilityOwners.test.ts': 38,
  'test/e2e/visualRefs.test.ts': 37,
  'test/integration/doctorVirtualDevice.test.ts': 34,
  'test/integration/quirksGestures.test.ts': 34,
  'test/integration/noLitter.test.ts': 33,
  'test/integration/managedAppiumHarness.test.ts': 29,
  'test/integration/secureAndDeviceErrors.test.ts': 28,
  'test/integration/seleniumGrid.test.ts': 27,
  'test/e2e/toolsets.test.ts': 25,
  'test/integration/flowLease.test.ts': 23,
  'test/integration/manyDevices.test.ts': 22,
  'test/integration/quirksLock.test.ts': 22,
  'test/e2e/answers.test.ts': 20,
  'test/unit/application/answerBudget.test.ts': 20,
  'test/integration/demo.test.ts': 19,
  'test/integration/restManyDevices.test.ts': 19,
  'test/integration/quirksEdge.test.ts': 17,
  'test/integration/remoteMode.test.ts': 17,
  'test/e2e/screenAfter.test.ts': 14,
  'test/e2e/diagnostics.test.ts': 13,
  'test/integration/managedAppium.test.ts': 13,
  'test/e2e/appInstall.test.ts': 11,
  'test/integration/conformance.test.ts': 11,
  'test/integration/evidenceRetention.test.ts': 11,
  'test/integration/uia2Gestures.test.ts': 10,
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

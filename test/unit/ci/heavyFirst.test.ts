/**
 * The suite's file order (test/run/heavyFirst.ts): on a fresh clone (no timing cache) the listed
 * long files start first, longest first, inside their project; the projects keep Vitest's order and
 * unlisted files keep Vitest's order (largest first) after the listed ones. Every listed file exists,
 * so a renamed file cannot silently lose its place at the front.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestSpecification, Vitest } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import HeavyFirstSequencer, { SECONDS_PER_FILE } from '../../run/heavyFirst.js';
import { REPO_ROOT } from '../../support/appium.js';

const ROOT = '/clone';

interface Spec {
  readonly name: string;
  readonly project: string;
  readonly size: number;
}

/** What the base sequencer reads of a file: its project, its path, its size in the (fresh) cache. */
function sequencerOn(specs: readonly Spec[]): {
  sequencer: HeavyFirstSequencer;
  files: TestSpecification[];
} {
  const sizes = new Map(specs.map((s) => [`${s.project}:${s.name}`, s.size]));
  const ctx = {
    config: { root: ROOT },
    cache: {
      getFileTestResults: () => undefined,
      getFileStats: (key: string) => (sizes.has(key) ? { size: sizes.get(key) } : undefined),
    },
  } as unknown as Vitest;
  const files = specs.map(
    (s) =>
      ({
        moduleId: `${ROOT}/${s.name}`,
        project: {
          name: s.project,
          config: { root: ROOT, isolate: true, sequence: { groupOrder: 0 } },
        },
      }) as unknown as TestSpecification,
  );
  return { sequencer: new HeavyFirstSequencer(ctx), files };
}

describe('the suite starts its longest files first', () => {
  it('orders the listed files by their seconds inside each project, the rest after them by size', async () => {
    const { sequencer, files } = sequencerOn([
      { name: 'test/unit/small.test.ts', project: 'unit', size: 10 },
      { name: 'test/integration/unlistedBig.test.ts', project: 'integration', size: 90_000 },
      { name: 'test/integration/trace.test.ts', project: 'integration', size: 20_000 },
      { name: 'test/e2e/oracle.test.ts', project: 'integration', size: 60_000 },
      { name: 'test/integration/unlistedSmall.test.ts', project: 'integration', size: 100 },
      { name: 'test/unit/application/answerBudget.test.ts', project: 'unit', size: 5 },
      { name: 'test/integration/rest.test.ts', project: 'integration', size: 80_000 },
    ]);
    const order = (await sequencer.sort(files)).map((f) => f.moduleId.slice(ROOT.length + 1));
    expect(order).toEqual([
      'test/e2e/oracle.test.ts',
      'test/integration/trace.test.ts',
      'test/integration/rest.test.ts',
      'test/integration/unlistedBig.test.ts',
      'test/integration/unlistedSmall.test.ts',
      'test/unit/application/answerBudget.test.ts',
      'test/unit/small.test.ts',
    ]);
  });

  it('lists only files that exist', () => {
    const missing = Object.keys(SECONDS_PER_FILE).filter((path) => !existsSync(join(REPO_ROOT, path)));
    expect(missing).toEqual([]);
  });
});

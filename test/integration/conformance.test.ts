/**
 * The conformance corpus replayed against the virtual device's UiAutomator2 server (the same run
 * as `npm run conformance`): every real exchange matches in status, error name and the shape of
 * `value`, or is listed as not reproducible with its reason. In-process, through the device's
 * tcp:6790 streams: no adb and no Appium.
 *
 * The corpus is other projects' data and lives beside the repository (`../shared/uia2-exchanges`,
 * or ANDROID_MCP_UIA2_CORPUS); without it the replay is skipped with a message.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusAvailable, corpusDir, listedSources, loadCorpus } from '../../scripts/conformance/corpus.js';
import { NOT_REPRODUCIBLE_FILE, runConformance } from '../../scripts/conformance/replay.js';

const available = corpusAvailable();
if (!available)
  console.warn(
    `[conformance] skipped: no corpus at ${corpusDir()} (build it with scripts/conformance/build-corpus.ts)`,
  );

describe('UiAutomator2 conformance corpus', () => {
  it('lists at least 300 exchanges, each source by repository, path and commit', () => {
    const sources = listedSources();
    expect(sources.reduce((n, s) => n + s.exchanges, 0)).toBeGreaterThanOrEqual(300);
    for (const s of sources) {
      expect(s.repository).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(s.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(s.path).not.toBe('');
    }
  });

  it.skipIf(!available)('replays every exchange; each matches or is documented as not reproducible', async () => {
    // The corpus on disk is the one the repository lists: same files, same counts.
    const onDisk = loadCorpus().map(({ file, corpus }) => [file, corpus.exchanges.length]);
    expect(onDisk).toEqual(listedSources().map((s) => [s.file, s.exchanges]));
    const report = await runConformance();
    expect(report.total).toBeGreaterThanOrEqual(300);
    expect(
      report.failed.map(
        (o) => `${o.file}:${o.line} ${o.method} ${o.path}: ${o.differences.map((d) => d.detail).join('; ')}`,
      ),
    ).toEqual([]);
    // The exceptions may not swallow the corpus: most exchanges match outright.
    expect(report.matched).toBeGreaterThan(report.total * 0.9);
    // Each listed reason is used: a stale exception would hide a future difference.
    const used = new Set(report.outcomes.map((o) => o.excusedBy?.reason).filter(Boolean));
    const listed = (JSON.parse(readFileSync(NOT_REPRODUCIBLE_FILE, 'utf8')) as { reason: string }[]).map(
      (n) => n.reason,
    );
    for (const reason of listed) expect(used.has(reason), reason).toBe(true);
  });
});

/**
 * Vitest's global setup: the whole run gets one temp directory of its own (TMPDIR, which
 * os.tmpdir() and adb read, inherited by every worker and every process a test starts), removed
 * when the run ends, so the suite leaves nothing in the machine's temp directory even when a
 * test fails before its own clean-up. Each helper still removes what it makes as it goes; this
 * is the net under them. test/integration/noLitter.test.ts checks the product's own processes
 * with a temp directory per process, which this net does not hide.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'amh-suite-'));
  process.env.TMPDIR = dir;
  // Where fileTmp.ts makes each test file's own directory.
  process.env.AMH_SUITE_TMP = dir;
  return () => {
    delete process.env.AMH_SUITE_TMP;
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}

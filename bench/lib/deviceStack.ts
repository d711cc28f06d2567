/**
 * The device stack a bench part drives: a private adb server, the virtual device and a real Appium,
 * started through test/support and stopped through the caller's cleanups (newest first).
 */
import { existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './paths.js';

export type TestSupport = typeof import('../../test/support/index.js');

/** test/support (private adb server, virtual device, Appium), loaded at run time: null when absent. */
export async function loadTestSupport(): Promise<TestSupport | null> {
  const entry = join(REPO_ROOT, 'test', 'support', 'index.ts');
  if (!existsSync(entry)) return null;
  return (await import(pathToFileURL(entry).href)) as TestSupport;
}

/** Starts adb, the virtual device and Appium; each one's stop (and log folder's removal) goes into `cleanups`. */
export async function startDeviceStack(support: TestSupport, cleanups: (() => Promise<unknown>)[]) {
  const adbServer = await support.startAdbServer();
  // The test-support starters log into temp folders the suite's own temp directory holds; the bench has none, so it removes them.
  cleanups.push(async () => rmSync(dirname(adbServer.logFile), { recursive: true, force: true }));
  cleanups.push(() => adbServer.stop());
  const vd = await support.startVirtualDeviceForTest({ adb: adbServer });
  cleanups.push(() => vd.stop());
  const appium = await support.startAppium({ adbPort: adbServer.port, logLevel: 'warn' });
  cleanups.push(async () => rmSync(dirname(appium.logFile), { recursive: true, force: true }));
  cleanups.push(() => appium.stop());
  return { adbServer, vd, appium };
}

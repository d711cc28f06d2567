/**
 * The harness's own Appium, for real: started from the project's dependencies, reused,
 * stopped by pid, and gone when its parent is SIGKILLed (the watchdog), not only when it
 * exits politely.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findPackageRoot } from '../../src/infrastructure/appium/appiumInstall.js';
import { ManagedAppium, answersStatus } from '../../src/infrastructure/appium/ManagedAppium.js';
import { isAlive } from '../support/processes.js';
import { silentLogger } from '../support/fakes/silentLogger.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = findPackageRoot(fileURLToPath(import.meta.url));

async function waitGone(pid: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (isAlive(pid)) {
    if (Date.now() - started > timeoutMs) throw new Error(`process ${pid} still alive after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
});

describe('ManagedAppium', () => {
  it('starts Appium 3 with the UiAutomator2 driver on 127.0.0.1, reports progress, reuses it, and stops it by pid', async () => {
    const progress: string[] = [];
    const managed = new ManagedAppium({
      packageRoot: root,
      logger: silentLogger,
      androidSdkRoot: '/usr/lib/android-sdk',
      onProgress: (m) => progress.push(m),
    });
    try {
      const [first, second] = await Promise.all([managed.url(), managed.url()]);
      expect(first).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(second).toBe(first);
      const pid = managed.pid;
      expect(pid).toBeGreaterThan(0);
      if (pid !== null) leftovers.push(pid);
      await expect(managed.url()).resolves.toBe(first);
      expect(managed.pid).toBe(pid);

      const status = (await (await fetch(`${first}/status`)).json()) as { value: { build: { version: string } } };
      expect(status.value.build.version).toMatch(/^3\./);
      const drivers = (await (await fetch(`${first}/appium/sessions`)).json()) as { value: unknown[] };
      expect(drivers.value).toEqual([]);
      expect(progress[0]).toMatch(
        /^Starting the harness's own Appium 3\.\d+\.\d+ \(UiAutomator2 driver \d+\.\d+\.\d+\)/,
      );
      expect(progress.at(-1)).toMatch(/^Appium is ready at http:\/\/127\.0\.0\.1:\d+/);

      await managed.stop();
      expect(pid !== null && isAlive(pid)).toBe(false);
      expect(await answersStatus(first, 500)).toBe(false);
    } finally {
      await managed.stop();
    }
  });

  it('starts again on the next call when Appium died under it', async () => {
    const managed = new ManagedAppium({ packageRoot: root, logger: silentLogger, androidSdkRoot: null });
    try {
      await managed.url();
      const firstPid = managed.pid;
      if (firstPid === null) throw new Error('no pid');
      leftovers.push(firstPid);
      process.kill(firstPid, 'SIGKILL');
      await waitGone(firstPid, 5000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const url = await managed.url();
      expect(managed.pid).not.toBe(firstPid);
      expect(await answersStatus(url)).toBe(true);
    } finally {
      await managed.stop();
    }
  });

  it('leaves no Appium behind when the harness process is SIGKILLed', async () => {
    const parent = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(here, '..', 'support', 'managedAppiumParent.ts')],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    leftovers.push(parent.pid ?? -1);
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the parent did not report an Appium pid')), 60_000);
      createInterface({ input: parent.stdout! }).once('line', (l) => {
        clearTimeout(timer);
        resolve(l);
      });
      parent.once('exit', (code) => reject(new Error(`the parent exited early (${code})`)));
    });
    const { pid, url } = JSON.parse(line) as { pid: number; url: string };
    leftovers.push(pid);
    expect(await answersStatus(url)).toBe(true);

    parent.kill('SIGKILL');
    // Real clock (separate processes): gone once the parent dies, where an orphan would live on; 10 s is the wait's own bound.
    const tookMs = await waitGone(pid, 10_000);
    expect(tookMs).toBeLessThan(10_000);
    expect(await answersStatus(url, 500)).toBe(false);
  });
});

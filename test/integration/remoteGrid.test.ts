/**
 * Remote mode through a real Selenium Grid 4 (test/support/grid.ts): the built harness
 * with NO adb on its PATH and ANDROID_MCP_REMOTE=1, APPIUM_URL the hub, whose one relay node forwards
 * to a real Appium bound to a virtual device on a private adb server.
 *
 * - ui_get_tree, a tap, screen_capture and app_open go through the hub and reach the device;
 * - a second harness process on this machine sharing the lock directory gets EMULATOR_BUSY from the
 *   machine-wide lock at once (remote lock key: endpoint, udid, capabilities);
 * - a second harness process asking for the same device while the first holds a flow waits in the
 *   Grid's queue until its session-request-timeout, then answers EMULATOR_BUSY (the Grid's own
 *   mapping, src/infrastructure/remote/seleniumGridErrors.ts; a separate lock directory, so the
 *   machine-wide lock does not answer first);
 * - after the flow closes, and after SIGTERM, the Grid holds no session.
 * One Grid for the file.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { startHarness, type HarnessProcess, type WireEnvelope } from '../e2e/support/harnessClient.js';
import { startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { startAppium, type RunningAppium } from '../support/appium.js';
import { attachDeviceToAdb, type AttachedDevice } from '../support/deviceOnAdb.js';
import { expectEvidence } from '../support/evidenceShape.js';
import { describeWithGrid, startGrid, type RunningGrid } from '../support/grid.js';
import { awaitExitOrKill } from '../support/processes.js';
import { settledValue } from '../support/settle.js';
import { ensureBuilt } from '../support/rawServer.js';

const QUEUE_SECONDS = 5;

function data(envelope: WireEnvelope): Record<string, unknown> {
  expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
  return envelope.data;
}

describeWithGrid('remote mode through a Selenium Grid 4 hub, no adb on the harness PATH', () => {
  let adb: PrivateAdbServer;
  let appium: RunningAppium;
  let grid: RunningGrid;
  let attached: AttachedDevice;
  let harness: HarnessProcess;
  let scratch: string;
  const device = VirtualDevice.withDefaultScenario({ serialNumber: 'R58MGRID01' });

  const envFor = (name: string): Record<string, string> => ({
    PATH: join(scratch, 'bin'),
    HOME: scratch,
    ANDROID_MCP_REMOTE: '1',
    APPIUM_URL: grid.url,
    // The hub routes by the node's stereotype, which names this udid.
    ANDROID_UDID: attached.serial,
    ANDROID_MCP_APPIUM_CAPS: JSON.stringify({ 'appium:adbPort': adb.port }),
    ANDROID_MCP_CONNECT_TIMEOUT: '60',
    ANDROID_MCP_LOCK_DIR: join(scratch, `locks-${name}`),
    ANDROID_MCP_ARTIFACTS_DIR: join(scratch, `artifacts-${name}`),
    ANDROID_MCP_LOG_LEVEL: 'info',
  });

  const gridSessionsSettleAt = (count: number): Promise<number> =>
    settledValue(
      () => grid.sessionCount(),
      (held) => held === count,
    );

  beforeAll(async () => {
    ensureBuilt();
    scratch = mkdtempSync(join(tmpdir(), 'amh-remote-grid-'));
    mkdirSync(join(scratch, 'bin'));
    symlinkSync(process.execPath, join(scratch, 'bin', 'node'));
    adb = await startAdbServer();
    attached = await attachDeviceToAdb(device, adb);
    appium = await startAppium({ adbPort: adb.port });
    const appiumVersion = (
      (await (await fetch(`${appium.url}/status`)).json()) as { value: { build: { version: string } } }
    ).value.build.version;
    grid = await startGrid({
      relays: [{ appiumUrl: appium.url, udid: attached.serial, stereotype: { 'appium:appiumVersion': appiumVersion } }],
      sessionRequestTimeoutSeconds: QUEUE_SECONDS,
    });
    process.stderr.write(`[remote-grid] hub + 1 relay node listed UP after ${grid.startMs} ms\n`);
    harness = await startHarness(envFor('a'));
  }, 180_000);

  afterAll(async () => {
    await harness?.close();
    await grid?.stop();
    await appium?.stop();
    await attached?.stop().catch(() => undefined);
    await adb?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('reads, taps, captures and opens an app through the hub', async () => {
    expect(JSON.stringify(data((await harness.call('ui_get_tree')).envelope))).toContain('Settings');
    const clicks = () => device.logEntries().filter((entry) => entry.kind === 'click').length;
    const before = clicks();
    data((await harness.call('ui_tap', { selector: { text: 'Settings' } })).envelope);
    expect(clicks()).toBe(before + 1);
    const capture = (await harness.call('screen_capture')).envelope;
    expect(data(capture)).toMatchObject({ captured: true });
    expectEvidence(capture.evidence, 'screen', (id) => existsSync(join(scratch, 'artifacts-a', id)));
    expect(data((await harness.call('app_open', { package_name: 'com.android.settings' })).envelope)).toMatchObject({
      opened_package: 'com.android.settings',
    });
    // One warm session served them all: the Grid's one slot.
    expect(await grid.sessionCount()).toBe(1);
  }, 180_000);

  it('a second process asking for the taken device waits out the Grid queue: EMULATOR_BUSY; no session is left after', async () => {
    const flow = data((await harness.call('ui_session_open')).envelope);
    // On this machine the lock (keyed by endpoint, udid and capabilities) answers first, at once.
    const neighbour = await startHarness(envFor('a'));
    try {
      const { envelope: held, elapsedMs } = await neighbour.call('ui_get_tree');
      expect(held.error?.code, JSON.stringify(held)).toBe('EMULATOR_BUSY');
      expect(held.error?.message).toContain(`pid ${harness.pid}`);
      // Real clock (harness and Grid are processes): answered by the lock, not after the Grid's queue timeout.
      expect(elapsedMs).toBeLessThan(QUEUE_SECONDS * 1000);
    } finally {
      await neighbour.close();
    }
    const second = await startHarness(envFor('b'));
    try {
      const started = Date.now();
      const busy = (await second.call('ui_get_tree')).envelope;
      expect(busy.error?.code, JSON.stringify(busy)).toBe('EMULATOR_BUSY');
      expect(busy.error?.message).toContain(attached.serial);
      expect(Date.now() - started).toBeGreaterThanOrEqual((QUEUE_SECONDS - 1) * 1000);
    } finally {
      await second.close();
    }
    data((await harness.call('ui_session_close', { session_id: flow.session_id })).envelope);
    expect(await gridSessionsSettleAt(0)).toBe(0);

    // SIGTERM closes the session an observer kept.
    data((await harness.call('ui_get_tree')).envelope);
    expect(await gridSessionsSettleAt(1)).toBe(1);
    process.kill(harness.pid, 'SIGTERM');
    await awaitExitOrKill(harness.pid, 8_000, 100);
    expect(await gridSessionsSettleAt(0)).toBe(0);
    expect(await appium.sessionIds()).toEqual([]);
  }, 180_000);
});

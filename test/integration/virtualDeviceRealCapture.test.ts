/**
 * `virtual-device --screen DUMP.xml --screenshot SHOT.png` (docs/internals/virtual-device.md,
 * "Starting it"): a real capture served with its dump, as users start it (the built CLI, `dist/`),
 * through the real adb and a real Appium 3 + UiAutomator2. `screencap` and the UiAutomator2
 * screenshot answer the capture's exact bytes, and the page source is the dump's screen, so a real
 * screen can be driven end to end. One pair of ../shared/fixtures/screens (a map screen: its labels
 * are only in the pixels); skipped with a message when ../shared is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDevice, disconnectDevice } from '../support/adbDevices.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { REPO_ROOT, startAppium, type RunningAppium } from '../support/appium.js';
import { openRawSession, type RawDriver } from '../support/rawSession.js';
import { startVirtualDeviceProcess, type VirtualDeviceProcess } from '../support/virtualDeviceProcess.js';

const SCREENS = path.join(REPO_ROOT, '..', 'shared', 'fixtures', 'screens');
const PAIR = 'CodingArthur__hksmart_route_map_preview';
const dump = path.join(SCREENS, `${PAIR}.xml`);
const shot = path.join(SCREENS, `${PAIR}.png`);
const present = existsSync(dump) && existsSync(shot);
if (!present)
  console.warn(
    `real capture test skipped: ${SCREENS}/${PAIR}.{xml,png} is absent (../shared sits beside the checkout)`,
  );
const suite = present ? describeWithAdb : describe.skip;

suite('virtual-device --screen DUMP.xml --screenshot SHOT.png (built CLI, real adb and Appium)', () => {
  let adb: PrivateAdbServer;
  let device: VirtualDeviceProcess;
  let serial: string | undefined;
  let appium: RunningAppium;
  let driver: RawDriver | undefined;

  beforeAll(async () => {
    adb = await startAdbServer();
    device = await startVirtualDeviceProcess({
      args: ['--screen', dump, '--screenshot', shot, '--timing', 'fast'],
      env: { ANDROID_ADB_SERVER_PORT: String(adb.port) },
    });
    serial = await connectDevice(adb, device.port);
    appium = await startAppium({ adbPort: adb.port });
  }, 120_000);

  afterAll(async () => {
    await driver?.deleteSession().catch(() => undefined);
    await appium?.stop();
    if (serial) await disconnectDevice(adb, serial);
    await device?.stop();
    await adb?.stop();
  }, 60_000);

  it('screencap answers the capture byte for byte', async () => {
    const capture = await adb.adb(['-s', serial!, 'exec-out', 'screencap', '-p']);
    expect(capture.code, capture.stderr).toBe(0);
    expect(capture.stdout.equals(readFileSync(shot))).toBe(true);
  });

  it("the UiAutomator2 screenshot is the same capture, and the page source is the dump's screen", async () => {
    driver = await openRawSession({ appiumPort: appium.port, serial: serial!, adbPort: adb.port });
    const screenshot = Buffer.from(await driver.takeScreenshot(), 'base64');
    expect(screenshot.equals(readFileSync(shot))).toBe(true);
    const source = await driver.getPageSource();
    expect(source).toContain('text="Tai Kwun Event Zone"');
    expect(source).toContain('hk.edu.hku.cs7506.smartcompanion');
  }, 120_000);
});

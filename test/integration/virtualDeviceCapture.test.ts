/**
 * The virtual device draws its captures in a thread of its own (docs/internals/virtual-device.md,
 * "Screenshots"), both as users run it (the built CLI, `dist/`, which loads the thread's compiled
 * file) and as the suites run it (the TypeScript sources under vitest, where tsx loads the thread).
 * Through the real adb, each gives the same bytes as the device's own thread draws for that screen,
 * answers a `dumpsys window` asked at the same time, and stopping the in-process device ends the
 * thread. One adb server for the file.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { captureThreadCount } from '../../packages/virtual-device/src/device/captureThread.js';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { connectDevice, disconnectDevice } from '../support/adbDevices.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { startVirtualDeviceForTest, type VirtualDeviceForTest } from '../support/virtualDevice.js';
import { startVirtualDeviceProcess, type VirtualDeviceProcess } from '../support/virtualDeviceProcess.js';

/** The launcher as the device's own thread draws it (the control API, no capture thread). */
const launcher = (): Buffer => VirtualDevice.withDefaultScenario().screenshotPng();

describeWithAdb('captures drawn in the capture thread (real adb; built CLI and sources)', () => {
  let adb: PrivateAdbServer;
  let cli: VirtualDeviceProcess;
  let cliSerial: string | undefined;
  let inProcess: VirtualDeviceForTest | undefined;

  beforeAll(async () => {
    adb = await startAdbServer();
    cli = await startVirtualDeviceProcess({ env: { ANDROID_ADB_SERVER_PORT: String(adb.port) } });
    cliSerial = await connectDevice(adb, cli.port);
    inProcess = await startVirtualDeviceForTest({ adb });
  }, 60_000);

  afterAll(async () => {
    if (cliSerial) await disconnectDevice(adb, cliSerial);
    await cli?.stop();
    await inProcess?.stop();
    await adb?.stop();
  });

  async function captureWithDumpsys(serial: string): Promise<Buffer> {
    const [shot, window] = await Promise.all([
      adb.adb(['-s', serial, 'exec-out', 'screencap', '-p']),
      adb.adb(['-s', serial, 'shell', 'dumpsys', 'window']),
    ]);
    expect(shot.code, shot.stderr).toBe(0);
    expect(window.code, window.stderr).toBe(0);
    expect(window.stdout.toString('utf8')).toContain('mCurrentFocus=Window{');
    return shot.stdout;
  }

  it('the built CLI (dist/) draws in its compiled thread: the same bytes as the sources draw', async () => {
    const png = await captureWithDumpsys(cliSerial as string);
    expect(png.equals(launcher())).toBe(true);
  });

  it('the device run from the sources draws in a thread tsx loads: the same bytes, and stopping it ends the thread', async () => {
    const vd = inProcess as VirtualDeviceForTest;
    const png = await captureWithDumpsys(vd.serial);
    expect(png.equals(launcher())).toBe(true);
    expect(captureThreadCount()).toBeGreaterThan(0);
    await vd.stop();
    inProcess = undefined;
    expect(captureThreadCount()).toBe(0);
  });
});

/**
 * Captures across the display sizes and rotations real devices have, through the real adb and the
 * harness's own adb adapter (AdbRunner + AdbDeviceGateway.screencap): phone, foldable (both
 * postures), tablet, TV and watch, each at rotation 0–3. A rotation of 1 or 3 is modelled as the
 * panel's width and height swapped (the frame in the display's current orientation); that model
 * has not yet been checked against AOSP's screencap.cpp. One virtual device and one adb server for the file.
 */
import { PNG } from 'pngjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AdbDeviceGateway } from '../../src/infrastructure/adb/AdbDeviceGateway.js';
import { AdbRunner } from '../../src/infrastructure/adb/AdbRunner.js';
import { SystemClock } from '../../src/infrastructure/clock/SystemClock.js';
import { describeWithAdb } from '../support/adbServer.js';
import { silentLogger } from '../support/fakes/silentLogger.js';
import { startVirtualDeviceForTest, type VirtualDeviceForTest } from '../support/virtualDevice.js';

/** Natural (rotation 0) panel sizes of shipping devices. */
const PANELS: readonly { readonly kind: string; readonly width: number; readonly height: number }[] = [
  { kind: 'phone', width: 1080, height: 2400 },
  { kind: 'foldable inner', width: 1768, height: 2208 },
  { kind: 'foldable inner (landscape panel)', width: 2208, height: 1768 },
  { kind: 'tablet', width: 1920, height: 1200 },
  { kind: 'tablet', width: 2560, height: 1600 },
  { kind: 'TV', width: 3840, height: 2160 },
  { kind: 'TV', width: 1920, height: 1080 },
  { kind: 'round watch', width: 454, height: 454 },
  { kind: 'round watch', width: 384, height: 384 },
];
const ROTATIONS = [0, 1, 2, 3] as const;

describeWithAdb('screencap across real display sizes and rotations (real adb, harness adapter)', () => {
  let vd: VirtualDeviceForTest;
  let gateway: AdbDeviceGateway;

  beforeAll(async () => {
    vd = await startVirtualDeviceForTest();
    const runner = new AdbRunner({ adbPath: vd.adb.adbPath, serial: vd.serial, defaultTimeoutMs: 60_000, env: vd.adb.env, logger: silentLogger });
    gateway = new AdbDeviceGateway(runner, new SystemClock(), silentLogger);
  }, 60_000);

  afterAll(async () => {
    await vd?.stop();
  });

  it('every size at every rotation comes back as the whole PNG the device drew, at the rotated size', async () => {
    const failures: string[] = [];
    for (const panel of PANELS) {
      for (const rotation of ROTATIONS) {
        const [width, height] = rotation % 2 === 1 ? [panel.height, panel.width] : [panel.width, panel.height];
        vd.device.setDisplays([{ physicalId: '4619827259835644672', name: 'Built-in Screen', state: 'ON', width, height }]);
        const drawn = vd.device.screenshotPng();
        const label = `${panel.kind} ${panel.width}x${panel.height} rotation ${rotation}`;
        let png: Buffer;
        try {
          png = await gateway.screencap();
        } catch (error) {
          failures.push(`${label}: ${String(error)}`);
          continue;
        }
        const decoded = PNG.sync.read(png);
        if (decoded.width !== width || decoded.height !== height) failures.push(`${label}: decoded ${decoded.width}x${decoded.height}`);
        if (!png.equals(drawn)) failures.push(`${label}: ${png.length} bytes arrived, the device drew ${drawn.length}`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});

/**
 * Captures across the display sizes and rotations real devices have, through the real adb and the
 * harness's own adb adapter (AdbRunner + AdbDeviceGateway.screencap): phone, foldable (both
 * postures), tablet, TV and watch, each at rotation 0–3. AOSP's screencap captures the display in
 * its current rotation (docs/internals/device-quirks.md, "screencap -p and rotation"): a quarter turn swaps
 * the PNG's width and height, while `wm size` keeps the panel's natural size. Then a landscape
 * tablet's settings list of small switches (160 dpi controls), served as a static screen: the
 * device takes the dump's display, and every capture is the whole PNG at the dump's frame.
 * One virtual device and one adb server for the file.
 */
import { PNG } from 'pngjs';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
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
    const runner = new AdbRunner({
      adbPath: vd.adb.adbPath,
      serial: vd.serial,
      defaultTimeoutMs: 60_000,
      env: vd.adb.env,
      logger: silentLogger,
    });
    gateway = new AdbDeviceGateway(runner, new SystemClock(), silentLogger);
  }, 60_000);

  afterAll(async () => {
    await vd?.stop();
  });

  it('every size at every rotation comes back as the whole frame the device drew, at the rotated size', async () => {
    const failures: string[] = [];
    for (const panel of PANELS) {
      for (const rotation of ROTATIONS) {
        const [width, height] = rotation % 2 === 1 ? [panel.height, panel.width] : [panel.width, panel.height];
        vd.device.setDisplays([
          {
            physicalId: '4619827259835644672',
            name: 'Built-in Screen',
            state: 'ON',
            width: panel.width,
            height: panel.height,
          },
        ]);
        vd.device.setRotation(rotation);
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
        if (decoded.width !== width || decoded.height !== height)
          failures.push(`${label}: decoded ${decoded.width}x${decoded.height}`);
        // The harness takes the raw frame and encodes it itself: the pixels are the device's, not the bytes.
        if (!decoded.data.equals(PNG.sync.read(drawn).data))
          failures.push(`${label}: the pixels that arrived are not the ones the device drew`);
        // The frame the harness reads from dumpsys window is the one the capture has.
        const size = (await gateway.getWindowState()).displaySize;
        if (size?.width !== width || size?.height !== height)
          failures.push(`${label}: dumpsys window says ${JSON.stringify(size)}`);
        const wm = await vd.adb.adb(['-s', vd.serial, 'shell', 'wm', 'size']);
        if (!wm.stdout.toString().includes(`Physical size: ${panel.width}x${panel.height}`))
          failures.push(`${label}: wm size says ${wm.stdout.toString().trim()}`);
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it("a landscape tablet settings list of 160 dpi switches: the device takes the dump's display, and every capture is the whole frame", async () => {
    const row = (i: number): string => {
      const top = 160 + i * 96;
      const n = (cls: string, bounds: string, extra: string, children = ''): string =>
        `<node index="0" text="${extra.startsWith('text=') ? extra.slice(5) : ''}" resource-id="${extra.startsWith('id=') ? extra.slice(3) : ''}" class="${cls}" package="com.android.settings" content-desc="" ` +
        `checkable="${cls.endsWith('Switch')}" checked="${i % 2 === 0}" clickable="${!cls.endsWith('TextView')}" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="${bounds}">${children}</node>`;
      return n(
        'android.widget.LinearLayout',
        `[0,${top}][1920,${top + 96}]`,
        '',
        n('android.widget.TextView', `[48,${top + 20}][900,${top + 76}]`, `text=Setting ${i}`) +
          n('android.widget.Switch', `[1750,${top + 24}][1900,${top + 72}]`, 'id=android:id/switch_widget'),
      );
    };
    const xml =
      `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="1">` +
      `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1920,1200]">` +
      `<node index="0" text="" resource-id="com.android.settings:id/recycler_view" class="androidx.recyclerview.widget.RecyclerView" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="true" focused="false" scrollable="true" long-clickable="false" password="false" selected="false" bounds="[0,160][1920,1200]">` +
      `${Array.from({ length: 10 }, (_, i) => row(i)).join('')}</node>` +
      // The window draws under its navigation bar (the decor's bar background is in it), so the
      // panel is the window itself: 1920x1200.
      `<node index="1" text="" resource-id="android:id/navigationBarBackground" class="android.view.View" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,1074][1920,1200]" />` +
      `</node></hierarchy>`;
    const tablet = await startVirtualDeviceForTest({ device: VirtualDevice.withStaticScreen(xml), adb: vd.adb });
    try {
      const runner = new AdbRunner({
        adbPath: tablet.adb.adbPath,
        serial: tablet.serial,
        defaultTimeoutMs: 60_000,
        env: tablet.adb.env,
        logger: silentLogger,
      });
      const onTablet = new AdbDeviceGateway(runner, new SystemClock(), silentLogger);
      const decoded = PNG.sync.read(await onTablet.screencap());
      expect([decoded.width, decoded.height]).toEqual([1920, 1200]);
      expect((await onTablet.getWindowState()).displaySize).toEqual({ width: 1920, height: 1200 });
      expect((await tablet.adb.adb(['-s', tablet.serial, 'shell', 'wm', 'size'])).stdout.toString()).toContain(
        'Physical size: 1200x1920',
      );
      // A tap toggles a switch; the capture after it is still the whole frame.
      await tablet.adb.adb(['-s', tablet.serial, 'shell', 'input', 'tap', '1825', '208']);
      expect(tablet.device.clicks().length).toBe(1);
      expect(PNG.sync.read(await onTablet.screencap()).width).toBe(1920);
    } finally {
      await tablet.stop();
    }
  }, 60_000);
});

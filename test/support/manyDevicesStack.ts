/**
 * Several virtual devices on one private adb server, one real Appium 3 on it, and a scratch folder
 * for the harness's locks and artifacts (the many-devices suites). A device listed twice is attached
 * twice: two serials of one device, as `emulator-5554` and `127.0.0.1:5555` are one emulator.
 * stop() ends Appium, detaches every device, ends the adb server (each by its pid), and removes the
 * scratch folder. The harness processes are the suite's own: it closes them first.
 *
 *   many = await startManyDevicesStack({ label: 'many', devices: [deviceA, deviceA, deviceB] });
 *   harness = await startHarness(many.harnessEnv({}));
 */
import type { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import type { PrivateAdbServer } from './adbServer.js';
import type { RunningAppium } from './appium.js';
import type { AttachedDevice } from './deviceOnAdb.js';
import { startDeviceStack } from './deviceStack.js';
import { manyDevicesHarnessEnv } from './manyDevices.js';

export interface ManyDevicesStack {
  readonly scratch: string;
  readonly adb: PrivateAdbServer;
  readonly attached: readonly AttachedDevice[];
  /** One serial per entry of `devices`, in that order. */
  readonly serials: readonly string[];
  readonly appium: RunningAppium;
  /** manyDevicesHarnessEnv() on this stack: every serial allowed, `extra` over the defaults. */
  harnessEnv(extra: Record<string, string>): Record<string, string>;
  stop(): Promise<void>;
}

export interface ManyDevicesStackOptions {
  /** Names the scratch folder (the test file's name). */
  readonly label: string;
  readonly devices: readonly VirtualDevice[];
}

export async function startManyDevicesStack(options: ManyDevicesStackOptions): Promise<ManyDevicesStack> {
  const base = await startDeviceStack({ label: options.label, devices: options.devices, appium: true });
  const { scratch, adb, attached } = base;
  const appium = base.appium as RunningAppium;
  const serials = attached.map((entry) => entry.serial);
  return {
    scratch,
    adb,
    attached,
    serials,
    appium,
    harnessEnv: (extra) => manyDevicesHarnessEnv({ adbPort: adb.port, serials, appiumUrl: appium.url, scratch, extra }),
    stop: () => base.stop(),
  };
}

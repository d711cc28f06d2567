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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { startAdbServer, type PrivateAdbServer } from './adbServer.js';
import { startAppium, type RunningAppium } from './appium.js';
import { attachDeviceToAdb, type AttachedDevice } from './deviceOnAdb.js';
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
  const scratch = mkdtempSync(join(tmpdir(), `amh-${options.label}-`));
  const attached: AttachedDevice[] = [];
  let adb: PrivateAdbServer | undefined;
  let appium: RunningAppium | undefined;
  const stop = async (): Promise<void> => {
    await appium?.stop();
    for (const entry of attached) await entry.stop().catch(() => undefined);
    await adb?.stop();
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const server = await startAdbServer();
    adb = server;
    for (const device of options.devices) attached.push(await attachDeviceToAdb(device, server));
    const serials = attached.map((entry) => entry.serial);
    const started = await startAppium({ adbPort: server.port });
    appium = started;
    return {
      scratch,
      adb: server,
      attached,
      serials,
      appium: started,
      harnessEnv: (extra) =>
        manyDevicesHarnessEnv({ adbPort: server.port, serials, appiumUrl: started.url, scratch, extra }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The one builder under every stack that drives the real adb and Appium against virtual devices:
 * a scratch folder, a private adb server, the devices attached to it in this process (their log
 * and faults at hand), and, when asked, one real Appium 3 on that adb server. stop() undoes it in
 * the reverse order of the start, each process by its pid, and removes the scratch folder; what a
 * suite starts on top (a harness) joins through onStop() and is stopped first.
 *
 *   const base = await startDeviceStack({ label: 'quirks-lock', devices: [device], appium: true });
 *   base.onStop(() => harness.close());
 *   …
 *   await base.stop();
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeviceServices } from '../../packages/virtual-device/src/contracts.js';
import { startAdbServer, type PrivateAdbServer } from './adbServer.js';
import { startAppium, type RunningAppium } from './appium.js';
import { attachDeviceToAdb, type AttachedDevice } from './deviceOnAdb.js';

/**
 * The find wait the test run sets (vitest.config.ts says why it is lower than the 10 s default), for
 * a stack that gives its harness a clean environment; empty outside the test run: the default.
 */
export function testFindWait(): Record<string, string> {
  const wait = process.env.ANDROID_MCP_FIND_TIMEOUT;
  return wait ? { ANDROID_MCP_FIND_TIMEOUT: wait } : {};
}

export interface DeviceStack {
  /** A temporary folder for the harness's artifacts and locks (or the folder given), removed at stop() when temporary. */
  readonly scratch: string;
  readonly adb: PrivateAdbServer;
  /** One entry per device given, in that order (a device given twice has two serials). */
  readonly attached: readonly AttachedDevice[];
  /** Null unless `appium` was asked for. */
  readonly appium: RunningAppium | null;
  /** Runs `step` at stop(), before everything started earlier. */
  onStop(step: () => Promise<void>): void;
  /** Every step, latest first; a step that fails does not keep the others from running. */
  stop(): Promise<void>;
}

export interface DeviceStackOptions {
  /** Names the scratch folder (the test file's name). */
  readonly label: string;
  readonly devices: readonly DeviceServices[];
  readonly appium: boolean;
  /** A folder to use instead of a temporary one; it is kept at stop() (CI uploads it). */
  readonly keptScratch?: string;
}

export async function startDeviceStack(options: DeviceStackOptions): Promise<DeviceStack> {
  const scratch = options.keptScratch ?? mkdtempSync(join(tmpdir(), `amh-${options.label}-`));
  const steps: (() => Promise<void>)[] = [];
  if (options.keptScratch === undefined) steps.push(async () => rmSync(scratch, { recursive: true, force: true }));
  const stop = async (): Promise<void> => {
    for (const step of steps.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    const adb = await startAdbServer();
    steps.push(() => adb.stop());
    const attached: AttachedDevice[] = [];
    for (const device of options.devices) {
      const entry = await attachDeviceToAdb(device, adb);
      steps.push(() => entry.stop());
      attached.push(entry);
    }
    const appium = options.appium ? await startAppium({ adbPort: adb.port }) : null;
    if (appium) steps.push(() => appium.stop());
    return { scratch, adb, attached, appium, onStop: (step) => void steps.push(step), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * One stack per quirks test file: a private adb server, one virtual device attached to it in this
 * process (its log, traits and faults at hand), one real Appium 3 on that adb server, and the built
 * harness over stdio, all stopped by pid; the scratch folder (artifacts, locks) is removed at stop().
 *
 *   stack = await startQuirkStack({ label: 'quirks-lock', scenario: quirksScenario(), harness: { ANDROID_MCP_ACTION_TIMEOUT: '30' } });
 *   …
 *   await stack?.stop();
 *
 * The quirks files that need no private lock folder use the end-to-end stack (test/e2e/support/stack.ts)
 * through startQuirkE2eStack(), so they run against a real emulator too where they can.
 */
import { join } from 'node:path';
import { VirtualDevice, type VirtualDeviceOptions } from '../../packages/virtual-device/src/device/index.js';
import type { ScenarioSpec } from '../../packages/virtual-device/src/scenario/model.js';
import { startHarness, type HarnessProcess } from '../e2e/support/harnessClient.js';
import { ON_EMULATOR, startStack, type E2eStack } from '../e2e/support/stack.js';
import { describeWithAdb, type AdbResult, type AdbRunOptions, type PrivateAdbServer } from './adbServer.js';
import type { RunningAppium } from './appium.js';
import type { AttachedDevice } from './deviceOnAdb.js';
import { startDeviceStack, testFindWait } from './deviceStack.js';

/** The lease, in seconds, of the session a harness keeps after an action without session_id (30 s by default). */
export const QUIRK_WARM_LEASE_S = 1;

/** What the quirk probes (quirkProbes.ts) need of a stack: the device, its harness, its Appium and raw adb. */
export interface QuirkTarget {
  readonly device: VirtualDevice;
  readonly harness: HarnessProcess;
  readonly appium: RunningAppium;
  readonly serial: string;
  /** The adb server port everything talks to. */
  readonly adbPort: number;
  /** `adb -s <serial> <args…>`, as a user would type it (never a shell on the host). */
  onDevice(args: readonly string[], options?: AdbRunOptions): Promise<AdbResult>;
  /** Closes the harness, then the rest, in the reverse order of their start. */
  stop(): Promise<void>;
}

export interface QuirkStack extends QuirkTarget {
  /** Removed at stop(): the harness's artifacts/ and locks/ are below it. */
  readonly scratch: string;
  readonly adb: PrivateAdbServer;
  readonly attached: AttachedDevice;
  /** The environment of a harness on this stack (another one than `harness`), plus `extra`. */
  harnessEnv(extra?: Record<string, string>): Record<string, string>;
}

export interface QuirkStackOptions {
  /** Names the scratch folder (the test file's name). */
  readonly label: string;
  readonly scenario: ScenarioSpec;
  /** Added to the environment of the stack's own harness. */
  readonly harness?: Record<string, string>;
}

export async function startQuirkStack(options: QuirkStackOptions): Promise<QuirkStack> {
  // The documented instrumentation start (800 ms) and the run's timing (vitest.config.ts says why fast).
  const device = new VirtualDevice(options.scenario);
  const base = await startDeviceStack({ label: options.label, devices: [device], appium: true });
  try {
    const { scratch, adb } = base;
    const attached = base.attached[0] as AttachedDevice;
    const appium = base.appium as RunningAppium;
    const serial = attached.serial;
    const harnessEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? scratch,
      ANDROID_UDID: serial,
      ANDROID_MCP_ALLOW_SERIALS: serial,
      ANDROID_ADB_SERVER_PORT: String(adb.port),
      APPIUM_URL: appium.url,
      ANDROID_MCP_ARTIFACTS_DIR: join(scratch, 'artifacts'),
      ANDROID_MCP_LOCK_DIR: join(scratch, 'locks'),
      ANDROID_MCP_LOG_LEVEL: 'info',
      // Short, so a raw session or a raw dump can wait out the session a harness kept after an action.
      ANDROID_MCP_WARM_SESSION_TIMEOUT: String(QUIRK_WARM_LEASE_S),
      ...testFindWait(),
      ...extra,
    });
    const harness = await startHarness(harnessEnv(options.harness));
    base.onStop(() => harness.close());
    return {
      scratch,
      adb,
      device,
      attached,
      serial,
      adbPort: adb.port,
      appium,
      harness,
      harnessEnv,
      onDevice: (args, runOptions) => adb.adb(['-s', serial, ...args], runOptions),
      stop: () => base.stop(),
    };
  } catch (error) {
    await base.stop();
    throw error;
  }
}

/**
 * describeWithAdb for the quirks files on the end-to-end stack: the raw half of each test needs the
 * virtual device's log (and faults), so with ANDROID_MCP_E2E_TARGET=emulator they are not declared;
 * the e2e suite covers real emulators.
 */
export const describeOnVirtualDevice = ON_EMULATOR ? (): void => undefined : describeWithAdb;

export interface QuirkE2eStack extends QuirkTarget {
  readonly stack: E2eStack;
  /** The same as onDevice(): `adb -s <serial> <args…>` on the stack's adb server. */
  adb(args: readonly string[]): Promise<AdbResult>;
}

export interface QuirkE2eStackOptions {
  /** A label for the evidence directory (the test file's name). */
  readonly label: string;
  readonly device: (options: VirtualDeviceOptions) => VirtualDevice;
  /** Added to the end-to-end stack's harness environment. */
  readonly harness?: Record<string, string>;
}

/** The end-to-end stack (the virtual device only: the raw half of each quirk test reads its log) and its harness. */
export async function startQuirkE2eStack(options: QuirkE2eStackOptions): Promise<QuirkE2eStack> {
  const stack = await startStack({ label: options.label, device: options.device });
  try {
    if (!stack.device) throw new Error('this file needs the virtual device');
    const harness = await startHarness(stack.harnessEnv(options.harness));
    return {
      stack,
      device: stack.device,
      harness,
      appium: stack.appium,
      serial: stack.serial,
      adbPort: stack.adbPort,
      onDevice: (args) => stack.adb(args),
      adb: (args) => stack.adb(args),
      stop: async () => {
        await harness.close();
        await stack.stop();
      },
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

/**
 * One end-to-end stack per test file: the real adb, a real Appium 3 + UiAutomator2 from the
 * project's dependencies, and a device — the virtual device (in this process, so the test
 * reads its own log and injects faults) on a private adb server, or, with
 * ANDROID_MCP_E2E_TARGET=emulator, a real emulator on the default adb server.
 * The harness under test is spawned separately (harnessClient.ts) with `harnessEnv()`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { DeviceLogEntry, DeviceServices } from '../../../packages/virtual-device/src/contracts.js';
import { VirtualDevice, type VirtualDeviceOptions } from '../../../packages/virtual-device/src/device/index.js';
import { waitForDeviceState } from '../../support/adbDevices.js';
import { locateAdb, runAdb, type AdbResult, type PrivateAdbServer } from '../../support/adbServer.js';
import { androidHomeForAppium, startAppium, type RunningAppium } from '../../support/appium.js';
import type { AttachedDevice } from '../../support/deviceOnAdb.js';
import { startDeviceStack, testFindWait } from '../../support/deviceStack.js';

export type E2eTargetKind = 'virtual' | 'emulator';

/** ANDROID_MCP_E2E_TARGET=emulator runs the suite against a real emulator instead of the virtual device. */
export const E2E_TARGET: E2eTargetKind = process.env.ANDROID_MCP_E2E_TARGET === 'emulator' ? 'emulator' : 'virtual';
export const ON_EMULATOR = E2E_TARGET === 'emulator';

export interface E2eStack {
  readonly kind: E2eTargetKind;
  readonly serial: string;
  /** The adb server port everything talks to (private on the virtual device, 5037 or ANDROID_ADB_SERVER_PORT on an emulator). */
  readonly adbPort: number;
  readonly appium: RunningAppium;
  /** The virtual device (control API, log, faults); null on a real emulator. */
  readonly device: VirtualDevice | null;
  /** Where the harness writes evidence for this file. */
  readonly evidenceDir: string;
  /** `adb -s <serial> <args…>` on the stack's adb server (never a shell on the host). */
  adb(args: readonly string[]): Promise<AdbResult>;
  /** The environment for `node dist/index.js` against this stack, plus `extra` (an empty string removes a key). */
  harnessEnv(extra?: Record<string, string>): Record<string, string>;
  stop(): Promise<void>;
}

export interface StartStackOptions {
  /** A label for the evidence directory (the test file's name). */
  readonly label: string;
  /** Builds the virtual device (default: the default scenario). Ignored on a real emulator. */
  readonly device?: (options: VirtualDeviceOptions) => VirtualDevice;
  /**
   * Puts these services on the wire instead of `device` (e.g. a switch between several
   * virtual devices); `E2eStack.device` is then null. Ignored on a real emulator.
   */
  readonly services?: DeviceServices;
}

/** ANDROID_MCP_E2E_EVIDENCE_DIR/<label> when set: kept at stop() (CI uploads it); else none (a temporary folder). */
function keptEvidenceDir(label: string): string | undefined {
  const root = process.env.ANDROID_MCP_E2E_EVIDENCE_DIR;
  if (!root) return undefined;
  const dir = join(root, label);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** ANDROID_MCP_E2E_EVIDENCE_DIR/<label> (kept), else a temporary directory removed at stop(). */
function evidenceDirFor(label: string): { dir: string; cleanup: () => Promise<void> } {
  const kept = keptEvidenceDir(label);
  if (kept) return { dir: kept, cleanup: async () => undefined };
  const dir = mkdtempSync(join(tmpdir(), `amh-e2e-${label}-`));
  return { dir, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** The few variables the harness needs from the outside: PATH for node and adb, HOME. */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TMPDIR', 'JAVA_HOME']) {
    const value = process.env[key];
    if (value) env[key] = value;
  }
  return env;
}

export async function startStack(options: StartStackOptions): Promise<E2eStack> {
  return ON_EMULATOR ? startEmulatorStack(options) : startVirtualStack(options);
}

async function startVirtualStack(options: StartStackOptions): Promise<E2eStack> {
  const device = options.services ? null : (options.device ?? ((o) => VirtualDevice.withDefaultScenario(o)))({});
  const kept = keptEvidenceDir(options.label);
  const base = await startDeviceStack({
    label: `e2e-${options.label}`,
    devices: [options.services ?? (device as VirtualDevice)],
    appium: true,
    ...(kept ? { keptScratch: kept } : {}),
  });
  const { adb: adbServer } = base;
  const attached = base.attached[0] as AttachedDevice;
  const appium = base.appium as RunningAppium;
  const evidenceDir = base.scratch;
  const androidHome = androidHomeForAppium();
  return {
    kind: 'virtual',
    serial: attached.serial,
    adbPort: adbServer.port,
    appium,
    device,
    evidenceDir,
    adb: (args) => adbServer.adb(['-s', attached.serial, ...args]),
    harnessEnv: (extra = {}) =>
      withExtra(
        {
          ...baseEnv(),
          ANDROID_HOME: androidHome,
          ANDROID_UDID: attached.serial,
          // 127.0.0.1:N is not an emulator-N serial: the conscious opt-in of ANDROID_MCP_ALLOW_SERIALS.
          ANDROID_MCP_ALLOW_SERIALS: attached.serial,
          APPIUM_URL: appium.url,
          ANDROID_ADB_SERVER_PORT: String(adbServer.port),
          ANDROID_MCP_ARTIFACTS_DIR: evidenceDir,
          ANDROID_MCP_LOG_LEVEL: 'info',
          // The double under `fast` timing only; an emulator's screens take their time: the default there.
          ...testFindWait(),
        },
        extra,
      ),
    stop: () => base.stop(),
  };
}

async function startEmulatorStack(options: StartStackOptions): Promise<E2eStack> {
  const adbPath = locateAdb();
  if (!adbPath) throw new Error('adb was not found: set ANDROID_HOME or put platform-tools on PATH.');
  const serial = process.env.ANDROID_UDID || 'emulator-5554';
  const adbPort = Number(process.env.ANDROID_ADB_SERVER_PORT || 5037);
  const env = { ...process.env, ANDROID_ADB_SERVER_PORT: String(adbPort) };
  const fakeServer = { adb: (args: readonly string[]) => runAdb(adbPath, args, env) } as unknown as PrivateAdbServer;
  await waitForDeviceState(fakeServer, serial, ['device'], 60_000);
  const appium = await startAppium({ adbPort });
  const evidence = evidenceDirFor(options.label);
  const evidenceDir = evidence.dir;
  const androidHome = process.env.ANDROID_HOME ?? dirname(dirname(adbPath));
  return {
    kind: 'emulator',
    serial,
    adbPort,
    appium,
    device: null,
    evidenceDir,
    adb: (args) => runAdb(adbPath, ['-s', serial, ...args], env),
    harnessEnv: (extra = {}) =>
      withExtra(
        {
          ...baseEnv(),
          ANDROID_HOME: androidHome,
          ANDROID_UDID: serial,
          APPIUM_URL: appium.url,
          ANDROID_ADB_SERVER_PORT: String(adbPort),
          ANDROID_MCP_ARTIFACTS_DIR: evidenceDir,
          ANDROID_MCP_LOG_LEVEL: 'info',
        },
        extra,
      ),
    stop: async () => {
      await appium.stop();
      await evidence.cleanup();
    },
  };
}

function withExtra(env: Record<string, string>, extra: Record<string, string>): Record<string, string> {
  const out = { ...env };
  for (const [key, value] of Object.entries(extra)) {
    if (value === '') delete out[key];
    else out[key] = value;
  }
  return out;
}

/** A position in the virtual device's log; `since(mark)` is what happened after it. */
export interface LogWindow {
  since(): readonly DeviceLogEntry[];
}

export function logWindow(device: VirtualDevice): LogWindow {
  const entries = device.logEntries();
  const last = entries.length > 0 ? (entries[entries.length - 1] as DeviceLogEntry).seq : 0;
  return { since: () => device.logEntries().filter((e) => e.seq > last) };
}

export function formatLog(entries: readonly DeviceLogEntry[]): string {
  return entries.map((e) => `#${e.seq} +${e.atMs}ms ${e.kind}: ${e.detail}`).join('\n');
}

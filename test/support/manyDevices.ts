/**
 * What the many-devices suites share: the harness environment for several devices on
 * one private adb server, and what a virtual device's own log says was done to it since a mark,
 * so a test can tell which harness or flow reached which device.
 *
 *   const env = manyDevicesHarnessEnv({ adbPort: adb.port, serials: [a, b], appiumUrl, scratch });
 *   const mark = deviceA.logEntries().length;
 *   …
 *   expect(activitySince(deviceA, mark)).toEqual({ clicks: 1, screencaps: 1, instruments: 1 });
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeviceLogEntry } from '../../packages/virtual-device/src/contracts.js';
import { testFindWait } from './deviceStack.js';

export interface ManyDevicesEnvOptions {
  readonly adbPort: number;
  /** Every serial the harness may drive (ANDROID_MCP_ALLOW_SERIALS). */
  readonly serials: readonly string[];
  /** APPIUM_URL: an Appium, or a Selenium Grid hub. */
  readonly appiumUrl: string;
  /** The test's scratch directory: locks and artifacts go below it. */
  readonly scratch: string;
  /**
   * Below `scratch`, the lock directory's name (default `locks`). Harness processes that stand for
   * different machines sharing one Grid get different ones: they share no lock file.
   */
  readonly lockDirName?: string;
  /** Anything else (ANDROID_UDID, timeouts), over the defaults. */
  readonly extra?: Readonly<Record<string, string>>;
}

/** The environment of a harness process in a many-devices suite: no warm session, info logs. */
export function manyDevicesHarnessEnv(options: ManyDevicesEnvOptions): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ANDROID_ADB_SERVER_PORT: String(options.adbPort),
    ANDROID_MCP_ALLOW_SERIALS: options.serials.join(','),
    APPIUM_URL: options.appiumUrl,
    ANDROID_MCP_LOCK_DIR: join(options.scratch, options.lockDirName ?? 'locks'),
    ANDROID_MCP_ARTIFACTS_DIR: join(options.scratch, 'artifacts'),
    ANDROID_MCP_WARM_SESSION_TIMEOUT: '0',
    ANDROID_MCP_LOG_LEVEL: 'info',
    ...testFindWait(),
    ...options.extra,
  };
}

/** What a device was asked to do since a mark in its own log. */
export interface DeviceActivity {
  /** Clicks its UiAutomator2 server performed. */
  readonly clicks: number;
  /** `screencap` services adb opened on it (each action's evidence, each screen capture). */
  readonly screencaps: number;
  /** UiAutomator2 servers started on it (`am instrument`): one per Appium session's server. */
  readonly instruments: number;
}

/** Counts from `device.logEntries()` after index `since` (a length read earlier). */
export function activitySince(device: { logEntries(): readonly DeviceLogEntry[] }, since: number): DeviceActivity {
  const entries = device.logEntries().slice(since);
  const services = entries.filter((entry) => entry.kind === 'service');
  return {
    clicks: entries.filter((entry) => entry.kind === 'click').length,
    screencaps: services.filter((entry) => entry.detail.includes('screencap')).length,
    instruments: services.filter((entry) => /am instrument/.test(entry.detail)).length,
  };
}

/**
 * The serials an Appium server's sessions were created on, from its log: the UiAutomator2 driver
 * logs `Using device: <udid>` once per session. Sorted, each once.
 */
export function appiumDevicesUsed(logFile: string): string[] {
  const text = readFileSync(logFile, 'utf8');
  return [...new Set([...text.matchAll(/Using device: (\S+)/g)].map((match) => match[1] ?? ''))].sort();
}

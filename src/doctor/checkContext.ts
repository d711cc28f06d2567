/** What every doctor check is given: the options, the facts earlier checks learnt, and small helpers they share. */
import type { AutomationEndpointStatus } from '../domain/automationEndpoint.js';
import { isHarnessError } from '../domain/errors.js';
import type { LocatedAdb } from '../infrastructure/adb/adbLocator.js';
import type { ProcessRunner } from './processRunner.js';
import type { CheckResult } from './report.js';

export interface DoctorOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly packageRoot: string;
  readonly nodeVersion: string;
  readonly runner: ProcessRunner;
  /** `--package com.x`: also check that this app is installed and launchable. */
  readonly targetPackage?: string | null;
  /**
   * GET <url>/status → Appium or a Selenium Grid in front of it, or null when it answers as neither.
   * `authorization`: remote mode's header, sent with the request, never printed.
   */
  readonly appiumStatus: (url: string, authorization?: string) => Promise<AutomationEndpointStatus | null>;
  /** Starts the managed Appium, reads its version and stops it again. Throws with a reason. */
  readonly tryManagedAppium: (androidSdkRoot: string | null) => Promise<{ version: string }>;
  /** For tests: which files count as an executable adb. */
  readonly adbExists?: (candidate: string) => boolean;
  /** Per-command timeout (default 15 s). */
  readonly commandTimeoutMs?: number;
}

export interface DeviceFacts {
  adb: LocatedAdb | null;
  deviceReady: boolean;
  /** The device the checks run on: ANDROID_UDID, else the one allowed device adb lists online; null: none to check. */
  serial: string | null;
}

export function timeout(options: DoctorOptions): number {
  return options.commandTimeoutMs ?? 15_000;
}

/** The first line worth showing: adb's "* daemon started" chatter is not the problem. */
export function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l.length > 0 && !l.startsWith('* daemon'))
      ?.slice(0, 160) ?? ''
  );
}

/** A guard refused a configured value: a blocking row whose remedy is the guard's own message, which says what to do. */
export function refusedByGuard(name: string, summary: string, error: unknown, fallbackRemedy: string): CheckResult {
  return { name, status: 'miss', summary, remedy: isHarnessError(error) ? error.message : fallbackRemedy };
}

/** What shell commands may touch on the device. */
import type { DeviceLogKind } from '../contracts.js';
import type { DeviceClock } from '../device/clock.js';
import type { Instrumentation } from '../device/instrumentation.js';
import type { SystemState } from '../device/system.js';
import type { DeviceTraits } from '../device/traits.js';
import type { DeviceUi, ForegroundInfo } from '../device/ui.js';
import type { FocusInTransit, LastAnr } from '../device/windowState.js';
import type { CommandHandler } from './interpreter.js';

export type DumpOutcome = { readonly ok: true; readonly xml: string } | { readonly ok: false; readonly stdout: string; readonly stderr: string; readonly code: number };

export interface ShellDevice {
  readonly ui: DeviceUi;
  readonly system: SystemState;
  readonly instrumentation: Instrumentation;
  readonly clock: DeviceClock;
  /** Issue 8 traits: displays, launch delay (the API level lives in system.props). */
  readonly traits: DeviceTraits;
  /** `am start` calls this right before a cold launch changes the screen (the launch-delay trait). */
  beginLaunch(pkg: string): void;
  /** A cold launch whose window has not been drawn yet: its package and the dump of what was on screen before. */
  launchInProgress(): { readonly pkg: string; readonly previousXml: string } | null;
  /** Issue 12: the window focus still catching up with a Back (old window, or none), else null. */
  focusInTransit(): FocusInTransit | null;
  /** Issue 12: io.appium.settings's trampoline while it still holds the focus (settingsHelperFocusMs), else null. */
  settingsHelperInFront(): ForegroundInfo | null;
  /** Issue 12: `am start` of io.appium.settings's trampoline while its service was not running. */
  settingsHelperStarted(): void;
  /** Issue 12: the window manager's state frozen at the last ANR, while it remembers one. */
  lastAnr(): LastAnr | null;
  log(kind: DeviceLogKind, detail: string): void;
  /** The current screen as PNG (honours the blank-screenshot fault). */
  screenshotPng(): Buffer;
  /** Takes the UiAutomation registration and dumps (honours dump faults and the one-UiAutomation rule). */
  dumpHierarchy(signal: AbortSignal): Promise<DumpOutcome>;
  readonly logcat: LogcatBuffer;
  /** Runs a nested command line (`sh -c`). */
  runNested(commandLine: string, out: (c: Buffer | string) => void, err: (c: Buffer | string) => void, signal: AbortSignal): Promise<number>;
}

export type CommandTable = Map<string, CommandHandler>;

/** The device's logcat ring, in `threadtime` format. */
export class LogcatBuffer {
  private lines: string[] = [];
  private readonly listeners = new Set<(line: string) => void>();

  constructor(private readonly clock: DeviceClock) {}

  add(tag: string, message: string, priority = 'I', pid = 541): void {
    const d = new Date(this.clock.nowMs());
    const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
    const stamp = `${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
    const line = `${stamp}  ${String(pid).padStart(4)}  ${String(pid).padStart(4)} ${priority} ${tag}: ${message}`;
    this.lines.push(line);
    if (this.lines.length > 2000) this.lines = this.lines.slice(-1000);
    for (const l of this.listeners) l(line);
  }

  all(): readonly string[] {
    return this.lines;
  }

  clear(): void {
    this.lines = [];
  }

  subscribe(listener: (line: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** What shell commands may touch on the device. */
import type { DeviceLogKind } from '../contracts.js';
import type { DeviceClock } from '../device/clock.js';
import type { Instrumentation } from '../device/instrumentation.js';
import type { SystemState } from '../device/system.js';
import type { DeviceTraits } from '../device/traits.js';
import type { DeviceUi, ForegroundInfo } from '../device/ui.js';
import type { FocusInTransit, LastAnr } from '../device/windowState.js';
import type { CommandHandler } from './interpreter.js';

export type DumpOutcome =
  | { readonly ok: true; readonly xml: string }
  | { readonly ok: false; readonly stdout: string; readonly stderr: string; readonly code: number };

export interface ShellDevice {
  readonly ui: DeviceUi;
  readonly system: SystemState;
  readonly instrumentation: Instrumentation;
  readonly clock: DeviceClock;
  /** The switchable traits: displays, launch delay (the API level lives in system.props). */
  readonly traits: DeviceTraits;
  /** `am start` calls this right before a cold launch changes the screen (the launch-delay trait). */
  beginLaunch(pkg: string): void;
  /** A cold launch whose window has not been drawn yet: its package and the dump of what was on screen before. */
  launchInProgress(): { readonly pkg: string; readonly previousXml: string } | null;
  /** The window focus still catching up with a Back (old window, or none), else null. */
  focusInTransit(): FocusInTransit | null;
  /** io.appium.settings's trampoline while it still holds the focus (settingsHelperFocusMs), else null. */
  settingsHelperInFront(): ForegroundInfo | null;
  /** `am start` of io.appium.settings's trampoline while its service was not running. */
  settingsHelperStarted(): void;
  /** The window manager's state frozen at the last ANR, while it remembers one. */
  lastAnr(): LastAnr | null;
  log(kind: DeviceLogKind, detail: string): void;
  /** The screen of this moment as PNG, drawn off the device's thread (honours the blank-screenshot fault). */
  capturePng(): Promise<Buffer>;
  /** The visible FLAG_SECURE window SurfaceFlinger refuses the capture for (the refusal is logged), or null. */
  secureCaptureRefused(): string | null;
  /** Takes the UiAutomation registration and dumps (honours dump faults and the one-UiAutomation rule). */
  dumpHierarchy(signal: AbortSignal): Promise<DumpOutcome>;
  readonly logcat: LogcatBuffer;
  /** Runs a nested command line (`sh -c`). */
  runNested(
    commandLine: string,
    out: (c: Buffer | string) => void,
    err: (c: Buffer | string) => void,
    signal: AbortSignal,
  ): Promise<number>;
}

export type CommandTable = Map<string, CommandHandler>;

/** logd's buffers (android/log.h log_id_t) that the device writes. */
export type LogBuffer = 'main' | 'system' | 'crash' | 'events';
export const LOG_BUFFERS: readonly LogBuffer[] = ['main', 'system', 'crash', 'events'];

/** One entry as logd keeps it: the text is formatted only when logcat prints it. */
export interface LogEntry {
  readonly buffer: LogBuffer;
  readonly ms: number;
  readonly pid: number;
  readonly tid: number;
  /** V D I W E F. */
  readonly priority: string;
  readonly tag: string;
  /** May hold newlines: logcat repeats the prefix on every line (logprint.cpp). */
  readonly message: string;
}

/** How logcat prints times (`-v year`, `-v UTC`, `-v zone`); the device's zone is UTC (persist.sys.timezone Etc/UTC). */
export interface TimeFormat {
  readonly year: boolean;
  readonly zone: boolean;
}

/**
 * logd's ring buffers. Each buffer keeps its own newest entries (logd prunes per buffer). The
 * threadtime text is liblog's `"%s %5d %5d %c %-8s: "` prefix, repeated on each line of a message.
 */
export class LogcatBuffer {
  private entries: LogEntry[] = [];
  private readonly listeners = new Set<(entry: LogEntry) => void>();

  constructor(private readonly clock: DeviceClock) {}

  /** A line from system_server (pid 541) goes to the system buffer, any other to main, unless told. */
  add(
    tag: string,
    message: string,
    priority = 'I',
    pid = 541,
    buffer: LogBuffer = pid === 541 ? 'system' : 'main',
    tid = pid,
  ): void {
    const entry: LogEntry = { buffer, ms: this.clock.nowMs(), pid, tid, priority, tag, message };
    this.entries.push(entry);
    if (this.entries.length > 6000) {
      // Prune the oldest of the buffer that has the most, as logd prunes the chattiest first.
      const counts = new Map<LogBuffer, number>();
      for (const e of this.entries) counts.set(e.buffer, (counts.get(e.buffer) ?? 0) + 1);
      const chattiest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
      const drop = this.entries.findIndex((e) => e.buffer === chattiest);
      if (drop >= 0) this.entries.splice(drop, 1);
    }
    for (const l of this.listeners) l(entry);
  }

  all(): readonly LogEntry[] {
    return this.entries;
  }

  /** `logcat -c`: clears the given buffers (logcat clears main, system and crash by default). */
  clear(buffers: readonly LogBuffer[] = LOG_BUFFERS): void {
    this.entries = this.entries.filter((e) => !buffers.includes(e.buffer));
  }

  subscribe(listener: (entry: LogEntry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The lines logcat prints for one entry. */
  static format(entry: LogEntry, time: TimeFormat = { year: false, zone: false }): string {
    const d = new Date(entry.ms);
    const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
    const date = `${time.year ? `${d.getUTCFullYear()}-` : ''}${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    const stamp = `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}${time.zone ? ' +0000' : ''}`;
    const prefix = `${stamp} ${String(entry.pid).padStart(5)} ${String(entry.tid).padStart(5)} ${entry.priority} ${entry.tag.padEnd(8)}: `;
    const body = entry.message.endsWith('\n') ? entry.message.slice(0, -1) : entry.message;
    return body
      .split('\n')
      .map((line) => `${prefix}${line}\n`)
      .join('');
  }
}

/** The ordered device log: every shell command, UIA2 request, click, input and screen change, in order. */
import type { DeviceLogEntry, DeviceLogKind } from '../contracts.js';
import type { DeviceClock } from './clock.js';

/** The newest entries kept; past it, the oldest are dropped in one block so a long run stays bounded. */
const MAX_ENTRIES = 50_000;
const DROP_AT_ONCE = 10_000;

export class DeviceLog {
  private readonly list: DeviceLogEntry[] = [];
  private seq = 0;
  private readonly startedAt: number;

  constructor(
    private readonly clock: DeviceClock,
    /** Called for every entry (the CLI prints them). */
    private readonly onEntry?: (entry: DeviceLogEntry) => void,
  ) {
    this.startedAt = clock.nowMs();
  }

  append(kind: DeviceLogKind, detail: string): DeviceLogEntry {
    const entry: DeviceLogEntry = { seq: ++this.seq, atMs: this.clock.nowMs() - this.startedAt, kind, detail };
    this.list.push(entry);
    if (this.list.length > MAX_ENTRIES) this.list.splice(0, DROP_AT_ONCE);
    return entry;
  }

  /** Tells the listener after the device has reacted to the entry. */
  announce(entry: DeviceLogEntry): void {
    this.onEntry?.(entry);
  }

  entries(): readonly DeviceLogEntry[] {
    return this.list;
  }

  clear(): void {
    this.list.length = 0;
  }
}

/** What a lock file holds, how it is read back, and the EMULATOR_BUSY answer it gives to a process that finds it taken. */
import { HarnessError } from '../../domain/errors.js';
import type { DeviceLockActivity } from '../../domain/ports.js';

/** What the lock file holds. */
export interface LockRecord {
  readonly version: 1;
  readonly pid: number;
  readonly hostname: string;
  /** Unique per acquisition: tells this holder's record from a later one with the same pid. */
  readonly nonce: string;
  /** Linux: field 22 of /proc/<pid>/stat (start time in clock ticks), to detect pid reuse; null elsewhere. */
  readonly process_start: string | null;
  /** ISO time the lock was taken by this process. */
  readonly acquired_at: string;
  /** What the process is doing now (ISO `since`). */
  readonly activity: {
    readonly tool: string;
    readonly operation_id: string;
    readonly kind: DeviceLockActivity['kind'];
    readonly since: string;
    /**
     * A session hold: when its lease runs out if nothing uses it again (ISO), written at every change
     * of the record, which every use makes (each runs as an operation hold). Absent in older records.
     */
    readonly until?: string | null;
    /** Only a kept session holds it, which gives the device up when another process asks (`<lock>.ask`). */
    readonly yields?: boolean;
  };
}

export type Reading =
  | { readonly kind: 'absent' }
  | { readonly kind: 'corrupt'; readonly ageMs: number }
  | { readonly kind: 'record'; readonly record: LockRecord };

export function parseRecord(text: string): LockRecord | null {
  try {
    const value = JSON.parse(text) as Partial<LockRecord> | null;
    if (!value || typeof value !== 'object') return null;
    if (typeof value.pid !== 'number' || typeof value.nonce !== 'string' || typeof value.hostname !== 'string')
      return null;
    const activity = value.activity;
    if (!activity || typeof activity.tool !== 'string' || typeof activity.since !== 'string') return null;
    return value as LockRecord;
  } catch {
    return null;
  }
}

/** EMULATOR_BUSY naming the process that holds the device and what it is doing. */
export function busy(record: LockRecord | null, nowMs: number): HarnessError {
  if (!record) {
    return new HarnessError(
      'EMULATOR_BUSY',
      'Another android-mcp-harness process is taking the device right now. There is no queue: retry in a moment.',
    );
  }
  const since = Date.parse(record.activity.since);
  const seconds = Number.isFinite(since) ? Math.max(0, Math.round((nowMs - since) / 1000)) : 0;
  const who = `another android-mcp-harness process (pid ${record.pid} on ${cut(record.hostname, 64)})`;
  const what =
    record.activity.kind === 'session'
      ? `keeps an Appium session open on it (an open UI session, the session kept after an action without one, or a session still closing) since ${seconds} s`
      : `is running ${cut(record.activity.tool, 40)} (operation ${cut(record.activity.operation_id, 64)}) for ${seconds} s`;
  const until = record.activity.until ? Date.parse(record.activity.until) : Number.NaN;
  const lease = Number.isFinite(until)
    ? ` It lasts ${Math.max(0, Math.ceil((until - nowMs) / 1000))} s more unless that client uses it again (emulator_get_status shows \`held_by\`).`
    : '';
  if (record.activity.yields === true) {
    return new HarnessError(
      'EMULATOR_BUSY',
      `The device is busy: ${who} keeps the session left after a single action on it (since ${seconds} s), and has just been asked to give the device up; it does within about a second. Retry in a few seconds (ANDROID_MCP_WARM_SESSION_TIMEOUT sets how long that session is kept; 0 keeps none).`,
    );
  }
  const next =
    record.activity.kind === 'session'
      ? 'There is no queue: retry when that client has closed its UI session (ui_session_close) or let it expire; a session kept after a single action is closed after ANDROID_MCP_WARM_SESSION_TIMEOUT seconds without use (30 by default).'
      : 'There is no queue: retry when that call has answered.';
  return new HarnessError('EMULATOR_BUSY', `The device is busy: ${who} ${what}.${lease} ${next}`);
}

/** Cuts a value read from a file another process wrote, keeping it printable. */
function cut(value: string, max: number): string {
  // eslint-disable-next-line no-control-regex -- the point is to remove control characters
  const printable = value.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '?');
  return printable.length > max ? `${printable.slice(0, max)}…` : printable;
}

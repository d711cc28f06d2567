/**
 * One logcat entry as `logcat -v threadtime -v year -v UTC` prints it (app_logs, app_crashes).
 * liblog's logprint.cpp writes the threadtime prefix as `"%s %5d %5d %c %-8s: "` (time, pid, tid,
 * priority letter, tag padded to 8) and repeats that prefix on every line of a multi-line
 * message; `year` puts the year in front of the date, and `UTC` (taken by liblog as a time zone
 * name) prints the time in UTC followed by ` +0000`. Pure: no I/O.
 */

/** Android's priorities in order (android/log.h): Verbose, Debug, Info, Warn, Error, Fatal. */
export const LOG_LEVELS = ['V', 'D', 'I', 'W', 'E', 'F'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogLine {
  /** ISO 8601 in UTC, to the millisecond (`2026-12-01T22:46:40.123Z`). */
  readonly time: string;
  /** Milliseconds since the epoch, for ordering and `since`. */
  readonly epochMs: number;
  readonly pid: number;
  readonly tid: number;
  readonly level: LogLevel;
  readonly tag: string;
  readonly message: string;
}

// `2026-12-01 22:46:40.123 +0000  4321  4321 I Tag     : message`; the zone is optional so a
// device that printed local time without it is still read (as UTC, the documented assumption).
const THREADTIME =
  /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})\.(\d{3})(?: ([+-])(\d{2})(\d{2}))? +(\d+) +(\d+) ([VDIWEFS]) (.*?) ?: (.*)$/;

/** One printed line, or null for anything else (`--------- beginning of main`, blank lines, other formats). */
export function parseThreadtimeLine(raw: string): LogLine | null {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const m = THREADTIME.exec(line);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms, sign, zh, zm, pid, tid, level, tag, message] = m;
  const offsetMin = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(zh) * 60 + Number(zm));
  const epochMs =
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(ms)) - offsetMin * 60_000;
  if (!Number.isFinite(epochMs) || level === 'S') return null;
  return {
    time: new Date(epochMs).toISOString(),
    epochMs,
    pid: Number(pid),
    tid: Number(tid),
    level: level as LogLevel,
    tag: (tag ?? '').trimEnd(),
    message: message ?? '',
  };
}

/** Every threadtime line of a dump, in the order printed. */
export function parseThreadtime(text: string): LogLine[] {
  const out: LogLine[] = [];
  for (const raw of text.split('\n')) {
    const line = parseThreadtimeLine(raw);
    if (line) out.push(line);
  }
  return out;
}

/** Whether `level` is at least `min` (W passes for min I; D does not). */
export function atLeast(level: LogLevel, min: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(min);
}

/**
 * Crashes and ANRs read from logcat lines, for app_crashes. The formats, from AOSP:
 * - Java crash (crash buffer, tag AndroidRuntime): RuntimeInit.logUncaught writes
 *   `FATAL EXCEPTION: <thread>\nProcess: <name>, PID: <pid>` followed by the throwable's stack
 *   trace through Log.printlns(LOG_ID_CRASH, ERROR, …), so each line is its own entry with the
 *   crashing process's pid.
 * - Native crash (crash buffer, tag DEBUG, written by crash_dump): a `*** *** ***` banner, then
 *   `pid: <pid>, tid: <tid>, name: <thread>  >>> <process> <<<`, a `signal N (SIGxxx), …` line and
 *   `#NN pc …` frames.
 * - ANR (events buffer, tag am_anr; services/core/…/am/EventLogTags.logtags 30008):
 *   `[<user>,<pid>,<process>,<flags>,<reason>]`, the reason itself possibly holding commas.
 * Pure: no I/O.
 */
import type { LogLine } from './logLine.js';

/** Lines of a stack kept per crash: enough to see where it threw, small enough for ten crashes. */
export const STACK_LINES_MAX = 12;
/** Characters kept of one line (an exception message can be a whole JSON body). */
export const CRASH_LINE_CHARS_MAX = 300;

export interface CrashReport {
  readonly kind: 'crash' | 'native_crash' | 'anr';
  readonly time: string;
  readonly epochMs: number;
  readonly process: string;
  readonly pid: number;
  /** The exception line (`java.lang.IllegalStateException: …`) or the signal line; null for an ANR. */
  readonly exception: string | null;
  /** Why the system declared the ANR; null for a crash. */
  readonly reason: string | null;
  /** The first lines of the stack (`at …` frames, `Caused by: …`), at most STACK_LINES_MAX. */
  readonly stack: readonly string[];
  /** True when the stack had more lines than are kept. */
  readonly stackTruncated: boolean;
}

function cut(text: string): string {
  return text.length > CRASH_LINE_CHARS_MAX ? `${text.slice(0, CRASH_LINE_CHARS_MAX)}…` : text;
}

const FATAL = /^FATAL EXCEPTION: /;
const PROCESS_PID = /^Process: (.+), PID: (\d+)$/;
const NATIVE_BANNER = /^\*\*\* \*\*\* \*\*\*/;
const NATIVE_PID = /^pid: (\d+), tid: \d+, name: .*? {2}>>> (.+) <<<$/;
const NATIVE_SIGNAL = /^signal \d+ \(SIG[A-Z0-9]+\)/;
const NATIVE_FRAME = /^\s*#\d+ pc /;

interface Block {
  readonly first: LogLine;
  readonly lines: string[];
}

/** Groups consecutive lines of one writer (same pid and tag) that start at a line `starts` accepts. */
function blocks(lines: readonly LogLine[], tag: string, starts: RegExp): Block[] {
  const out: Block[] = [];
  let current: Block | null = null;
  for (const line of lines) {
    if (line.tag !== tag) {
      current = null;
      continue;
    }
    if (starts.test(line.message)) {
      current = { first: line, lines: [] };
      out.push(current);
    } else if (current && current.first.pid === line.pid) {
      current.lines.push(line.message);
    } else current = null;
  }
  return out;
}

function stackOf(lines: readonly string[]): { stack: string[]; stackTruncated: boolean } {
  return { stack: lines.slice(0, STACK_LINES_MAX).map(cut), stackTruncated: lines.length > STACK_LINES_MAX };
}

/** Java and native crashes in the crash buffer's lines, oldest first. */
export function parseCrashBuffer(lines: readonly LogLine[]): CrashReport[] {
  const reports: CrashReport[] = [];
  for (const block of blocks(lines, 'AndroidRuntime', FATAL)) {
    const header = PROCESS_PID.exec(block.lines[0] ?? '');
    const rest = header ? block.lines.slice(1) : block.lines;
    const [exception, ...frames] = rest;
    reports.push({
      kind: 'crash',
      time: block.first.time,
      epochMs: block.first.epochMs,
      process: header?.[1] ?? '',
      pid: header ? Number(header[2]) : block.first.pid,
      exception: exception === undefined ? null : cut(exception),
      reason: null,
      ...stackOf(frames),
    });
  }
  for (const block of blocks(lines, 'DEBUG', NATIVE_BANNER)) {
    let pid = -1;
    let process = '';
    let signal: string | null = null;
    const frames: string[] = [];
    for (const text of block.lines) {
      const who = NATIVE_PID.exec(text);
      if (who && pid < 0) {
        pid = Number(who[1]);
        process = who[2] ?? '';
      } else if (signal === null && NATIVE_SIGNAL.test(text)) signal = cut(text);
      else if (NATIVE_FRAME.test(text)) frames.push(text.trim());
    }
    if (pid < 0) continue;
    reports.push({
      kind: 'native_crash',
      time: block.first.time,
      epochMs: block.first.epochMs,
      process,
      pid,
      exception: signal,
      reason: null,
      ...stackOf(frames),
    });
  }
  return reports.sort((a, b) => a.epochMs - b.epochMs);
}

const AM_ANR = /^\[(\d+),(\d+),([^,\]]+),(-?\d+),(.*)\]$/s;

/** `am_anr` events, oldest first; a line that is not one is skipped. */
export function parseAnrEvents(lines: readonly LogLine[]): CrashReport[] {
  const reports: CrashReport[] = [];
  for (const line of lines) {
    if (line.tag !== 'am_anr') continue;
    const m = AM_ANR.exec(line.message.trim());
    if (!m) continue;
    reports.push({
      kind: 'anr',
      time: line.time,
      epochMs: line.epochMs,
      process: m[3] ?? '',
      pid: Number(m[2]),
      exception: null,
      reason: cut(m[5] ?? ''),
      stack: [],
      stackTruncated: false,
    });
  }
  return reports;
}

/** Whether a report belongs to `pkg`: its main process or one of its `pkg:name` processes. */
export function belongsTo(report: { readonly process: string }, pkg: string): boolean {
  return report.process === pkg || report.process.startsWith(`${pkg}:`);
}

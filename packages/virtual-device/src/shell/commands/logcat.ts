/** `logcat`: logd's buffers read as logcat.cpp reads them, printed as liblog formats them. */
import type { CommandIo } from '../interpreter.js';
import {
  LOG_BUFFERS,
  LogcatBuffer,
  type LogBuffer,
  type LogEntry,
  type ShellDevice,
  type TimeFormat,
} from '../context.js';

interface LogcatOptions {
  readonly buffers: readonly LogBuffer[];
  readonly dump: boolean;
  readonly clear: boolean;
  readonly tail: number | null;
  readonly pid: number | null;
  readonly time: TimeFormat;
  /** Filterspecs in order: tag (or *) and the lowest priority shown; the default rule is last. */
  readonly rules: readonly { readonly tag: string; readonly min: number }[];
}

const PRIORITIES = 'VDIWEFS';

/**
 * logcat's options as logcat.cpp parses them (getopt_long), the subset this device models:
 * -b (repeatable, comma lists, all, default), -c, -d, -s, -t/-T N (a count; -t implies -d),
 * -v (threadtime and the year/UTC/zone adverbs; UTC is taken as a time zone name, which turns
 * the zone on), --pid (only one), filterspecs. Errors as logcat prints them, exit 1.
 */
function parseLogcatArgs(args: readonly string[]): LogcatOptions | string {
  const buffers: LogBuffer[] = [];
  let dump = false;
  let clear = false;
  let tail: number | null = null;
  let pid: number | null = null;
  let year = false;
  let zone = false;
  let silent = false;
  const specs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const value = (inline: string | undefined): string | null => inline ?? args[++i] ?? null;
    const long = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    const short = /^-([a-zA-Z])(.*)$/.exec(arg);
    const name = long ? `--${long[1]}` : short ? `-${short[1]}` : null;
    const inline = long ? long[2] : short && short[2] !== '' ? short[2] : undefined;
    if (name === '-d') dump = true;
    else if (name === '-c' || name === '--clear') clear = true;
    else if (name === '-s') silent = true;
    else if (name === '-b' || name === '--buffer') {
      const v = value(inline);
      if (v === null) return 'logcat: option requires an argument -- b';
      for (const b of v.split(',')) {
        if (b === 'all') buffers.push(...LOG_BUFFERS);
        else if (b === 'default') buffers.push('main', 'system', 'crash');
        else if ((LOG_BUFFERS as readonly string[]).includes(b)) buffers.push(b as LogBuffer);
        else if (b === 'radio' || b === 'kernel' || b === 'stats' || b === 'security') continue;
        else return `logcat: Unknown buffer '${b}' listed for -b.`;
      }
    } else if (name === '-t' || name === '-T') {
      const v = value(inline);
      if (v === null) return `logcat: option requires an argument -- ${name.slice(1)}`;
      if (!/^\d+$/.test(v)) return `logcat: -${name.slice(1)} '${v}' not in time format.`;
      tail = Math.max(1, Number(v));
      if (name === '-t') dump = true;
    } else if (name === '-v' || name === '--format') {
      const v = value(inline);
      if (v === null) return 'logcat: option requires an argument -- v';
      for (const f of v.split(',')) {
        if (f === 'year') year = true;
        else if (f === 'UTC' || f === 'zone') zone = !zone;
        else if (f !== 'threadtime') return `logcat: Invalid parameter "${f}" to -v.`;
      }
    } else if (name === '--pid') {
      const v = value(inline);
      if (pid !== null) return 'logcat: Only one --pid argument can be provided.';
      if (v === null || !/^\d+$/.test(v) || Number(v) < 1) return `logcat: pid '${v ?? ''}' out of range.`;
      pid = Number(v);
    } else if (name !== null) return `logcat: invalid option -- '${arg.replace(/^-+/, '')}'`;
    else specs.push(arg);
  }
  const rules: { tag: string; min: number }[] = [];
  for (const spec of specs) {
    const [tag = '', prio] = spec.split(':');
    const min = prio === undefined ? (tag === '*' ? 1 : 0) : PRIORITIES.indexOf(prio.toUpperCase());
    if (tag === '' || min < 0) return `logcat: Invalid filter expression '${spec}'`;
    rules.push({ tag, min });
  }
  if (silent) rules.push({ tag: '*', min: PRIORITIES.indexOf('S') });
  return {
    buffers: buffers.length > 0 ? [...new Set(buffers)] : ['main', 'system', 'crash'],
    dump,
    clear,
    tail,
    pid,
    time: { year, zone },
    rules,
  };
}

/** android_log_shouldPrintLine: the first rule naming the tag, else the `*` rule, else everything. */
function shown(entry: LogEntry, rules: LogcatOptions['rules']): boolean {
  const rule = rules.find((r) => r.tag === entry.tag) ?? rules.find((r) => r.tag === '*');
  return rule === undefined || PRIORITIES.indexOf(entry.priority) >= rule.min;
}

export async function logcat(io: CommandIo, device: ShellDevice): Promise<number> {
  const options = parseLogcatArgs(io.argv.slice(1));
  if (typeof options === 'string') {
    io.err(`${options}\n`);
    return 1;
  }
  if (options.clear) {
    device.logcat.clear(options.buffers);
    return 0;
  }
  const started = new Set<LogBuffer>();
  const print = (entry: LogEntry): void => {
    if (!shown(entry, options.rules)) return;
    if (!started.has(entry.buffer)) {
      started.add(entry.buffer);
      io.out(`--------- beginning of ${entry.buffer}\n`);
    }
    io.out(LogcatBuffer.format(entry, options.time));
  };
  const selected = (entry: LogEntry): boolean =>
    options.buffers.includes(entry.buffer) && (options.pid === null || entry.pid === options.pid);
  // logd applies the pid and the tail; the filterspecs are logcat's own, after the tail.
  const existing = device.logcat.all().filter(selected);
  for (const entry of options.tail === null ? existing : existing.slice(-options.tail)) print(entry);
  if (options.dump) return 0;
  // Long-lived until the client goes away, as the real logcat.
  const unsubscribe = device.logcat.subscribe((entry) => {
    if (selected(entry)) print(entry);
  });
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  unsubscribe();
  return 130;
}

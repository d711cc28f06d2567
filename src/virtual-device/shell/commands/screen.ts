/** `input`, `uiautomator`, `screencap`, `logcat`, `ps`, `pidof`, `kill`. */
import { PNG } from 'pngjs';
import type { CommandIo } from '../interpreter.js';
import type { ProcessRow } from '../../device/system.js';
import { LOG_BUFFERS, LogcatBuffer, type CommandTable, type LogBuffer, type LogEntry, type ShellDevice, type TimeFormat } from '../context.js';

const KEYCODES: Readonly<Record<string, number>> = {
  KEYCODE_HOME: 3,
  KEYCODE_BACK: 4,
  KEYCODE_DPAD_UP: 19,
  KEYCODE_DPAD_DOWN: 20,
  KEYCODE_POWER: 26,
  KEYCODE_TAB: 61,
  KEYCODE_SPACE: 62,
  KEYCODE_ENTER: 66,
  KEYCODE_DEL: 67,
  KEYCODE_MENU: 82,
  KEYCODE_SEARCH: 84,
  KEYCODE_ESCAPE: 111,
  KEYCODE_WAKEUP: 224,
  KEYCODE_APP_SWITCH: 187,
  KEYCODE_NUMPAD_ENTER: 160,
};

const INPUT_SOURCES = new Set(['keyboard', 'mouse', 'joystick', 'touchnavigation', 'touchpad', 'trackball', 'dpad', 'stylus', 'gamepad', 'touchscreen', 'rotaryencoder']);

function input(io: CommandIo, device: ShellDevice): number {
  let args = io.argv.slice(1);
  if (args[0] === '-d') args = args.slice(2);
  if (args[0] !== undefined && INPUT_SOURCES.has(args[0])) args = args.slice(1);
  const [sub, ...rest] = args;
  const nums = rest.map((a) => Number(a));
  switch (sub) {
    case 'tap': {
      const [x, y] = nums;
      if (x === undefined || y === undefined || Number.isNaN(x) || Number.isNaN(y)) break;
      device.ui.tapAt(Math.round(x), Math.round(y), 'input-tap');
      return 0;
    }
    case 'swipe':
    case 'draganddrop': {
      const [x1, y1, x2, y2, ms] = nums;
      if ([x1, y1, x2, y2].some((n) => n === undefined || Number.isNaN(n))) break;
      // Input.java: 300 ms unless a duration is given (a negative one means the default too).
      const duration = ms === undefined || Number.isNaN(ms) || ms < 0 ? 300 : ms;
      device.ui.swipe(x1 ?? 0, y1 ?? 0, x2 ?? 0, y2 ?? 0, `input ${sub}`, duration);
      return 0;
    }
    case 'keyevent':
    case 'press': {
      const codes = sub === 'press' ? [23] : rest.filter((a) => a !== '--longpress' && a !== '--doubletap').map((a) => KEYCODES[a] ?? KEYCODES[`KEYCODE_${a}`] ?? Number(a));
      for (const code of codes) if (!Number.isNaN(code)) device.ui.pressKey(code, 'input keyevent');
      return 0;
    }
    case 'text': {
      // `input text` turns %s into spaces; other characters go through as typed.
      const text = rest.join(' ').replace(/%s/g, ' ');
      device.ui.typeText(text, 'input text');
      return 0;
    }
    default:
      break;
  }
  io.err('Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n\nThe commands and default sources are:\n      text <string> (Default: keyboard)\n      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)\n      tap <x> <y> (Default: touchscreen)\n      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n');
  return 1;
}

async function uiautomator(io: CommandIo, device: ShellDevice): Promise<number> {
  const [sub, ...rest] = io.argv.slice(1);
  if (sub !== 'dump') {
    io.out('Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\nhelp: displays help message\n\nruntest: executes UI automation tests\n\ndump: creates an XML dump of current UI hierarchy\n\nevents: prints out accessibility events until terminated\n');
    return sub === undefined || sub === 'help' ? 0 : 1;
  }
  const file = rest.filter((a) => !a.startsWith('-')).pop() ?? '/sdcard/window_dump.xml';
  const outcome = await device.dumpHierarchy(io.signal);
  if (!outcome.ok) {
    if (outcome.stdout) io.out(outcome.stdout);
    if (outcome.stderr) io.err(outcome.stderr);
    return outcome.code;
  }
  if (file === '/dev/tty') {
    io.out(outcome.xml);
    io.out('UI hierchary dumped to: /dev/tty\n');
    return 0;
  }
  const problem = device.system.writeFile(file, Buffer.from(outcome.xml, 'utf8'));
  if (problem) {
    io.err(`ERROR: could not write to ${file}: ${problem}\n`);
    return 1;
  }
  io.out(`UI hierchary dumped to: ${file}\n`);
  return 0;
}

/** What screencap prints (on stderr) when several displays exist and no `-d` was given (AOSP screencap.cpp). */
export const MULTIPLE_DISPLAYS_WARNING =
  '[Warning] Multiple displays were found, but no display id was specified! ' +
  'Defaulting to the first display found, however this default is not guaranteed ' +
  'to be consistent across captures. A display id should be specified.\n' +
  'A display ID can be specified with the [-d display-id] option.\n' +
  'See "dumpsys SurfaceFlinger --display-id" for valid display IDs.\n';

const offPanels = new Map<string, Buffer>();

/** A panel that is off captures as all black, as SurfaceFlinger returns it. */
function blackPng(width: number, height: number): Buffer {
  const key = `${width}x${height}`;
  let png = offPanels.get(key);
  if (!png) {
    const image = new PNG({ width, height });
    for (let i = 3; i < image.data.length; i += 4) image.data[i] = 255;
    png = PNG.sync.write(image);
    offPanels.set(key, png);
  }
  return png;
}

function screencap(io: CommandIo, device: ShellDevice): number {
  const args = io.argv.slice(1);
  let png = args.includes('-p');
  const file = args.filter((a, i) => !a.startsWith('-') && args[i - 1] !== '-d').pop();
  if (file?.endsWith('.png')) png = true;
  const displays = device.traits.displays;
  const d = args.indexOf('-d');
  let display = displays[0];
  if (d >= 0) {
    const id = args[d + 1] ?? '';
    if (!/^\d+$/.test(id)) {
      io.err('Invalid display ID: Incorrect encoding.\n');
      return 1;
    }
    display = displays.find((x) => x.physicalId === id);
    if (!display) {
      io.err('Capturing failed.\n');
      return 1;
    }
  } else if (displays.length > 1) {
    io.err(MULTIPLE_DISPLAYS_WARNING);
  }
  const pngBytes = display === undefined || display === device.traits.activeDisplay() ? device.screenshotPng() : blackPng(display.width, display.height);
  let bytes: Buffer;
  if (png) bytes = pngBytes;
  else {
    // Raw: width, height, pixel format (1 = RGBA_8888), colour space, then pixels.
    const decoded = PNG.sync.read(pngBytes);
    const header = Buffer.alloc(16);
    header.writeUInt32LE(decoded.width, 0);
    header.writeUInt32LE(decoded.height, 4);
    header.writeUInt32LE(1, 8);
    header.writeUInt32LE(1, 12);
    bytes = Buffer.concat([header, decoded.data]);
  }
  if (file !== undefined) {
    const problem = device.system.writeFile(file, bytes);
    if (problem) {
      io.err(`Error opening file: ${file} (${problem})\n`);
      return 1;
    }
    return 0;
  }
  io.out(bytes);
  return 0;
}

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
  return { buffers: buffers.length > 0 ? [...new Set(buffers)] : ['main', 'system', 'crash'], dump, clear, tail, pid, time: { year, zone }, rules };
}

/** android_log_shouldPrintLine: the first rule naming the tag, else the `*` rule, else everything. */
function shown(entry: LogEntry, rules: LogcatOptions['rules']): boolean {
  const rule = rules.find((r) => r.tag === entry.tag) ?? rules.find((r) => r.tag === '*');
  return rule === undefined || PRIORITIES.indexOf(entry.priority) >= rule.min;
}

async function logcat(io: CommandIo, device: ShellDevice): Promise<number> {
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
  const selected = (entry: LogEntry): boolean => options.buffers.includes(entry.buffer) && (options.pid === null || entry.pid === options.pid);
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

const PS_HELP = `usage: ps [-AadefLlnwZ] [-gG GROUP,] [-k FIELD,] [-o FIELD,] [-p PID,] [-t TTY,] [-uU USER,]

List processes.

Which processes to show (-gGuUpPt selections may be comma separated lists):

-A\tAll\t\t\t\t\t-a\tHas terminal not session leader
-d\tAll but session leaders\t\t-e\tSynonym for -A
-g\tIn GROUPs\t\t\t\t-G\tIn real GROUPs (before sgid)
-p\tPIDs (--pid)\t\t\t\t-P\tParent PIDs (--ppid)
-s\tIn session IDs\t\t\t\t-t\tAttached to selected TTYs
-T\tShow threads also\t\t\t-u\tOwned by selected USERs
-U\tReal USERs (before suid)
`;

function ps(io: CommandIo, device: ShellDevice): number {
  const args = io.argv.slice(1);
  if (args.includes('--help')) {
    io.out(PS_HELP);
    return 0;
  }
  const all = args.some((a) => a === '-A' || a === '-e' || /^-[a-zA-Z]*A/.test(a));
  let rows = device.system.processes(device.ui.packagesInStack());
  const p = args.indexOf('-p');
  if (p >= 0) {
    const pids = (args[p + 1] ?? '').split(',').map(Number);
    rows = rows.filter((r) => pids.includes(r.pid));
  } else if (!all) {
    rows = [
      { user: 'shell', pid: 7001, ppid: 1490, name: 'sh' },
      { user: 'shell', pid: 7002, ppid: 7001, name: 'ps' },
    ];
  }
  const o = args.indexOf('-o');
  const fields = o >= 0 ? (args[o + 1] ?? '').split(',') : null;
  const names = args.filter((a, i) => !a.startsWith('-') && !/^\d[\d,]*$/.test(a) && (o < 0 || i !== o + 1));
  if (names.length > 0) rows = rows.filter((r) => names.includes(r.name));
  if (fields !== null) return psFields(io, rows, fields);
  io.out('USER            PID   PPID        VSZ    RSS WCHAN            ADDR S NAME                       \n');
  for (const r of rows) {
    io.out(`${r.user.padEnd(12)} ${String(r.pid).padStart(6)} ${String(r.ppid).padStart(6)} ${String(12_000_000 + r.pid * 7).padStart(10)} ${String(80_000 + r.pid).padStart(6)} do_epoll_wait       0 S ${r.name}\n`);
  }
  return 0;
}

/** toybox ps -o: numbers right-aligned in their width (PID 5), strings left-aligned, the last column not padded. */
function psFields(io: CommandIo, rows: readonly ProcessRow[], fields: readonly string[]): number {
  const known: Record<string, { width: number; value: (r: ProcessRow) => string }> = {
    PID: { width: 5, value: (r) => String(r.pid) },
    PPID: { width: 5, value: (r) => String(r.ppid) },
    USER: { width: -8, value: (r) => r.user },
    NAME: { width: -15, value: (r) => r.name },
    ARGS: { width: -27, value: (r) => r.name },
  };
  const columns = fields.map((f) => ({ f, spec: known[f.toUpperCase()] }));
  const bad = columns.find((c) => c.spec === undefined);
  if (bad) {
    io.err(`ps: bad -o ${bad.f}\n`);
    return 1;
  }
  const line = (cells: readonly string[]): string =>
    `${cells.map((cell, i) => {
      const width = columns[i]?.spec?.width ?? 0;
      if (i === cells.length - 1 && width < 0) return cell;
      return width > 0 ? cell.padStart(width) : cell.padEnd(-width);
    }).join(' ')}\n`;
  io.out(line(columns.map((c) => c.f.toUpperCase())));
  for (const r of rows) io.out(line(columns.map((c) => c.spec?.value(r) ?? '')));
  return 0;
}

export function registerScreenCommands(table: CommandTable, device: ShellDevice): void {
  table.set('input', (io) => input(io, device));
  table.set('uiautomator', (io) => uiautomator(io, device));
  table.set('screencap', (io) => screencap(io, device));
  table.set('logcat', (io) => logcat(io, device));
  table.set('ps', (io) => ps(io, device));
  table.set('pidof', (io) => {
    const names = io.argv.slice(1).filter((a) => !a.startsWith('-'));
    const pids = device.system.processes(device.ui.packagesInStack()).filter((r) => names.includes(r.name)).map((r) => r.pid);
    if (pids.length === 0) return 1;
    io.out(`${pids.join(' ')}\n`);
    return 0;
  });
  table.set('kill', (io) => {
    const pids = io.argv.slice(1).filter((a) => /^\d+$/.test(a)).map(Number);
    let status = 0;
    for (const pid of pids) {
      const row = device.system.processes(device.ui.packagesInStack()).find((r) => r.pid === pid);
      if (row?.name === 'io.appium.uiautomator2.server') device.instrumentation.end('force-stop');
      else if (!row || !device.system.killProcess(pid)) {
        io.err(`/system/bin/sh: kill: ${pid}: ${row ? 'Operation not permitted' : 'No such process'}\n`);
        status = 1;
      }
    }
    return status;
  });
}

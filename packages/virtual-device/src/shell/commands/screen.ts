/** `input`, `uiautomator`, `screencap`, `logcat`, `ps`, `pidof`, `kill`. */
import { rawFrameOf } from '../../device/rawFrames.js';
import { PNG } from 'pngjs';
import type { CommandIo } from '../interpreter.js';
import type { ProcessRow } from '../../device/system.js';
import type { CommandTable, ShellDevice } from '../context.js';
import { sdkOf } from './dumpsysWindow.js';
import { logcat } from './logcat.js';

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

const INPUT_SOURCES = new Set([
  'keyboard',
  'mouse',
  'joystick',
  'touchnavigation',
  'touchpad',
  'trackball',
  'dpad',
  'stylus',
  'gamepad',
  'touchscreen',
  'rotaryencoder',
]);

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
      const codes =
        sub === 'press'
          ? [23]
          : rest
              .filter((a) => a !== '--longpress' && a !== '--doubletap')
              .map((a) => KEYCODES[a] ?? KEYCODES[`KEYCODE_${a}`] ?? Number(a));
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
  io.err(
    'Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]\n\nThe commands and default sources are:\n      text <string> (Default: keyboard)\n      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)\n      tap <x> <y> (Default: touchscreen)\n      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)\n',
  );
  return 1;
}

async function uiautomator(io: CommandIo, device: ShellDevice): Promise<number> {
  const [sub, ...rest] = io.argv.slice(1);
  if (sub !== 'dump') {
    io.out(
      'Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\nhelp: displays help message\n\nruntest: executes UI automation tests\n\ndump: creates an XML dump of current UI hierarchy\n\nevents: prints out accessibility events until terminated\n',
    );
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

/**
 * The screen is read when the command runs and drawn off the device's thread (as `screencap` is its
 * own process on Android and SurfaceFlinger composes the buffer): `dumpsys`, the UiAutomator2 server
 * and other shells are served meanwhile.
 */
async function screencap(io: CommandIo, device: ShellDevice): Promise<number> {
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
  // A visible FLAG_SECURE window: SurfaceFlinger answers PERMISSION_DENIED (-1) and screencap.cpp
  // writes nothing and exits 1; since the capture became asynchronous (ScreenCaptureResults,
  // Android 12) it says so on stderr first (docs/internals/device-quirks.md, "Secure windows").
  if ((display === undefined || display === device.traits.activeDisplay()) && device.secureCaptureRefused() !== null) {
    if (sdkOf(device) >= 31) io.err('Failed to take screenshot. Status: -1\n');
    return 1;
  }
  const pngBytes =
    display === undefined || display === device.traits.activeDisplay()
      ? await device.capturePng()
      : blackPng(display.width, display.height);
  const bytes = png ? pngBytes : rawFrameOf(pngBytes);
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
    io.out(
      `${r.user.padEnd(12)} ${String(r.pid).padStart(6)} ${String(r.ppid).padStart(6)} ${String(12_000_000 + r.pid * 7).padStart(10)} ${String(80_000 + r.pid).padStart(6)} do_epoll_wait       0 S ${r.name}\n`,
    );
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
    `${cells
      .map((cell, i) => {
        const width = columns[i]?.spec?.width ?? 0;
        if (i === cells.length - 1 && width < 0) return cell;
        return width > 0 ? cell.padStart(width) : cell.padEnd(-width);
      })
      .join(' ')}\n`;
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
    const pids = device.system
      .processes(device.ui.packagesInStack())
      .filter((r) => names.includes(r.name))
      .map((r) => r.pid);
    if (pids.length === 0) return 1;
    io.out(`${pids.join(' ')}\n`);
    return 0;
  });
  table.set('kill', (io) => {
    const pids = io.argv
      .slice(1)
      .filter((a) => /^\d+$/.test(a))
      .map(Number);
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

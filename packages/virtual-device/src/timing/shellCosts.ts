/**
 * What adb shell commands cost on a real device, and which figure a command line draws from.
 * The harness and its peers reach the device through these; each figure cites its source
 * (sources.ts). Commands not listed here (echo, cat, ls…: toybox builtins that start no JVM and
 * call no system service) cost nothing beyond the adb round trip the real adb server already takes.
 */
import type { Figure } from './figure.js';
import { APPIUM_LOGS, THREADS } from './sources.js';

export const SHELL_COSTS = {
  getprop: { medianMs: 30, p90Ms: 230, source: `${APPIUM_LOGS}: getprop, n=78` },
  dumpsysWindow: { medianMs: 39, p90Ms: 382, source: `${APPIUM_LOGS}: dumpsys window, n=26` },
  dumpsysPower: { medianMs: 29, p90Ms: 206, source: `${APPIUM_LOGS}: dumpsys power, n=5 (API 31-36)` },
  dumpsysPackage: { medianMs: 211, p90Ms: 566, source: `${APPIUM_LOGS}: dumpsys package, n=78` },
  dumpsysOther: { medianMs: 32, p90Ms: 437, source: `${APPIUM_LOGS}: other dumpsys services, n=50` },
  pmQuery: { medianMs: 68, p90Ms: 209, source: `${APPIUM_LOGS}: pm list / pm path, n=34` },
  pmClear: { medianMs: 218, p90Ms: 439, source: `${APPIUM_LOGS}: pm clear, n=13` },
  pmOther: { medianMs: 139, p90Ms: 833, source: `${APPIUM_LOGS}: other pm commands, n=4` },
  amStartCold: {
    medianMs: 995,
    p90Ms: 2495,
    source: `${APPIUM_LOGS}: am start -W after am force-stop (a cold start), n=21`,
  },
  amStartWarm: {
    medianMs: 238,
    p90Ms: 995,
    source: `${APPIUM_LOGS}: am start of a running app, n=2 (API 36): weak; its p90 is the cold start's median`,
  },
  amForceStop: { medianMs: 92, p90Ms: 361, source: `${APPIUM_LOGS}: am force-stop, n=57` },
  settings: { medianMs: 192, p90Ms: 822, source: `${APPIUM_LOGS}: settings get/put, n=36` },
  /** No recording found: `wm` is a binder call through `cmd window` like getprop's property read; getprop's figure. */
  wm: { medianMs: 30, p90Ms: 230, source: 'no recording found; getprop figure (one binder call, no JVM)' },
  input: {
    medianMs: 350,
    p90Ms: 800,
    source: `${THREADS.madbInput} (input tap 300-400 ms); tail ${THREADS.scrcpyScreencap} (app_process start ~800 ms)`,
  },
  screencap: {
    medianMs: 250,
    p90Ms: 500,
    referenceMegapixels: 2.07,
    source: `${THREADS.scrcpyScreencap} (~250 ms to capture raw, 1080x1920 assumed; p90 assumed twice the median, no tail recorded)`,
  },
  /** With PNG encoding on the device (`screencap -p`), which dominates: in proportion to pixels. */
  screencapPng: {
    medianMs: 2000,
    p90Ms: 4000,
    referenceMegapixels: 2.07,
    source: `${THREADS.scrcpyScreencap} (~2 s with PNG, 1080x1920 assumed); tail ${THREADS.awesomeAdbSpeed} (4 s)`,
  },
  uiautomatorDump: {
    medianMs: 2000,
    p90Ms: 3800,
    perNodeMs: 2.3,
    source: `${THREADS.mobilecliAgent} (stock dump ~2.1-2.2 s at 18-89 nodes; 2.3 ms per node from its 57 vs 137 node rows); tail ${THREADS.culebraDelay} (1-4 s)`,
  },
} as const satisfies Record<string, Figure>;

export type ShellCost = keyof typeof SHELL_COSTS;

/** What a dispatched command will do: a figure, and the package an `am start` opens. */
export interface ShellCharge {
  readonly cost: ShellCost;
  /** For `am start`: the component's package, to tell a warm start from a cold one. */
  readonly startsPackage?: string;
}

/**
 * The figure for one simple command (argv as the shell dispatches it). `uiautomator dump` is
 * charged by the dump itself (it holds UiAutomation for its duration), so it is not listed here.
 */
export function shellCharge(argv: readonly string[]): ShellCharge | null {
  const [typed, sub] = argv;
  const name = typed?.slice(typed.lastIndexOf('/') + 1);
  switch (name) {
    case 'getprop':
      return { cost: 'getprop' };
    case 'wm':
      return { cost: 'wm' };
    case 'settings':
      return { cost: 'settings' };
    case 'input':
      return { cost: 'input' };
    case 'screencap':
      return { cost: argv.includes('-p') || argv.some((a) => a.endsWith('.png')) ? 'screencapPng' : 'screencap' };
    case 'dumpsys':
      if (sub === 'window') return { cost: 'dumpsysWindow' };
      if (sub === 'power') return { cost: 'dumpsysPower' };
      if (sub === 'package') return { cost: 'dumpsysPackage' };
      return { cost: 'dumpsysOther' };
    case 'pm':
      if (sub === 'list' || sub === 'path') return { cost: 'pmQuery' };
      if (sub === 'clear') return { cost: 'pmClear' };
      return { cost: 'pmOther' };
    case 'am':
      if (sub === 'force-stop') return { cost: 'amForceStop' };
      if (sub === 'start' || sub === 'start-activity') {
        const component = argv[argv.indexOf('-n') + 1];
        const pkg = argv.includes('-n') && component ? component.split('/')[0] : undefined;
        return argv.includes('-S')
          ? { cost: 'amStartCold' }
          : { cost: 'amStartWarm', ...(pkg ? { startsPackage: pkg } : {}) };
      }
      return null;
    default:
      return null;
  }
}

import { HarnessError } from '../../domain/errors.js';
import type { PackageName } from '../../domain/validation.js';
import { shellWordOfLink, type LinkUri } from '../../domain/links/linkUri.js';
import { isValidComponent, isValidDisplayId, isValidPackageName, isValidPid } from './parsers.js';

export type Argv = readonly string[];

/** The most lines one `appLog` read may ask for (app_logs reads up to this many when it filters by level). */
export const APP_LOG_READ_MAX = 2_000;

function frozen(...argv: string[]): Argv {
  return Object.freeze(argv);
}

/** A physical display id as the device printed it, checked again before any argv holds it. */
function checkedDisplayId(displayId: string): string {
  if (!isValidDisplayId(displayId))
    throw new HarnessError(
      'EVIDENCE_WRITE_FAILED',
      'The display id the device reported is not a plain number; it is not used.',
    );
  return displayId;
}

/**
 * THE closed list (docs/reference/contract.md): every argument vector this adapter can give adb, in one place.
 * Only two entries take a value, and both validate it before building the vector: a package
 * name (the contract's package pattern) and a `pkg/activity` component read back from the device.
 * `bootCompleted` is a documented, read-only addition (a booting device is not ready).
 * `displays` and `screencapDisplay` are documented, read-only additions (several
 * displays): only run when `screencap` warned that it picked a display by itself; the id
 * is the digits-only physical id the device printed, checked again before the argv exists.
 * `uia2ServerPid` is a documented, read-only addition: run only after a dump printed
 * nothing, to tell a dump killed beside a running UiAutomator2 server from an app still starting.
 */
export const ADB_COMMANDS = Object.freeze({
  getState: frozen('get-state'),
  bootCompleted: frozen('shell', 'getprop', 'sys.boot_completed'),
  androidVersion: frozen('shell', 'getprop', 'ro.build.version.release'),
  /** Read-only: the API level, which the doctor reports beside the release (`Android 14 (API 34)`). */
  sdkVersion: frozen('shell', 'getprop', 'ro.build.version.sdk'),
  model: frozen('shell', 'getprop', 'ro.product.model'),
  listPackages: frozen('shell', 'pm', 'list', 'packages'),
  density: frozen('shell', 'wm', 'density'),
  dumpsysWindow: frozen('shell', 'dumpsys', 'window'),
  /** Read-only: whether the screen is on (`mWakefulness`) before acting and for emulator_get_status. */
  dumpsysPower: frozen('shell', 'dumpsys', 'power'),
  dumpUi: frozen('exec-out', 'uiautomator', 'dump', '/dev/tty'),
  uia2ServerPid: frozen('shell', 'pidof', 'io.appium.uiautomator2.server'),
  /** The unencoded frame (png/rawScreencap.ts): the device skips its own PNG encoding, the slow part of a capture. */
  screencapRaw: frozen('exec-out', 'screencap'),
  /** The device's own PNG, for a frame the raw reader does not know. */
  screencap: frozen('exec-out', 'screencap', '-p'),
  displays: frozen('shell', 'dumpsys', 'display'),
  screencapDisplay: (displayId: string): Argv => frozen('exec-out', 'screencap', '-d', checkedDisplayId(displayId)),
  screencapPngDisplay: (displayId: string): Argv =>
    frozen('exec-out', 'screencap', '-p', '-d', checkedDisplayId(displayId)),
  resolveLauncherActivity: (pkg: PackageName): Argv => {
    if (!isValidPackageName(pkg)) throw new HarnessError('INVALID_PACKAGE', 'The package name is not valid.');
    return frozen(
      'shell',
      'cmd',
      'package',
      'resolve-activity',
      '--brief',
      '-a',
      'android.intent.action.MAIN',
      '-c',
      'android.intent.category.LAUNCHER',
      pkg,
    );
  },
  startActivity: (component: string): Argv => {
    if (!isValidComponent(component)) {
      throw new HarnessError(
        'APP_NOT_FOUND',
        'The launcher activity the device reported is not a plain pkg/activity name; it is not started.',
      );
    }
    return frozen('shell', 'am', 'start', '-W', '-n', component);
  },
  startApplicationSettings: frozen('shell', 'am', 'start', '-W', '-S', '-a', 'android.settings.APPLICATION_SETTINGS'),
  /**
   * app_open_link: the one entry whose value is model text. `adb shell` joins its arguments and
   * the device's shell parses the line again, so the link goes as one single-quoted word
   * (shellWordOfLink re-checks the grammar, which has no `'`, NUL or line break); the package is
   * re-validated. A bare trailing argument without `:` or `/` is the intent's package to `am`
   * (Intent.parseCommandArgs).
   */
  openLink: (uri: LinkUri, pkg: PackageName | null): Argv => {
    if (pkg !== null && !isValidPackageName(pkg))
      throw new HarnessError('INVALID_PACKAGE', 'The package name is not valid.');
    const word = shellWordOfLink(uri);
    return frozen(
      'shell',
      'am',
      'start',
      '-W',
      '-a',
      'android.intent.action.VIEW',
      '-d',
      word,
      ...(pkg === null ? [] : [pkg]),
    );
  },
  /** device_list: a host command, read-only; `-s` before it changes nothing. */
  listDevices: frozen('devices', '-l'),
  /** Every property at once (the device's identity, version and model), read-only. */
  allProperties: frozen('shell', 'getprop'),
  /** app_stop, app_clear_data: the package re-validated before the argv exists. */
  forceStop: (pkg: PackageName): Argv => {
    if (!isValidPackageName(pkg)) throw new HarnessError('INVALID_PACKAGE', 'The package name is not valid.');
    return frozen('shell', 'am', 'force-stop', pkg);
  },
  clearData: (pkg: PackageName): Argv => {
    if (!isValidPackageName(pkg)) throw new HarnessError('INVALID_PACKAGE', 'The package name is not valid.');
    return frozen('shell', 'pm', 'clear', pkg);
  },
  /**
   * app_install: a host command. adb streams the file to the package manager
   * (abb_exec `package install -r -S <size>` on Android 10+), so the path never reaches the
   * device's shell. It is the private copy LocalApkFolder wrote, checked again here: absolute,
   * plain characters, ending in .apk (adb refuses other names), never an option.
   */
  install: (hostApkPath: string): Argv => {
    if (!isPlainHostApkPath(hostApkPath))
      throw new HarnessError('INTERNAL_ERROR', 'The APK copy has an unexpected path; it is not given to adb.');
    return frozen('install', '-r', hostApkPath);
  },
  /** app_logs: every process and its name, matched to the package host-side (no model text on the device). */
  processes: frozen('shell', 'ps', '-A', '-o', 'PID,NAME'),
  /**
   * app_logs: the last `lines` entries of one process (logcat takes one --pid), times
   * in UTC with the year. `pid` comes from `processes`, `lines` is a bounded integer; both re-checked.
   */
  appLog: (pid: number, lines: number): Argv => {
    if (!isValidPid(pid) || !Number.isSafeInteger(lines) || lines < 1 || lines > APP_LOG_READ_MAX) {
      throw new HarnessError(
        'INVALID_ARGUMENT',
        'The pid or line count is not a plain number in range; logcat is not run.',
      );
    }
    return frozen(
      'shell',
      'logcat',
      '-d',
      '-v',
      'threadtime',
      '-v',
      'year',
      '-v',
      'UTC',
      '-t',
      String(lines),
      `--pid=${pid}`,
    );
  },
  /** app_crashes: the crash buffer (Java and native crashes), read-only. */
  crashLog: frozen('shell', 'logcat', '-b', 'crash', '-d', '-v', 'threadtime', '-v', 'year', '-v', 'UTC'),
  /** app_crashes: the `am_anr` entries of the events buffer, read-only. */
  anrEvents: frozen(
    'shell',
    'logcat',
    '-b',
    'events',
    '-d',
    '-v',
    'threadtime',
    '-v',
    'year',
    '-v',
    'UTC',
    '-s',
    'am_anr',
  ),
});

/** An absolute host path of plain characters, no `..` segment, ending in `.apk`. */
export function isPlainHostApkPath(p: string): boolean {
  return /^\/[A-Za-z0-9._/-]{1,4000}\.apk$/.test(p) && !p.split('/').includes('..');
}

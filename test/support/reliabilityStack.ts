/**
 * The whole real stack for the reliability suites: a private adb server, the
 * virtual device attached to it in this process (its log and fault injection at hand), an
 * optional real Appium on that adb server, and an environment for harness processes whose
 * adb is a tracing wrapper: every adb call a harness makes is appended to a trace file with
 * its start and end time, exit code, the process's tag and its exact argv. That is how the
 * harness's own adb traffic is told apart from Appium's (Appium uses the real adb directly).
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VirtualDevice, type VirtualDeviceOptions } from '../../packages/virtual-device/src/device/index.js';
import { locateAdb, type PrivateAdbServer } from './adbServer.js';
import type { RunningAppium } from './appium.js';
import type { AttachedDevice } from './deviceOnAdb.js';
import { startDeviceStack, testFindWait } from './deviceStack.js';

export interface AdbTraceRecord {
  readonly startMs: number;
  readonly endMs: number;
  readonly exitCode: number;
  readonly tag: string;
  /** argv after `adb`, e.g. ['-s', serial, 'shell', 'wm', 'density']. */
  readonly argv: readonly string[];
}

export interface ReliabilityStack {
  readonly scratch: string;
  readonly adb: PrivateAdbServer;
  readonly device: VirtualDevice;
  readonly attached: AttachedDevice;
  readonly serial: string;
  readonly appium: RunningAppium | null;
  readonly artifactsDir: string;
  readonly lockDir: string;
  readonly traceFile: string;
  /** The environment of a harness process on this stack; `tag` marks its adb calls in the trace. */
  harnessEnv(tag: string, extra?: Record<string, string>): Record<string, string>;
  trace(): AdbTraceRecord[];
  stop(): Promise<void>;
}

export interface StackOptions {
  readonly appium?: boolean;
  readonly device?: VirtualDeviceOptions;
}

const SEPARATOR = '\u001f';

function writeAdbWrapper(root: string, realAdb: string): void {
  const dir = join(root, 'platform-tools');
  mkdirSync(dir, { recursive: true });
  const script = `#!/bin/sh
start=$(date +%s%3N)
"${realAdb}" "$@"
rc=$?
end=$(date +%s%3N)
# The harness runs independent adb reads at once: build the record first and append it with
# one write, so concurrent calls never interleave inside a line.
record=$({ printf '%s %s %s %s' "$start" "$end" "$rc" "\${AMH_ADB_TAG:-untagged}"; for a in "$@"; do printf '\\037%s' "$a"; done; })
printf '%s\\n' "$record" >> "\${AMH_ADB_TRACE:-/dev/null}"
exit $rc
`;
  writeFileSync(join(dir, 'adb'), script);
  chmodSync(join(dir, 'adb'), 0o755);
}

export function parseTrace(text: string): AdbTraceRecord[] {
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const [head = '', ...argv] = line.split(SEPARATOR);
      const [start, end, rc, tag] = head.split(' ');
      return { startMs: Number(start), endMs: Number(end), exitCode: Number(rc), tag: tag ?? '', argv };
    });
}

export async function startReliabilityStack(options: StackOptions = {}): Promise<ReliabilityStack> {
  const realAdb = locateAdb();
  if (!realAdb) throw new Error('adb was not found: install it (`apt-get install -y adb`).');
  const device = VirtualDevice.withDefaultScenario(options.device ?? {});
  const base = await startDeviceStack({ label: 'reliability', devices: [device], appium: options.appium === true });
  const { scratch, adb, appium } = base;
  const attached = base.attached[0] as AttachedDevice;
  const sdk = join(scratch, 'sdk');
  const traceFile = join(scratch, 'adb-trace.log');
  const artifactsDir = join(scratch, 'artifacts');
  const lockDir = join(scratch, 'locks');
  try {
    writeAdbWrapper(sdk, realAdb);
    writeFileSync(traceFile, '');
  } catch (error) {
    await base.stop();
    throw error;
  }
  const baseEnv: Record<string, string> = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'TMPDIR', 'SystemRoot']) {
    const value = process.env[key];
    if (value !== undefined) baseEnv[key] = value;
  }
  return {
    scratch,
    adb,
    device,
    attached,
    serial: attached.serial,
    appium,
    artifactsDir,
    lockDir,
    traceFile,
    harnessEnv: (tag, extra = {}) => ({
      ...baseEnv,
      ANDROID_HOME: sdk,
      ANDROID_UDID: attached.serial,
      ANDROID_MCP_ALLOW_SERIALS: attached.serial,
      ANDROID_ADB_SERVER_PORT: String(adb.port),
      // A fixed Appium (ours, or an unreachable one): never a managed one.
      APPIUM_URL: appium?.url ?? 'http://127.0.0.1:9',
      ANDROID_MCP_ARTIFACTS_DIR: artifactsDir,
      ANDROID_MCP_LOCK_DIR: lockDir,
      ANDROID_MCP_LOG_LEVEL: 'info',
      AMH_ADB_TRACE: traceFile,
      AMH_ADB_TAG: tag,
      // One session per action (the warm session off): each fault meets the session start and
      // the close it was written for. The warm session is covered by the oracle and the unit tests.
      ANDROID_MCP_WARM_SESSION_TIMEOUT: '0',
      ...testFindWait(),
      ...extra,
    }),
    trace: () => (existsSync(traceFile) ? parseTrace(readFileSync(traceFile, 'utf8')) : []),
    stop: () => base.stop(),
  };
}

/** The device-side command line a closed-list adb argv produces (as the device logs it, without origin). */
export function deviceCommandOf(argv: readonly string[]): string | null {
  const rest = argv[0] === '-s' ? argv.slice(2) : argv;
  if (rest[0] === 'shell' || rest[0] === 'exec-out') return rest.slice(1).join(' ');
  return null;
}

/** The closed adb list + `getprop sys.boot_completed`: does this argv (after `-s serial`) belong to the closed list? */
export function isClosedListArgv(argv: readonly string[], serial: string): boolean {
  if (argv[0] !== '-s' || argv[1] !== serial) return false;
  const rest = argv.slice(2).join(' ');
  const fixed = [
    'get-state',
    'shell getprop sys.boot_completed',
    'shell getprop ro.build.version.release',
    'shell getprop ro.product.model',
    'shell pm list packages',
    'shell wm density',
    'shell dumpsys window',
    // Whether the screen is on, before launches and actions and for emulator_get_status.
    'shell dumpsys power',
    'exec-out uiautomator dump /dev/tty',
    // Evidence: the raw frame, encoded on the host; the device PNG only for a frame not understood.
    'exec-out screencap',
    'exec-out screencap -p',
    'shell am start -W -S -a android.settings.APPLICATION_SETTINGS',
    // device_list: a read-only host command.
    'devices -l',
    // Every property at once (the device's identity for its lock, version, model).
    'shell getprop',
    // Read only after screencap warns of several displays.
    'shell dumpsys display',
    // app_logs, app_crashes: read-only logcat and the process list.
    'shell ps -A -o PID,NAME',
    'shell logcat -b crash -d -v threadtime -v year -v UTC',
    'shell logcat -b events -d -v threadtime -v year -v UTC -s am_anr',
  ];
  if (fixed.includes(rest)) return true;
  if (/^exec-out screencap (?:-p )?-d [0-9]{1,20}$/.test(rest)) return true;
  // app_logs: numbers only after the fixed words.
  if (/^shell logcat -d -v threadtime -v year -v UTC -t [1-9][0-9]{0,3} --pid=[1-9][0-9]{0,6}$/.test(rest)) return true;
  const pkg = '[A-Za-z][A-Za-z0-9_]*(?:\\.[A-Za-z][A-Za-z0-9_]*)*';
  // app_stop, app_clear_data: a validated package only.
  if (new RegExp(`^shell (?:am force-stop|pm clear) ${pkg}$`).test(rest)) return true;
  // app_install: the private copy LocalApkFolder wrote, streamed by adb itself.
  if (/^install -r \/[A-Za-z0-9._/-]+\/android-mcp-apk-[A-Za-z0-9]+\/base\.apk$/.test(rest)) return true;
  // app_open_link: the link as one single-quoted argv element of the closed grammar, then an optional package.
  if (argv.length === 10 || argv.length === 11) {
    const [, , shell, am, start, w, a, view, d, word, extra] = argv;
    const grammar = /^'[a-z][a-z0-9+.-]{0,31}:(?:[A-Za-z0-9\-._~:/?#@&=+,]|%[0-9A-Fa-f]{2})+'$/;
    if (
      [shell, am, start, w, a, view, d].join(' ') === 'shell am start -W -a android.intent.action.VIEW -d' &&
      grammar.test(word ?? '') &&
      (extra === undefined || new RegExp(`^${pkg}$`).test(extra))
    ) {
      return true;
    }
  }
  if (
    new RegExp(
      `^shell cmd package resolve-activity --brief -a android\\.intent\\.action\\.MAIN -c android\\.intent\\.category\\.LAUNCHER ${pkg}$`,
    ).test(rest)
  )
    return true;
  return new RegExp(
    `^shell am start -W -n ${pkg}/(?:\\.|${pkg}\\.)?[A-Za-z][A-Za-z0-9_]*(?:\\.[A-Za-z][A-Za-z0-9_]*)*$`,
  ).test(rest);
}

export function sleepMs(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * The first step of `npm run verify:real`: is a real, booted Android device there? Everything
 * after it (a build, Appium, minutes of tests) is only worth starting when it is, so this step
 * answers within seconds and says what to do when it is not.
 */
import { execFile } from 'node:child_process';
import { locateAdb } from '../../src/infrastructure/adb/adbLocator.js';
import { parseDevicesList } from '../../src/infrastructure/adb/AdbDeviceDirectory.js';

export interface AdbCall {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
}

export type RunAdb = (adbPath: string, args: readonly string[], timeoutMs: number) => Promise<AdbCall>;

export type Preflight =
  | {
      readonly ok: true;
      readonly adbPath: string;
      readonly serial: string;
      readonly androidRelease: string;
      readonly sdk: string;
      readonly model: string;
    }
  | {
      readonly ok: false;
      readonly reason: 'no-adb' | 'adb-failed' | 'no-device' | 'not-ready' | 'virtual-device';
      readonly message: string;
    };

/** adb's own answers are fast; a hung adb server must not make the "no device" answer slow. */
export const PREFLIGHT_ADB_TIMEOUT_MS = 10_000;

export const runAdbFile: RunAdb = (adbPath, args, timeoutMs) =>
  new Promise((resolve) => {
    execFile(
      adbPath,
      [...args],
      { timeout: timeoutMs, encoding: 'utf8', maxBuffer: 8 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const failure = error as (NodeJS.ErrnoException & { killed?: boolean; code?: number | string }) | null;
        resolve({
          stdout: String(stdout ?? ''),
          stderr: String(stderr ?? ''),
          exitCode: failure ? (typeof failure.code === 'number' ? failure.code : null) : 0,
          timedOut: Boolean(failure?.killed),
        });
      },
    );
  });

const START_AN_AVD =
  "Start an Android Virtual Device first (Android Studio's Device Manager, or `emulator -avd <name>`), wait until it shows its home screen, " +
  'check that `adb devices` lists it as "device", then run `npm run verify:real` again (ANDROID_UDID names it when it is not emulator-5554).';

/** The serial the run targets: ANDROID_UDID, else the first emulator's default serial (as the harness does). */
export function targetSerial(env: NodeJS.ProcessEnv): string {
  return env.ANDROID_UDID?.trim() || 'emulator-5554';
}

export async function preflight(env: NodeJS.ProcessEnv, run: RunAdb = runAdbFile): Promise<Preflight> {
  const located = locateAdb(env);
  if (!located) {
    return {
      ok: false,
      reason: 'no-adb',
      message:
        'adb was not found (looked in $ANDROID_HOME/platform-tools, $ANDROID_SDK_ROOT/platform-tools, then PATH). Install the Android SDK platform-tools and set ANDROID_HOME. ' +
        START_AN_AVD,
    };
  }
  const serial = targetSerial(env);
  const listed = await run(located.path, ['devices', '-l'], PREFLIGHT_ADB_TIMEOUT_MS);
  if (listed.timedOut || listed.exitCode !== 0) {
    const why = listed.timedOut
      ? `did not answer within ${PREFLIGHT_ADB_TIMEOUT_MS / 1000} s`
      : `exited with ${listed.exitCode ?? 'a signal'}`;
    return {
      ok: false,
      reason: 'adb-failed',
      message: `\`${located.path} devices -l\` ${why}: ${firstLine(listed.stderr) || 'no message'}. Restart the adb server (\`adb kill-server\`, then \`adb devices\`) and try again.`,
    };
  }
  const devices = parseDevicesList(listed.stdout);
  const target = devices.find((d) => d.serial === serial);
  if (!target) {
    const seen =
      devices.length === 0
        ? 'adb lists no device at all'
        : `adb lists only ${devices.map((d) => `${d.serial} (${d.state})`).join(', ')}`;
    return { ok: false, reason: 'no-device', message: `No real Android device ${serial}: ${seen}. ${START_AN_AVD}` };
  }
  if (target.state !== 'device') {
    return {
      ok: false,
      reason: 'not-ready',
      message: `${serial} is "${target.state}", not "device": ${target.state === 'unauthorized' ? 'accept the USB debugging prompt on the device' : 'wait until it has booted (or restart it)'}, then run again.`,
    };
  }
  const prop = async (name: string): Promise<string> =>
    (await run(located.path, ['-s', serial, 'shell', 'getprop', name], PREFLIGHT_ADB_TIMEOUT_MS)).stdout.trim();
  const booted = await prop('sys.boot_completed');
  if (booted !== '1') {
    return {
      ok: false,
      reason: 'not-ready',
      message: `${serial} is attached but has not finished booting (sys.boot_completed is "${booted}"). Wait for its home screen, then run again.`,
    };
  }
  const model = await prop('ro.product.model');
  // The virtual device answers adb too; a report made on it would pass for a real device's.
  if (model.startsWith('Virtual ')) {
    return {
      ok: false,
      reason: 'virtual-device',
      message: `${serial} is this project's virtual device (model "${model}"), not a real Android. ${START_AN_AVD}`,
    };
  }
  return {
    ok: true,
    adbPath: located.path,
    serial,
    androidRelease: await prop('ro.build.version.release'),
    sdk: await prop('ro.build.version.sdk'),
    model,
  };
}

function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim()
      .slice(0, 300) ?? ''
  );
}

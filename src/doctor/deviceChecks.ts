/** The checks of adb and the device: adb itself, which serial, the device online and booted, the optional target app. */
import type { HarnessConfig } from '../config.js';
import { checkSerial, isAllowedSerial } from '../domain/guards.js';
import { parsePackageName, type PackageName } from '../domain/validation.js';
import { ADB_COMMANDS, type Argv } from '../infrastructure/adb/adbCommands.js';
import { locateAdb, isExecutableFile, type LocatedAdb } from '../infrastructure/adb/adbLocator.js';
import { classifyAdbFailure } from '../infrastructure/adb/AdbRunner.js';
import { parseDevicesList } from '../infrastructure/adb/AdbDeviceDirectory.js';
import { parsePackageList, parseResolveActivity } from '../infrastructure/adb/parsers.js';
import { firstLine, refusedByGuard, timeout, type DeviceFacts, type DoctorOptions } from './checkContext.js';
import type { CheckResult } from './report.js';

/**
 * ANDROID_UDID unset: the harness takes the one allowed device `adb devices -l` shows
 * online, so the doctor checks that one, and says when there is none or several.
 */
export async function discoverDevice(
  options: DoctorOptions,
  config: HarnessConfig,
  facts: DeviceFacts,
): Promise<CheckResult> {
  if (!facts.adb)
    return {
      name: 'serial',
      status: 'skipped',
      summary: 'skipped: ANDROID_UDID is unset, and finding the device needs adb',
    };
  const listed = await options.runner.run(facts.adb.path, ['devices', '-l'], {
    env: options.env,
    timeoutMs: timeout(options),
  });
  if (listed.exitCode !== 0) {
    return {
      name: 'serial',
      status: 'miss',
      summary: `ANDROID_UDID is unset and \`adb devices -l\` failed: ${firstLine(listed.stderr) || listed.failure || `exit ${listed.exitCode}`}`,
      remedy: 'Check that the adb server runs (`adb start-server`), or set ANDROID_UDID to the device serial.',
    };
  }
  const devices = parseDevicesList(listed.stdout);
  const online = devices.filter(
    (device) => device.state === 'device' && isAllowedSerial(device.serial, config.allowSerials),
  );
  if (online.length === 1 && online[0]) {
    facts.serial = online[0].serial;
    return {
      name: 'serial',
      status: 'ok',
      summary: `ANDROID_UDID unset: ${online[0].serial}, the one allowed device online`,
    };
  }
  const seen =
    devices.length === 0
      ? 'adb lists no device'
      : `adb lists ${devices.map((d) => `${d.serial} (${d.state}${isAllowedSerial(d.serial, config.allowSerials) ? '' : ', not allowed'})`).join(', ')}`;
  if (online.length === 0) {
    return {
      name: 'serial',
      status: 'miss',
      summary: `ANDROID_UDID is unset and no allowed device is online: ${seen}`,
      remedy:
        'Start an emulator (its serial is emulator-<port>), or the built-in virtual device (`npx -y android-mcp-virtual-device`, which adb lists as emulator-5554), ' +
        'or set ANDROID_UDID, and list a non-emulator serial in ANDROID_MCP_ALLOW_SERIALS.',
    };
  }
  return {
    name: 'serial',
    status: 'advisory',
    summary: `ANDROID_UDID is unset and ${online.length} allowed devices are online (${online.map((d) => d.serial).join(', ')}): a call that names none is DEVICE_AMBIGUOUS`,
    remedy:
      'Set ANDROID_UDID to the device calls without a UI session should use, or open UI sessions with ui_session_open {device} (docs/guide/many-devices.md). The device checks below need one device.',
  };
}

export async function checkAdb(options: DoctorOptions, facts: DeviceFacts): Promise<CheckResult> {
  const located = locateAdb(options.env, options.adbExists ?? isExecutableFile);
  if (!located) {
    const where = ['ANDROID_HOME', 'ANDROID_SDK_ROOT']
      .filter((v) => options.env[v]?.trim())
      .map((v) => `${v}/platform-tools`);
    return {
      name: 'adb',
      status: 'miss',
      summary: `adb not found in ${[...where, 'PATH'].join(', ')}`,
      remedy:
        "Install Android platform-tools (Android Studio's SDK Manager, or `apt-get install adb`) and set ANDROID_HOME to the SDK folder in the MCP client's \"env\" block: GUI clients such as Claude Desktop do not see your shell's PATH.",
    };
  }
  const outcome = await options.runner.run(located.path, ['version'], {
    env: options.env,
    timeoutMs: timeout(options),
  });
  if (outcome.exitCode !== 0) {
    return {
      name: 'adb',
      status: 'miss',
      summary: `${located.path} (from ${located.source}) does not run: ${outcome.failure ?? `exit ${outcome.exitCode}`}`,
      remedy:
        'Reinstall Android platform-tools, or point ANDROID_HOME at an SDK whose platform-tools/adb runs on this machine.',
    };
  }
  facts.adb = located;
  const version = /Android Debug Bridge version ([\d.]+)/.exec(outcome.stdout)?.[1];
  const build = /Version ([\w.-]+)/.exec(outcome.stdout)?.[1];
  const label = [version, build ? `(${build})` : ''].filter(Boolean).join(' ') || 'unknown version';
  return { name: 'adb', status: 'ok', summary: `adb ${label} at ${located.path} (found through ${located.source})` };
}

export function checkSerialGuard(config: HarnessConfig): CheckResult {
  try {
    checkSerial(config.udid, config.allowSerials);
    const how =
      config.allowSerials.includes(config.udid) && !/^emulator-\d+$/.test(config.udid)
        ? ' (allowed by ANDROID_MCP_ALLOW_SERIALS)'
        : '';
    return { name: 'serial', status: 'ok', summary: `ANDROID_UDID=${config.udid}${how}` };
  } catch (error) {
    const summary = `ANDROID_UDID=${config.udid} is refused by the device guard`;
    return refusedByGuard('serial', summary, error, 'Set ANDROID_UDID to an emulator serial from `adb devices`.');
  }
}

/** One entry of the closed list (adbCommands.ts), as the server would run it: the doctor asks nothing else of a device. */
async function adbShell(options: DoctorOptions, adb: LocatedAdb, serial: string, args: Argv) {
  return options.runner.run(adb.path, ['-s', serial, ...args], { env: options.env, timeoutMs: timeout(options) });
}

export async function checkDevice(
  options: DoctorOptions,
  config: HarnessConfig,
  facts: DeviceFacts,
): Promise<CheckResult[]> {
  const serial = facts.serial;
  const serialOk = serial !== null && isAllowedSerial(serial, config.allowSerials);
  if (!facts.adb || !serialOk || serial === null) {
    const why = !facts.adb ? 'needs adb' : serial === null ? 'no one device to check' : 'the serial is refused';
    return [
      { name: 'device', status: 'skipped', summary: `skipped: ${why}` },
      { name: 'android', status: 'skipped', summary: `skipped: ${why}` },
    ];
  }
  const adb = facts.adb;
  const state = await adbShell(options, adb, serial, ADB_COMMANDS.getState);
  const stateText = state.stdout.trim();
  if (state.exitCode !== 0 || stateText !== 'device') {
    const classified = classifyAdbFailure(state.stderr, serial);
    const detail = stateText || firstLine(state.stderr) || state.failure || 'no answer';
    return [
      {
        name: 'device',
        status: 'miss',
        summary: `${serial}: ${detail}`,
        remedy:
          classified ??
          `Start the emulator (or \`adb connect\` it) so that \`adb devices\` lists ${serial} as "device", or set ANDROID_UDID to the serial it shows.`,
      },
      { name: 'android', status: 'skipped', summary: 'skipped: needs the device' },
    ];
  }
  const [release, sdk, model, boot] = await Promise.all(
    [ADB_COMMANDS.androidVersion, ADB_COMMANDS.sdkVersion, ADB_COMMANDS.model, ADB_COMMANDS.bootCompleted].map((argv) =>
      adbShell(options, adb, serial, argv),
    ),
  );
  const text = (o: typeof release) => (o && o.exitCode === 0 ? o.stdout.trim() : '');
  const device: CheckResult = {
    name: 'device',
    status: 'ok',
    summary: `${serial} is online (${text(model) || 'unknown model'})`,
  };
  const version = text(release);
  const api = text(sdk);
  const androidMiss = (summary: string, remedy: string): CheckResult[] => [
    device,
    { name: 'android', status: 'miss', summary, remedy },
  ];
  if (!version) {
    return androidMiss(
      'the device does not answer `getprop`',
      `Check that the device finished booting and that \`adb -s ${serial} shell getprop\` works; restart the emulator if not.`,
    );
  }
  const label = `Android ${version}${api ? ` (API ${api})` : ''}`;
  if (text(boot) !== '1') {
    return androidMiss(
      `${label}, still booting (sys.boot_completed is not 1)`,
      'Wait until the emulator has finished booting (the home screen shows), then run the doctor again.',
    );
  }
  facts.deviceReady = true;
  return [device, { name: 'android', status: 'ok', summary: `${label}, boot completed` }];
}

export async function checkTargetApp(
  options: DoctorOptions,
  config: HarnessConfig,
  facts: DeviceFacts,
): Promise<CheckResult> {
  const raw = options.targetPackage;
  if (!raw) return { name: 'app', status: 'skipped', summary: 'no --package given (optional)' };
  let pkg: PackageName;
  try {
    pkg = parsePackageName(raw);
  } catch {
    return {
      name: 'app',
      status: 'miss',
      summary: `'${raw.slice(0, 80)}' is not a package name`,
      remedy: 'Pass the application id as in `adb shell pm list packages`, e.g. --package com.example.app.',
    };
  }
  const serial = facts.serial;
  if (!facts.adb || !facts.deviceReady || serial === null)
    return { name: 'app', status: 'skipped', summary: `skipped: ${pkg} needs a ready device` };
  const packages = await adbShell(options, facts.adb, serial, ADB_COMMANDS.listPackages);
  if (packages.exitCode !== 0) {
    return {
      name: 'app',
      status: 'miss',
      summary: 'the device did not list its packages',
      remedy: 'Check `adb shell pm list packages` on the device.',
    };
  }
  if (!parsePackageList(packages.stdout).includes(pkg)) {
    return {
      name: 'app',
      status: 'miss',
      summary: `${pkg} is not installed on ${serial}`,
      remedy: `Install it first (\`adb -s ${serial} install app.apk\`), or check the application id with \`adb shell pm list packages\`.`,
    };
  }
  const resolved = await adbShell(options, facts.adb, serial, ADB_COMMANDS.resolveLauncherActivity(pkg));
  const activity = resolved.exitCode === 0 ? parseResolveActivity(resolved.stdout, pkg) : null;
  if (!activity) {
    return {
      name: 'app',
      status: 'miss',
      summary: `${pkg} is installed but has no single launcher activity`,
      remedy:
        'app_open starts apps through their MAIN/LAUNCHER activity: give the app one, or open it another way before using the UI tools.',
    };
  }
  return { name: 'app', status: 'ok', summary: `${pkg} is installed and launchable (${activity})` };
}

/**
 * `android-mcp-harness doctor`: every check a real run needs, cheapest first, all of them
 * every time (a user fixing one thing wants to see the next one too). A check that cannot run
 * because an earlier one failed is shown as skipped, never as a second failure; only the root
 * cause blocks and gets a remedy.
 */
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type HarnessConfig } from '../config.js';
import type { AutomationEndpointStatus, SeleniumGridEndpointStatus } from '../domain/automationEndpoint.js';
import { checkAppiumUrl, checkSerial, isAllowedSerial, shownUrl } from '../domain/guards.js';
import { isHarnessError } from '../domain/errors.js';
import { parsePackageName } from '../domain/validation.js';
import { locateAdb, isExecutableFile, type LocatedAdb } from '../infrastructure/adb/adbLocator.js';
import { classifyAdbFailure } from '../infrastructure/adb/AdbRunner.js';
import { parseDevicesList } from '../infrastructure/adb/AdbDeviceDirectory.js';
import { parsePackageList, parseResolveActivity } from '../infrastructure/adb/parsers.js';
import { findInstalledPackage, locateAppiumInstall } from '../infrastructure/appium/appiumInstall.js';
import { parseJavaVersion } from './javaVersion.js';
import type { ProcessRunner } from './processRunner.js';

export type CheckStatus = 'ok' | 'miss' | 'advisory' | 'skipped';

export interface CheckResult {
  readonly name: string;
  readonly status: CheckStatus;
  readonly summary: string;
  /** What to do; shown for blocking checks (status 'miss') and as advice for advisory ones. */
  readonly remedy?: string;
}

export interface DoctorOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly packageRoot: string;
  readonly nodeVersion: string;
  readonly runner: ProcessRunner;
  /** `--package com.x`: also check that this app is installed and launchable. */
  readonly targetPackage?: string | null;
  /**
   * GET <url>/status → Appium or a Selenium Grid in front of it, or null when it answers as neither.
   * `authorization`: remote mode's header (issue 15 §4), sent with the request, never printed.
   */
  readonly appiumStatus: (url: string, authorization?: string) => Promise<AutomationEndpointStatus | null>;
  /** Starts the managed Appium, reads its version and stops it again. Throws with a reason. */
  readonly tryManagedAppium: (androidSdkRoot: string | null) => Promise<{ version: string }>;
  /** For tests: which files count as an executable adb. */
  readonly adbExists?: (candidate: string) => boolean;
  /** Per-command timeout (default 15 s). */
  readonly commandTimeoutMs?: number;
}

export const MINIMUM_NODE = [20, 19, 0] as const;
export const MINIMUM_JAVA = 17;

export const CORE_DEPENDENCIES = ['@modelcontextprotocol/sdk', 'webdriverio', 'zod'] as const;
export const APPIUM_DEPENDENCIES = ['appium', 'appium-uiautomator2-driver'] as const;

interface DeviceFacts {
  adb: LocatedAdb | null;
  deviceReady: boolean;
  /** The device the checks run on: ANDROID_UDID, else the one discovered (issue 15); null: none to check. */
  serial: string | null;
}

export async function runDoctor(options: DoctorOptions): Promise<CheckResult[]> {
  const warnings: string[] = [];
  let config: HarnessConfig;
  try {
    config = loadConfig(options.env, (message) => warnings.push(message), options.cwd);
  } catch (error) {
    // The server would refuse to start (ANDROID_MCP_REMOTE, a retention bound): say so, and check the rest with their defaults.
    if (!(error instanceof ConfigError)) throw error;
    warnings.push(error.message);
    config = loadConfig(
      { ...options.env, ANDROID_MCP_REMOTE: undefined, ANDROID_MCP_ARTIFACTS_MAX_FILES: undefined, ANDROID_MCP_ARTIFACTS_MAX_MB: undefined },
      () => undefined,
      options.cwd,
    );
  }
  const results: CheckResult[] = [];
  const add = (result: CheckResult): void => {
    results.push(result);
  };
  const facts: DeviceFacts = { adb: null, deviceReady: false, serial: config.udidExplicit ? config.udid : null };

  add(checkNode(options.nodeVersion));
  add(checkDependencies(options.packageRoot, config.appiumUrlExplicit || config.remote !== null));
  if (warnings.length > 0) {
    add({
      name: 'config',
      status: 'miss',
      summary: warnings.join(' '),
      remedy: 'Fix or unset the environment variables named above (see docs/usage.md for each variable and its default).',
    });
  } else {
    add({ name: 'config', status: 'ok', summary: describeConfig(config) });
  }
  add(await checkEvidenceDir(config.artifactsDir));
  add(await checkJava(options));
  if (config.remote) {
    // Remote mode (issue 15 §4): the harness runs no adb; the device is the endpoint's.
    const why = 'remote mode (ANDROID_MCP_REMOTE=1): the device is reached through APPIUM_URL, adb is not used';
    for (const name of ['adb', 'serial', 'device', 'android', 'app']) add({ name, status: 'skipped', summary: `skipped: ${why}` });
    add(await checkRemoteEndpoint(options, config));
    return results;
  }
  add(await checkAdb(options, facts));
  add(config.udidExplicit ? checkSerialGuard(config) : await discoverDevice(options, config, facts));
  for (const result of await checkDevice(options, config, facts)) add(result);
  add(await checkTargetApp(options, config, facts));
  add(await checkAppium(options, config, facts));
  return results;
}

/**
 * ANDROID_UDID unset (issue 15): the harness takes the one allowed device `adb devices -l` shows
 * online, so the doctor checks that one, and says when there is none or several.
 */
async function discoverDevice(options: DoctorOptions, config: HarnessConfig, facts: DeviceFacts): Promise<CheckResult> {
  if (!facts.adb) return { name: 'serial', status: 'skipped', summary: 'skipped: ANDROID_UDID is unset, and finding the device needs adb' };
  const listed = await options.runner.run(facts.adb.path, ['devices', '-l'], { env: options.env, timeoutMs: timeout(options) });
  if (listed.exitCode !== 0) {
    return {
      name: 'serial',
      status: 'miss',
      summary: `ANDROID_UDID is unset and \`adb devices -l\` failed: ${firstLine(listed.stderr) || listed.failure || `exit ${listed.exitCode}`}`,
      remedy: 'Check that the adb server runs (`adb start-server`), or set ANDROID_UDID to the device serial.',
    };
  }
  const devices = parseDevicesList(listed.stdout);
  const online = devices.filter((device) => device.state === 'device' && isAllowedSerial(device.serial, config.allowSerials));
  if (online.length === 1 && online[0]) {
    facts.serial = online[0].serial;
    return { name: 'serial', status: 'ok', summary: `ANDROID_UDID unset: ${online[0].serial}, the one allowed device online` };
  }
  const seen = devices.length === 0 ? 'adb lists no device' : `adb lists ${devices.map((d) => `${d.serial} (${d.state}${isAllowedSerial(d.serial, config.allowSerials) ? '' : ', not allowed'})`).join(', ')}`;
  if (online.length === 0) {
    return {
      name: 'serial',
      status: 'miss',
      summary: `ANDROID_UDID is unset and no allowed device is online: ${seen}`,
      remedy:
        'Start an emulator (its serial is emulator-<port>), or the built-in virtual device (`android-mcp-harness virtual-device`, which adb lists as emulator-5554), ' +
        'or set ANDROID_UDID, and list a non-emulator serial in ANDROID_MCP_ALLOW_SERIALS.',
    };
  }
  return {
    name: 'serial',
    status: 'advisory',
    summary: `ANDROID_UDID is unset and ${online.length} allowed devices are online (${online.map((d) => d.serial).join(', ')}): a call that names none is DEVICE_AMBIGUOUS`,
    remedy: 'Set ANDROID_UDID to the device calls without a flow should use, or open flows with ui_session_open {device} (docs/many-devices.md). The device checks below need one device.',
  };
}

/** Remote mode: the endpoint must pass the https guard and answer /status (with the credentials) as Appium or a Grid. */
async function checkRemoteEndpoint(options: DoctorOptions, config: HarnessConfig): Promise<CheckResult> {
  try {
    checkAppiumUrl(config.appiumUrl, true);
  } catch (error) {
    return {
      name: 'appium',
      status: 'miss',
      summary: `APPIUM_URL=${shownUrl(config.appiumUrl)} is refused in remote mode`,
      remedy: isHarnessError(error) ? error.message : 'Use the https:// endpoint of your Grid or device farm.',
    };
  }
  const auth = config.remote?.authorizationSource ? ` (credentials from ${config.remote.authorizationSource})` : ' (no credentials)';
  const endpoint = await options.appiumStatus(config.appiumUrl, config.remote?.authorization?.reveal());
  if (endpoint?.kind === 'selenium-grid') {
    const grid = gridCheck(endpoint, shownUrl(config.appiumUrl));
    return { ...grid, summary: `remote mode: ${grid.summary}${auth}` };
  }
  if (!endpoint) {
    return {
      name: 'appium',
      status: 'miss',
      summary: `remote mode: nothing answers as Appium or a Selenium Grid at ${shownUrl(config.appiumUrl)}/status${auth}`,
      remedy: 'Check APPIUM_URL, the network, and the credentials (user:key@ in APPIUM_URL or ANDROID_MCP_REMOTE_AUTHORIZATION). Some device farms do not answer /status: then try a call (emulator_get_status) instead.',
    };
  }
  return { name: 'appium', status: 'ok', summary: `remote mode: Appium ${endpoint.version} answers at ${shownUrl(config.appiumUrl)}${auth}` };
}

function timeout(options: DoctorOptions): number {
  return options.commandTimeoutMs ?? 15_000;
}

function describeConfig(config: HarnessConfig): string {
  const appium = config.appiumUrlExplicit ? `APPIUM_URL=${shownUrl(config.appiumUrl)}` : 'Appium managed by the harness';
  const adbPort = config.adbServerPort === null ? '' : `, adb server port ${config.adbServerPort}`;
  // Unset, the serial is found among the devices adb lists (the serial row below), not a default.
  const device = config.udidExplicit ? `device ${config.udid}` : 'device: ANDROID_UDID unset (found through adb, below)';
  return `${device}, ${appium}${adbPort}`;
}

export function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

export function checkNode(version: string): CheckResult {
  const parts = version.replace(/^v/, '').split('.').map((p) => Number.parseInt(p, 10));
  const wanted = MINIMUM_NODE.join('.');
  if (parts.some((p) => Number.isNaN(p)) || compareVersions(parts, MINIMUM_NODE) < 0) {
    return {
      name: 'node',
      status: 'miss',
      summary: `Node ${version} is older than ${wanted}`,
      remedy: `Install Node ${wanted} or newer (Node 20 LTS or 22), then run the harness with it.`,
    };
  }
  return { name: 'node', status: 'ok', summary: `Node ${version.replace(/^v/, '')} (needs ≥ ${wanted})` };
}

export function checkDependencies(packageRoot: string, appiumUrlExplicit: boolean): CheckResult {
  const found: string[] = [];
  const missing: string[] = [];
  const appiumMissing: string[] = [];
  for (const name of CORE_DEPENDENCIES) {
    const pkg = findInstalledPackage(name, packageRoot);
    if (pkg) found.push(`${name} ${pkg.version}`);
    else missing.push(name);
  }
  for (const name of APPIUM_DEPENDENCIES) {
    const pkg = findInstalledPackage(name, packageRoot);
    if (pkg) found.push(`${name} ${pkg.version}`);
    else appiumMissing.push(name);
  }
  // Appium itself is only needed here when the harness runs it (APPIUM_URL unset).
  const blocking = appiumUrlExplicit ? missing : [...missing, ...appiumMissing];
  if (blocking.length > 0) {
    return {
      name: 'dependencies',
      status: 'miss',
      summary: `missing: ${blocking.join(', ')}`,
      remedy: 'Reinstall the harness: `npm ci` in a checkout (then `npm run build`), or install its tarball again (`npm install -g ./android-mcp-harness-<version>.tgz`; the package is not on npm yet, see docs/usage.md).',
    };
  }
  const note = appiumMissing.length > 0 ? ` (not installed: ${appiumMissing.join(', ')}; fine while APPIUM_URL is set)` : '';
  return { name: 'dependencies', status: 'ok', summary: `${found.join(', ')}${note}` };
}

export async function checkEvidenceDir(dir: string): Promise<CheckResult> {
  const probe = path.join(dir, `.doctor-${process.pid}-${Date.now()}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    await writeFile(probe, 'probe', { flag: 'wx' });
    await rm(probe, { force: true });
    return { name: 'evidence', status: 'ok', summary: `${dir} is writable` };
  } catch (error) {
    await rm(probe, { force: true }).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return {
      name: 'evidence',
      status: 'miss',
      summary: `${dir} is not writable (${code})`,
      remedy: 'Make the directory writable, or set ANDROID_MCP_ARTIFACTS_DIR to a folder the harness may write (screenshots are saved there).',
    };
  }
}

/**
 * Java is advisory: the harness never passes an `app` capability, so the UiAutomator2 driver
 * never signs or inspects an APK with apksigner/java; its server APKs ship pre-signed and are
 * installed with plain `adb install`. Appium's own `driver doctor` still lists JAVA_HOME as
 * required, and installing apps through Appium yourself does need it.
 */
export async function checkJava(options: DoctorOptions): Promise<CheckResult> {
  const javaHome = options.env.JAVA_HOME?.trim();
  const java = javaHome ? path.join(javaHome, 'bin', process.platform === 'win32' ? 'java.exe' : 'java') : 'java';
  const outcome = await options.runner.run(java, ['-XX:-UsePerfData', '-version'], { env: options.env, timeoutMs: timeout(options) });
  const advice =
    `Not needed for the harness's own path (it never asks Appium to install or sign an APK); install a JDK ≥ ${MINIMUM_JAVA} and set JAVA_HOME if you use Appium's \`app\` capability or \`appium driver doctor uiautomator2\`.`;
  if (outcome.failure === 'not-found' || (javaHome && outcome.exitCode === null)) {
    return { name: 'java', status: 'advisory', summary: `no Java found${javaHome ? ' under JAVA_HOME' : ' on PATH'} (advisory)`, remedy: advice };
  }
  const version = parseJavaVersion(`${outcome.stderr}\n${outcome.stdout}`);
  if (!version) {
    return { name: 'java', status: 'advisory', summary: 'java runs but its version could not be read (advisory)', remedy: advice };
  }
  if (version.major < MINIMUM_JAVA) {
    return { name: 'java', status: 'advisory', summary: `Java ${version.raw} is older than ${MINIMUM_JAVA} (advisory)`, remedy: advice };
  }
  return { name: 'java', status: 'ok', summary: `Java ${version.raw} (major ${version.major}; optional for the harness)` };
}

async function checkAdb(options: DoctorOptions, facts: DeviceFacts): Promise<CheckResult> {
  const located = locateAdb(options.env, options.adbExists ?? isExecutableFile);
  if (!located) {
    const where = ['ANDROID_HOME', 'ANDROID_SDK_ROOT'].filter((v) => options.env[v]?.trim()).map((v) => `${v}/platform-tools`);
    return {
      name: 'adb',
      status: 'miss',
      summary: `adb not found in ${[...where, 'PATH'].join(', ')}`,
      remedy:
        'Install Android platform-tools (Android Studio\'s SDK Manager, or `apt-get install adb`) and set ANDROID_HOME to the SDK folder in the MCP client\'s "env" block: GUI clients such as Claude Desktop do not see your shell\'s PATH.',
    };
  }
  const outcome = await options.runner.run(located.path, ['version'], { env: options.env, timeoutMs: timeout(options) });
  if (outcome.exitCode !== 0) {
    return {
      name: 'adb',
      status: 'miss',
      summary: `${located.path} (from ${located.source}) does not run: ${outcome.failure ?? `exit ${outcome.exitCode}`}`,
      remedy: 'Reinstall Android platform-tools, or point ANDROID_HOME at an SDK whose platform-tools/adb runs on this machine.',
    };
  }
  facts.adb = located;
  const version = /Android Debug Bridge version ([\d.]+)/.exec(outcome.stdout)?.[1];
  const build = /Version ([\w.-]+)/.exec(outcome.stdout)?.[1];
  const label = [version, build ? `(${build})` : ''].filter(Boolean).join(' ') || 'unknown version';
  return { name: 'adb', status: 'ok', summary: `adb ${label} at ${located.path} (found through ${located.source})` };
}

function checkSerialGuard(config: HarnessConfig): CheckResult {
  try {
    checkSerial(config.udid, config.allowSerials);
    const how = config.allowSerials.includes(config.udid) && !/^emulator-\d+$/.test(config.udid) ? ' (allowed by ANDROID_MCP_ALLOW_SERIALS)' : '';
    return { name: 'serial', status: 'ok', summary: `ANDROID_UDID=${config.udid}${how}` };
  } catch (error) {
    return {
      name: 'serial',
      status: 'miss',
      summary: `ANDROID_UDID=${config.udid} is refused by the device guard`,
      remedy: isHarnessError(error) ? error.message : 'Set ANDROID_UDID to an emulator serial from `adb devices`.',
    };
  }
}

async function adbShell(options: DoctorOptions, adb: LocatedAdb, serial: string, args: readonly string[]) {
  return options.runner.run(adb.path, ['-s', serial, ...args], { env: options.env, timeoutMs: timeout(options) });
}

async function checkDevice(options: DoctorOptions, config: HarnessConfig, facts: DeviceFacts): Promise<CheckResult[]> {
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
  const state = await adbShell(options, adb, serial, ['get-state']);
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
    ['ro.build.version.release', 'ro.build.version.sdk', 'ro.product.model', 'sys.boot_completed'].map((prop) =>
      adbShell(options, adb, serial, ['shell', 'getprop', prop]),
    ),
  );
  const text = (o: typeof release) => (o && o.exitCode === 0 ? o.stdout.trim() : '');
  const device: CheckResult = { name: 'device', status: 'ok', summary: `${serial} is online (${text(model) || 'unknown model'})` };
  const version = text(release);
  const api = text(sdk);
  if (!version) {
    return [
      device,
      {
        name: 'android',
        status: 'miss',
        summary: 'the device does not answer `getprop`',
        remedy: `Check that the device finished booting and that \`adb -s ${serial} shell getprop\` works; restart the emulator if not.`,
      },
    ];
  }
  const label = `Android ${version}${api ? ` (API ${api})` : ''}`;
  if (text(boot) !== '1') {
    return [
      device,
      {
        name: 'android',
        status: 'miss',
        summary: `${label}, still booting (sys.boot_completed is not 1)`,
        remedy: 'Wait until the emulator has finished booting (the home screen shows), then run the doctor again.',
      },
    ];
  }
  facts.deviceReady = true;
  return [device, { name: 'android', status: 'ok', summary: `${label}, boot completed` }];
}

async function checkTargetApp(options: DoctorOptions, config: HarnessConfig, facts: DeviceFacts): Promise<CheckResult> {
  const raw = options.targetPackage;
  if (!raw) return { name: 'app', status: 'skipped', summary: 'no --package given (optional)' };
  let pkg: string;
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
  if (!facts.adb || !facts.deviceReady || serial === null) return { name: 'app', status: 'skipped', summary: `skipped: ${pkg} needs a ready device` };
  const packages = await adbShell(options, facts.adb, serial, ['shell', 'pm', 'list', 'packages']);
  if (packages.exitCode !== 0) {
    return { name: 'app', status: 'miss', summary: 'the device did not list its packages', remedy: 'Check `adb shell pm list packages` on the device.' };
  }
  if (!parsePackageList(packages.stdout).includes(pkg)) {
    return {
      name: 'app',
      status: 'miss',
      summary: `${pkg} is not installed on ${serial}`,
      remedy: `Install it first (\`adb -s ${serial} install app.apk\`), or check the application id with \`adb shell pm list packages\`.`,
    };
  }
  const resolved = await adbShell(options, facts.adb, serial, [
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
  ]);
  const activity = resolved.exitCode === 0 ? parseResolveActivity(resolved.stdout, pkg) : null;
  if (!activity) {
    return {
      name: 'app',
      status: 'miss',
      summary: `${pkg} is installed but has no single launcher activity`,
      remedy: 'app_open starts apps through their MAIN/LAUNCHER activity: give the app one, or open it another way before using the UI tools.',
    };
  }
  return { name: 'app', status: 'ok', summary: `${pkg} is installed and launchable (${activity})` };
}

async function checkAppium(options: DoctorOptions, config: HarnessConfig, facts: DeviceFacts): Promise<CheckResult> {
  if (config.appiumUrlExplicit) {
    try {
      checkAppiumUrl(config.appiumUrl);
    } catch (error) {
      return {
        name: 'appium',
        status: 'miss',
        summary: `APPIUM_URL=${shownUrl(config.appiumUrl)} is refused by the Appium guard`,
        remedy: isHarnessError(error) ? error.message : 'Point APPIUM_URL at an Appium on 127.0.0.1.',
      };
    }
    const endpoint = await options.appiumStatus(config.appiumUrl);
    if (endpoint?.kind === 'selenium-grid') return gridCheck(endpoint, shownUrl(config.appiumUrl));
    if (!endpoint) {
      return {
        name: 'appium',
        status: 'miss',
        summary: `nothing answers as Appium at ${shownUrl(config.appiumUrl)}/status`,
        remedy: `Start Appium (\`npx appium --address 127.0.0.1 --port ${new URL(config.appiumUrl).port || '4723'}\` with the uiautomator2 driver), or unset APPIUM_URL to let the harness start its own.`,
      };
    }
    return { name: 'appium', status: 'ok', summary: `Appium ${endpoint.version} answers at ${shownUrl(config.appiumUrl)}` };
  }

  const install = locateAppiumInstall(options.packageRoot);
  if ('missing' in install) {
    return {
      name: 'appium',
      status: 'miss',
      summary: `managed mode: ${install.missing} is not installed next to the harness`,
      remedy: 'Reinstall the harness (`npm ci`), or run Appium yourself and set APPIUM_URL.',
    };
  }
  const listed = await options.runner.run(process.execPath, [install.appiumMain, 'driver', 'list', '--installed', '--json'], {
    env: { ...options.env, APPIUM_HOME: install.appiumHome },
    timeoutMs: Math.max(timeout(options), 30_000),
  });
  if (!hasUiAutomator2(listed.stdout)) {
    return {
      name: 'appium',
      status: 'miss',
      summary: `managed mode: Appium ${install.appiumVersion} does not list the uiautomator2 driver (APPIUM_HOME=${install.appiumHome})`,
      remedy: 'Reinstall the harness (`npm ci`) so that appium-uiautomator2-driver sits next to appium, or set APPIUM_URL to your own Appium.',
    };
  }
  const sdkRoot = facts.adb ? sdkRootOf(facts.adb) : null;
  try {
    const started = await options.tryManagedAppium(sdkRoot);
    return {
      name: 'appium',
      status: 'ok',
      summary: `managed mode: Appium ${started.version} with uiautomator2 ${install.driverVersion} starts on 127.0.0.1 (stopped again)`,
    };
  } catch (error) {
    return {
      name: 'appium',
      status: 'miss',
      summary: `managed mode: Appium ${install.appiumVersion} did not start: ${firstLine((error as Error).message)}`,
      remedy: 'Run with ANDROID_MCP_LOG_LEVEL=debug to see Appium\'s output on stderr, or start Appium yourself and set APPIUM_URL.',
    };
  }
}

/** A Selenium Grid hub at APPIUM_URL: fine when it can start a session now (docs/usage.md, "Through a Selenium Grid"). */
function gridCheck(grid: SeleniumGridEndpointStatus, url: string): CheckResult {
  const nodes = grid.nodes ? `${grid.nodes.total} node(s), ${grid.nodes.up} up, ${grid.nodes.available} available` : 'its node list unreadable';
  const summary = `Selenium Grid${grid.gridVersion ? ` ${grid.gridVersion}` : ''} at ${url}: ${grid.ready ? 'ready' : 'not ready'}, ${nodes}; Appium behind it ${grid.version ?? 'of unknown version'}`;
  if (grid.ready) return { name: 'appium', status: 'ok', summary };
  return {
    name: 'appium',
    status: 'miss',
    summary,
    remedy: 'Start a relay node to your Appium (docs/usage.md, "Through a Selenium Grid"), check that each node\'s Appium answers /status, or wait until the sessions the Grid holds end.',
  };
}

function sdkRootOf(adb: LocatedAdb): string | null {
  const dir = path.dirname(adb.path);
  return path.basename(dir) === 'platform-tools' ? path.dirname(dir) : null;
}

export function hasUiAutomator2(driverListJson: string): boolean {
  try {
    const parsed = JSON.parse(driverListJson) as Record<string, { installed?: unknown } | undefined>;
    return parsed.uiautomator2?.installed === true;
  } catch {
    return false;
  }
}

/** The first line worth showing: adb's "* daemon started" chatter is not the problem. */
function firstLine(text: string): string {
  return (
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l.length > 0 && !l.startsWith('* daemon'))
      ?.slice(0, 160) ?? ''
  );
}

/** The text the CLI prints: one line per check, then one remedy line per blocking check. */
export function formatReport(results: readonly CheckResult[]): { lines: string[]; blocking: number } {
  const marker: Record<CheckStatus, string> = { ok: '[ok  ]', miss: '[MISS]', advisory: '[--  ]', skipped: '[--  ]' };
  const width = Math.max(...results.map((r) => r.name.length));
  const lines = results.map((r) => `${marker[r.status]} ${r.name.padEnd(width)}  ${r.summary}`);
  const blockers = results.filter((r) => r.status === 'miss');
  if (blockers.length > 0) {
    lines.push('', `${blockers.length} blocking problem${blockers.length === 1 ? '' : 's'}:`);
    for (const r of blockers) lines.push(`  ${r.name}: ${r.remedy ?? 'see above.'}`);
  } else {
    lines.push('', 'Everything a real run needs is in place.');
  }
  const advice = results.filter((r) => r.status === 'advisory' && r.remedy);
  for (const r of advice) lines.push(`  (advice) ${r.name}: ${r.remedy}`);
  return { lines, blocking: blockers.length };
}

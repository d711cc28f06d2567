/**
 * `android-mcp-harness doctor`: every check a real run needs, cheapest first, all of them
 * every time (a user fixing one thing wants to see the next one too). A check that cannot run
 * because an earlier one failed is shown as skipped, never as a second failure; only the root
 * cause blocks and gets a remedy.
 */
import { ConfigError, loadConfig, type HarnessConfig } from '../config.js';
import { shownUrl } from '../domain/guards.js';
import { checkAppium, checkRemoteEndpoint } from './appiumChecks.js';
import type { DeviceFacts, DoctorOptions } from './checkContext.js';
import { checkAdb, checkDevice, checkSerialGuard, checkTargetApp, discoverDevice } from './deviceChecks.js';
import { checkDependencies, checkEvidenceDir, checkJava, checkNode } from './hostChecks.js';
import type { CheckResult } from './report.js';

// The doctor's public face: the CLI and the tests import from here.
export type { DoctorOptions } from './checkContext.js';
export type { CheckResult, CheckStatus } from './report.js';
export { formatReport } from './report.js';
export { hasUiAutomator2 } from './appiumChecks.js';
export {
  APPIUM_DEPENDENCIES,
  checkDependencies,
  checkEvidenceDir,
  checkJava,
  checkNode,
  compareVersions,
  CORE_DEPENDENCIES,
  MINIMUM_JAVA,
  MINIMUM_NODE,
} from './hostChecks.js';

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
      {
        ...options.env,
        ANDROID_MCP_REMOTE: undefined,
        ANDROID_MCP_ARTIFACTS_MAX_FILES: undefined,
        ANDROID_MCP_ARTIFACTS_MAX_MB: undefined,
      },
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
      remedy:
        'Fix or unset the environment variables named above (see docs/reference/configuration.md for each variable and its default).',
    });
  } else {
    add({ name: 'config', status: 'ok', summary: describeConfig(config) });
  }
  add(await checkEvidenceDir(config.artifactsDir));
  add(await checkJava(options));
  if (config.remote) {
    // Remote mode: the harness runs no adb; the device is the endpoint's (docs/reference/contract.md, "Remote mode").
    const why = 'remote mode (ANDROID_MCP_REMOTE=1): the device is reached through APPIUM_URL, adb is not used';
    for (const name of ['adb', 'serial', 'device', 'android', 'app'])
      add({ name, status: 'skipped', summary: `skipped: ${why}` });
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

function describeConfig(config: HarnessConfig): string {
  const appium = config.appiumUrlExplicit
    ? `APPIUM_URL=${shownUrl(config.appiumUrl)}`
    : 'Appium managed by the harness';
  const adbPort = config.adbServerPort === null ? '' : `, adb server port ${config.adbServerPort}`;
  // Unset, the serial is found among the devices adb lists (the serial row below), not a default.
  const device = config.udidExplicit
    ? `device ${config.udid}`
    : 'device: ANDROID_UDID unset (found through adb, below)';
  return `${device}, ${appium}${adbPort}`;
}

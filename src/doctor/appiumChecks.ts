/** The checks of Appium: the one at APPIUM_URL (or a Selenium Grid there), the managed one, or remote mode's endpoint. */
import path from 'node:path';
import type { HarnessConfig } from '../config.js';
import type { SeleniumGridEndpointStatus } from '../domain/automationEndpoint.js';
import { checkAppiumUrl, shownUrl } from '../domain/guards.js';
import type { LocatedAdb } from '../infrastructure/adb/adbLocator.js';
import { locateAppiumInstall } from '../infrastructure/appium/appiumInstall.js';
import { firstLine, refusedByGuard, timeout, type DeviceFacts, type DoctorOptions } from './checkContext.js';
import type { CheckResult } from './report.js';

/** Remote mode: the endpoint must pass the https guard and answer /status (with the credentials) as Appium or a Grid. */
export async function checkRemoteEndpoint(options: DoctorOptions, config: HarnessConfig): Promise<CheckResult> {
  try {
    checkAppiumUrl(config.appiumUrl, true);
  } catch (error) {
    const summary = `APPIUM_URL=${shownUrl(config.appiumUrl)} is refused in remote mode`;
    return refusedByGuard('appium', summary, error, 'Use the https:// endpoint of your Grid or device farm.');
  }
  const auth = config.remote?.authorizationSource
    ? ` (credentials from ${config.remote.authorizationSource})`
    : ' (no credentials)';
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
      remedy:
        'Check APPIUM_URL, the network, and the credentials (user:key@ in APPIUM_URL or ANDROID_MCP_REMOTE_AUTHORIZATION). Some device farms do not answer /status: then try a call (emulator_get_status) instead.',
    };
  }
  return {
    name: 'appium',
    status: 'ok',
    summary: `remote mode: Appium ${endpoint.version} answers at ${shownUrl(config.appiumUrl)}${auth}`,
  };
}

export async function checkAppium(
  options: DoctorOptions,
  config: HarnessConfig,
  facts: DeviceFacts,
): Promise<CheckResult> {
  if (config.appiumUrlExplicit) {
    try {
      checkAppiumUrl(config.appiumUrl);
    } catch (error) {
      const summary = `APPIUM_URL=${shownUrl(config.appiumUrl)} is refused by the Appium guard`;
      return refusedByGuard('appium', summary, error, 'Point APPIUM_URL at an Appium on 127.0.0.1.');
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
    return {
      name: 'appium',
      status: 'ok',
      summary: `Appium ${endpoint.version} answers at ${shownUrl(config.appiumUrl)}`,
    };
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
  const listed = await options.runner.run(
    process.execPath,
    [install.appiumMain, 'driver', 'list', '--installed', '--json'],
    {
      env: { ...options.env, APPIUM_HOME: install.appiumHome },
      timeoutMs: Math.max(timeout(options), 30_000),
    },
  );
  if (!hasUiAutomator2(listed.stdout)) {
    return {
      name: 'appium',
      status: 'miss',
      summary: `managed mode: Appium ${install.appiumVersion} does not list the uiautomator2 driver (APPIUM_HOME=${install.appiumHome})`,
      remedy:
        'Reinstall the harness (`npm ci`) so that appium-uiautomator2-driver sits next to appium, or set APPIUM_URL to your own Appium.',
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
      remedy:
        "Run with ANDROID_MCP_LOG_LEVEL=debug to see Appium's output on stderr, or start Appium yourself and set APPIUM_URL.",
    };
  }
}

/** A Selenium Grid hub at APPIUM_URL: fine when it can start a session now (docs/guide/usage.md, "Through a Selenium Grid"). */
function gridCheck(grid: SeleniumGridEndpointStatus, url: string): CheckResult {
  const nodes = grid.nodes
    ? `${grid.nodes.total} node(s), ${grid.nodes.up} up, ${grid.nodes.available} available`
    : 'its node list unreadable';
  const summary = `Selenium Grid${grid.gridVersion ? ` ${grid.gridVersion}` : ''} at ${url}: ${grid.ready ? 'ready' : 'not ready'}, ${nodes}; Appium behind it ${grid.version ?? 'of unknown version'}`;
  if (grid.ready) return { name: 'appium', status: 'ok', summary };
  return {
    name: 'appium',
    status: 'miss',
    summary,
    remedy:
      'Start a relay node to your Appium (docs/guide/usage.md, "Through a Selenium Grid"), check that each node\'s Appium answers /status, or wait until the sessions the Grid holds end.',
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

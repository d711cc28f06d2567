/**
 * Which adapter the container builds for each port, from the configuration: the harness's own
 * Appium or the configured one, the device over adb, Appium sessions per device, adb's device list.
 */
import type { HarnessConfig } from '../config.js';
import type { AutomationGateway, Clock, DeviceDirectory, DeviceGateway, Logger } from '../domain/ports.js';
import { AdbDeviceDirectory } from '../infrastructure/adb/AdbDeviceDirectory.js';
import { AdbDeviceGateway } from '../infrastructure/adb/AdbDeviceGateway.js';
import { locateAdb } from '../infrastructure/adb/adbLocator.js';
import { AdbRunner } from '../infrastructure/adb/AdbRunner.js';
import { findPackageRoot } from '../infrastructure/appium/appiumInstall.js';
import { EndpointAutomationGateway } from '../infrastructure/appium/EndpointAutomationGateway.js';
import { FixedAppiumEndpoint, ManagedAppium, androidSdkRootFor, type AppiumEndpoint } from '../infrastructure/appium/ManagedAppium.js';
import { WebdriverAutomationGateway } from '../infrastructure/appium/WebdriverAutomationGateway.js';
import { freeLoopbackPort } from '../infrastructure/net/loopbackPorts.js';

/**
 * APPIUM_URL set: that server, never one of ours. Unset: the harness's own Appium, started at
 * the first call that needs it, with ANDROID_HOME pointing at the SDK of the adb in use
 * (appium-adb insists on an SDK root even when adb is on PATH).
 */
export function createAppiumEndpoint(
  config: HarnessConfig,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  onProgress: (message: string) => void,
): AppiumEndpoint {
  // Remote mode always has APPIUM_URL (config.ts refuses to start without it): never an Appium of ours.
  if (config.appiumUrlExplicit || config.remote) return new FixedAppiumEndpoint(config.appiumUrl);
  const adb = locateAdb(env);
  const sdk = adb && adb.source === 'PATH' ? androidSdkRootFor(adb.path) : null;
  const managed = new ManagedAppium({
    packageRoot: findPackageRoot(),
    logger,
    onProgress,
    androidSdkRoot: sdk?.root ?? null,
    env,
    startTimeoutMs: config.connectTimeoutMs,
    stopGraceMs: 1_500,
  });
  if (!sdk) return managed;
  // The private SDK root is a temp folder: gone with the process however it ends (short of SIGKILL).
  process.once('exit', sdk.cleanup);
  return {
    managed: true,
    url: () => managed.url(),
    stop: () => managed.stop().finally(sdk.cleanup),
    killNow: () => {
      managed.killNow();
      sdk.cleanup();
    },
  };
}

/**
 * adb through the closed list. When adb cannot be found the runner still exists and answers
 * every call with EMULATOR_UNAVAILABLE and the install remedy, so the server starts anyway.
 */
export function createDeviceGateway(config: HarnessConfig, env: NodeJS.ProcessEnv, clock: Clock, logger: Logger, serial: string): DeviceGateway {
  return new AdbDeviceGateway(adbRunnerFor(config, env, logger, locateAdb(env)?.path ?? null, serial), clock, logger);
}

/**
 * Appium sessions on `serial`, at the endpoint's current URL. Each session gets a free local port
 * as its `appium:systemPort`: two devices' sessions in one Appium never race for one.
 */
export function automationFor(serial: string, appium: AppiumEndpoint, config: HarnessConfig, logger: Logger, clock: Clock): AutomationGateway {
  const remote = config.remote;
  return new EndpointAutomationGateway(appium, (url) =>
    new WebdriverAutomationGateway({
      url,
      // Remote mode without ANDROID_UDID: no appium:udid, the endpoint picks the device.
      udid: remote ? remote.udid : serial,
      connectTimeoutMs: config.connectTimeoutMs,
      extraCapabilities: { ...config.appiumExtraCapabilities },
      // The local adb server's port and a local free port mean nothing to an Appium on another machine.
      ...(config.adbServerPort === null || remote ? {} : { adbPort: config.adbServerPort }),
      ...(remote ? { authorization: remote.authorization } : { systemPort: freeLoopbackPort }),
      logger,
      clock,
    }),
  );
}

function adbRunnerFor(config: HarnessConfig, env: NodeJS.ProcessEnv, logger: Logger, adbPath: string | null, serial: string): AdbRunner {
  return new AdbRunner({
    adbPath,
    // A serial adb would read as an option is refused by the guard before any call; keep the runner constructible.
    serial: serial.startsWith('-') ? 'refused-serial' : serial,
    defaultTimeoutMs: config.actionTimeoutMs,
    env,
    logger,
  });
}

/** device_list's view of adb: the listing through the configured runner, getprop through one per listed serial. */
export function createDeviceDirectory(config: HarnessConfig, env: NodeJS.ProcessEnv, logger: Logger, lockDirectory: string | null): DeviceDirectory {
  const adbPath = locateAdb(env)?.path ?? null;
  return new AdbDeviceDirectory({
    runner: adbRunnerFor(config, env, logger, adbPath, config.udid),
    runnerFor: (serial) => adbRunnerFor(config, env, logger, adbPath, serial),
    lockDirectory,
    logger,
  });
}

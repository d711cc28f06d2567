/**
 * The adapters of a device on this machine: adb through the closed list, Appium at APPIUM_URL or
 * the harness's own, device discovery from `adb devices`, APKs from ANDROID_MCP_APK_DIR.
 */
import type { HarnessConfig } from '../config.js';
import { serialIdentity } from '../domain/devices/identity.js';
import type { Clock, DeviceDirectory, DeviceGateway, Logger } from '../domain/ports.js';
import { AdbDeviceDirectory } from '../infrastructure/adb/AdbDeviceDirectory.js';
import { AdbDeviceGateway } from '../infrastructure/adb/AdbDeviceGateway.js';
import { locateAdb } from '../infrastructure/adb/adbLocator.js';
import { AdbRunner } from '../infrastructure/adb/AdbRunner.js';
import { findPackageRoot } from '../infrastructure/appium/appiumInstall.js';
import {
  FixedAppiumEndpoint,
  ManagedAppium,
  androidSdkRootFor,
  type AppiumEndpoint,
} from '../infrastructure/appium/ManagedAppium.js';
import { LocalApkFolder } from '../infrastructure/apk/LocalApkFolder.js';
import { freeLoopbackPort } from '../infrastructure/net/loopbackPorts.js';
import { webdriverAt, type AdapterInputs, type DeviceAdapters } from './deviceAdapters.js';

export function localAdapters(inputs: AdapterInputs): DeviceAdapters {
  const { config, env, clock, logger } = inputs;
  return {
    remote: false,
    logger,
    allowSerials: config.allowSerials,
    appium: (onProgress) => createAppiumEndpoint(config, env, logger, onProgress),
    announce: (deviceInjected) => {
      if (deviceInjected) return;
      // Said once at start, not per device: the gateways are built when a device is first used.
      const adb = locateAdb(env);
      if (adb) logger.debug('adb located', { source: adb.source });
      else logger.warn('adb was not found; device tools will answer EMULATOR_UNAVAILABLE');
    },
    device: (serial) => createDeviceGateway(config, env, clock, logger, serial),
    // Each session gets a free local port as its `appium:systemPort`: two devices' sessions in one
    // Appium never race for one.
    automation: (serial, appium) =>
      webdriverAt(inputs, logger, appium, {
        udid: serial,
        ...(config.adbServerPort === null ? {} : { adbPort: config.adbServerPort }),
        systemPort: freeLoopbackPort,
      }),
    directory: (lockDirectory) => createDeviceDirectory(config, env, logger, lockDirectory),
    listing: () => createDeviceDirectory(config, env, logger, null),
    identity: serialIdentity,
    apkFolder: new LocalApkFolder(config.apkDir),
    traceScrub: null,
  };
}

/**
 * APPIUM_URL set: that server, never one of ours. Unset: the harness's own Appium, started at
 * the first call that needs it, with ANDROID_HOME pointing at the SDK of the adb in use
 * (appium-adb insists on an SDK root even when adb is on PATH).
 */
function createAppiumEndpoint(
  config: HarnessConfig,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  onProgress: (message: string) => void,
): AppiumEndpoint {
  if (config.appiumUrlExplicit) return new FixedAppiumEndpoint(config.appiumUrl);
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
function createDeviceGateway(
  config: HarnessConfig,
  env: NodeJS.ProcessEnv,
  clock: Clock,
  logger: Logger,
  serial: string,
): DeviceGateway {
  return new AdbDeviceGateway(adbRunnerFor(config, env, logger, locateAdb(env)?.path ?? null, serial), clock, logger);
}

function adbRunnerFor(
  config: HarnessConfig,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  adbPath: string | null,
  serial: string,
): AdbRunner {
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
function createDeviceDirectory(
  config: HarnessConfig,
  env: NodeJS.ProcessEnv,
  logger: Logger,
  lockDirectory: string | null,
): DeviceDirectory {
  const adbPath = locateAdb(env)?.path ?? null;
  return new AdbDeviceDirectory({
    runner: adbRunnerFor(config, env, logger, adbPath, config.udid),
    runnerFor: (serial) => adbRunnerFor(config, env, logger, adbPath, serial),
    lockDirectory,
    logger,
  });
}

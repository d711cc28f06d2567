/**
 * Remote mode's adapters (ANDROID_MCP_REMOTE=1): the device is behind a WebDriver endpoint and this
 * machine has no adb for it. Reads and launches go through the binding's own driver session
 * (DriverDeviceGateway); what needs adb answers NOT_AVAILABLE_REMOTELY; the lock is keyed by the
 * endpoint, the udid and the capabilities; the credentials go with every request and into no log.
 */
import type { RemoteConfig } from '../config.js';
import { FixedAppiumEndpoint } from '../infrastructure/appium/ManagedAppium.js';
import { redactingLogger, redactor } from '../infrastructure/logging/redactingLogger.js';
import { DriverDeviceGateway } from '../infrastructure/remote/DriverDeviceGateway.js';
import { RemoteApkFolder, RemoteDeviceDirectory } from '../infrastructure/remote/RemoteDeviceDirectory.js';
import { remoteIdentity } from '../infrastructure/remote/remoteIdentity.js';
import { webdriverAt, type AdapterInputs, type DeviceAdapters } from './deviceAdapters.js';

export function remoteAdapters(inputs: AdapterInputs, remote: RemoteConfig): DeviceAdapters {
  const { config } = inputs;
  const logger = redactingLogger(inputs.logger, remote.secrets);
  return {
    remote: true,
    logger,
    // The device is the farm's, named by ANDROID_UDID or picked by the endpoint; the local
    // emulator-only guard has nothing to protect there, so the configured name passes it.
    allowSerials: [...config.allowSerials, config.udid],
    // config.ts refuses remote mode without APPIUM_URL: never an Appium of ours.
    appium: () => new FixedAppiumEndpoint(config.appiumUrl),
    announce: () =>
      logger.info('remote mode: the device is observed and launched through the WebDriver session; adb is not used', {
        endpoint: config.appiumUrl,
        authorization: remote.authorizationSource ?? 'none',
      }),
    device: (_serial, sessions) => new DriverDeviceGateway(sessions),
    // Without ANDROID_UDID no appium:udid: the endpoint picks the device. The local adb server's
    // port and a local free port mean nothing to an Appium on another machine.
    automation: (_serial, appium) =>
      webdriverAt(inputs, logger, appium, { udid: remote.udid, authorization: remote.authorization }),
    // No adb: the configured device is the only one.
    directory: () => null,
    listing: () => new RemoteDeviceDirectory(),
    // No properties to read: the lock is keyed by what the session request says.
    identity: () => remoteIdentity(config.appiumUrl, remote.udid, config.appiumExtraCapabilities),
    apkFolder: new RemoteApkFolder(),
    traceScrub: redactor(remote.secrets),
  };
}

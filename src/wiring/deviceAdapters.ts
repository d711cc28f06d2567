/**
 * The adapters that differ between the two ways of reaching a device: local (adb on this machine
 * and an Appium here, ours or the user's) and remote mode (ANDROID_MCP_REMOTE=1: the device behind a
 * Selenium Grid or a device farm, reached through WebDriver alone). The container asks for one set,
 * once (localAdapters.ts, remoteAdapters.ts), and builds everything else the same way on top of it.
 */
import type { HarnessConfig } from '../config.js';
import type { DeviceIdentity } from '../domain/devices/identity.js';
import type {
  ApkFolder,
  AutomationGateway,
  Clock,
  DeviceDirectory,
  DeviceGateway,
  DriverSessionSource,
  Logger,
} from '../domain/ports.js';
import { EndpointAutomationGateway } from '../infrastructure/appium/EndpointAutomationGateway.js';
import type { AppiumEndpoint } from '../infrastructure/appium/ManagedAppium.js';
import {
  WebdriverAutomationGateway,
  type WebdriverAutomationGatewayOptions,
} from '../infrastructure/appium/WebdriverAutomationGateway.js';

/** What both sets are built from. */
export interface AdapterInputs {
  readonly config: HarnessConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly clock: Clock;
  /** The process's logger before any wrapping (the set's `logger` is the one to use). */
  readonly logger: Logger;
}

export interface DeviceAdapters {
  /** Remote mode: the endpoint guard takes https endpoints, and every call reaches the endpoint. */
  readonly remote: boolean;
  /** The logger every part uses (remote mode's never shows the credentials). */
  readonly logger: Logger;
  /** The serials the device guard lets through. */
  readonly allowSerials: readonly string[];
  /** Where Appium is; `onProgress` tells the client while a managed Appium boots. */
  appium(onProgress: (message: string) => void): AppiumEndpoint;
  /** Said once at start: how devices are reached (`deviceInjected`: a test's device, no adb to find). */
  announce(deviceInjected: boolean): void;
  /** The device gateway of `serial`; `sessions` are its binding's own driver sessions (remote mode reads through them). */
  device(serial: string, sessions: DriverSessionSource): DeviceGateway;
  /** Appium sessions on `serial`, at the endpoint's current URL. */
  automation(serial: string, appium: AppiumEndpoint): AutomationGateway;
  /** Device discovery's list (`lockDirectory`: whose holder each listed device has); null: the configured device is the only one. */
  directory(lockDirectory: string | null): DeviceDirectory | null;
  /** What device_list lists. */
  listing(): DeviceDirectory;
  /** A device's identity when there is no list to read it from. */
  identity(serial: string): DeviceIdentity;
  /** The folder app_install reads. */
  readonly apkFolder: ApkFolder;
  /** What a trace file's text goes through before it is written (remote mode: the credentials out); null: nothing. */
  readonly traceScrub: ((text: string) => string) | null;
}

/** A WebDriver gateway per endpoint URL (a managed Appium restarted on another port gets a new one). */
export function webdriverAt(
  inputs: AdapterInputs,
  logger: Logger,
  appium: AppiumEndpoint,
  own: Pick<WebdriverAutomationGatewayOptions, 'udid' | 'authorization' | 'adbPort' | 'systemPort'>,
): AutomationGateway {
  return new EndpointAutomationGateway(
    appium,
    (url) =>
      new WebdriverAutomationGateway({
        url,
        managed: appium.managed,
        connectTimeoutMs: inputs.config.connectTimeoutMs,
        extraCapabilities: { ...inputs.config.appiumExtraCapabilities },
        logger,
        clock: inputs.clock,
        ...own,
      }),
  );
}

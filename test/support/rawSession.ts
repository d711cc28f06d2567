import { remote } from 'webdriverio';

export type RawDriver = Awaited<ReturnType<typeof remote>>;

export interface RawSessionTarget {
  /** The test's own Appium on 127.0.0.1. */
  readonly appiumPort: number;
  readonly serial: string;
  /** The test's private adb server. */
  readonly adbPort: number;
  /** Capabilities added to (or replacing) the contract's, e.g. a longer newCommandTimeout. */
  readonly extra?: Record<string, unknown>;
}

/**
 * A UiAutomator2 session opened by the test itself, with the contract's capabilities, to show what
 * the device does through the real Appium before the harness is asked. Silent: the refusals the
 * quirk tests provoke would otherwise be logged at error level. The caller deletes it.
 */
export function openRawSession(target: RawSessionTarget): Promise<RawDriver> {
  return remote({
    hostname: '127.0.0.1',
    port: target.appiumPort,
    path: '/',
    logLevel: 'silent',
    connectionRetryCount: 0,
    capabilities: {
      platformName: 'Android',
      'appium:automationName': 'UiAutomator2',
      'appium:udid': target.serial,
      'appium:noReset': true,
      'appium:newCommandTimeout': 60,
      'appium:adbPort': target.adbPort,
      ...target.extra,
    },
  });
}

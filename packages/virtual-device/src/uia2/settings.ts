/** The server's settings (GET/POST /appium/settings), reset as each new session starts. */
import { invalidArgument } from './errors.js';
import type { Json } from './session.js';

/** The server's settings as a new session starts (Settings.resetForNewSession). */
const DEFAULT_SETTINGS: Readonly<Record<string, unknown>> = Object.freeze({
  actionAcknowledgmentTimeout: 3000,
  allowInvisibleElements: false,
  ignoreUnimportantViews: false,
  elementResponseAttributes: '',
  enableMultiWindows: false,
  enableNotificationListener: true,
  keyInjectionDelay: 0,
  scrollAcknowledgmentTimeout: 200,
  shouldUseCompactResponses: true,
  // WaitForIdleTimeout.DEFAULT_VALUE: 10 s, in ms.
  waitForIdleTimeout: 10000,
  waitForSelectorTimeout: 10000,
  normalizeTagNames: false,
  shutdownOnPowerDisconnect: true,
  simpleBoundsCalculation: false,
  trackScrollEvents: true,
  wakeLockTimeout: 86400000,
  serverPort: 6790,
  mjpegServerPort: 7810,
  mjpegServerFramerate: 10,
  mjpegScalingFactor: 50,
  mjpegServerScreenshotQuality: 50,
  mjpegBilinearFiltering: false,
  useResourcesForOrientationDetection: false,
  enableTopmostWindowFromActivePackage: false,
  limitXPathContextScope: true,
});

export class Uia2Settings {
  private values: Json = { ...DEFAULT_SETTINGS };

  all(): Json {
    return this.values;
  }

  /** NewSession: Settings.resetForNewSession() before the session exists. */
  reset(): void {
    this.values = { ...DEFAULT_SETTINGS };
  }

  /** UpdateSettings: known settings are applied one by one; a waitForIdleTimeout must be a number (a Long). */
  update(body: Json): null {
    const updates = (body.settings as Json | undefined) ?? {};
    const idle = updates.waitForIdleTimeout;
    if (idle !== undefined && (typeof idle !== 'number' || !Number.isFinite(idle))) {
      throw invalidArgument(`Invalid 'waitForIdleTimeout' setting value type. Got: ${typeof idle}. Expected: Long.`);
    }
    this.values = {
      ...this.values,
      ...updates,
      ...(typeof idle === 'number' ? { waitForIdleTimeout: Math.trunc(idle) } : {}),
    };
    return null;
  }

  waitForIdleTimeoutMs(): number {
    return Number(this.values.waitForIdleTimeout);
  }
}

/**
 * How long the server waits for the device before it acts or reads: the idle wait most commands
 * begin with, and the poll for the active window's root before a find or a page source.
 */
import { HttpError } from './errors.js';
import type { Uia2Device } from './device.js';
import type { Uia2Settings } from './settings.js';

/** AXWindowHelpers: the active window's root is polled every 250 ms for 10 s (fixed, not a setting). */
const ROOT_RETRIEVAL_TIMEOUT_MS = 10_000;
const ROOT_RETRIEVAL_INTERVAL_MS = 250;

export class IdleWaits {
  constructor(
    private readonly device: Uia2Device,
    private readonly settings: Uia2Settings,
  ) {}

  /**
   * Device.waitForIdle: UiDevice.waitForIdle(waitForIdleTimeout), skipped when the setting is not
   * above 0. A screen that never idles costs the whole timeout, in the device's (real) time; the
   * TimeoutException is only logged ("Could not detect idle state."), so the command goes on.
   */
  async waitForIdle(what: string): Promise<void> {
    const timeoutMs = this.settings.waitForIdleTimeoutMs();
    if (!(timeoutMs > 0) || this.device.screenActivity().idles) return;
    this.device.log('uia2', `${what}: waiting up to ${timeoutMs} ms for the device to idle`);
    await this.device.clock.sleep(timeoutMs);
    this.device.log('uia2', `${what}: could not detect idle state after ${timeoutMs} ms`);
  }

  /**
   * resetAccessibilityCache (the idle wait), then AXWindowHelpers.getActiveWindowRoot: the root is
   * polled every 250 ms for 10 s; without one, a UiAutomator2Exception, which the server answers
   * with HTTP 500 `unknown error` and this message.
   */
  async idleThenRoot(what: string): Promise<void> {
    await this.waitForIdle(what);
    const start = this.device.clock.nowMs();
    while (this.device.clock.nowMs() - start < ROOT_RETRIEVAL_TIMEOUT_MS) {
      if (this.device.screenActivity().rootAvailable) return;
      await this.device.clock.sleep(ROOT_RETRIEVAL_INTERVAL_MS);
    }
    const elapsed = this.device.clock.nowMs() - start;
    this.device.log('uia2', `${what}: no root AccessibilityNodeInfo after ${elapsed} ms`);
    throw new HttpError(
      500,
      'unknown error',
      `Timed out after ${elapsed}ms waiting for the root AccessibilityNodeInfo in the active window. ` +
        'Make sure the active window is not constantly hogging the main UI thread (e.g. the application is being idle long enough), ' +
        'so the accessibility manager could do its work',
    );
  }
}

/**
 * How long the UiAutomator2 server may wait for idle inside one driver call.
 *
 * On a screen that never idles, the server spends its `waitForIdleTimeout` (10 s by default)
 * before every page source and find and after every click, and when the app's main thread is so
 * busy that the window's root never comes, it then polls for that root for another fixed 10 s
 * before answering HTTP 500 (appium-uiautomator2-server, `Device.waitForIdle` and
 * `AXWindowHelpers.getActiveWindowRoot`). The harness bounds every driver call by its action
 * ceiling, and a call past the ceiling is OPERATION_TIMEOUT, which voids a UI session. So the idle wait
 * is what remains of the ceiling after the root wait and a margin, and never more than the
 * server's own default: with the default ceiling (90 s) the server keeps its 10 s, which the
 * harness relies on after taps (the tree it reads next has settled).
 */

/** WaitForIdleTimeout.DEFAULT_VALUE in the UiAutomator2 server. */
export const SERVER_IDLE_WAIT_MS = 10_000;
/** AXWindowHelpers.AX_ROOT_RETRIEVAL_TIMEOUT_MS: fixed on the device, not a setting. */
export const SERVER_ROOT_WAIT_MS = 10_000;
/** The request's own work and its way through Appium, on a slow emulator. */
export const IDLE_WAIT_MARGIN_MS = 5_000;

/** The `waitForIdleTimeout` (ms) a session gets under an action ceiling of `actionTimeoutMs`. */
export function serverIdleWaitMs(actionTimeoutMs: number): number {
  const room = Math.floor(actionTimeoutMs) - SERVER_ROOT_WAIT_MS - IDLE_WAIT_MARGIN_MS;
  return Math.min(SERVER_IDLE_WAIT_MS, Math.max(0, Number.isFinite(room) ? room : 0));
}

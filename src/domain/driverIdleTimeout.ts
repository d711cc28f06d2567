/**
 * Slack on top of the longest silence the harness itself allows. It absorbs a harness timer
 * that fires late (a busy event loop), the harness's own close of an expired UI session travelling to
 * Appium, and the two processes' clocks running their timers independently.
 */
export const DRIVER_IDLE_MARGIN_MS = 30_000;

/**
 * How long the driver may wait for a command before it drops a session on its own (Appium's
 * `newCommandTimeout`, which restarts after every command and is paused while one runs).
 *
 * The harness goes silent on a session for at most:
 * - `heldIdleMs` between two calls: a UI session's idle lease (every call renews it at its start and
 *   at its end, and its first driver command follows at once); 0 for a warm session,
 *   which is closed as soon as its action ends;
 * - one action ceiling inside a call: the adb reads that run between two driver commands are
 *   each bounded by it, and a call past it voids the UI session and closes its driver session.
 *
 * So the driver waits for the longer of the two, plus the margin: Appium never drops a session
 * the harness still holds, and still drops an orphan (a harness killed before it could close)
 * soon after the harness would have let go of it.
 */
export function driverIdleTimeoutMs(heldIdleMs: number, actionTimeoutMs: number): number {
  return Math.max(heldIdleMs, actionTimeoutMs, 0) + DRIVER_IDLE_MARGIN_MS;
}

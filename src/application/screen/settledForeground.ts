import type { Clock, DeviceGateway } from '../../domain/ports.js';
import type { WindowState } from '../../domain/tree/screen.js';

/**
 * The window focus lags behind navigation. UiAutomator2's PressBack returns without
 * waiting for idle (`UiDevice.pressBack` waits at most for the first accessibility event), so
 * `dumpsys window` can still name the old window, or none (`mCurrentFocus=null`), for a few hundred
 * ms. Reads are this far apart, and the wait ends at the bound with what was read last.
 * docs/internals/device-quirks.md, docs/reference/contract.md §2.
 */
export const FOREGROUND_SETTLE_INTERVAL_MS = 150;
export const FOREGROUND_SETTLE_TIMEOUT_MS = 1_500;

/** When a read of the foreground counts as settled. */
export type SettleRule =
  /**
   * After Back: a package other than the one in front before the action, or the same package
   * twice in a row (Back that only closed the keyboard, or went back within the same app).
   */
  | { readonly kind: 'changed-or-repeated'; readonly before: string | null }
  /**
   * After a tap, typing or a scroll: the server has already waited for idle, so the focus has
   * moved; only a moment with no focused window (a new window not drawn yet) is left to wait out.
   */
  | { readonly kind: 'focused' };

export interface SettledForeground {
  /** The last window state read. */
  readonly window: WindowState;
  /** False when the bound passed first: `window` is then only what was seen last. */
  readonly settled: boolean;
  /** True when the first read settled it: nothing was waited out (a read made beside that one saw the same moment). */
  readonly atFirstRead?: boolean;
}

/**
 * The driver starts io.appium.settings's activity when its service is not running (the
 * first session after boot); it holds the focus for a moment, then finishes. It is never the app in front.
 */
export const SETTINGS_HELPER_PACKAGE = 'io.appium.settings';

function settles(rule: SettleRule, current: string | null, previous: string | null | undefined): boolean {
  if (current === null || current === SETTINGS_HELPER_PACKAGE) return false;
  if (rule.kind === 'focused') return true;
  return (rule.before !== null && current !== rule.before) || current === previous;
}

/** The helper still in front at the bound: no app is known to be in front (null), rather than the helper. */
function withoutHelper(window: WindowState): WindowState {
  return window.foregroundPackage === SETTINGS_HELPER_PACKAGE
    ? { ...window, foregroundPackage: null, foregroundActivity: null }
    : window;
}

/**
 * Reads the window state until the foreground settles by `rule`, at most
 * FOREGROUND_SETTLE_TIMEOUT_MS after the first read. `first` is a read already made (it counts).
 */
export async function readSettledForeground(
  device: DeviceGateway,
  clock: Clock,
  rule: SettleRule,
  first?: WindowState,
): Promise<SettledForeground> {
  const deadline = clock.monotonicMs() + FOREGROUND_SETTLE_TIMEOUT_MS;
  let window = first ?? (await device.getWindowState());
  let previous: string | null | undefined;
  for (let reads = 1; ; reads++) {
    if (settles(rule, window.foregroundPackage, previous)) return { window, settled: true, atFirstRead: reads === 1 };
    if (clock.monotonicMs() + FOREGROUND_SETTLE_INTERVAL_MS > deadline)
      return { window: withoutHelper(window), settled: false };
    previous = window.foregroundPackage;
    await clock.sleep(FOREGROUND_SETTLE_INTERVAL_MS);
    window = await device.getWindowState();
  }
}

/**
 * What the window manager knows, as `dumpsys window` prints it: the live state, or the copy
 * frozen at the last ANR (docs/internals/device-quirks.md). The renderer (shell/commands/dumpsysWindow.ts)
 * prints either from these facts, so a frozen copy has exactly the live layout of its time.
 */
import { IME_FRAME, NAVIGATION_BAR_HEIGHT, SCREEN_HEIGHT, SCREEN_WIDTH, type BoundsTuple } from '../scenario/model.js';
import type { ForegroundInfo } from './ui.js';

/** The logical display: portrait, or turned a quarter (a game or a video at the time of an ANR). */
export interface DisplayFacts {
  readonly width: number;
  readonly height: number;
  readonly rotation: 0 | 1 | 2 | 3;
  /** The IME window's frame in this orientation. */
  readonly imeFrame: BoundsTuple;
}

export const PORTRAIT: DisplayFacts = Object.freeze({
  width: SCREEN_WIDTH,
  height: SCREEN_HEIGHT,
  rotation: 0 as const,
  imeFrame: IME_FRAME,
});

/** Landscape with gesture navigation: the bar stays at the bottom, the keyboard takes the lower 58 %. */
export const LANDSCAPE: DisplayFacts = Object.freeze({
  width: SCREEN_HEIGHT,
  height: SCREEN_WIDTH,
  rotation: 1 as const,
  imeFrame: [0, 456, SCREEN_HEIGHT, SCREEN_WIDTH] as BoundsTuple,
});

/**
 * The facts of a display of this logical size and rotation: PORTRAIT and LANDSCAPE for the phone,
 * else the keyboard over the same share of the height as on the phone in that orientation.
 */
export function displayFacts(width: number, height: number, rotation: 0 | 1 | 2 | 3): DisplayFacts {
  if (width === PORTRAIT.width && height === PORTRAIT.height && rotation === 0) return PORTRAIT;
  if (width === LANDSCAPE.width && height === LANDSCAPE.height && rotation === 1) return LANDSCAPE;
  const model = width > height ? LANDSCAPE : PORTRAIT;
  const top = Math.round((height * model.imeFrame[1]) / model.height);
  return { width, height, rotation, imeFrame: [0, top, width, height] };
}

export function appHeight(display: DisplayFacts): number {
  return display.height - NAVIGATION_BAR_HEIGHT;
}

export interface WindowFacts {
  /** ro.build.version.sdk: decides the layout (28, 30, 31–33, 34+). */
  readonly sdk: number;
  /** The density apps are laid out with: `wm density`'s override when set, else the panel's own. */
  readonly density: number;
  /** The panel's own density (`init=… Ndpi`; `base=` follows when the two differ). */
  readonly physicalDensity: number;
  readonly display: DisplayFacts;
  /** The window with input focus (`mCurrentFocus`); null while no window has it. */
  readonly focus: ForegroundInfo | null;
  /** A System UI window with the focus instead of an activity's (the pulled-down shade), by its title. */
  readonly systemWindow?: string;
  /** The resumed activity (`mFocusedApp`), which leads the window focus. */
  readonly focusedApp: ForegroundInfo;
  readonly imeVisible: boolean;
  /**
   * The keyguard is up. System UI's keyguard window then has the focus
   * (`NotificationShade` on API 31+, `StatusBar` before), while `mFocusedApp` still names the
   * activity behind it, and the policy says `showing=true`.
   */
  readonly keyguard: boolean;
  /** The display is on and the device interactive (`mAwake`, `mScreenOnFully`). */
  readonly awake: boolean;
  /** The focused app's window sets FLAG_SECURE: `SECURE` among its `fl=` flags. */
  readonly appSecure?: boolean;
}

/** The title of System UI's window that holds the keyguard: `NotificationShade` from API 31, `StatusBar` before. */
export function keyguardWindowTitle(sdk: number): string {
  return sdk >= 31 ? 'NotificationShade' : 'StatusBar';
}

/**
 * `WindowManagerService.saveANRStateLocked`: who was at fault, why, and the window manager's
 * state at that moment (windows, then display contents), kept for two hours.
 */
export interface LastAnr {
  /** Device clock time of the ANR. */
  readonly atMs: number;
  readonly application: ForegroundInfo;
  readonly reason: string;
  readonly facts: WindowFacts;
}

/** `LAST_ANR_LIFETIME_DURATION_MSECS`: the window manager forgets the last ANR after two hours. */
export const LAST_ANR_LIFETIME_MS = 2 * 60 * 60 * 1000;

/**
 * Back is not synchronous. For `staleMs` after a Back that changed the screen, the
 * window manager still reports the old window as focused; then for `noFocusMs` no window has
 * focus (`mCurrentFocus=null`, `mFocusedApp` already the activity Back returned to); then the
 * new window has it. Both 0: focus moves at once.
 */
export interface BackFocusLag {
  readonly staleMs: number;
  readonly noFocusMs: number;
}

/** The default: a few hundred ms in all, as a phone's activity-close transition takes. */
export const DEFAULT_BACK_FOCUS_LAG: BackFocusLag = Object.freeze({ staleMs: 50, noFocusMs: 250 });

/** Where the window focus is right after a Back: still on the old window, or on none. */
export type FocusInTransit =
  { readonly phase: 'stale'; readonly previous: ForegroundInfo } | { readonly phase: 'none' };

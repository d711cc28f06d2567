/** The words of the device's screen state machine (ui.ts): what is in front, what covers it, what a tap did. */
import type { Action } from '../scenario/model.js';
import type { Rect } from './geometry.js';

export type ClickSource =
  | 'uia2-click'
  | 'uia2-click-gesture'
  | 'uia2-double-click'
  | 'uia2-drag'
  | 'uia2-long-click'
  | 'w3c-actions'
  | 'input-tap'
  | 'input-keyevent';

export interface ClickRecord {
  readonly source: ClickSource;
  /**
   * 'long-click' only when the press was held past the long-press timeout on a long-clickable
   * node (View.performLongClick ran); a shorter press, or a long hold on a node that is not
   * long-clickable, is a 'click', as on Android.
   */
  readonly gesture: 'click' | 'long-click';
  /** How long the pointer stayed down, in ms (0 for a plain click). */
  readonly heldMs: number;
  readonly screenId: string;
  readonly x: number;
  readonly y: number;
  /** The element the client asked to click, when it named one. */
  readonly element: { readonly key: string; readonly bounds: Rect; readonly description: string } | null;
  /** The node that received the tap (topmost clickable at the point), or null. */
  readonly target: { readonly key: string; readonly bounds: Rect; readonly description: string } | null;
  /** The tap landed on the open IME. */
  readonly onKeyboard: boolean;
  /** The tap landed on a system bar: System UI took it. Absent when it did not. */
  readonly onSystemBar?: 'status' | 'navigation';
}

export interface ForegroundInfo {
  readonly package: string;
  /** Fully qualified activity class. */
  readonly activity: string;
  readonly screenId: string;
}

export type LaunchOutcome = 'started' | 'brought-to-front' | 'no-screen';

/**
 * What is between the user and the app. `keyguard`: System UI's lock screen is drawn over it and
 * takes every touch and key (PhoneWindowManager sends input to the keyguard while it shows);
 * `off`: the display is off and input is dropped (`shouldDispatchInputWhenNonInteractive`).
 */
export type Cover = 'keyguard' | 'off' | null;

export interface UiHooks {
  /** A Back (key or UIA2) changed the foreground visit; `from` is what was in front before. */
  backNavigated?(from: ForegroundInfo): void;
  /** A scenario `log` action: the app writes a line. */
  appLogged?(pkg: string, action: Extract<Action, { type: 'log' }>): void;
  /** A scenario `crash` action, before the app's screens leave the stack. */
  appCrashed?(pkg: string, action: Extract<Action, { type: 'crash' }>, activity: string): void;
}

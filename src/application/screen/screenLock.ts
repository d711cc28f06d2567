/**
 * Issue 12: a locked or sleeping screen. Behind the keyguard `am start` still "succeeds" (the
 * activity starts, behind the lock screen) and taps reach the lock screen, not the app; with the
 * display off input is dropped. So launches and actions first ask the device whether its screen
 * can be used, and answer DEVICE_LOCKED instead of a success nobody can see. The harness never
 * unlocks or wakes the device: it cannot know the credential, and waking a phone someone left
 * locked is theirs to decide (docs/device-quirks.md, docs/contract.md §3).
 */
import { HarnessError } from '../../domain/errors.js';
import type { DeviceGateway } from '../../domain/ports.js';
import type { Wakefulness, WindowState } from '../../domain/tree/screen.js';
import { together } from '../time/together.js';

/** What emulator_get_status reports as `screen`. */
export interface ScreenCondition {
  readonly awake: boolean;
  readonly locked: boolean;
  /** `dumpsys power`'s mWakefulness, null when the device did not print it. */
  readonly wakefulness: Wakefulness | null;
}

/** Awake from `dumpsys power` when it told (only Awake is usable), else from dumpsys window's display flags, else assumed. */
export function conditionOf(window: WindowState, wakefulness: Wakefulness | null): ScreenCondition {
  const awake = wakefulness !== null ? wakefulness === 'Awake' : (window.lock?.awake ?? true);
  return { awake, locked: window.lock?.locked ?? false, wakefulness };
}

/** The window state and the power state at once (two adb reads overlapping). */
export async function readScreenCondition(device: DeviceGateway): Promise<{ window: WindowState; condition: ScreenCondition }> {
  const [window, wakefulness] = await together(device.getWindowState(), device.getWakefulness());
  return { window, condition: conditionOf(window, wakefulness) };
}

/** DEVICE_LOCKED for `doing` ("opening com.example.app", "the tap"), saying what to do; null when the screen is usable. */
export function lockedError(condition: ScreenCondition, doing: string): HarnessError | null {
  const never = 'The harness never unlocks or wakes the device itself: it cannot know the PIN, pattern or password.';
  if (!condition.awake) {
    const state = condition.wakefulness === 'Dozing' ? 'dozing (ambient display)' : condition.wakefulness === 'Dreaming' ? 'showing a screensaver' : 'asleep';
    return new HarnessError(
      'DEVICE_LOCKED',
      `The device's screen is off (${state}), so ${doing} was not done: nothing would reach the app. ` +
        `Wake the device (its power button, or the emulator's), unlock it if a lock screen shows, then retry. ${never}`,
    );
  }
  if (condition.locked) {
    return new HarnessError(
      'DEVICE_LOCKED',
      `The device is locked (the lock screen is showing), so ${doing} was not done: it would happen behind the lock screen. ` +
        `Unlock the device on its screen (or the emulator window), then retry. ${never}`,
    );
  }
  return null;
}

/** Throws DEVICE_LOCKED when the screen is locked or off; else the window state read. */
export async function requireUsableScreen(device: DeviceGateway, doing: string): Promise<WindowState> {
  const { window, condition } = await readScreenCondition(device);
  const error = lockedError(condition, doing);
  if (error) throw error;
  return window;
}

/**
 * A locked or sleeping screen. Behind the keyguard `am start` still "succeeds" (the
 * activity starts, behind the lock screen) and taps reach the lock screen, not the app; with the
 * display off input is dropped. So launches and actions first ask the device whether its screen
 * can be used, and answer DEVICE_LOCKED instead of a success nobody can see. The harness never
 * unlocks or wakes the device: it cannot know the credential, and waking a phone someone left
 * locked is theirs to decide (docs/internals/device-quirks.md, docs/reference/contract.md §3).
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

/** The last `dumpsys power` read of a device, and the focused window `dumpsys window` showed with it. */
interface PowerRead {
  readonly wakefulness: Wakefulness | null;
  readonly focus: string;
}

/**
 * Per device gateway (one per device for the process's life, DeviceAccess): what the power state
 * was at its last read. Weakly held, so a gateway that is dropped takes its entry with it.
 */
const lastPower = new WeakMap<object, PowerRead>();

function focusOf(window: WindowState): string {
  return `${window.foregroundPackage ?? ''}/${window.foregroundActivity ?? ''}`;
}

/**
 * Whether this `dumpsys window` shows that the power state cannot have left the one last read
 * (docs/reference/contract.md, "A locked or sleeping screen"): Asleep and Dozing turn `mAwake` false and
 * bring the keyguard back; a screensaver (Dreaming counts as interactive, so `mAwake` stays true)
 * takes the focus with its own window. A build that prints no display flag never qualifies.
 */
function powerUnchanged(window: WindowState, known: PowerRead | undefined): known is PowerRead {
  return (
    known !== undefined &&
    (known.wakefulness === 'Awake' || known.wakefulness === null) &&
    window.lock?.awake === true &&
    !window.lock.locked &&
    focusOf(window) === known.focus
  );
}

/** The window state and the power state at once (two adb reads overlapping); what emulator_get_status reports. */
export async function readScreenCondition(
  device: Pick<DeviceGateway, 'getWindowState' | 'getWakefulness'>,
): Promise<{ window: WindowState; condition: ScreenCondition }> {
  const [window, wakefulness] = await together(device.getWindowState(), device.getWakefulness());
  lastPower.set(device, { wakefulness, focus: focusOf(window) });
  return { window, condition: conditionOf(window, wakefulness) };
}

/**
 * The check before an action: `dumpsys window` alone when it shows nothing could have changed the
 * power state since its last read, else `dumpsys power` too (both at once when nothing was read yet).
 */
async function conditionForAction(device: DeviceGateway): Promise<{ window: WindowState; condition: ScreenCondition }> {
  const known = lastPower.get(device);
  if (known === undefined) return readScreenCondition(device);
  const window = await device.getWindowState();
  if (powerUnchanged(window, known)) return { window, condition: conditionOf(window, known.wakefulness) };
  const wakefulness = await device.getWakefulness();
  lastPower.set(device, { wakefulness, focus: focusOf(window) });
  return { window, condition: conditionOf(window, wakefulness) };
}

/**
 * After an action, beside the read of the screen it left: `dumpsys power` once more only when the
 * settled window would not let the next action's check reuse the last one (the focus moved, or the
 * display flags do not tell). Read once per settle, overlapping the screen read, so that the next
 * action's check costs one `dumpsys window` and no second round trip (docs/reference/contract.md, "A locked
 * or sleeping screen").
 */
export async function notePowerAfterAction(device: DeviceGateway, settled: WindowState): Promise<void> {
  if (powerUnchanged(settled, lastPower.get(device))) return;
  if (settled.lock?.awake !== true || settled.lock.locked) return;
  lastPower.set(device, { wakefulness: await device.getWakefulness(), focus: focusOf(settled) });
}

/** DEVICE_LOCKED for `doing` ("opening com.example.app", "the tap"), saying what to do; null when the screen is usable. */
export function lockedError(condition: ScreenCondition, doing: string): HarnessError | null {
  const never = 'The harness never unlocks or wakes the device itself: it cannot know the PIN, pattern or password.';
  if (!condition.awake) {
    const state =
      condition.wakefulness === 'Dozing'
        ? 'dozing (ambient display)'
        : condition.wakefulness === 'Dreaming'
          ? 'showing a screensaver'
          : 'asleep';
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
  const { window, condition } = await conditionForAction(device);
  const error = lockedError(condition, doing);
  if (error) throw error;
  return window;
}

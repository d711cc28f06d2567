/**
 * Behaviours only some real devices show, as switchable traits. Faults (faults.ts)
 * make a device misbehave; traits make it a different, perfectly healthy kind of device:
 * a foldable with two displays, an app that starts slowly, a device still booting, an
 * older Android whose `dumpsys window` describes the keyboard differently.
 */
import { SCREEN_HEIGHT, SCREEN_WIDTH } from '../scenario/model.js';
import { DEFAULT_BACK_FOCUS_LAG, type BackFocusLag } from './windowState.js';

/** One physical display as `dumpsys display` and `screencap -d` know it. */
export interface VirtualDisplay {
  /** The physical display id (`uniqueId="local:<id>"`, what `screencap -d` takes on Android 10+). */
  readonly physicalId: string;
  readonly name: string;
  /** ON for the screen the user looks at; a folded foldable's other panel is OFF. */
  readonly state: 'ON' | 'OFF';
  readonly width: number;
  readonly height: number;
}

/** The single built-in screen every phone has (the id a Pixel emulator reports). */
export const BUILT_IN_DISPLAY: VirtualDisplay = Object.freeze({
  physicalId: '4619827259835644672',
  name: 'Built-in Screen',
  state: 'ON',
  width: SCREEN_WIDTH,
  height: SCREEN_HEIGHT,
});

/**
 * A foldable held open: SurfaceFlinger lists the outer (cover) panel first, and it is OFF;
 * the inner panel shows the UI. `screencap -p` without `-d` captures the first one.
 */
export const FOLDABLE_DISPLAYS: readonly VirtualDisplay[] = Object.freeze([
  Object.freeze({
    physicalId: '4619827259835644672',
    name: 'Outer Display',
    state: 'OFF' as const,
    width: 1080,
    height: 2092,
  }),
  Object.freeze({
    physicalId: '4619827551948147201',
    name: 'Inner Display',
    state: 'ON' as const,
    width: SCREEN_WIDTH,
    height: SCREEN_HEIGHT,
  }),
]);

/** Surface.ROTATION_0 … ROTATION_270: quarter turns of the display from its natural orientation. */
export type Rotation = 0 | 1 | 2 | 3;

/**
 * The display's frame in its current rotation: a quarter turn swaps the panel's width and height.
 * What `screencap` captures, `dumpsys window` calls `cur=` and the dump's bounds are measured in.
 */
export function rotatedSize(
  display: Pick<VirtualDisplay, 'width' | 'height'>,
  rotation: Rotation,
): { width: number; height: number } {
  return rotation % 2 === 1
    ? { width: display.height, height: display.width }
    : { width: display.width, height: display.height };
}

export interface DeviceTraitOptions {
  /** Physical displays, first = the one SurfaceFlinger lists first. Default: one built-in screen. */
  readonly displays?: readonly VirtualDisplay[];
  /**
   * The rotation the display starts at (Surface.ROTATION_*), the scenario's screens drawn for it (a
   * rotated static dump's). Default 0, the panel's natural orientation. The live rotation is the UI's
   * (DeviceUi.displayRotation): SetOrientation and VirtualDevice.setRotation turn it.
   */
  readonly rotation?: Rotation;
  /** A cold `am start` shows the app's window only this long after `am start -W` returned. */
  readonly launchDelayMs?: number;
  /** `wm density N` already set at boot (`Override density: N`). */
  readonly densityOverride?: number;
  /** API level (ro.build.version.sdk): decides the `dumpsys window` layout (28, 30, 31–33, 34+). */
  readonly sdk?: number;
  /** How long the window focus lags behind a Back (default DEFAULT_BACK_FOCUS_LAG). */
  readonly backFocusLag?: BackFocusLag;
  /** How password fields report their content to accessibility (see PasswordText). Default `bullets`. */
  readonly passwordText?: PasswordText;
  /** Suspected on some devices: how a dump fails while an instrumentation holds UiAutomation (see DumpConflict). Default `refused`. */
  readonly dumpConflict?: DumpConflict;
  /** The keyguard (a PIN lock screen) is up. Default false. */
  readonly locked?: boolean;
  /** The screen is off (`mWakefulness=Asleep`, or `Dozing` on an always-on display). Default awake. */
  readonly asleep?: Sleep;
  /**
   * How long io.appium.settings's trampoline activity holds the window focus when it is
   * started while its service is not running (the first session after boot); it closes an open
   * keyboard. 0 (the default): it finishes at once.
   */
  readonly settingsHelperFocusMs?: number;
}

/** `PowerManagerInternal.wakefulnessToString` of a screen that is off: plain sleep, or dozing (ambient display). */
export type Sleep = false | 'asleep' | 'dozing';

/**
 * Suspected on some devices: how `uiautomator dump` fails while an instrumentation (the
 * UiAutomator2 server) holds UiAutomation. `refused`: the `IllegalStateException … already
 * registered!` text and exit 1, as AOSP's UiAutomationManager answers. `killed`: the dump process
 * dies with exit 137 (SIGKILL) and prints nothing (reported in appium/appium-espresso-driver#641
 * and appium/appium#22337).
 */
export type DumpConflict = 'refused' | 'killed';

/**
 * What a password field's accessibility text holds once something is typed.
 * `bullets`: a stock TextView with PasswordTransformationMethod, one U+2022 per UTF-16 unit
 * (Flutter obscures the same way, with its obscuringCharacter). `plain`: a custom view that
 * exposes what was typed, the worst case the harness must survive.
 */
export type PasswordText = 'bullets' | 'plain';

/** Android release for an API level, for ro.build.version.release. */
export function releaseForSdk(sdk: number): string {
  const table: Readonly<Record<number, string>> = {
    26: '8.0.0',
    27: '8.1.0',
    28: '9',
    29: '10',
    30: '11',
    31: '12',
    32: '12',
    33: '13',
    34: '14',
    35: '15',
    36: '16',
  };
  return table[sdk] ?? String(Math.max(1, sdk - 20));
}

export class DeviceTraits {
  displays: readonly VirtualDisplay[] = [BUILT_IN_DISPLAY];
  launchDelayMs = 0;
  backFocusLag: BackFocusLag = DEFAULT_BACK_FOCUS_LAG;
  passwordText: PasswordText = 'bullets';
  dumpConflict: DumpConflict = 'refused';
  locked = false;
  asleep: Sleep = false;
  settingsHelperFocusMs = 0;

  constructor(options: DeviceTraitOptions = {}) {
    if (options.displays && options.displays.length > 0) this.displays = options.displays;
    this.launchDelayMs = Math.max(0, options.launchDelayMs ?? 0);
    if (options.backFocusLag) this.backFocusLag = boundedLag(options.backFocusLag);
    this.passwordText = options.passwordText ?? 'bullets';
    this.dumpConflict = options.dumpConflict ?? 'refused';
    this.locked = options.locked ?? false;
    this.asleep = options.asleep ?? false;
    this.settingsHelperFocusMs = Math.min(10_000, Math.max(0, options.settingsHelperFocusMs ?? 0));
  }

  /** The display the UI is on: the first that is ON (the inner panel of an open foldable). */
  activeDisplay(): VirtualDisplay {
    return this.displays.find((d) => d.state === 'ON') ?? (this.displays[0] as VirtualDisplay);
  }

  reset(): void {
    this.displays = [BUILT_IN_DISPLAY];
    this.launchDelayMs = 0;
    this.backFocusLag = DEFAULT_BACK_FOCUS_LAG;
    this.passwordText = 'bullets';
    this.dumpConflict = 'refused';
    this.locked = false;
    this.asleep = false;
    this.settingsHelperFocusMs = 0;
  }
}

/** Non-negative, and at most 10 s each: a lag is a transition, not a hang. */
export function boundedLag(lag: BackFocusLag): BackFocusLag {
  const clamp = (ms: number): number => Math.min(10_000, Math.max(0, Number.isFinite(ms) ? ms : 0));
  return Object.freeze({ staleMs: clamp(lag.staleMs), noFocusMs: clamp(lag.noFocusMs) });
}

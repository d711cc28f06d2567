/**
 * The device traits a test turns (docs/internals/device-quirks.md): each changes what the device reports
 * from then on, bumps the UI version when what is drawn changes, and is logged as a `fault`.
 */
import type { DeviceLogKind } from '../contracts.js';
import type { BootSequence } from './identity.js';
import { resetSdkProps, setSdkProps } from './identity.js';
import type { SystemState } from './system.js';
import {
  boundedLag,
  type DeviceTraits,
  type DumpConflict,
  type PasswordText,
  type Rotation,
  type Sleep,
  type VirtualDisplay,
} from './traits.js';
import type { DeviceUi } from './ui.js';
import type { BackFocusLag } from './windowState.js';
import type { WindowTransitions } from './windowTransitions.js';

export class TraitControls {
  constructor(
    private readonly traits: DeviceTraits,
    private readonly ui: DeviceUi,
    private readonly system: SystemState,
    private readonly windows: WindowTransitions,
    private readonly boot: BootSequence,
    private readonly log: (kind: DeviceLogKind, detail: string) => void,
  ) {}

  /** Turns the display (Surface.ROTATION_*): captures, `dumpsys window` and the page source follow. */
  setRotation(rotation: Rotation): void {
    this.ui.setRotation(rotation, 'trait rotation');
  }

  /** Physical displays, first = what `screencap` without `-d` captures. See FOLDABLE_DISPLAYS. */
  setDisplays(displays: readonly VirtualDisplay[]): void {
    if (displays.length === 0) throw new Error('A device has at least one display');
    this.traits.displays = displays;
    // The frame every read is measured in follows the active panel.
    this.ui.version++;
    this.log('fault', `trait displays: ${displays.map((d) => `${d.physicalId} ${d.state}`).join(', ')}`);
  }

  /** A cold launch shows the app's window only `ms` after `am start -W` returns (the launcher stays in the dump). */
  setLaunchDelay(ms: number): void {
    this.traits.launchDelayMs = Math.max(0, ms);
    this.windows.cancelLaunch();
    this.log('fault', `trait launch delay: ${ms} ms`);
  }

  /**
   * How long the window focus lags behind a Back that changes the screen (the old window keeps
   * focus for `staleMs`, then none has it for `noFocusMs`). `{staleMs: 0, noFocusMs: 0}` makes
   * Back synchronous. Default DEFAULT_BACK_FOCUS_LAG.
   */
  setBackFocusLag(lag: BackFocusLag): void {
    this.traits.backFocusLag = boundedLag(lag);
    this.windows.cancelBackLag();
    const { staleMs, noFocusMs } = this.traits.backFocusLag;
    this.log('fault', `trait back focus lag: stale ${staleMs} ms, no focus ${noFocusMs} ms`);
  }

  /**
   * `plain` makes password fields report what was typed (a custom view that exposes it to
   * accessibility); `bullets`, the default, is what a stock TextView reports.
   */
  setPasswordText(mode: PasswordText): void {
    this.traits.passwordText = mode;
    this.ui.version++;
    this.log('fault', `trait password text: ${mode}`);
  }

  /**
   * Suspected on some devices: `killed` makes a dump that meets a running instrumentation die with
   * exit 137 and no output instead of the `already registered` text; `refused`, the default, is AOSP's answer.
   */
  setDumpConflict(mode: DumpConflict): void {
    this.traits.dumpConflict = mode;
    this.log('fault', `trait dump conflict: ${mode}`);
  }

  /**
   * The keyguard (a PIN lock screen) is up, or gone. While it is up, System UI's window has the
   * focus, dumps and screenshots show the lock screen, and taps, swipes and keys reach nothing
   * behind it; `am start` still starts the activity, behind the keyguard.
   */
  setLocked(on: boolean): void {
    this.traits.locked = on;
    this.ui.version++;
    this.log('fault', `trait locked: ${on}`);
  }

  /** The screen is off (`asleep`, or `dozing` on an always-on display), or on (false). Input is dropped while it is off. */
  setAsleep(sleep: Sleep): void {
    this.traits.asleep = sleep;
    this.ui.version++;
    this.log('fault', `trait asleep: ${sleep}`);
  }

  /**
   * The first start of io.appium.settings's trampoline activity (while its service is not running:
   * the first Appium session after boot) holds the window focus for `ms` and closes an open
   * keyboard. 0: it finishes at once (the default).
   */
  setSettingsHelperFocus(ms: number): void {
    this.traits.settingsHelperFocusMs = Math.min(10_000, Math.max(0, ms));
    this.log('fault', `trait settings helper focus: ${this.traits.settingsHelperFocusMs} ms`);
  }

  /** As after a reboot: io.appium.settings's service is not running, so the next session starts its activity again. */
  stopSettingsHelper(): void {
    this.system.settingsHelperForeground = false;
  }

  /** API level: ro.build.version.sdk and .release, and the `dumpsys window` layout of that version. */
  setSdk(sdk: number): void {
    setSdkProps(this.system.props, sdk);
  }

  /** `wm density N` (null: `wm density reset`). */
  setDensityOverride(density: number | null): void {
    this.system.densityOverride = density;
    this.ui.version++;
  }

  /**
   * The device answers adb (`get-state` is `device`) but has not finished booting:
   * sys.boot_completed is unset and the boot animation runs for `ms`, then boot completes.
   */
  setBooting(ms: number): void {
    this.boot.start(ms);
  }

  /**
   * Back to a booted single-display API 34 phone with no launch delay, no density override, no ANR,
   * the default Back lag, bullets in password fields and refused dumps beside an instrumentation.
   */
  reset(): void {
    // setDensityOverride below bumps the UI version, so the password text is rendered afresh too.
    this.traits.reset();
    this.ui.setRotation(0, 'reset traits');
    this.windows.reset();
    this.setDensityOverride(null);
    resetSdkProps(this.system.props);
    this.boot.finishNow();
  }
}

/**
 * What the window manager reports while it catches up with the screen: a cold launch whose window
 * has no content yet, the focus lagging behind a Back, io.appium.settings's trampoline holding the
 * focus, and the state it froze at the last ANR. Each is timed on the device clock and ends by itself.
 */
import type { DeviceLogKind } from '../contracts.js';
import type { LogcatBuffer } from '../shell/context.js';
import type { DeviceClock } from './clock.js';
import { toDumpXml } from './serialize.js';
import type { SystemState } from './system.js';
import type { DeviceTraits } from './traits.js';
import type { DeviceUi, ForegroundInfo } from './ui.js';
import { LANDSCAPE, LAST_ANR_LIFETIME_MS, type FocusInTransit, type LastAnr, type WindowFacts } from './windowState.js';

/** What `recordAnr` freezes besides the current state. */
export interface AnrOptions {
  /** The `Reason:` line (default: an input dispatch timeout of the app in front). */
  readonly reason?: string;
  /** The ANR happened with the display turned to landscape (its frozen copy says `cur=2400x1080`). */
  readonly landscape?: boolean;
}

export interface WindowTransitionsDeps {
  readonly clock: DeviceClock;
  readonly traits: DeviceTraits;
  readonly ui: DeviceUi;
  readonly system: SystemState;
  readonly logcat: LogcatBuffer;
  log(kind: DeviceLogKind, detail: string): void;
  /** What `dumpsys window` would say now: the state an ANR freezes. */
  liveWindowFacts(): WindowFacts;
}

export class WindowTransitions {
  private pendingLaunch: { pkg: string; previousXml: string; until: number } | null = null;
  /** The window focus catching up with the last Back. */
  private backLag: { from: ForegroundInfo; generation: number; staleUntil: number; noFocusUntil: number } | null = null;
  private anr: LastAnr | null = null;
  /** Device clock time until which io.appium.settings's trampoline holds the focus. */
  private helperFocusUntil: number | null = null;

  constructor(private readonly d: WindowTransitionsDeps) {}

  /** Forgets every transition in progress and the last ANR. */
  reset(): void {
    this.pendingLaunch = null;
    this.backLag = null;
    this.anr = null;
    this.helperFocusUntil = null;
  }

  /** A screen set by a test shows at once: no launch or Back is still catching up. */
  settle(): void {
    this.pendingLaunch = null;
    this.backLag = null;
  }

  cancelLaunch(): void {
    this.pendingLaunch = null;
  }

  cancelBackLag(): void {
    this.backLag = null;
  }

  /** `am start` calls this right before a cold launch changes the screen (the launch-delay trait). */
  beginLaunch(pkg: string): void {
    const { traits, ui, clock } = this.d;
    if (traits.launchDelayMs <= 0) return;
    const previousXml = this.launchInProgress()?.previousXml ?? toDumpXml(ui.tree(), ui.displayRotation());
    this.pendingLaunch = { pkg, previousXml, until: clock.nowMs() + traits.launchDelayMs };
    this.d.log('fault', `slow launch of ${pkg}: its window has no content for ${traits.launchDelayMs} ms`);
  }

  launchInProgress(): { pkg: string; previousXml: string } | null {
    if (this.pendingLaunch && this.d.clock.nowMs() >= this.pendingLaunch.until) this.pendingLaunch = null;
    return this.pendingLaunch;
  }

  backNavigated(from: ForegroundInfo): void {
    const { staleMs, noFocusMs } = this.d.traits.backFocusLag;
    if (staleMs + noFocusMs <= 0) {
      this.backLag = null;
      return;
    }
    const now = this.d.clock.nowMs();
    this.backLag = {
      from,
      generation: this.d.ui.generation,
      staleUntil: now + staleMs,
      noFocusUntil: now + staleMs + noFocusMs,
    };
    this.d.log(
      'fault',
      `back: window focus stays on ${from.package} for ${staleMs} ms, then no window has it for ${noFocusMs} ms`,
    );
  }

  /** Where the window focus is while it catches up with the last Back; null once it has. */
  focusInTransit(): FocusInTransit | null {
    const lag = this.backLag;
    // Another navigation since the Back (a tap, am start) ends the transition.
    if (!lag || lag.generation !== this.d.ui.generation || this.d.clock.nowMs() >= lag.noFocusUntil) {
      this.backLag = null;
      return null;
    }
    return this.d.clock.nowMs() < lag.staleUntil ? { phase: 'stale', previous: lag.from } : { phase: 'none' };
  }

  settingsHelperStarted(): void {
    const ms = this.d.traits.settingsHelperFocusMs;
    if (ms <= 0) return;
    this.helperFocusUntil = this.d.clock.nowMs() + ms;
    this.d.ui.hideIme('io.appium.settings/.Settings took the focus');
    this.d.log('fault', `io.appium.settings/.Settings holds the window focus for ${ms} ms`);
  }

  settingsHelperInFront(): ForegroundInfo | null {
    if (this.helperFocusUntil === null || this.d.clock.nowMs() >= this.helperFocusUntil) {
      this.helperFocusUntil = null;
      return null;
    }
    return { package: 'io.appium.settings', activity: 'io.appium.settings.Settings', screenId: '' };
  }

  /**
   * An ANR happens now. The window manager saves its state of this moment (`saveANRStateLocked`),
   * and every full `dumpsys window` prints that frozen copy first, in a `WINDOW MANAGER LAST ANR`
   * section, until it is cleared, the traits are reset or two hours of device time pass.
   */
  recordAnr(options: AnrOptions = {}): void {
    const live = this.d.liveWindowFacts();
    const facts = options.landscape ? { ...live, display: LANDSCAPE } : live;
    const application = facts.focusedApp;
    const reason =
      options.reason ??
      `Input dispatching timed out (8d0a2f1 ${application.package}/${application.activity} (server) is not responding. Waited 5001ms for KeyEvent)`;
    this.anr = { atMs: this.d.clock.nowMs(), application, reason, facts };
    // ProcessErrorStateRecord.appNotResponding: the am_anr event (EventLogTags 30008) and `ANR in` in the system log.
    const pid = this.d.system.appPid(application.package) ?? 0;
    this.d.logcat.add('am_anr', `[0,${pid},${application.package},952745540,${reason}]`, 'I', 541, 'events', 1790);
    const anrIn = `ANR in ${application.package} (${application.package}/${application.activity})\nPID: ${pid}\nReason: ${reason}`;
    this.d.logcat.add('ActivityManager', anrIn, 'E', 541, 'system', 1790);
    this.d.log('fault', `ANR recorded: ${application.package} (${reason})`);
  }

  clearAnr(): void {
    this.anr = null;
  }

  /** The last ANR the window manager still remembers. */
  lastAnr(): LastAnr | null {
    if (this.anr && this.d.clock.nowMs() - this.anr.atMs >= LAST_ANR_LIFETIME_MS) this.anr = null;
    return this.anr;
  }
}

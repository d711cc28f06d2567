import { HarnessError } from '../../domain/errors.js';
import type {
  AutomationGateway,
  AutomationSession,
  Clock,
  Logger,
  RandomSource,
  TimerHandle,
} from '../../domain/ports.js';
import type { Ceilings } from '../time/Ceilings.js';
import type { WarmSession } from '../ownership/WarmSession.js';

/** Length of the opaque id ui_session_open hands out (at least 24 characters: not guessable). */
export const SESSION_ID_LENGTH = 32;

type EndReason = 'closed' | 'expired' | 'timeout' | 'lost' | 'device_gone' | 'shutdown';

interface LiveSession {
  readonly id: string;
  readonly session: AutomationSession;
  lastUseMs: number;
  inUse: number;
  timer: TimerHandle | null;
}

/** How many ended session ids are remembered, only to explain INVALID_UI_SESSION better. */
const ENDED_MEMORY = 32;

/**
 * The one UI session per device (ui_session_open): an Appium session kept open between calls
 * under an idle lease. The lease is renewed by every use and enforced by a clock
 * timer, so an abandoned session releases the driver even if nobody ever calls again.
 * Callers hold the DeviceGate; this class never waits for it.
 */
export class UiSessions {
  private live: LiveSession | null = null;
  private readonly ended = new Map<string, EndReason>();
  /** The UI session voided because its Appium session was lost, until another opens: the device may be why. */
  private lastLost: string | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly ceilings: Ceilings,
    private readonly automation: AutomationGateway,
    private readonly logger: Logger,
    readonly idleTimeoutMs: number,
    /** The session kept after an action without session_id: a UI session closes it first, a read goes through it. */
    private readonly warm: WarmSession,
    /** Told when a UI session ends, however (its evidence is held no longer: EvidenceHolds). */
    private readonly onEnd: (id: string) => void = () => undefined,
  ) {}

  get isOpen(): boolean {
    return this.live !== null;
  }

  /** Seconds until the open UI session expires if unused (0 when none). */
  secondsLeft(): number {
    const live = this.live;
    if (!live) return 0;
    const left = live.lastUseMs + this.idleTimeoutMs - this.clock.monotonicMs();
    return Math.max(0, Math.ceil(left / 1000));
  }

  /** Whether `id` is this device's open UI session (its evidence is held meanwhile: EvidenceHolds). */
  isOpenSession(id: string): boolean {
    return this.live?.id === id;
  }

  /** Whether `id` is this device's open UI session, or one that ended recently (which device a session_id names). */
  knows(id: string): boolean {
    return this.live?.id === id || this.ended.has(id);
  }

  /** EMULATOR_BUSY when a UI session owns the device (for calls that carry no session_id). */
  assertNoSession(): void {
    if (this.live) throw this.ownedError();
  }

  async open(): Promise<{ session_id: string; idle_timeout_seconds: number }> {
    if (this.live) {
      throw new HarnessError(
        'EMULATOR_BUSY',
        `A UI session is already open and owns the device: use its session_id or close it with ui_session_close; it expires in ${this.secondsLeft()} s.`,
      );
    }
    // One session at a time: the one kept after a single action goes first (its driver idle
    // timeout follows the short lease, not the UI session's, so it is not taken over).
    await this.warm.release('ui_session');
    const session = await this.ceilings.openSession(this.automation, this.idleTimeoutMs);
    const id = this.random.token(SESSION_ID_LENGTH);
    const live: LiveSession = { id, session, lastUseMs: this.clock.monotonicMs(), inUse: 0, timer: null };
    this.live = live;
    this.lastLost = null;
    this.arm(live);
    this.logger.info('UI session opened', { session: session.id });
    return { session_id: id, idle_timeout_seconds: Math.round(this.idleTimeoutMs / 1000) };
  }

  /** ui_session_close: ends the session and releases its driver. */
  async close(id: string): Promise<void> {
    const live = this.current(id);
    this.end(live, 'closed');
    try {
      await live.session.close();
    } catch (error) {
      // The harness no longer holds the session either way; Appium's newCommandTimeout is the last net.
      this.logger.warn('closing the UI session failed', { session: live.session.id, cause: String(error) });
    }
  }

  /**
   * Runs `body` with the session's driver, renewing the lease before and after. A call that
   * runs past the action ceiling, or finds the session or Appium gone, voids it: the
   * next use gets INVALID_UI_SESSION and ui_session_open works at once.
   */
  async use<T>(id: string, body: (session: AutomationSession) => Promise<T>): Promise<T> {
    const live = this.current(id);
    return this.borrowLive(live, body, true);
  }

  /**
   * For an action that needs no driver (adb only): without `id` no UI session may be open (EMULATOR_BUSY),
   * with one it runs as a use of that session (the lease renewed, the id checked), so that a session that
   * holds the device can still stop, clear or install an app.
   */
  async outsideOrIn<T>(id: string | undefined, body: () => Promise<T>): Promise<T> {
    if (id === undefined) {
      this.assertNoSession();
      return body();
    }
    return this.use(id, () => body());
  }

  /**
   * Reads through the driver this process holds without renewing its lease (ui_get_tree without
   * session_id: Android allows one UiAutomation client, so a dump would break it): the open
   * UI session's, else the session kept after an action without session_id (WarmSession). Returns null
   * when neither lives; a dump is then safe.
   */
  async borrow<T>(body: (session: AutomationSession) => Promise<T>): Promise<{ value: T } | null> {
    const live = this.live;
    if (!live) return this.warm.borrow(body);
    return { value: await this.borrowLive(live, body, false) };
  }

  /**
   * The device went away (adb no longer lists it online: DeviceAccess asked): the UI session ends now
   * and its next use is told why; its Appium session is closed behind. True when one was open.
   */
  deviceGone(): boolean {
    const live = this.live;
    if (live) {
      this.void(live, 'device_gone');
      return true;
    }
    // The call that found the device gone lost its Appium session first (voided as 'lost' in borrowLive).
    const lost = this.lastLost;
    this.lastLost = null;
    if (lost === null || this.ended.get(lost) !== 'lost') return false;
    this.ended.set(lost, 'device_gone');
    return true;
  }

  /** On server shutdown: end the UI session and release its driver. */
  async shutdown(): Promise<void> {
    const live = this.live;
    if (!live) return;
    this.end(live, 'shutdown');
    try {
      await live.session.close();
    } catch (error) {
      this.logger.warn('closing the UI session at shutdown failed', { cause: String(error) });
    }
  }

  private async borrowLive<T>(
    live: LiveSession,
    body: (session: AutomationSession) => Promise<T>,
    renew: boolean,
  ): Promise<T> {
    live.inUse += 1;
    if (renew) live.lastUseMs = this.clock.monotonicMs();
    try {
      return await body(live.session);
    } catch (error) {
      if (error instanceof HarnessError && error.code === 'OPERATION_TIMEOUT' && this.live === live) {
        this.void(live, 'timeout');
        throw new HarnessError(
          'OPERATION_TIMEOUT',
          `${error.message} The UI session was closed; open a new one with ui_session_open.`,
          { cause: error },
        );
      }
      // The driver says the session ended or Appium is gone: keeping it would only make
      // every later call EMULATOR_BUSY (and ui_session_open refuse) until the lease runs out.
      if (error instanceof HarnessError && error.code === 'APPIUM_UNAVAILABLE' && this.live === live) {
        this.void(live, 'lost');
      }
      throw error;
    } finally {
      live.inUse -= 1;
      if (renew) live.lastUseMs = this.clock.monotonicMs();
      if (this.live === live) this.arm(live);
    }
  }

  private current(id: string): LiveSession {
    const live = this.live;
    if (live && live.id === id) return live;
    if (live) throw this.ownedError();
    throw new HarnessError('INVALID_UI_SESSION', this.invalidMessage(this.ended.get(id)));
  }

  private ownedError(): HarnessError {
    return new HarnessError(
      'EMULATOR_BUSY',
      `A UI session owns the device: pass its session_id or close it with ui_session_close; it expires in ${this.secondsLeft()} s.`,
    );
  }

  private invalidMessage(reason: EndReason | undefined): string {
    switch (reason) {
      case 'expired':
        return `This UI session expired after ${Math.round(this.idleTimeoutMs / 1000)} s without use; open a new one with ui_session_open.`;
      case 'timeout':
        return 'This UI session was closed because a call ran past the action ceiling; open a new one with ui_session_open.';
      case 'lost':
        return 'This UI session was closed because its Appium session ended (Appium or the driver stopped); open a new one with ui_session_open.';
      case 'device_gone':
        return (
          'This UI session ended because its device went away (adb no longer listed it online); the device was given back at once. ' +
          'Once the device is back (emulator_get_status or device_list shows it in state `device`), open a new UI session with ui_session_open.'
        );
      case 'closed':
      case 'shutdown':
        return 'This UI session is closed; open a new one with ui_session_open, or call without session_id for a single action.';
      default:
        return 'No open UI session has this session_id; open one with ui_session_open, or call without session_id for a single action.';
    }
  }

  /** (Re)starts the idle timer so it fires when the lease, counted from the last use, runs out. */
  private arm(live: LiveSession): void {
    if (live.timer) this.clock.clearTimeout(live.timer);
    const left = Math.max(0, live.lastUseMs + this.idleTimeoutMs - this.clock.monotonicMs());
    live.timer = this.clock.setTimeout(() => this.onIdle(live), left);
  }

  private onIdle(live: LiveSession): void {
    live.timer = null;
    if (this.live !== live) return;
    // A call running right now keeps the session alive; its `finally` re-arms the timer.
    if (live.inUse > 0) return;
    if (this.clock.monotonicMs() - live.lastUseMs < this.idleTimeoutMs) {
      this.arm(live);
      return;
    }
    this.end(live, 'expired');
    this.logger.info('UI session expired', { session: live.session.id });
    this.closeInBackground(live);
  }

  private void(live: LiveSession, reason: 'timeout' | 'lost' | 'device_gone'): void {
    this.end(live, reason);
    if (reason === 'lost') this.lastLost = live.id;
    this.logger.warn('UI session voided', { session: live.session.id, reason });
    this.closeInBackground(live);
  }

  private end(live: LiveSession, reason: EndReason): void {
    if (live.timer) this.clock.clearTimeout(live.timer);
    live.timer = null;
    if (this.live === live) this.live = null;
    this.ended.set(live.id, reason);
    this.onEnd(live.id);
    if (this.ended.size > ENDED_MEMORY) {
      const oldest = this.ended.keys().next().value;
      if (oldest !== undefined) this.ended.delete(oldest);
    }
  }

  private closeInBackground(live: LiveSession): void {
    live.session.close().catch((error: unknown) => {
      this.logger.warn('closing an ended UI session failed', { session: live.session.id, cause: String(error) });
    });
  }
}

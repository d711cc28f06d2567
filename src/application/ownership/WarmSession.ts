import { HarnessError } from '../../domain/errors.js';
import type { AutomationGateway, AutomationSession, Clock, Logger, TimerHandle } from '../../domain/ports.js';
import type { Ceilings } from '../time/Ceilings.js';

/** Why the warm session ended (logged). */
export type WarmEndReason =
  'idle' | 'error' | 'timeout' | 'dump' | 'ui_session' | 'device_gone' | 'asked' | 'shutdown' | 'disabled';

interface Kept {
  readonly session: AutomationSession;
  /** Calls using it right now (at most one: callers hold the DeviceGate). */
  inUse: number;
  timer: TimerHandle | null;
  /** The lease ran out while a read used it: it ends when that read does. */
  expired: boolean;
}

/**
 * Failures after which the warm session is still sound: the driver answered (no such element, or
 * several for one action; or a screen it could not read: its root never came after the wait for idle).
 */
const DRIVER_ANSWERED: ReadonlySet<string> = new Set([
  'UI_ELEMENT_NOT_FOUND',
  'UI_ELEMENT_AMBIGUOUS',
  'UI_ELEMENT_NOT_EDITABLE',
  'UI_TREE_UNAVAILABLE',
  'UI_ACTION_FAILED',
]);

function driverAnswered(error: unknown): boolean {
  return error instanceof HarnessError && DRIVER_ANSWERED.has(error.code);
}
/**
 * The session a call without session_id runs on. Creating and deleting a UiAutomator2
 * session costs ~1.6 s on the virtual device and seconds more on an emulator, against ~66 ms for
 * the tap itself, so the session is kept for `leaseMs` after the action that used it: the next
 * action without session_id reuses it. It ends
 * - after `leaseMs` without an action (a clock timer: even if nobody calls again);
 * - after any failure of an action on it, except UI_ELEMENT_NOT_FOUND and UI_TREE_UNAVAILABLE (the
 *   driver answered; the session is sound), and at once in the background after OPERATION_TIMEOUT;
 * - before anything that needs `uiautomator dump` or navigates through adb (Android lets one
 *   UiAutomation client register: a dump would break the kept server, and the kept server would
 *   break the dump), before a UI session opens, and at shutdown.
 * While it lives it holds the device lock (SessionHoldingAutomation), so another harness process
 * gets EMULATOR_BUSY naming this one; the lock is given back when its close settles.
 * `leaseMs` 0 keeps nothing: each action opens a session and closes it in `finally`.
 * Callers hold the DeviceGate; the idle timer runs outside it and never waits for it.
 */
export class WarmSession {
  private kept: Kept | null = null;
  /** The open ensure() started, shared by the reads that arrive meanwhile. */
  private ensuring: Promise<void> | null = null;
  /** Closes started here that have not settled yet (a dump waits for them). */
  private readonly closing = new Set<Promise<void>>();
  /** Sessions of actions still running: closed at shutdown. */
  private readonly live = new Set<AutomationSession>();

  constructor(
    private readonly clock: Clock,
    private readonly ceilings: Ceilings,
    private readonly automation: AutomationGateway,
    private readonly logger: Logger,
    readonly leaseMs: number,
  ) {}

  /** Runs one action on the warm session, or on a new one (kept afterwards while the lease allows). */
  /**
   * `reused` tells the body whether the session was already open when the call came: then nothing
   * the open does (the first session after boot starts io.appium.settings, which takes the focus and
   * closes an open keyboard) happened during this call, and what the call read before is still true.
   */
  async use<T>(body: (session: AutomationSession, reused: boolean) => Promise<T>): Promise<T> {
    const reused = this.kept !== null;
    const kept = this.kept ?? (await this.openKept());
    this.stopTimer(kept);
    kept.expired = false;
    kept.inUse += 1;
    this.live.add(kept.session);
    let failure: { readonly error: unknown } | null = null;
    try {
      return await body(kept.session, reused);
    } catch (error) {
      failure = { error };
      throw error;
    } finally {
      kept.inUse -= 1;
      this.live.delete(kept.session);
      const closing = this.afterUse(kept, failure);
      // Without a lease, or after a failure, the answer comes once the session is gone (a session
      // is kept only while it is sound); after a timeout the caller is answered at the ceiling and
      // the close runs behind.
      if (closing) await closing;
    }
  }

  /**
   * Reads through the warm session without renewing its lease (ui_get_tree without session_id:
   * a dump would break the kept server). Null when nothing is kept, once every close of ours has
   * settled, so the caller's dump never meets a UiAutomator2 server that is still stopping.
   * A failed read ends the session like a failed action (and keeps it where an action would).
   */
  async borrow<T>(body: (session: AutomationSession) => Promise<T>): Promise<{ value: T } | null> {
    const kept = this.kept;
    if (!kept) {
      await this.closesSettled();
      return null;
    }
    kept.inUse += 1;
    try {
      return { value: await body(kept.session) };
    } catch (error) {
      if (this.kept === kept && !driverAnswered(error)) void this.end(kept, isTimeout(error) ? 'timeout' : 'error');
      throw error;
    } finally {
      kept.inUse -= 1;
      // The lease ran out while this read used the session.
      if (this.kept === kept && kept.expired && kept.inUse === 0) void this.end(kept, 'idle');
    }
  }

  /**
   * Remote mode: an observer has no adb to read through, so it needs a session. Opens
   * the warm session when none lives (one open at a time: the reads of one call run in parallel and
   * must share it), armed with the lease like one an action left (`fallbackLeaseMs` when
   * ANDROID_MCP_WARM_SESSION_TIMEOUT=0, so that no read opens a session of its own). A warm session
   * nobody uses right now gets its lease renewed: here reading is a use, and a model reading every
   * few seconds should not pay a session start every lease. Callers hold the DeviceGate.
   */
  async ensure(fallbackLeaseMs: number): Promise<void> {
    const lease = this.leaseMs > 0 ? this.leaseMs : fallbackLeaseMs;
    const kept = this.kept;
    if (kept) {
      // In use: the action (use) re-arms it when it ends, a running read leaves it armed.
      if (kept.inUse === 0 && !kept.expired) this.arm(kept, lease);
      return;
    }
    this.ensuring ??= this.openKept(lease)
      .then((kept) => this.arm(kept, lease))
      .finally(() => {
        this.ensuring = null;
      });
    await this.ensuring;
  }

  /** Whether a session is kept, or an action's session lives, right now. */
  get holdsSession(): boolean {
    return this.kept !== null || this.live.size > 0;
  }

  /**
   * Ends the warm session and waits until every close of ours has settled: before a dump, an adb
   * navigation or a UI session. Bounded: each close races the action ceiling (Ceilings.session).
   */
  async release(reason: WarmEndReason): Promise<void> {
    const kept = this.kept;
    if (kept) void this.end(kept, reason);
    await this.closesSettled();
  }

  /** On server shutdown: the warm session and those of actions still running. */
  async shutdown(): Promise<void> {
    const kept = this.kept;
    if (kept) void this.end(kept, 'shutdown');
    const running = [...this.live];
    this.live.clear();
    await Promise.all([...running.map((session) => this.close(session)), this.closesSettled()]);
  }

  private async openKept(leaseMs: number = this.leaseMs): Promise<Kept> {
    // The driver is told to wait longer than the lease (driverIdleTimeoutMs): Appium never drops
    // a session the harness keeps, and still drops it soon after a harness killed with SIGKILL.
    const session = await this.ceilings.openSession(this.automation, leaseMs, () => this.givenUp());
    const kept: Kept = { session, inUse: 0, timer: null, expired: false };
    this.kept = kept;
    return kept;
  }

  /**
   * Another harness process asked for the device (FileDeviceLock's ask) while this session was only
   * kept: it is closed now rather than at its lease's end, so that process waits seconds, not the
   * lease *(decision: the speed the kept session buys is for a client alone on its device)*.
   */
  private givenUp(): void {
    const kept = this.kept;
    if (!kept || kept.inUse > 0) return;
    this.logger.info('per-action session given up: another process asked for the device', { session: kept.session.id });
    void this.end(kept, 'asked');
  }

  /** After an action: keep and re-arm, or end; returns the close the caller must wait for. */
  private afterUse(kept: Kept, failure: { readonly error: unknown } | null): Promise<void> | null {
    if (this.kept !== kept) return null;
    const sound = failure === null || driverAnswered(failure.error);
    if (sound && this.leaseMs > 0) {
      this.arm(kept);
      return null;
    }
    if (sound) return this.end(kept, 'disabled');
    if (isTimeout(failure?.error)) {
      void this.end(kept, 'timeout');
      return null;
    }
    return this.end(kept, 'error');
  }

  /** Forgets the warm session and starts its close (tracked until it settles). */
  private end(kept: Kept, reason: WarmEndReason): Promise<void> {
    this.stopTimer(kept);
    if (this.kept === kept) this.kept = null;
    if (reason !== 'disabled') this.logger.debug('per-action session ended', { session: kept.session.id, reason });
    const closing = this.close(kept.session);
    this.closing.add(closing);
    void closing.then(() => this.closing.delete(closing));
    return closing;
  }

  private arm(kept: Kept, leaseMs: number = this.leaseMs): void {
    this.stopTimer(kept);
    kept.timer = this.clock.setTimeout(() => {
      kept.timer = null;
      if (this.kept !== kept) return;
      // A read running right now keeps it until the read ends (borrow's finally).
      if (kept.inUse > 0) {
        kept.expired = true;
        return;
      }
      this.logger.info('per-action session closed after its idle lease', { session: kept.session.id });
      void this.end(kept, 'idle');
    }, leaseMs);
  }

  private stopTimer(kept: Kept): void {
    if (kept.timer) this.clock.clearTimeout(kept.timer);
    kept.timer = null;
  }

  private closesSettled(): Promise<void> {
    if (this.closing.size === 0) return Promise.resolve();
    return Promise.all([...this.closing]).then(() => undefined);
  }

  private close(session: AutomationSession): Promise<void> {
    return session.close().catch((error: unknown) => {
      this.logger.warn('closing a per-action Appium session failed', { session: session.id, cause: String(error) });
    });
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof HarnessError && error.code === 'OPERATION_TIMEOUT';
}

import type { AutomationEndpointStatus } from '../../domain/automationEndpoint.js';
import type {
  AutomationGateway,
  AutomationSession,
  Clock,
  DeviceLock,
  Logger,
  SessionOptions,
} from '../../domain/ports.js';
import { withCloseOnce } from '../time/closeOnce.js';

/** A session whose close never settles (Appium hung) gives the device back after this long anyway. */
export const SESSION_CLOSE_HOLD_LIMIT_MS = 15_000;

/**
 * Keeps this process's cross-process device lock for as long as an Appium session it opened
 * lives. A UI session outlives the operation that opened it (ui_session_open), and a
 * warm session that timed out is still being closed after its operation answered:
 * another harness process must not drive the device meanwhile. The hold is taken before the
 * session is requested (inside the operation's hold, so it is re-entrant and cannot fail) and
 * given back when the session's close settles.
 */
export class SessionHoldingAutomation implements AutomationGateway {
  /** The holds of the sessions that live (or are still closing), to give back at once when the device went away. */
  private readonly held = new Set<() => void>();

  constructor(
    private readonly inner: AutomationGateway,
    private readonly lock: DeviceLock,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly closeHoldLimitMs: number = SESSION_CLOSE_HOLD_LIMIT_MS,
  ) {}

  status(): Promise<AutomationEndpointStatus> {
    return this.inner.status();
  }

  listSessionIds(): Promise<string[]> {
    return this.inner.listSessionIds();
  }

  /**
   * The device went away (DeviceAccess): every session hold is given back now, while the sessions'
   * closes go on behind. Waiting for them would keep the device from a restarted emulator and from
   * every other process for as long as Appium takes to give up on a device that is not there.
   */
  /** Whether a session of this process holds the device (alive, or still closing). */
  get holdsDevice(): boolean {
    return this.held.size > 0;
  }

  releaseNow(): void {
    const holds = [...this.held];
    this.held.clear();
    for (const release of holds) release();
    if (holds.length > 0)
      this.logger.info('the device went away; its Appium sessions no longer hold it', { holds: holds.length });
  }

  async openSession(options: SessionOptions): Promise<AutomationSession> {
    const once = this.lock.hold({
      tool: 'an Appium session',
      operationId: 'opening',
      kind: 'session',
      ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
      ...(options.onAsked ? { onAsked: options.onAsked } : {}),
    });
    const release = (): void => {
      this.held.delete(release);
      once();
    };
    this.held.add(release);
    let session: AutomationSession;
    try {
      session = await this.inner.openSession(options);
    } catch (error) {
      release();
      throw error;
    }
    return this.holding(session, release);
  }

  private holding(inner: AutomationSession, release: () => void): AutomationSession {
    return withCloseOnce(inner, () => {
      const limit = this.clock.setTimeout(() => {
        this.logger.warn('an Appium session did not finish closing; giving the device lock back anyway', {
          session: inner.id,
        });
        release();
      }, this.closeHoldLimitMs);
      return inner.close().finally(() => {
        this.clock.clearTimeout(limit);
        release();
      });
    });
  }
}

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
 * per-action session that timed out is still being closed after its operation answered:
 * another harness process must not drive the device meanwhile. The hold is taken before the
 * session is requested (inside the operation's hold, so it is re-entrant and cannot fail) and
 * given back when the session's close settles.
 */
export class SessionHoldingAutomation implements AutomationGateway {
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

  async openSession(options: SessionOptions): Promise<AutomationSession> {
    const release = this.lock.hold({
      tool: 'an Appium session',
      operationId: 'opening',
      kind: 'session',
      ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    });
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

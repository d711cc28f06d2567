import { HarnessError } from '../domain/errors.js';
import type { AutomationGateway, AutomationSession, Logger } from '../domain/ports.js';
import type { Ceilings } from './Ceilings.js';
import type { FlowSessions } from './FlowSessions.js';

/**
 * Picks the driver an action runs on: the open flow's (when its session_id is given)
 * or a temporary session opened for this one action and closed in `finally`.
 */
export class SessionBroker {
  /** Temporary sessions whose action has not finished yet: closed at shutdown if still there. */
  private readonly live = new Set<AutomationSession>();

  constructor(
    private readonly flows: FlowSessions,
    private readonly ceilings: Ceilings,
    private readonly automation: AutomationGateway,
    private readonly logger: Logger,
  ) {}

  async withSession<T>(sessionId: string | undefined, body: (session: AutomationSession) => Promise<T>): Promise<T> {
    if (sessionId !== undefined) return this.flows.use(sessionId, body);
    this.flows.assertNoFlow();
    // Closed as soon as the action ends: never idle between calls.
    const session = await this.ceilings.openSession(this.automation, 0);
    this.live.add(session);
    let timedOut = false;
    try {
      return await body(session);
    } catch (error) {
      timedOut = error instanceof HarnessError && error.code === 'OPERATION_TIMEOUT';
      throw error;
    } finally {
      this.live.delete(session);
      const closing = this.close(session);
      // After a timeout the caller must be answered now; the close still runs (bounded) behind it.
      if (!timedOut) await closing;
    }
  }

  /**
   * On server shutdown: closes the temporary sessions of actions still running, which the
   * process would otherwise leave to Appium's newCommandTimeout (an APPIUM_URL server outlives us).
   */
  async shutdown(): Promise<void> {
    const running = [...this.live];
    this.live.clear();
    await Promise.all(running.map((session) => this.close(session)));
  }

  private close(session: AutomationSession): Promise<void> {
    return session.close().catch((error: unknown) => {
      this.logger.warn('closing a per-action Appium session failed', { session: session.id, cause: String(error) });
    });
  }
}

import { HarnessError } from '../domain/errors.js';
import type { AutomationGateway, AutomationSession, Logger } from '../domain/ports.js';
import type { Ceilings } from './Ceilings.js';
import type { FlowSessions } from './FlowSessions.js';

/**
 * Picks the driver an action runs on: the open flow's (when its session_id is given)
 * or a temporary session opened for this one action and closed in `finally`.
 */
export class SessionBroker {
  constructor(
    private readonly flows: FlowSessions,
    private readonly ceilings: Ceilings,
    private readonly automation: AutomationGateway,
    private readonly logger: Logger,
  ) {}

  async withSession<T>(sessionId: string | undefined, body: (session: AutomationSession) => Promise<T>): Promise<T> {
    if (sessionId !== undefined) return this.flows.use(sessionId, body);
    this.flows.assertNoFlow();
    const session = await this.ceilings.openSession(this.automation);
    let timedOut = false;
    try {
      return await body(session);
    } catch (error) {
      timedOut = error instanceof HarnessError && error.code === 'OPERATION_TIMEOUT';
      throw error;
    } finally {
      const closing = session.close().catch((error: unknown) => {
        this.logger.warn('closing a per-action Appium session failed', { session: session.id, cause: String(error) });
      });
      // After a timeout the caller must be answered now; the close still runs (bounded) behind it.
      if (!timedOut) await closing;
    }
  }
}

import type { AutomationSession } from '../../domain/ports.js';
import type { UiSessions } from './UiSessions.js';
import type { WarmSession } from '../ownership/WarmSession.js';

/**
 * Picks the driver an action runs on: the open UI session's (when its session_id is given), or the
 * warm session (WarmSession: kept for a short idle lease after the action, so the next
 * action without session_id does not pay a session start).
 */
export class SessionBroker {
  constructor(
    private readonly sessions: UiSessions,
    private readonly warm: WarmSession,
  ) {}

  /** `reused`: the session was open before this call (a UI session always is; the warm one when kept). */
  async withSession<T>(
    sessionId: string | undefined,
    body: (session: AutomationSession, reused: boolean) => Promise<T>,
  ): Promise<T> {
    if (sessionId !== undefined) return this.sessions.use(sessionId, (session) => body(session, true));
    this.sessions.assertNoSession();
    return this.warm.use(body);
  }

  /**
   * On server shutdown: closes the warm session and those of actions still running,
   * which the process would otherwise leave to Appium's newCommandTimeout (an APPIUM_URL server outlives us).
   */
  shutdown(): Promise<void> {
    return this.warm.shutdown();
  }
}

import type { AutomationEndpointStatus } from '../../domain/automationEndpoint.js';
import type { AutomationGateway, AutomationSession, Clock, Logger, SessionOptions } from '../../domain/ports.js';
import { withCloseOnce } from '../time/closeOnce.js';

/** How long a new session waits for an earlier one's close before it is requested anyway. */
export const PREVIOUS_CLOSE_WAIT_LIMIT_MS = 15_000;

/**
 * A new Appium session is requested only once the sessions this process closed before it have
 * finished closing. After a timeout the old session is closed in the background (the caller is
 * answered at the ceiling), so the next call may open a session while Appium still deletes the
 * old one; UiAutomator2's delete ends with `am force-stop io.appium.uiautomator2.server`, which
 * then kills the NEW session's server in the middle of its first commands (seen as a swipe that
 * failed with "socket hang up" instead of timing out). Waiting here, at the start of the next
 * call, keeps the timed-out call's answer on time. A close that never settles stops being
 * waited for after `waitLimitMs` (logged); the connect budget around openSession bounds it too.
 */
export class OneSessionAtATime implements AutomationGateway {
  private readonly closing = new Set<Promise<void>>();

  constructor(
    private readonly inner: AutomationGateway,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly waitLimitMs: number = PREVIOUS_CLOSE_WAIT_LIMIT_MS,
  ) {}

  status(): Promise<AutomationEndpointStatus> {
    return this.inner.status();
  }

  listSessionIds(): Promise<string[]> {
    return this.inner.listSessionIds();
  }

  async openSession(options: SessionOptions): Promise<AutomationSession> {
    await this.previousClosesSettled();
    return this.tracked(await this.inner.openSession(options));
  }

  private async previousClosesSettled(): Promise<void> {
    if (this.closing.size === 0) return;
    let timer: ReturnType<Clock['setTimeout']> | null = null;
    const limit = new Promise<'limit'>((resolve) => {
      timer = this.clock.setTimeout(() => resolve('limit'), this.waitLimitMs);
    });
    const settled = Promise.allSettled([...this.closing]).then(() => 'settled' as const);
    const outcome = await Promise.race([settled, limit]);
    if (timer !== null) this.clock.clearTimeout(timer);
    if (outcome === 'limit') {
      this.logger.warn('an earlier Appium session is still closing; opening the next one anyway', {
        waited_ms: this.waitLimitMs,
      });
    }
  }

  private tracked(inner: AutomationSession): AutomationSession {
    return withCloseOnce(inner, () => {
      const running = inner.close();
      const settledMark = running.then(
        () => undefined,
        () => undefined,
      );
      this.closing.add(settledMark);
      void settledMark.then(() => this.closing.delete(settledMark));
      return running;
    });
  }
}

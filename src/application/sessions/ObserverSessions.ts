import { HarnessError } from '../../domain/errors.js';
import type { AutomationSession, DriverSessionSource } from '../../domain/ports.js';
import type { WarmSession } from '../ownership/WarmSession.js';
import type { UiSessions } from './UiSessions.js';

/** The lease of a session an observer opened in remote mode when ANDROID_MCP_WARM_SESSION_TIMEOUT is 0; else that lease. */
export const OBSERVER_LEASE_MS = 30_000;

/**
 * Remote mode's answer to "read the screen" without adb: the device's open UI session
 * (its lease not renewed), else the warm session, else a warm session opened for the
 * read: the warm lease (ANDROID_MCP_WARM_SESSION_TIMEOUT, 30 s by default; OBSERVER_LEASE_MS when
 * that is 0), renewed by each read, closed by its idle timer, before a UI session opens, at shutdown
 * and on SIGTERM (WarmSession). So observing opens a session here (observing never opening one is
 * weakened in remote mode: docs/reference/contract.md, "Remote mode"), but never a second one: one owner,
 * one session per device, as for actions. Callers hold the DeviceGate.
 */
export class ObserverSessions implements DriverSessionSource {
  constructor(
    private readonly sessions: UiSessions,
    private readonly warm: WarmSession,
  ) {}

  async withSession<T>(body: (session: AutomationSession) => Promise<T>): Promise<T> {
    // A UI session holds the device: read through it, its lease untouched (as ui_get_tree does in local mode).
    if (!this.sessions.isOpen) await this.warm.ensure(OBSERVER_LEASE_MS);
    const held = await this.sessions.borrow(body);
    if (held) return held.value;
    // The warm session ended between the open and the read (its idle timer raced): once more, then give up.
    await this.warm.ensure(OBSERVER_LEASE_MS);
    const again = await this.sessions.borrow(body);
    if (again) return again.value;
    throw new HarnessError(
      'APPIUM_UNAVAILABLE',
      'The session opened to read the device ended before it could be used (the endpoint dropped it). Retry the call.',
    );
  }
}

import type { UiSessions } from './UiSessions.js';

/**
 * The UI sessions of every device this process binds, each added as its binding is made. What an
 * open UI session's answers gave out is kept while it lives, whichever device it is on
 * (EvidenceHolds asks here), and a session that ends tells EvidenceHolds at once: made before both,
 * so neither waits for the other to exist.
 */
export class EveryDeviceUiSessions {
  private readonly all: UiSessions[] = [];

  add(sessions: UiSessions): void {
    this.all.push(sessions);
  }

  /** Whether `id` is the open UI session of any device. */
  isOpenSession(id: string): boolean {
    return this.all.some((sessions) => sessions.isOpenSession(id));
  }
}

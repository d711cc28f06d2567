import { AsyncLocalStorage } from 'node:async_hooks';
import type { EvidenceHoldBoard, Logger } from '../../domain/ports.js';

/** Whether a session id names a UI session that is open now. */
export type SessionLiveness = (sessionId: string) => boolean;

/**
 * The evidence this process must keep whatever the retention bound says: what a running call has
 * written and not answered yet, and what the answers of an open UI session gave out, for as long as
 * that session lives (the model may still read it, or name it in a report). Each call runs in its
 * own scope (AsyncLocalStorage), so what it writes is known without the use cases passing anything.
 *
 * Published on the hold board whenever it changes, so other processes sharing the directory keep it too.
 */
export class EvidenceHolds {
  private readonly scope = new AsyncLocalStorage<Set<string>>();
  /** Names written by calls that have not answered yet. */
  private readonly inFlight = new Set<string>();
  private readonly bySession = new Map<string, Set<string>>();
  /** Board writes, one after the other, each of the state at its turn. */
  private publishing: Promise<void> = Promise.resolve();
  private lastPublished = '';

  constructor(
    private readonly isLive: SessionLiveness,
    private readonly board: EvidenceHoldBoard | null,
    private readonly logger: Logger,
  ) {}

  /**
   * Runs one call. What it writes is held until it answers; then, when `sessionId` names an open
   * UI session, until that session ends.
   */
  async during<T>(sessionId: string | undefined, body: () => Promise<T>): Promise<T> {
    const written = new Set<string>();
    try {
      return await this.scope.run(written, body);
    } finally {
      for (const name of written) this.inFlight.delete(name);
      if (written.size > 0 && sessionId !== undefined && this.isLive(sessionId)) {
        const held = this.bySession.get(sessionId) ?? new Set<string>();
        for (const name of written) held.add(name);
        this.bySession.set(sessionId, held);
      }
      // Also when the board shows something this call gave back (a claim whose file was not written).
      if (written.size > 0 || this.lastPublished !== '') await this.publish();
    }
  }

  /**
   * Holds `name` for the running call, before its file exists: published first, so another
   * process never sees the file unheld. Outside a call (nothing would ever release it) nothing is held.
   */
  async claim(name: string): Promise<void> {
    const written = this.scope.getStore();
    if (!written) return;
    written.add(name);
    this.inFlight.add(name);
    await this.publish();
  }

  /** Gives back a claim whose file was not written (its name was taken). */
  release(name: string): void {
    this.scope.getStore()?.delete(name);
    this.inFlight.delete(name);
  }

  /** Everything this process holds now; sessions that have ended hold nothing any more. */
  held(): ReadonlySet<string> {
    const held = new Set(this.inFlight);
    for (const [sessionId, names] of this.bySession) {
      if (!this.isLive(sessionId)) {
        this.bySession.delete(sessionId);
        continue;
      }
      for (const name of names) held.add(name);
    }
    return held;
  }

  /** Writes the board when what is held changed; a failure is logged, never thrown. */
  publish(): Promise<void> {
    const board = this.board;
    if (!board) return Promise.resolve();
    this.publishing = this.publishing.then(async () => {
      const names = [...this.held()].sort();
      const signature = names.join('\n');
      if (signature === this.lastPublished) return;
      try {
        await board.publish(names);
        this.lastPublished = signature;
      } catch (error) {
        this.logger.warn(
          'the evidence hold board could not be written; other processes sharing the evidence directory may not see what this one holds',
          {
            cause: String(error),
          },
        );
      }
    });
    return this.publishing;
  }
}

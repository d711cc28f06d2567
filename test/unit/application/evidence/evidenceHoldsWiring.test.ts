import { describe, expect, it } from 'vitest';
import type { EvidenceHoldBoard } from '../../../../src/domain/ports.js';
import { buildHarness } from '../../../support/fakes/harness.js';

/** This process's board entry as last written. */
class LastPublished implements EvidenceHoldBoard {
  last: string[] = [];
  publish(names: readonly string[]): Promise<void> {
    this.last = [...names];
    return Promise.resolve();
  }
  heldByOthers(): Promise<ReadonlySet<string>> {
    return Promise.resolve(new Set());
  }
}

const bounded = { artifactsRetention: { maxFiles: 2, maxBytes: null }, sessionIdleTimeoutMs: 60_000 };

describe('evidence held by an open UI session, through the server (tools/call)', () => {
  it('keeps every capture of the session while it is open, past the bound; after ui_session_close the oldest go', async () => {
    const board = new LastPublished();
    const h = buildHarness(bounded, { evidenceHoldBoard: board });
    const open = await h.envelope('ui_session_open');
    const sessionId = String(open.data.session_id);
    const held: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const shot = await h.envelope('screen_capture', { session_id: sessionId });
      expect(shot.ok, JSON.stringify(shot.error)).toBe(true);
      held.push(shot.evidence!.artifact_id);
      await h.clock.advance(1);
    }
    expect([...h.store.files.keys()].sort()).toEqual(held);
    expect(board.last).toEqual(held);
    expect((await h.envelope('ui_session_close', { session_id: sessionId })).ok).toBe(true);
    // The board forgets them as the session ends, before anything else is written.
    expect(board.last).toEqual([]);
    const after = (await h.envelope('screen_capture')).evidence!.artifact_id;
    expect([...h.store.files.keys()].sort()).toEqual([held[2], after]);
  });

  it('a session that expires holds nothing from then on', async () => {
    const board = new LastPublished();
    const h = buildHarness(bounded, { evidenceHoldBoard: board });
    const sessionId = String((await h.envelope('ui_session_open')).data.session_id);
    const shot = (await h.envelope('screen_capture', { session_id: sessionId })).evidence!.artifact_id;
    expect(board.last).toEqual([shot]);
    await h.clock.advance(60_001);
    await new Promise((resolve) => setImmediate(resolve));
    expect(board.last).toEqual([]);
  });

  it('a capture without session_id is held only until its call answers', async () => {
    const board = new LastPublished();
    const h = buildHarness(bounded, { evidenceHoldBoard: board });
    expect((await h.envelope('screen_capture')).ok).toBe(true);
    expect(board.last).toEqual([]);
  });
});

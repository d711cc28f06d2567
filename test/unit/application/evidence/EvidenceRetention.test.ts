import { describe, expect, it } from 'vitest';
import { EvidenceHolds } from '../../../../src/application/evidence/EvidenceHolds.js';
import {
  EvidenceRetention,
  MAX_REMOVALS_PER_WRITE,
  RESYNC_INTERVAL_MS,
} from '../../../../src/application/evidence/EvidenceRetention.js';
import { EvidenceWriter } from '../../../../src/application/evidence/EvidenceWriter.js';
import { planPrune, type RetentionBound } from '../../../../src/domain/evidence/retention.js';
import type { EvidenceHoldBoard } from '../../../../src/domain/ports.js';
import { PngImageTools } from '../../../../src/infrastructure/png/PngImageTools.js';
import { FakeClock } from '../../../support/FakeClock.js';
import { makePng } from '../../../support/fakes/images.js';
import { MemoryEvidenceStore } from '../../../support/fakes/MemoryEvidenceStore.js';
import { RecordingLogger } from '../../../support/fakes/RecordingLogger.js';

const files = (...sizes: number[]) => sizes.map((bytes, i) => ({ name: `n${i}`, bytes }));
const total = (list: readonly { bytes: number }[]) => list.reduce((sum, f) => sum + f.bytes, 0);
const none = () => false;

describe('planPrune', () => {
  it('removes the oldest first until the count fits', () => {
    const list = files(1, 1, 1, 1, 1);
    expect(planPrune(list, total(list), { maxFiles: 3, maxBytes: null }, none)).toEqual(['n0', 'n1']);
    expect(planPrune(list, total(list), { maxFiles: 5, maxBytes: null }, none)).toEqual([]);
  });

  it('removes the oldest first until the bytes fit, whatever their sizes', () => {
    const list = files(50, 10, 10, 40, 30);
    expect(planPrune(list, total(list), { maxFiles: null, maxBytes: 75 }, none)).toEqual(['n0', 'n1', 'n2']);
    // Both bounds: the stricter one decides.
    expect(planPrune(list, total(list), { maxFiles: 4, maxBytes: 125 }, none)).toEqual(['n0']);
    expect(planPrune(list, total(list), { maxFiles: 2, maxBytes: 1000 }, none)).toEqual(['n0', 'n1', 'n2']);
  });

  it('skips what is held, which still takes its room; held files alone past the bound leave only them', () => {
    const list = files(1, 1, 1, 1, 1);
    expect(planPrune(list, total(list), { maxFiles: 3, maxBytes: null }, (n) => n === 'n0')).toEqual(['n1', 'n2']);
    expect(planPrune(list, total(list), { maxFiles: 1, maxBytes: null }, (n) => n !== 'n4')).toEqual(['n4']);
    expect(planPrune(list, total(list), { maxFiles: null, maxBytes: null }, none)).toEqual([]);
  });
});

/** A board another process has written: what it holds, and how often it was read. */
class OtherProcessBoard implements EvidenceHoldBoard {
  readonly others = new Set<string>();
  readonly history: string[][] = [];
  reads = 0;
  publish(names: readonly string[]): Promise<void> {
    this.history.push([...names]);
    return Promise.resolve();
  }
  heldByOthers(): Promise<ReadonlySet<string>> {
    this.reads += 1;
    return Promise.resolve(new Set(this.others));
  }
}

function setup(bound: RetentionBound, options: { board?: EvidenceHoldBoard | null } = {}) {
  const store = new MemoryEvidenceStore();
  const clock = new FakeClock();
  const logger = new RecordingLogger();
  const live = new Set<string>();
  const board = options.board ?? null;
  const holds = new EvidenceHolds((id) => live.has(id), board, logger);
  const retention = new EvidenceRetention(store, holds, board, bound, clock, logger);
  const writer = new EvidenceWriter(store, new PngImageTools(), clock, logger, retention);
  const png = (side: number) => makePng(side, side);
  /** One capture, as a call: `sessionId` names the UI session the call ran in. */
  const capture = async (sessionId?: string, side = 4): Promise<string> => {
    const written = await holds.during(sessionId, () => writer.write('screen', png(side)));
    await clock.advance(1);
    return written.ref.artifact_id;
  };
  return { store, clock, logger, live, holds, retention, writer, capture, png };
}

describe('the retention bound applied after each write', () => {
  it('keeps the newest files within the count, oldest out first, and resources/list forgets the removed', async () => {
    const { store, capture, writer } = setup({ maxFiles: 3, maxBytes: null });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await capture());
    expect([...store.files.keys()].sort()).toEqual(ids.slice(2));
    expect(writer.recentIds()).toEqual(ids.slice(2).reverse());
  });

  it('keeps the newest within the bytes, whatever the count', async () => {
    const sizes = setup({ maxFiles: null, maxBytes: null });
    const small = sizes.png(4).length;
    const large = sizes.png(40).length;
    expect(large).toBeGreaterThan(small * 3);
    const { store, capture } = setup({ maxFiles: null, maxBytes: large + small * 2 });
    const ids = [await capture(undefined, 40), await capture(), await capture()];
    expect([...store.files.keys()].sort()).toEqual(ids);
    // One more small file: the large one, the oldest, goes, and frees room for several.
    ids.push(await capture());
    expect([...store.files.keys()].sort()).toEqual(ids.slice(1));
  });

  it('never removes the file just written, even when it alone is past the bound', async () => {
    const { store, capture, writer, png, clock } = setup({ maxFiles: null, maxBytes: 10 });
    const first = await capture();
    expect([...store.files.keys()]).toEqual([first]);
    const second = await capture();
    expect([...store.files.keys()]).toEqual([second]);
    // Outside any call too (nothing holds it there).
    await clock.advance(1);
    const third = (await writer.write('screen', png(4))).ref.artifact_id;
    expect([...store.files.keys()]).toEqual([third]);
  });

  it('keeps what an open UI session gave out while it lives, then lets it go oldest first', async () => {
    const { store, capture, live } = setup({ maxFiles: 2, maxBytes: null });
    live.add('flow-1');
    const held = await capture('flow-1');
    const a = await capture();
    const b = await capture();
    const c = await capture();
    expect([...store.files.keys()].sort()).toEqual([held, c]);
    expect(store.files.has(a) || store.files.has(b)).toBe(false);
    live.delete('flow-1');
    const d = await capture();
    expect([...store.files.keys()].sort()).toEqual([c, d]);
  });

  it('does not hold what a call names under a session that is not open (ended, or never was)', async () => {
    const { store, capture } = setup({ maxFiles: 1, maxBytes: null });
    await capture('no-such-flow');
    const second = await capture();
    expect([...store.files.keys()]).toEqual([second]);
  });

  it('keeps what a running call has written and not answered yet', async () => {
    const { store, holds, writer, png, clock } = setup({ maxFiles: 1, maxBytes: null });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inFlight = '';
    const running = holds.during(undefined, async () => {
      inFlight = (await writer.write('ui-tap', png(4))).ref.artifact_id;
      await gate;
    });
    await new Promise((resolve) => setImmediate(resolve));
    while (inFlight === '') await new Promise((resolve) => setImmediate(resolve));
    await clock.advance(1);
    const other = (await holds.during(undefined, () => writer.write('screen', png(4)))).ref.artifact_id;
    // The bound is 1, yet the answer of the running call will name its file: both stay.
    expect([...store.files.keys()].sort()).toEqual([inFlight, other].sort());
    release();
    await running;
    await clock.advance(1);
    const third = (await holds.during(undefined, () => writer.write('screen', png(4)))).ref.artifact_id;
    expect([...store.files.keys()]).toEqual([third]);
  });

  it('keeps what another live process holds (its board), and reads the board only when something would go', async () => {
    const board = new OtherProcessBoard();
    const { store, capture, clock } = setup({ maxFiles: 2, maxBytes: null }, { board });
    const theirs = '20261130-171203-000001-ui-tap.png';
    store.files.set(theirs, Buffer.from('their png'));
    board.others.add(theirs);
    const a = await capture();
    expect(board.reads).toBe(0);
    const b = await capture();
    expect([...store.files.keys()].sort()).toEqual([theirs, b]);
    expect(store.files.has(a)).toBe(false);
    expect(board.reads).toBe(1);
    // Each capture is on this process's board from before its file exists until its call answers (no session here).
    expect(board.history).toEqual([[a], [], [b], []]);
    await clock.advance(1);
  });

  it('a capture that could not be written leaves nothing on the board', async () => {
    const board = new OtherProcessBoard();
    const { store, holds, writer, png } = setup({ maxFiles: 2, maxBytes: null }, { board });
    store.failWith = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    await expect(holds.during(undefined, () => writer.write('screen', png(4)))).rejects.toMatchObject({
      code: 'EVIDENCE_WRITE_FAILED',
    });
    expect(board.history.at(-1)).toEqual([]);
    expect(board.history).toHaveLength(2);
  });

  it('lists the directory once, then from its own writes, and again after the resync interval (what others wrote)', async () => {
    const { store, capture, clock } = setup({ maxFiles: 3, maxBytes: null });
    const first = await capture();
    expect(store.listings).toBe(1);
    for (let i = 0; i < 10; i += 1) await capture();
    expect(store.listings).toBe(1);
    // Another process wrote two older files: not counted until the next listing.
    store.files.set('20200101-000000-000001-screen.png', Buffer.alloc(10));
    store.files.set('20200101-000000-000002-screen.png', Buffer.alloc(10));
    await capture();
    expect(store.files.size).toBe(5);
    await clock.advance(RESYNC_INTERVAL_MS);
    const last = await capture();
    expect(store.listings).toBe(2);
    expect(store.files.size).toBe(3);
    expect(store.files.has('20200101-000000-000001-screen.png')).toBe(false);
    expect(store.files.has(last)).toBe(true);
    expect(store.files.has(first)).toBe(false);
  });

  it('never fails the action: a removal that fails is logged on stderr and the write answers', async () => {
    const { store, capture, logger } = setup({ maxFiles: 1, maxBytes: null });
    await capture();
    store.removeFailure = Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    const second = await capture();
    expect(store.files.has(second)).toBe(true);
    expect(store.files.size).toBe(2);
    expect(logger.entries.filter((e) => e.level === 'warn').map((e) => e.message)).toEqual([
      'an evidence file past the retention bound could not be removed',
    ]);
    store.removeFailure = null;
    const third = await capture();
    expect([...store.files.keys()]).toEqual([third]);
  });

  it('never fails the action when the directory cannot be listed either', async () => {
    const { store, capture, logger } = setup({ maxFiles: 1, maxBytes: null });
    store.list = () => Promise.reject(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    const id = await capture();
    expect(store.files.has(id)).toBe(true);
    expect(logger.entries.find((e) => e.level === 'warn')?.message).toBe(
      'the evidence retention bound could not be applied; the action went on',
    );
  });

  it('a directory far over the bound shrinks by at most MAX_REMOVALS_PER_WRITE files a write', async () => {
    const { store, capture } = setup({ maxFiles: 5, maxBytes: null });
    const old = MAX_REMOVALS_PER_WRITE + 200;
    for (let i = 0; i < old; i += 1)
      store.files.set(`20200101-000000-${String(i).padStart(6, '0')}-screen.png`, Buffer.alloc(1));
    await capture();
    expect(store.files.size).toBe(old + 1 - MAX_REMOVALS_PER_WRITE);
    await capture();
    expect(store.files.size).toBe(5);
  });

  it('unbounded: nothing is listed, nothing removed', async () => {
    const { store, capture } = setup({ maxFiles: null, maxBytes: null });
    for (let i = 0; i < 5; i += 1) await capture();
    expect(store.files.size).toBe(5);
    expect(store.listings).toBe(0);
  });
});

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BLANK_CAPTURE_MESSAGE, EvidenceWriter } from '../../../src/application/evidence/EvidenceWriter.js';
import { ARTIFACT_ID_PATTERN } from '../../../src/domain/evidenceName.js';
import { FileEvidenceStore } from '../../../src/infrastructure/fs/FileEvidenceStore.js';
import { PngImageTools } from '../../../src/infrastructure/png/PngImageTools.js';
import { FakeClock } from '../../support/FakeClock.js';
import { makePng } from '../../support/fakes/images.js';
import { MemoryEvidenceStore } from '../../support/fakes/MemoryEvidenceStore.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';

function writer(store = new MemoryEvidenceStore(), clock = new FakeClock()) {
  return {
    store,
    clock,
    writer: new EvidenceWriter(store, new PngImageTools(), clock, new RecordingLogger()),
  };
}

/** A wall clock that can be stepped (as NTP does) while the monotonic clock runs on. */
class SteppedClock extends FakeClock {
  stepMicros = 0;
  override epochMicros(): number {
    return super.epochMicros() + this.stepMicros;
  }
}

/** The real store, counting the names the file system refused as already taken. */
class ClashCountingStore extends FileEvidenceStore {
  clashes = 0;
  override async createExclusive(name: string, bytes: Buffer): Promise<void> {
    try {
      await super.createExclusive(name, bytes);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') this.clashes += 1;
      throw error;
    }
  }
}

/** The µs field of a name: what its position in a sorted listing depends on within one second. */
const micros = (id: string): string => id.split('-')[2] ?? '';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('EvidenceWriter', () => {
  it('issues the artifact id alone: the file of that name in the evidence directory', async () => {
    const { writer: w, store } = writer();
    const written = await w.write('ui-tap', makePng(8, 8));
    // The fake clock stands at 17:12:03.482 UTC: the six digits are its microseconds.
    expect(written.ref).toEqual({ artifact_id: '20261130-171203-482000-ui-tap.png' });
    expect(written.ref.artifact_id).toMatch(ARTIFACT_ID_PATTERN);
    expect(written).toMatchObject({ width: 8, height: 8 });
    expect(store.files.has(written.ref.artifact_id)).toBe(true);
  });

  it('within one second, names sort in the order of the captures (the six digits are the microseconds)', async () => {
    // With random digits, a device-back taken after a ui-scroll sorted before it.
    const { writer: w, clock } = writer(new MemoryEvidenceStore(), new FakeClock(new Date('2026-11-30T17:12:03.000Z')));
    const taken: string[] = [];
    const steps: [string, number][] = [
      ['ui-tap', 12.345],
      ['ui-scroll', 797.146],
      ['device-back', 0.001],
      ['screen', 0.5],
      ['ui-type', 180],
    ];
    for (const [label, afterMs] of steps) {
      await clock.advance(afterMs);
      taken.push((await w.write(label, makePng(4, 4))).ref.artifact_id);
    }
    expect(taken.map(micros)).toEqual(['012345', '809491', '809492', '809992', '989992']);
    expect(taken.every((id) => id.startsWith('20261130-171203-'))).toBe(true);
    expect([...taken].sort()).toEqual(taken);
  });

  it('gives 1,000 concurrent captures at the same instant 1,000 distinct names, in the order they were asked for', async () => {
    const clock = new FakeClock(new Date('2026-11-30T17:12:03.999Z'));
    // At 03.9995 s the stamps run on into the next second, and the names must follow them there.
    await clock.advance(0.5);
    const { writer: w, store } = writer(new MemoryEvidenceStore(), clock);
    const pngs = Array.from({ length: 1000 }, (_, i) => makePng(4, 4 + (i % 3)));
    const refs = await Promise.all(pngs.map((png) => w.write('screen', png)));
    const ids = refs.map((r) => r.ref.artifact_id);
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toBe('20261130-171203-999500-screen.png');
    expect(ids[999]).toBe('20261130-171204-000499-screen.png');
    expect(store.files.size).toBe(1000);
    // Every file holds the capture its name was issued for: nothing was overwritten.
    ids.forEach((id, i) => expect(store.files.get(id)).toBe(pngs[i]));
    expect(store.eexistCount).toBe(0);
  });

  it('after a clash with a file it did not write, retries 1 µs later and never overwrites', async () => {
    const store = new MemoryEvidenceStore();
    const foreign = makePng(5, 5);
    // Another process sharing the directory already took this microsecond (and the next).
    store.files.set('20261130-171203-482000-ui-tap.png', foreign);
    store.files.set('20261130-171203-482001-ui-tap.png', foreign);
    const { writer: w } = writer(store);
    const written = await w.write('ui-tap', makePng(4, 4));
    expect(written.ref.artifact_id).toBe('20261130-171203-482002-ui-tap.png');
    expect(store.eexistCount).toBe(2);
    expect(store.files.get('20261130-171203-482000-ui-tap.png')).toBe(foreign);
    // The next capture is later still, though the clock has not moved.
    expect((await w.write('ui-tap', makePng(4, 4))).ref.artifact_id).toBe('20261130-171203-482003-ui-tap.png');
  });

  it('two writers on one real directory at the same instant (two processes): every file kept, names still the capture time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'amh-evidence-'));
    dirs.push(dir);
    const clock = new FakeClock();
    const stores = [new ClashCountingStore(dir), new ClashCountingStore(dir)] as const;
    const [a, b] = stores.map(
      (store) => new EvidenceWriter(store, new PngImageTools(), clock, new RecordingLogger()),
    ) as [EvidenceWriter, EvidenceWriter];
    const pngA = makePng(4, 4);
    const pngB = makePng(6, 6);
    const both = await Promise.all([
      Promise.all(Array.from({ length: 50 }, () => a.write('screen', pngA))),
      Promise.all(Array.from({ length: 50 }, () => b.write('screen', pngB))),
    ]);
    const [idsA, idsB] = both.map((refs) => refs.map((r) => r.ref.artifact_id)) as [string[], string[]];
    expect(new Set([...idsA, ...idsB]).size).toBe(100);
    expect(readdirSync(dir)).toHaveLength(100);
    // Both started at the same microsecond, so the file system's exclusive create did refuse names.
    expect(stores[0].clashes + stores[1].clashes).toBeGreaterThan(0);
    for (const [ids, png] of [
      [idsA, pngA],
      [idsB, pngB],
    ] as const) {
      for (const id of ids) expect(readFileSync(join(dir, id)).equals(png)).toBe(true);
    }
    // The clashes cost microseconds: every name is within 100 µs of the instant of the captures.
    for (const id of [...idsA, ...idsB]) expect(Number(micros(id)) - 482_000).toBeLessThan(100);
    expect([...idsA, ...idsB].every((id) => id.startsWith('20261130-171203-'))).toBe(true);
  });

  it('a clock stepped back never makes a name sort before an earlier one', async () => {
    const clock = new SteppedClock(new Date('2026-11-30T17:12:04.000Z'));
    const { writer: w } = writer(new MemoryEvidenceStore(), clock);
    const first = (await w.write('screen', makePng(4, 4))).ref.artifact_id;
    clock.stepMicros = -1_000_000; // NTP sets the wall clock one second back
    const second = (await w.write('screen', makePng(4, 4))).ref.artifact_id;
    expect(second).toBe('20261130-171204-000001-screen.png');
    expect([first, second].sort()).toEqual([first, second]);
  });

  it('gives up with EVIDENCE_WRITE_FAILED when every name it tries is taken, saying what to do', async () => {
    const store = new MemoryEvidenceStore();
    store.failWith = Object.assign(new Error('EEXIST: file already exists'), { code: 'EEXIST' });
    const { writer: w } = writer(store);
    await expect(w.write('screen', makePng(4, 4))).rejects.toMatchObject({
      code: 'EVIDENCE_WRITE_FAILED',
      message: expect.stringContaining('ANDROID_MCP_ARTIFACTS_DIR'),
    });
  });

  it('refuses a blank (uniform) capture with the graphics-stack remedy', async () => {
    const { writer: w, store } = writer();
    await expect(w.write('screen', makePng(16, 16, true))).rejects.toMatchObject({
      code: 'EVIDENCE_WRITE_FAILED',
      message: BLANK_CAPTURE_MESSAGE,
    });
    expect(BLANK_CAPTURE_MESSAGE).toContain('-gpu swiftshader');
    expect(store.files.size).toBe(0);
  });

  it('refuses bytes that are not a PNG', async () => {
    const { writer: w, store } = writer();
    await expect(w.write('screen', Buffer.from('<html>not a png</html>'))).rejects.toMatchObject({
      code: 'EVIDENCE_WRITE_FAILED',
    });
    expect(store.files.size).toBe(0);
  });

  it('writeWithPreview: the same blank and not-a-PNG refusals, nothing written; else the full file and a preview', async () => {
    const { writer: w, store } = writer();
    await expect(w.writeWithPreview('screen', makePng(16, 16, true), 4, 1_000_000)).rejects.toMatchObject({
      code: 'EVIDENCE_WRITE_FAILED',
      message: BLANK_CAPTURE_MESSAGE,
    });
    await expect(w.writeWithPreview('screen', Buffer.from('not a png'), 4, 1_000_000)).rejects.toMatchObject({
      code: 'EVIDENCE_WRITE_FAILED',
    });
    expect(store.files.size).toBe(0);
    const png = makePng(16, 16);
    const written = await w.writeWithPreview('screen', png, 4, 1_000_000);
    expect(written).toMatchObject({ width: 16, height: 16 });
    expect(store.files.get(written.ref.artifact_id)).toEqual(png);
    expect(new PngImageTools().inspect(written.preview)).toMatchObject({ width: 4, height: 4 });
  });

  it('turns a file-system failure into EVIDENCE_WRITE_FAILED with a remedy and no path', async () => {
    const store = new MemoryEvidenceStore();
    store.failWith = Object.assign(new Error("EACCES: permission denied, open '/home/u/artifacts/x.png'"), {
      code: 'EACCES',
    });
    const { writer: w } = writer(store);
    const failure = (await w.write('screen', makePng(4, 4)).then(
      () => new Error('the write succeeded'),
      (e: unknown) => e as Error,
    )) as Error;
    expect(failure).toMatchObject({ code: 'EVIDENCE_WRITE_FAILED' });
    expect(failure.message).toContain('EACCES');
    expect(failure.message).not.toContain('/home/u');
  });

  it('reads back only ids of the issued shape', async () => {
    const { writer: w, store } = writer();
    const written = await w.write('screen', makePng(4, 4));
    expect(await w.read(written.ref.artifact_id)).not.toBeNull();
    expect(await w.read('../../etc/passwd')).toBeNull();
    expect(await w.read('20261130-171203-000000-screen.png')).toBeNull();
    expect(store.reads).toEqual([written.ref.artifact_id, '20261130-171203-000000-screen.png']);
    expect(w.recentIds()).toEqual([written.ref.artifact_id]);
  });
});

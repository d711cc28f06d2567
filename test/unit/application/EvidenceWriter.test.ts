import { describe, expect, it } from 'vitest';
import { BLANK_CAPTURE_MESSAGE, EvidenceWriter } from '../../../src/application/EvidenceWriter.js';
import { ARTIFACT_ID_PATTERN } from '../../../src/domain/evidenceName.js';
import type { RandomSource } from '../../../src/domain/ports.js';
import { PngImageTools } from '../../../src/infrastructure/png/PngImageTools.js';
import { FakeClock } from '../../support/FakeClock.js';
import { makePng } from '../../support/fakes/images.js';
import { MemoryEvidenceStore } from '../../support/fakes/MemoryEvidenceStore.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';
import { SeededRandom } from '../../support/fakes/SeededRandom.js';

function writer(store = new MemoryEvidenceStore(), random: RandomSource = new SeededRandom(1)) {
  return { store, writer: new EvidenceWriter(store, new PngImageTools(), new FakeClock(), random, new RecordingLogger()) };
}

describe('EvidenceWriter', () => {
  it('issues a relative path and an artifact uri, never an absolute path', async () => {
    const { writer: w, store } = writer();
    const written = await w.write('ui-tap', makePng(8, 8));
    expect(written.ref.artifact_id).toMatch(ARTIFACT_ID_PATTERN);
    expect(written.ref.artifact_id).toMatch(/^20261130-171203-\d{6}-ui-tap\.png$/);
    expect(written.ref.path).toBe(`artifacts/${written.ref.artifact_id}`);
    expect(written.ref.uri).toBe(`artifact://${written.ref.artifact_id}`);
    expect(written).toMatchObject({ width: 8, height: 8 });
    expect(store.files.has(written.ref.artifact_id)).toBe(true);
  });

  it('gives 1,000 concurrent writes in the same instant 1,000 distinct files', async () => {
    // Few random values force real clashes: the writer must retry with new digits.
    const clashing = new SeededRandom(3);
    const narrow = { uuid: () => clashing.uuid(), token: (n: number) => clashing.token(n), int: () => clashing.int(1_000_000) % 4000 };
    const { writer: w, store } = writer(new MemoryEvidenceStore(), narrow);
    const png = makePng(4, 4);
    const refs = await Promise.all(Array.from({ length: 1000 }, () => w.write('screen', png)));
    const ids = new Set(refs.map((r) => r.ref.artifact_id));
    expect(ids.size).toBe(1000);
    expect(store.files.size).toBe(1000);
    expect(store.eexistCount).toBeGreaterThan(0);
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
    await expect(w.write('screen', Buffer.from('<html>not a png</html>'))).rejects.toMatchObject({ code: 'EVIDENCE_WRITE_FAILED' });
    expect(store.files.size).toBe(0);
  });

  it('writeWithPreview: the same blank and not-a-PNG refusals, nothing written; else the full file and a preview', async () => {
    const { writer: w, store } = writer();
    await expect(w.writeWithPreview('screen', makePng(16, 16, true), 4, 1_000_000)).rejects.toMatchObject({
      code: 'EVIDENCE_WRITE_FAILED',
      message: BLANK_CAPTURE_MESSAGE,
    });
    await expect(w.writeWithPreview('screen', Buffer.from('not a png'), 4, 1_000_000)).rejects.toMatchObject({ code: 'EVIDENCE_WRITE_FAILED' });
    expect(store.files.size).toBe(0);
    const png = makePng(16, 16);
    const written = await w.writeWithPreview('screen', png, 4, 1_000_000);
    expect(written).toMatchObject({ width: 16, height: 16 });
    expect(store.files.get(written.ref.artifact_id)).toEqual(png);
    expect(new PngImageTools().inspect(written.preview)).toMatchObject({ width: 4, height: 4 });
  });

  it('turns a file-system failure into EVIDENCE_WRITE_FAILED with a remedy and no path', async () => {
    const store = new MemoryEvidenceStore();
    store.failWith = Object.assign(new Error("EACCES: permission denied, open '/home/u/artifacts/x.png'"), { code: 'EACCES' });
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

/**
 * Visual entries in the application (docs/reference/summary.md, "Visual refs"): a screen whose tree
 * names everything costs no screenshot and no OCR call; an unexposed one gets entries with refs
 * that live one read; a missing engine is said, not thrown.
 */
import { describe, expect, it } from 'vitest';
import type { PixelDigest, TextRecognition, TextRecognizer } from '../../../src/domain/ports.js';
import type { Rect } from '../../../src/domain/tree/uiNode.js';
import { RefRegistry } from '../../../src/application/screen/RefRegistry.js';
import { readScreenWith, type ScreenReading } from '../../../src/application/screen/ScreenReader.js';
import { OCR_FAILED, VisualReader } from '../../../src/application/screen/VisualReader.js';
import { FakeDevice } from '../../support/fakes/FakeDevice.js';
import { silentLogger } from '../../support/fakes/silentLogger.js';
import { screen, uiautomatorDump, type NodeSpec } from '../domain/dumpBuilder.js';

class CountingRecognizer implements TextRecognizer {
  readonly asked: (readonly Rect[])[] = [];
  constructor(private readonly answer: TextRecognition) {}
  read(_png: Buffer, regions: readonly Rect[]): Promise<TextRecognition> {
    this.asked.push(regions);
    return Promise.resolve(this.answer);
  }
  close(): void {}
}

/** A digest that is whatever the test says the pixels are now. */
class ScriptedPixels implements PixelDigest {
  now = 'a';
  digest(): string {
    return this.now;
  }
}

const PLAY: TextRecognition = {
  kind: 'read',
  lines: [{ text: 'PLAY', confidence: 0.96, bounds: { left: 468, top: 967, right: 616, bottom: 1012 } }],
};

async function reading(device: FakeDevice, children: NodeSpec[]): Promise<ScreenReading> {
  device.dump = uiautomatorDump([screen(children)]);
  return readScreenWith(device.dumpUi(), Promise.resolve(420), device.getWindowState());
}

const named: NodeSpec[] = [
  { cls: 'android.widget.TextView', text: 'Settings', bounds: '[0,63][1080,200]' },
  { cls: 'android.widget.Button', text: 'Save', clickable: true, bounds: '[40,300][1040,500]' },
];
const game: NodeSpec[] = [{ cls: 'android.view.SurfaceView', bounds: '[0,63][1080,2274]' }];

describe('VisualReader', () => {
  it('a screen whose tree names everything takes no screenshot and asks OCR nothing', async () => {
    const device = new FakeDevice();
    const ocr = new CountingRecognizer(PLAY);
    const visual = new VisualReader(ocr, new ScriptedPixels(), silentLogger);
    const read = await reading(device, named);
    device.calls.length = 0;
    const out = await visual.withVisual(device, read);
    expect(out).toBe(read);
    expect(ocr.asked).toEqual([]);
    expect(device.calls).not.toContain('screencap');
  });

  it('an unexposed surface is read once, only its region, and its lines get visual refs', async () => {
    const device = new FakeDevice();
    const ocr = new CountingRecognizer(PLAY);
    const visual = new VisualReader(ocr, new ScriptedPixels(), silentLogger);
    const out = await visual.withVisual(device, await reading(device, game));
    expect(ocr.asked).toEqual([[{ left: 0, top: 63, right: 1080, bottom: 2274 }]]);
    const summary = new RefRegistry().attach(out);
    expect(summary.visual).toEqual([
      { ref: 'v1', text: 'PLAY', role: 'visual', source: 'ocr', bounds: [468, 967, 148, 45], confidence: 0.96 },
    ]);
  });

  it('a visual ref lives one read: the next read forgets it, and a ref never given is told apart', async () => {
    const device = new FakeDevice();
    const visual = new VisualReader(new CountingRecognizer(PLAY), new ScriptedPixels(), silentLogger);
    const refs = new RefRegistry();
    const first = refs.attach(await visual.withVisual(device, await reading(device, game)));
    const ref = first.visual![0]!.ref;
    expect(refs.lookup(ref)).toMatchObject({ visual: { text: 'PLAY', digest: 'a' } });
    const second = refs.attach(await visual.withVisual(device, await reading(device, game)));
    expect(second.visual![0]!.ref).not.toBe(ref);
    expect(refs.lookup(ref)).toEqual({ missing: 'forgotten' });
    expect(refs.lookup('vzz')).toEqual({ missing: 'never-issued' });
    // A read of a named screen forgets them too.
    refs.attach(await reading(device, named));
    expect(refs.lookup(second.visual![0]!.ref)).toEqual({ missing: 'forgotten' });
  });

  it('the digest of the pixels under a box is taken now, from a new screenshot', async () => {
    const device = new FakeDevice();
    const pixels = new ScriptedPixels();
    const visual = new VisualReader(new CountingRecognizer(PLAY), pixels, silentLogger);
    pixels.now = 'b';
    device.calls.length = 0;
    expect(await visual.digestNow(device, { left: 0, top: 0, right: 10, bottom: 10 })).toBe('b');
    expect(device.calls).toEqual(['screencap']);
  });

  it('no engine installed: the summary says what to install and offers nothing', async () => {
    const device = new FakeDevice();
    const missing = new CountingRecognizer({ kind: 'unavailable', remedy: 'install it' });
    const out = await new VisualReader(missing, new ScriptedPixels(), silentLogger).withVisual(
      device,
      await reading(device, game),
    );
    const summary = new RefRegistry().attach(out);
    expect(summary.visual).toBeUndefined();
    expect(summary.visual_unavailable).toBe('install it');
  });

  it('an engine that fails costs the visual entries, not the read: the summary says to read again', async () => {
    const device = new FakeDevice();
    const failing: TextRecognizer = { read: () => Promise.reject(new Error('worker ended')), close: () => undefined };
    const out = await new VisualReader(failing, new ScriptedPixels(), silentLogger).withVisual(
      device,
      await reading(device, game),
    );
    const summary = new RefRegistry().attach(out);
    expect(summary.visual).toBeUndefined();
    expect(summary.visual_unavailable).toBe(OCR_FAILED);
  });
});

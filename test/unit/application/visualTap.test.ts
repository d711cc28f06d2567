/**
 * ui_tap on a visual ref through the whole application with in-memory ports (docs/reference/contract.md,
 * "Behaviour per tool"): the press goes to the centre of the box OCR read, a point the harness
 * computed; changed pixels or a later read make the ref STALE_REF and nothing is pressed; a
 * visual ref cannot be typed into.
 */
import { describe, expect, it } from 'vitest';
import { buildHarness, type TestHarness } from '../../support/fakes/harness.js';
import { FakeTextRecognizer } from '../../support/fakes/FakeTextRecognizer.js';
import { makePng } from '../../support/fakes/images.js';
import { screen, uiautomatorDump } from '../domain/dumpBuilder.js';

interface Visual {
  readonly ref: string;
  readonly text: string;
}

const GAME = uiautomatorDump([screen([{ cls: 'android.view.SurfaceView', bounds: '[0,0][1080,2400]' }])]);

function gameHarness(): { h: TestHarness; ocr: FakeTextRecognizer } {
  const ocr = new FakeTextRecognizer();
  ocr.answer = {
    kind: 'read',
    lines: [{ text: 'PLAY', confidence: 0.95, bounds: { left: 4, top: 10, right: 30, bottom: 21 } }],
  };
  const h = buildHarness({}, { textRecognizer: ocr });
  h.device.dump = GAME;
  h.automation.source = GAME;
  return { h, ocr };
}

async function visualOf(h: TestHarness): Promise<Visual[]> {
  const tree = await h.envelope('ui_get_tree');
  expect(tree.ok, JSON.stringify(tree)).toBe(true);
  return (tree.data as { visual?: Visual[] }).visual ?? [];
}

const presses = (h: TestHarness) => h.automation.sessions.flatMap((s) => s.presses);

describe('ui_tap on a visual ref', () => {
  it('presses the centre of the box OCR read, and answers the text with source ocr', async () => {
    const { h } = gameHarness();
    const [play] = await visualOf(h);
    expect(play).toMatchObject({ text: 'PLAY' });
    const tapped = await h.envelope('ui_tap', { selector: { ref: play!.ref } });
    expect(tapped, JSON.stringify(tapped)).toMatchObject({
      ok: true,
      data: { target: { ref: play!.ref }, element_label: 'PLAY', source: 'ocr' },
    });
    expect(presses(h)).toEqual([{ point: { x: 17, y: 15 }, holdMs: 0 }]);
  });

  it('a long press holds at the same point', async () => {
    const { h } = gameHarness();
    const [play] = await visualOf(h);
    const held = await h.envelope('ui_tap', { selector: { ref: play!.ref }, long_press: true });
    expect(held.ok, JSON.stringify(held)).toBe(true);
    expect(presses(h)).toHaveLength(1);
    expect(presses(h)[0]!.point).toEqual({ x: 17, y: 15 });
    expect(presses(h)[0]!.holdMs).toBeGreaterThan(0);
  });

  it('changed pixels under the box: STALE_REF, nothing pressed', async () => {
    const { h } = gameHarness();
    const [play] = await visualOf(h);
    h.device.png = makePng(40, 80, true);
    const stale = await h.envelope('ui_tap', { selector: { ref: play!.ref } });
    expect(stale.error?.code, JSON.stringify(stale)).toBe('STALE_REF');
    expect(presses(h)).toEqual([]);
  });

  it('a later read forgets it: STALE_REF before anything reaches the device', async () => {
    const { h } = gameHarness();
    const [play] = await visualOf(h);
    await visualOf(h);
    const stale = await h.envelope('ui_tap', { selector: { ref: play!.ref } });
    expect(stale.error?.code, JSON.stringify(stale)).toBe('STALE_REF');
    expect(h.automation.sessions).toHaveLength(0);
  });

  it('ui_type_text on a visual ref is INVALID_SELECTOR: it names pixels, not a field', async () => {
    const { h } = gameHarness();
    const [play] = await visualOf(h);
    const typed = await h.envelope('ui_type_text', { selector: { ref: play!.ref }, text: 'x' });
    expect(typed.error?.code, JSON.stringify(typed)).toBe('INVALID_SELECTOR');
    expect(h.automation.sessions.flatMap((s) => s.typed)).toEqual([]);
  });

  it('a screen whose tree names everything asks OCR nothing', async () => {
    const ocr = new FakeTextRecognizer();
    const h = buildHarness({}, { textRecognizer: ocr });
    const tree = await h.envelope('ui_get_tree');
    expect(tree.ok).toBe(true);
    expect(tree.data).not.toHaveProperty('visual');
    expect(ocr.asked).toEqual([]);
    expect(h.device.calls).not.toContain('screencap');
  });
});

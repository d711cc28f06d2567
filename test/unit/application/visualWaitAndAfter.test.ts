/**
 * Visual text beyond ui_get_tree (docs/reference/summary.md, "Visual refs"): ui_wait finds a `text`
 * the tree lacks in what OCR reads where the tree is silent, and an action's `after` carries the
 * visual entries of the screen it left. Screens whose tree names everything, or already has the
 * text, ask OCR nothing.
 */
import { describe, expect, it } from 'vitest';
import { buildHarness, drive, type TestHarness } from '../../support/fakes/harness.js';
import { FakeTextRecognizer } from '../../support/fakes/FakeTextRecognizer.js';
import { screen, uiautomatorDump } from '../domain/dumpBuilder.js';

interface Visual {
  readonly ref: string;
  readonly text: string;
}

const GAME = uiautomatorDump([screen([{ cls: 'android.view.SurfaceView', bounds: '[0,0][1080,2400]' }])]);
const GAME_WITH_TITLE = uiautomatorDump([
  screen([
    { cls: 'android.widget.TextView', text: 'Star Runner', bounds: '[0,0][1080,100]' },
    { cls: 'android.view.SurfaceView', bounds: '[0,100][1080,2400]' },
  ]),
]);
const line = (text: string) => ({ text, confidence: 0.95, bounds: { left: 4, top: 200, right: 300, bottom: 260 } });

function gameHarness(dump = GAME): { h: TestHarness; ocr: FakeTextRecognizer } {
  const ocr = new FakeTextRecognizer();
  const h = buildHarness({ toolsets: ['core', 'wait'] }, { textRecognizer: ocr });
  h.device.dump = dump;
  h.automation.source = dump;
  return { h, ocr };
}

describe('ui_wait for visual text', () => {
  it('a text the tree lacks is found in the pixels, and the answer offers it with a visual ref', async () => {
    const { h, ocr } = gameHarness();
    h.clock.setTimeout(() => {
      ocr.answer = { kind: 'read', lines: [line('LEVEL 1')] };
    }, 1_200);
    const env = await drive(h.clock, h.envelope('ui_wait', { selector: { text: 'Level 1' }, until: 'visible' }));
    expect(env, JSON.stringify(env)).toMatchObject({ ok: true, data: { until: 'visible' } });
    expect(env.data.waited_ms).toBeGreaterThanOrEqual(1_200);
    const visual = env.data.visual as Visual[];
    expect(visual).toMatchObject([{ text: 'LEVEL 1', role: 'visual', source: 'ocr' }]);
    // The ref it answers is the one ui_tap takes.
    const tapped = await h.envelope('ui_tap', { selector: { ref: visual[0]!.ref } });
    expect(tapped.ok, JSON.stringify(tapped)).toBe(true);
  });

  it('text_contains matches a part of a line; other keys never look at the pixels', async () => {
    const { h, ocr } = gameHarness();
    ocr.answer = { kind: 'read', lines: [line('PRESS START')] };
    const part = await drive(
      h.clock,
      h.envelope('ui_wait', { selector: { text_contains: 'start' }, until: 'visible' }),
    );
    expect(part.ok, JSON.stringify(part)).toBe(true);
    ocr.asked.length = 0;
    const byDesc = await drive(
      h.clock,
      h.envelope('ui_wait', { selector: { content_desc: 'PRESS START' }, until: 'visible', timeout_s: 1 }),
    );
    expect(byDesc.error?.code).toBe('OPERATION_TIMEOUT');
    expect(ocr.asked).toEqual([]);
  });

  it('gone waits until the pixels no longer show it either', async () => {
    const { h, ocr } = gameHarness();
    ocr.answer = { kind: 'read', lines: [line('LOADING')] };
    h.clock.setTimeout(() => {
      ocr.answer = { kind: 'read', lines: [line('PLAY')] };
    }, 1_000);
    const env = await drive(h.clock, h.envelope('ui_wait', { selector: { text: 'Loading' }, until: 'gone' }));
    expect(env.ok, JSON.stringify(env)).toBe(true);
    expect(env.data.waited_ms).toBeGreaterThanOrEqual(1_000);
    expect((env.data.visual as Visual[]).map((v) => v.text)).toEqual(['PLAY']);
  });

  it('a screen whose tree names everything takes no screenshot and asks OCR nothing, met or timed out', async () => {
    const ocr = new FakeTextRecognizer();
    const h = buildHarness({ toolsets: ['core', 'wait'] }, { textRecognizer: ocr });
    const met = await drive(h.clock, h.envelope('ui_wait', { selector: { text: 'Clock' }, until: 'visible' }));
    expect(met.ok).toBe(true);
    const missed = await drive(
      h.clock,
      h.envelope('ui_wait', { selector: { text: 'Saved' }, until: 'visible', timeout_s: 1 }),
    );
    expect(missed.error?.code).toBe('OPERATION_TIMEOUT');
    expect(ocr.asked).toEqual([]);
    expect(h.device.calls).not.toContain('screencap');
  });

  it('a text the tree has is found without polling the pixels; the answer reads them once, as ui_get_tree would', async () => {
    const { h, ocr } = gameHarness(GAME_WITH_TITLE);
    ocr.answer = { kind: 'read', lines: [line('PLAY')] };
    const env = await drive(h.clock, h.envelope('ui_wait', { selector: { text: 'Star Runner' }, until: 'visible' }));
    expect(env.ok, JSON.stringify(env)).toBe(true);
    expect(ocr.asked).toHaveLength(1);
    expect((env.data.visual as Visual[]).map((v) => v.text)).toEqual(['PLAY']);
  });
});

describe("an action's after on a screen with unexposed content", () => {
  it('carries the visual entries of the screen it left, with refs that act; the earlier ones are forgotten', async () => {
    const { h, ocr } = gameHarness();
    ocr.answer = { kind: 'read', lines: [line('PLAY')] };
    const tree = await h.envelope('ui_get_tree');
    const [play] = (tree.data as { visual: Visual[] }).visual;
    ocr.answer = { kind: 'read', lines: [line('PAUSE')] };
    const tapped = await h.envelope('ui_tap', { selector: { ref: play!.ref } });
    expect(tapped.ok, JSON.stringify(tapped)).toBe(true);
    const after = tapped.data.after as { visual?: Visual[]; diff_of?: string };
    expect(after.visual?.map((v) => v.text)).toEqual(['PAUSE']);
    // A read with visual entries goes whole, never as a diff.
    expect(after).not.toHaveProperty('diff_of');
    const old = await h.envelope('ui_tap', { selector: { ref: play!.ref } });
    expect(old.error?.code, JSON.stringify(old)).toBe('STALE_REF');
    const pause = await h.envelope('ui_tap', { selector: { ref: after.visual![0]!.ref } });
    expect(pause.ok, JSON.stringify(pause)).toBe(true);
  });

  it('a missing engine is said in after as in ui_get_tree', async () => {
    const { h, ocr } = gameHarness();
    ocr.answer = { kind: 'unavailable', remedy: 'install it' };
    const back = await h.envelope('device_back');
    expect(back.ok, JSON.stringify(back)).toBe(true);
    expect(back.data.after).toMatchObject({ visual_unavailable: 'install it' });
  });

  it('an action on a screen whose tree names everything takes no screenshot for after', async () => {
    const ocr = new FakeTextRecognizer();
    const h = buildHarness({}, { textRecognizer: ocr });
    const back = await h.envelope('device_back');
    expect(back.ok, JSON.stringify(back)).toBe(true);
    expect(back.data).toHaveProperty('after');
    expect(ocr.asked).toEqual([]);
  });
});

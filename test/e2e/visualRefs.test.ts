/**
 * Visual refs end to end (docs/reference/summary.md, "Visual refs"): an MCP client over real stdio →
 * the built server → the real adb and a real Appium 3 + UiAutomator2 → the virtual device's game,
 * whose menu is drawn into a SurfaceView and is in no dump. The server's OCR (tesseract.js in its
 * worker process) reads the real pixels; a tap on a visual ref must land inside the drawn button
 * (the device's click record says where) and nowhere else; the tap's `after` and ui_wait read the
 * drawn texts too; a WebView's article, drawn on a light page, is read and tapped the same way.
 * Skipped on a real emulator (it needs the scenario's screens) and when the optional OCR packages
 * are not installed.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';
import { startHarness, type HarnessProcess } from './support/harnessClient.js';
import { ON_EMULATOR, startStack, type E2eStack } from './support/stack.js';

interface Visual {
  readonly ref: string;
  readonly text: string;
  readonly role: string;
  readonly source: string;
  readonly bounds?: readonly [number, number, number, number];
  readonly confidence: number;
}

function ocrInstalled(): boolean {
  try {
    const require = createRequire(import.meta.url);
    require.resolve('tesseract.js');
    require.resolve('@tesseract.js-data/eng/package.json');
    return true;
  } catch {
    return false;
  }
}

/** The game's drawn buttons, as the scenario draws them (packages/virtual-device/src/scenario/arcadeScreens.ts). */
const PLAY = { left: 240, top: 900, right: 840, bottom: 1080 };
/** The news article's drawn buttons (packages/virtual-device/src/scenario/newsScreens.ts). */
const SUBSCRIBE = { left: 48, top: 860, right: 516, bottom: 1010 };
const SHARE = { left: 564, top: 860, right: 1032, bottom: 1010 };

interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}
const insideBox = (p: { x: number; y: number }, b: Box): boolean =>
  p.x >= b.left && p.x < b.right && p.y >= b.top && p.y < b.bottom;

const suite = ON_EMULATOR || !ocrInstalled() ? describe.skip : describeWithAdb;
if (!ocrInstalled())
  console.warn(
    'visual refs e2e skipped: the optional packages tesseract.js and @tesseract.js-data/eng are not installed',
  );

suite('visual refs through real adb and Appium (virtual device)', () => {
  let stack: E2eStack;
  let harness: HarnessProcess;

  beforeAll(async () => {
    stack = await startStack({ label: 'visual' });
    harness = await startHarness(stack.harnessEnv({ ANDROID_MCP_TOOLSETS: 'wait' }));
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
  }, 60_000);

  it('a screen whose tree names everything offers no visual entry', async () => {
    const settings = await harness.call('app_open', { package_name: 'com.android.settings' });
    expect(settings.envelope.ok, JSON.stringify(settings.envelope).slice(0, 1500)).toBe(true);
    const tree = await harness.call('ui_get_tree');
    expect(tree.envelope.ok, JSON.stringify(tree.envelope).slice(0, 1500)).toBe(true);
    expect(tree.envelope.data).not.toHaveProperty('visual');
    expect(tree.envelope.data).not.toHaveProperty('visual_unavailable');
  }, 120_000);

  it('every drawn button is offered; a tap on one lands inside it and moves the game on; an old or changed one is STALE_REF with no click', async () => {
    const open = await harness.call('ui_session_open');
    expect(open.envelope.ok, JSON.stringify(open.envelope)).toBe(true);
    const session_id = open.envelope.data.session_id as string;
    const vd = stack.device!;
    try {
      const launched = await harness.call('app_open', { package_name: 'com.example.arcade', session_id });
      expect(launched.envelope.ok, JSON.stringify(launched.envelope).slice(0, 1500)).toBe(true);

      const menu = await harness.call('ui_get_tree', { session_id });
      expect(menu.envelope.ok, JSON.stringify(menu.envelope).slice(0, 1500)).toBe(true);
      const visual = (menu.envelope.data.visual ?? []) as Visual[];
      expect(visual.map((v) => v.text).sort(), JSON.stringify(menu.envelope.data)).toEqual(
        ['OPTIONS', 'PLAY', 'QUIT', 'STAR RUNNER'].sort(),
      );
      for (const v of visual) {
        expect(v.ref).toMatch(/^v[1-9a-z][0-9a-z]*$/);
        expect(v).toMatchObject({ role: 'visual', source: 'ocr' });
      }
      const play = visual.find((v) => v.text === 'PLAY')!;

      const before = vd.clicks().length;
      const tapped = await harness.call('ui_tap', { selector: { ref: play.ref }, session_id });
      expect(tapped.envelope.ok, JSON.stringify(tapped.envelope).slice(0, 1500)).toBe(true);
      expect(tapped.envelope.data).toMatchObject({ target: { ref: play.ref }, element_label: 'PLAY', source: 'ocr' });
      const clicks = vd.clicks().slice(before);
      expect(clicks, JSON.stringify(clicks)).toHaveLength(1);
      const click = clicks[0]!;
      expect(click.x).toBeGreaterThanOrEqual(PLAY.left);
      expect(click.x).toBeLessThan(PLAY.right);
      expect(click.y).toBeGreaterThanOrEqual(PLAY.top);
      expect(click.y).toBeLessThan(PLAY.bottom);
      expect(click.target?.description).toContain('drawn "PLAY"');
      // The tap's `after` reads the screen it left as ui_get_tree does: the level's drawn texts.
      const after = tapped.envelope.data.after as { visual?: Visual[] };
      expect(
        (after.visual ?? []).map((v) => v.text),
        JSON.stringify(after),
      ).toContain('LEVEL 1');

      // ui_wait finds a drawn text the tree does not have.
      const waited = await harness.call('ui_wait', { selector: { text: 'Level 1' }, until: 'visible', session_id });
      expect(waited.envelope.ok, JSON.stringify(waited.envelope).slice(0, 1500)).toBe(true);
      expect(((waited.envelope.data.visual ?? []) as Visual[]).map((v) => v.text)).toContain('LEVEL 1');

      const level = await harness.call('ui_get_tree', { session_id });
      expect(level.envelope.ok).toBe(true);
      const levelTexts = ((level.envelope.data.visual ?? []) as Visual[]).map((v) => v.text);
      expect(levelTexts, JSON.stringify(level.envelope.data)).toContain('LEVEL 1');
      const pause = ((level.envelope.data.visual ?? []) as Visual[]).find((v) => v.text === 'PAUSE');
      expect(pause, JSON.stringify(level.envelope.data)).toBeDefined();

      // A ref of an earlier read is forgotten: nothing is pressed.
      const count = vd.clicks().length;
      const old = await harness.call('ui_tap', { selector: { ref: play.ref }, session_id });
      expect(old.envelope.error?.code, JSON.stringify(old.envelope)).toBe('STALE_REF');
      expect(vd.clicks().length).toBe(count);

      // The pixels under PAUSE change without a read (Back, unobserved): its ref is stale, nothing is pressed.
      const back = await harness.call('device_back', { session_id, observe: false });
      expect(back.envelope.ok, JSON.stringify(back.envelope).slice(0, 1500)).toBe(true);
      const afterBack = vd.clicks().length;
      const changed = await harness.call('ui_tap', { selector: { ref: pause!.ref }, session_id });
      expect(changed.envelope.error?.code, JSON.stringify(changed.envelope)).toBe('STALE_REF');
      expect(vd.clicks().length).toBe(afterBack);
    } finally {
      await harness.call('ui_session_close', { session_id });
    }
  }, 240_000);

  it("a WebView's article: its drawn buttons are offered and a tap lands inside the one named, never on the other", async () => {
    const vd = stack.device!;
    const opened = await harness.call('app_open', { package_name: 'com.example.news' });
    expect(opened.envelope.ok, JSON.stringify(opened.envelope).slice(0, 1500)).toBe(true);
    const read = await harness.call('ui_get_tree');
    expect(read.envelope.ok, JSON.stringify(read.envelope).slice(0, 1500)).toBe(true);
    const visual = (read.envelope.data.visual ?? []) as Visual[];
    const texts = visual.map((v) => v.text);
    // The toolbar's title is the tree's: never repeated as a visual entry.
    expect(texts, JSON.stringify(read.envelope.data)).not.toContain('Daily Planet');
    expect(texts).toEqual(expect.arrayContaining(['Subscribe', 'Share', 'Read the full story']));
    for (const [text, box, other] of [
      ['Subscribe', SUBSCRIBE, SHARE],
      ['Share', SHARE, SUBSCRIBE],
    ] as const) {
      const fresh = await harness.call('ui_get_tree');
      const entry = ((fresh.envelope.data.visual ?? []) as Visual[]).find((v) => v.text === text);
      expect(entry, JSON.stringify(fresh.envelope.data)).toBeDefined();
      const before = vd.clicks().length;
      const tapped = await harness.call('ui_tap', { selector: { ref: entry!.ref } });
      expect(tapped.envelope.ok, JSON.stringify(tapped.envelope).slice(0, 1500)).toBe(true);
      const clicks = vd.clicks().slice(before);
      expect(clicks, JSON.stringify(clicks)).toHaveLength(1);
      expect(insideBox(clicks[0]!, box), JSON.stringify(clicks[0])).toBe(true);
      expect(insideBox(clicks[0]!, other)).toBe(false);
      expect(clicks[0]!.target?.description).toContain(`drawn "${text}"`);
    }
  }, 240_000);
});

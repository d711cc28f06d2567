/**
 * The screen summary (src/domain/summary/summary.ts) at its edges, called directly on small
 * hand-written dumps: the display size from dumpsys, Appium's declared size or the windows' extent;
 * the foreground package from dumpsys or the first window that is not System UI; each cap at
 * exactly its bound and one past it (entries, texts, layout findings, scrollables) with the counts
 * before the cut; the keyboard; texts once case aside and without the strings an entry shows; a
 * finding past the entries' cut named by its selector; an element under a bar said, not offered.
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_ACTIONS,
  MAX_LAYOUT_FINDINGS,
  MAX_SCROLLABLES,
  MAX_TEXTS,
  foregroundPackage,
  packageOfRoots,
  screenSize,
  summariseScreen,
  summariseScreenDetailed,
} from '../../../../src/domain/summary/summary.js';
import { parseDump } from '../../../../src/domain/tree/dump.js';
import type { ScreenContext, WindowState } from '../../../../src/domain/tree/screen.js';
import type { UiTree } from '../../../../src/domain/tree/uiNode.js';
import { appiumSource, screen, uiautomatorDump, type NodeSpec } from '../dumpBuilder.js';

function ctx(window: Partial<WindowState> = {}, density = 160): ScreenContext {
  return {
    density,
    window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: null, ...window },
  };
}

const dump = (roots: NodeSpec[]): UiTree => parseDump(uiautomatorDump(roots));
const summarise = (children: NodeSpec[], context = ctx()) => summariseScreen(dump([screen(children)]), context);

/** `n` buttons, each 100 px square (no finding at 160 dpi), in a column of rows of ten. */
function buttons(n: number, label = (i: number) => `B${i}`): NodeSpec[] {
  return Array.from({ length: n }, (_v, i) => {
    const left = (i % 10) * 100;
    const top = 100 + Math.floor(i / 10) * 100;
    return {
      cls: 'android.widget.Button',
      text: label(i),
      clickable: true,
      bounds: `[${left + 1},${top + 1}][${left + 99},${top + 99}]`,
    };
  });
}

describe('screenSize', () => {
  const appium = parseDump(appiumSource([screen([])], { width: 720, height: 1280 }));
  const bare = dump([screen([], '[0,0][1000,1900]'), { bounds: '[0,1900][900,2000]' }, { bounds: null }]);

  it("takes dumpsys's display size when it has both sides", () => {
    expect(screenSize(appium, ctx({ displaySize: { width: 1080, height: 2400 } }))).toEqual({
      width: 1080,
      height: 2400,
    });
  });

  it("else Appium's declared size: a display size with a side of 0 is no size", () => {
    expect(screenSize(appium, ctx({ displaySize: { width: 0, height: 2400 } }))).toEqual({ width: 720, height: 1280 });
    expect(screenSize(appium, ctx({ displaySize: { width: 1080, height: 0 } }))).toEqual({ width: 720, height: 1280 });
    expect(screenSize(appium, ctx())).toEqual({ width: 720, height: 1280 });
  });

  it("else the windows' extent, each side from the root that reaches farthest; a root without bounds is passed over", () => {
    expect(screenSize(bare, ctx())).toEqual({ width: 1000, height: 2000 });
    expect(screenSize(dump([{ bounds: null }]), ctx())).toEqual({ width: 0, height: 0 });
  });
});

describe('foregroundPackage and packageOfRoots', () => {
  const roots = (...pkgs: string[]): UiTree =>
    dump(pkgs.map((pkg, i) => ({ pkg, bounds: `[0,${i * 100}][1080,${i * 100 + 100}]` })));

  it("dumpsys's focused package wins", () => {
    expect(foregroundPackage(roots('com.android.systemui', 'com.app'), ctx({ foregroundPackage: 'com.focus' }))).toBe(
      'com.focus',
    );
    expect(foregroundPackage(roots('com.android.systemui', 'com.app'), ctx())).toBe('com.app');
  });

  it('else the first window that is not System UI nor nameless, else the first window, else nothing', () => {
    expect(packageOfRoots(roots('com.android.systemui', '', 'com.app', 'com.later'))).toBe('com.app');
    expect(packageOfRoots(roots('com.android.systemui', 'com.android.systemui'))).toBe('com.android.systemui');
    expect(packageOfRoots(roots('', 'com.android.systemui'))).toBe('');
    expect(packageOfRoots({ nodes: [], roots: [], rotation: null, declaredSize: null })).toBe('');
  });
});

describe('the caps, at their bound and one past it', () => {
  it(`${MAX_ACTIONS} entries are all offered; one more is cut, counted and marked`, () => {
    const exact = summarise(buttons(MAX_ACTIONS));
    expect(exact.actions).toHaveLength(MAX_ACTIONS);
    expect(exact).not.toHaveProperty('truncated');
    expect(exact).not.toHaveProperty('counts');
    const over = summarise(buttons(MAX_ACTIONS + 1));
    expect(over.actions).toHaveLength(MAX_ACTIONS);
    expect(over.truncated).toBe(true);
    expect(over.counts).toEqual({ texts: 1, actions: MAX_ACTIONS + 1, layout_findings: 0 });
    // The entry past the cut is not offered, so its text stands in texts.
    expect(over.texts).toEqual([`B${MAX_ACTIONS}`]);
  });

  it(`${MAX_TEXTS} texts are all written; one more is cut, counted and marked`, () => {
    const texts = (n: number): NodeSpec[] =>
      Array.from({ length: n }, (_v, i) => ({ text: `T${i}`, bounds: `[0,${i * 10 + 1}][500,${i * 10 + 9}]` }));
    const exact = summarise(texts(MAX_TEXTS));
    expect(exact.texts).toHaveLength(MAX_TEXTS);
    expect(exact).not.toHaveProperty('truncated');
    const over = summarise(texts(MAX_TEXTS + 1));
    expect(over.texts).toHaveLength(MAX_TEXTS);
    expect(over.texts.at(-1)).toBe(`T${MAX_TEXTS - 1}`);
    expect(over.truncated).toBe(true);
    expect(over.counts).toEqual({ texts: MAX_TEXTS + 1, actions: 0, layout_findings: 0 });
  });

  it(`${MAX_LAYOUT_FINDINGS} findings are all kept; one more is cut, counted and marked`, () => {
    // 40 px buttons at 160 dpi: each too small.
    const small = (n: number): NodeSpec[] =>
      Array.from({ length: n }, (_v, i) => ({
        cls: 'android.widget.ImageButton',
        desc: `I${i}`,
        clickable: true,
        bounds: `[${(i % 10) * 100 + 30},${Math.floor(i / 10) * 100 + 130}][${(i % 10) * 100 + 70},${Math.floor(i / 10) * 100 + 170}]`,
      }));
    const exact = summarise(small(MAX_LAYOUT_FINDINGS));
    expect(exact.layout_findings).toEqual([
      {
        issue: 'touch_target_too_small',
        actions: Array.from({ length: MAX_LAYOUT_FINDINGS }, (_v, i) => i),
        minimum_px: 48,
      },
    ]);
    expect(exact).not.toHaveProperty('truncated');
    const over = summarise(small(MAX_LAYOUT_FINDINGS + 1));
    expect(over.layout_findings).toEqual([
      {
        issue: 'touch_target_too_small',
        actions: Array.from({ length: MAX_LAYOUT_FINDINGS }, (_v, i) => i),
        minimum_px: 48,
      },
    ]);
    expect(over.truncated).toBe(true);
    expect(over.counts).toEqual({
      texts: 0,
      actions: MAX_LAYOUT_FINDINGS + 1,
      layout_findings: MAX_LAYOUT_FINDINGS + 1,
    });
  });

  it(`lists at most ${MAX_SCROLLABLES} scrollables, and none is no key`, () => {
    const lists = (n: number): NodeSpec[] =>
      Array.from({ length: n }, (_v, i) => ({
        cls: 'android.widget.ListView',
        id: `com.example.app:id/l${i}`,
        scrollable: true,
        bounds: `[0,${i * 100 + 1}][1080,${i * 100 + 99}]`,
      }));
    expect(summarise(lists(MAX_SCROLLABLES + 1)).scrollables).toHaveLength(MAX_SCROLLABLES);
    expect(summarise(lists(MAX_SCROLLABLES)).scrollables).toHaveLength(MAX_SCROLLABLES);
    expect(summarise(lists(1)).scrollables).toEqual([{ selector: { id: 'l0' }, bounds: [0, 1, 1080, 98] }]);
    expect(summarise(lists(1)).can_scroll).toBe(true);
    expect(summarise([])).not.toHaveProperty('scrollables');
    expect(summarise([]).can_scroll).toBe(false);
  });
});

describe('what the summary says besides its entries', () => {
  it('the keyboard only when it is visible with a frame', () => {
    const frame = { left: 0, top: 1500, right: 1080, bottom: 2400 };
    expect(summarise([], ctx({ ime: { visible: true, frame } })).keyboard).toEqual({ open: true, top: 1500 });
    expect(summarise([], ctx({ ime: { visible: true, frame: null } }))).not.toHaveProperty('keyboard');
    expect(summarise([], ctx({ ime: { visible: false, frame } }))).not.toHaveProperty('keyboard');
  });

  it('a scrollable that is not visible does not make the screen scroll', () => {
    expect(summarise([{ cls: 'android.widget.ListView', scrollable: true, bounds: '[0,0][0,0]' }]).can_scroll).toBe(
      false,
    );
  });

  it('texts once case aside, the first kept; hidden ones, icon glyphs and what an entry shows left out', () => {
    const s = summarise([
      { text: 'Basic', bounds: '[0,100][500,200]' },
      { text: 'BASIC', bounds: '[0,200][500,300]' },
      { text: 'Hidden', bounds: '[0,0][0,0]' },
      { text: '\ue000', bounds: '[0,300][500,400]' },
      { text: 'Go', bounds: '[0,400][500,500]' },
      {
        cls: 'android.widget.Button',
        id: 'com.example.app:id/go',
        clickable: true,
        bounds: '[0,600][500,800]',
        children: [
          { text: 'Go', bounds: '[0,600][250,700]' },
          { text: 'Second line', bounds: '[0,700][250,800]' },
        ],
      },
    ]);
    expect(s.texts).toEqual(['Basic']);
    expect(s.actions).toEqual([{ id: 'go', label: 'Go', detail: 'Second line', bounds: [0, 600, 500, 200] }]);
  });

  it('a finding on an entry past the cut stands alone, named by its selector and label, with its size', () => {
    // 120 roomy buttons, then one small one, one small unnamed one and one small twin.
    const roomy = buttons(MAX_ACTIONS);
    const small = (extra: NodeSpec, at: number): NodeSpec => ({
      cls: 'android.widget.ImageButton',
      clickable: true,
      bounds: `[${at},2200][${at + 40},2240]`,
      ...extra,
    });
    const s = summarise([
      ...roomy,
      small({ desc: 'Tiny' }, 100),
      small({}, 300),
      small({ desc: 'Twin' }, 500),
      small({ desc: 'Twin' }, 700),
    ]);
    expect(s.layout_findings).toEqual([
      {
        issue: 'touch_target_too_small',
        selector: { content_desc: 'Tiny' },
        label: 'Tiny',
        size_px: [40, 40],
        minimum_px: 48,
      },
      { issue: 'touch_target_too_small', size_px: [40, 40], minimum_px: 48 },
      { issue: 'touch_target_too_small', label: 'Twin', size_px: [40, 40], minimum_px: 48 },
      { issue: 'touch_target_too_small', label: 'Twin', size_px: [40, 40], minimum_px: 48 },
    ]);
  });

  it('findings on offered entries are grouped by issue, in order of first appearance', () => {
    const s = summarise(
      [
        { cls: 'android.widget.ImageButton', desc: 'A', clickable: true, bounds: '[100,500][140,540]' },
        { cls: 'android.widget.ImageButton', desc: 'B', clickable: true, bounds: '[200,500][200,540]' },
        { cls: 'android.widget.ImageButton', desc: 'C', clickable: true, bounds: '[300,500][340,540]' },
      ],
      ctx(),
    );
    expect(s.layout_findings).toEqual([
      { issue: 'touch_target_too_small', actions: [0, 2], minimum_px: 48 },
      { issue: 'no_area', actions: [1] },
    ]);
  });

  it('an element wholly under the navigation bar is said not actionable; one partly under it is offered', () => {
    const bars = { status: null, navigation: { left: 0, top: 2250, right: 1080, bottom: 2400 } };
    const s = summarise(
      [
        { cls: 'android.widget.Button', text: 'Under', clickable: true, bounds: '[0,2260][500,2390]' },
        { cls: 'android.widget.Button', text: 'Half', clickable: true, bounds: '[0,2200][500,2300]' },
      ],
      ctx({ systemBars: bars }),
    );
    expect(s.actions[0]).toMatchObject({ text: 'Under', not_actionable: 'under_navigation_bar' });
    expect(s.actions[1]).not.toHaveProperty('not_actionable');
  });

  it('a label that lies wholly under a bar while its element does not: the entry has no selector, only its ref', () => {
    const bars = { status: null, navigation: { left: 0, top: 2250, right: 1080, bottom: 2400 } };
    const tree = dump([
      screen([
        {
          cls: 'android.widget.FrameLayout',
          clickable: true,
          bounds: '[0,2000][1080,2400]',
          children: [{ text: 'Deep label', bounds: '[0,2300][500,2400]' }],
        },
      ]),
    ]);
    const { summary, plans } = summariseScreenDetailed(tree, ctx({ systemBars: bars }));
    expect(summary.actions).toEqual([{ label: 'Deep label', bounds: [0, 2000, 1080, 400] }]);
    expect(plans[0]!.selector).toBeNull();
    // Without the bar, the label is its selector.
    expect(summariseScreen(tree, ctx()).actions).toEqual([{ text: 'Deep label', bounds: [0, 2000, 1080, 400] }]);
  });
});

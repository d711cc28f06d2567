/**
 * The layout audit (src/domain/summary/layoutAudit.ts) called directly on hand-built nodes, each rule
 * at its edge: the minimum at a density that does not divide evenly, the audit area widened by each
 * side of a root, each edge of the screen, of a scrollable ancestor and of a squeezed one, each bar
 * (and System UI's own windows, and a node with no area, never under a bar), off screen by each side,
 * no area on each axis, and a target one pixel under or at the minimum on each axis.
 */
import { describe, expect, it } from 'vitest';
import {
  auditArea,
  auditLayout,
  isPossiblyClipped,
  minimumTouchPx,
} from '../../../../src/domain/summary/layoutAudit.js';
import type { SystemBars } from '../../../../src/domain/tree/screen.js';
import type { Rect, UiNode } from '../../../../src/domain/tree/uiNode.js';

interface Spec {
  readonly bounds: Rect | null;
  readonly scrollable?: boolean;
  readonly pkg?: string;
  readonly children?: readonly Spec[];
}

const rect = (left: number, top: number, right: number, bottom: number): Rect => ({ left, top, right, bottom });

/** A tree of nodes from specs, parents linked; returns every node in document order. */
function build(spec: Spec, parent: UiNode | null = null, out: UiNode[] = []): UiNode[] {
  const children: UiNode[] = [];
  const node: UiNode = {
    order: out.length,
    className: 'android.view.View',
    packageName: spec.pkg ?? 'com.example.app',
    resourceId: '',
    text: '',
    contentDesc: '',
    hint: '',
    showingHint: null,
    checkable: false,
    checked: false,
    clickable: true,
    longClickable: false,
    enabled: true,
    focusable: false,
    focused: false,
    scrollable: spec.scrollable ?? false,
    selected: false,
    password: false,
    bounds: spec.bounds,
    parent,
    children,
  };
  out.push(node);
  for (const child of spec.children ?? []) {
    const at = out.length;
    build(child, node, out);
    children.push(out[at]!);
  }
  return out;
}

/** A node inside a roomy plain panel inside the screen root; returns [root, panel, node]. */
function placed(bounds: Rect | null, pkg?: string): UiNode[] {
  return build({
    bounds: rect(0, 0, 1080, 2400),
    children: [{ bounds: rect(100, 100, 980, 2300), children: [{ bounds, ...(pkg ? { pkg } : {}) }] }],
  });
}

const SCREEN = { width: 1080, height: 2400 };
const AREA = rect(0, 0, 1080, 2400);

function auditOne(bounds: Rect | null, density = 160, bars?: SystemBars, pkg?: string) {
  const [root, , node] = placed(bounds, pkg);
  return auditLayout([node!], SCREEN, [root!], density, bars);
}

describe('minimumTouchPx', () => {
  it('is 48 dp rounded up, also at a density that does not divide evenly', () => {
    expect(minimumTouchPx(160)).toBe(48);
    expect(minimumTouchPx(161)).toBe(49);
    expect(minimumTouchPx(100)).toBe(30);
  });
});

describe('auditArea', () => {
  it('is the display when the roots lie within it, and a root without bounds is skipped', () => {
    const roots = [...build({ bounds: rect(10, 10, 500, 500) }), ...build({ bounds: null })];
    expect(auditArea(SCREEN, roots)).toEqual(AREA);
  });

  it('is widened by each side of a root that reaches past the display', () => {
    expect(auditArea(SCREEN, build({ bounds: rect(-5, 0, 100, 100) }))).toEqual(rect(-5, 0, 1080, 2400));
    expect(auditArea(SCREEN, build({ bounds: rect(0, -7, 100, 100) }))).toEqual(rect(0, -7, 1080, 2400));
    expect(auditArea(SCREEN, build({ bounds: rect(0, 0, 2400, 100) }))).toEqual(rect(0, 0, 2400, 2400));
    expect(auditArea(SCREEN, build({ bounds: rect(0, 0, 100, 3000) }))).toEqual(rect(0, 0, 1080, 3000));
    // Two roots: each widens its own side.
    const two = [...build({ bounds: rect(-3, 0, 100, 2500) }), ...build({ bounds: rect(0, -4, 1200, 100) })];
    expect(auditArea(SCREEN, two)).toEqual(rect(-3, -4, 1200, 2500));
  });
});

describe('isPossiblyClipped', () => {
  const inner = rect(500, 900, 540, 940);

  it('a node on any edge of the screen area is clipped; one pixel inside is not', () => {
    const [, , node] = placed(inner);
    for (const [r, clipped] of [
      [rect(0, 900, 40, 940), true],
      [rect(1, 900, 40, 940), false],
      [rect(500, 0, 540, 40), true],
      [rect(500, 1, 540, 40), false],
      [rect(1040, 900, 1080, 940), true],
      [rect(1040, 900, 1079, 940), false],
      [rect(500, 2360, 540, 2400), true],
      [rect(500, 2360, 540, 2399), false],
    ] as const) {
      // The node's own parent is the roomy panel [100,100][980,2300]: not flush with it here.
      expect(isPossiblyClipped({ ...node!, parent: null }, r, AREA, 48), JSON.stringify(r)).toBe(clipped);
    }
  });

  it('a node on any edge of a scrollable ancestor is clipped; one pixel inside on every side is not', () => {
    const list = rect(400, 800, 640, 1040);
    const [, , node] = build({
      bounds: AREA,
      children: [{ bounds: list, scrollable: true, children: [{ bounds: inner }] }],
    });
    const cases: [Rect, boolean][] = [
      [rect(401, 801, 639, 1039), false],
      [rect(401, 800, 639, 1039), true],
      [rect(401, 801, 639, 1040), true],
      [rect(400, 801, 639, 1039), true],
      [rect(401, 801, 640, 1039), true],
      [rect(401, 700, 639, 1039), true],
      [rect(401, 801, 639, 1100), true],
      [rect(300, 801, 639, 1039), true],
      [rect(401, 801, 700, 1039), true],
    ];
    for (const [r, clipped] of cases) expect(isPossiblyClipped(node!, r, AREA, 48), JSON.stringify(r)).toBe(clipped);
  });

  it('a scrollable ancestor that does not clip leaves the farther ancestors to check', () => {
    const [, , , node] = build({
      bounds: AREA,
      children: [
        {
          bounds: rect(500, 890, 900, 930),
          children: [{ bounds: rect(100, 100, 980, 2300), scrollable: true, children: [{ bounds: inner }] }],
        },
      ],
    });
    // Flush with the top of a 40 px-high plain grandparent only: squeezed, so clipped.
    expect(isPossiblyClipped(node!, rect(510, 890, 540, 920), AREA, 48)).toBe(true);
  });

  it('an ancestor without bounds is passed over, not the end of the walk', () => {
    const [, , , node] = build({
      bounds: AREA,
      children: [
        {
          bounds: rect(400, 800, 640, 1040),
          scrollable: true,
          children: [{ bounds: null, children: [{ bounds: inner }] }],
        },
      ],
    });
    expect(isPossiblyClipped(node!, rect(400, 900, 440, 940), AREA, 48)).toBe(true);
    expect(isPossiblyClipped(node!, rect(450, 900, 490, 940), AREA, 48)).toBe(false);
  });

  it('flush with exactly one edge of a plain ancestor squeezed below the minimum on that axis is clipped', () => {
    // A plain parent 40 px high (below 48) and 40 px wide.
    const parent = rect(500, 900, 540, 940);
    const [, , node] = build({ bounds: AREA, children: [{ bounds: parent, children: [{ bounds: inner }] }] });
    const check = (r: Rect, minimum = 48): boolean => isPossiblyClipped(node!, r, AREA, minimum);
    expect(check(rect(510, 900, 530, 930))).toBe(true); // top only
    expect(check(rect(510, 910, 530, 940))).toBe(true); // bottom only
    expect(check(rect(500, 910, 530, 930))).toBe(true); // left only
    expect(check(rect(510, 910, 540, 930))).toBe(true); // right only
    expect(check(rect(510, 900, 530, 940))).toBe(false); // top and bottom: wrap_content
    expect(check(rect(500, 910, 540, 930))).toBe(false); // left and right
    expect(check(rect(510, 910, 530, 930))).toBe(false); // no edge
    // The parent exactly at the minimum on that axis is not squeezed.
    expect(check(rect(510, 900, 530, 930), 40)).toBe(false);
    expect(check(rect(500, 910, 530, 930), 40)).toBe(false);
    expect(check(rect(510, 900, 530, 930), 41)).toBe(true);
    expect(check(rect(500, 910, 530, 930), 41)).toBe(true);
  });

  it('flush on one axis says nothing of the other: a squeezed height does not clip a node flush left', () => {
    // 400 px wide, 40 px high: flush left only is ordinary (the width is not squeezed).
    const [, , node] = build({
      bounds: AREA,
      children: [{ bounds: rect(300, 900, 700, 940), children: [{ bounds: inner }] }],
    });
    expect(isPossiblyClipped(node!, rect(300, 905, 340, 935), AREA, 48)).toBe(false);
    // 40 px wide, 400 px high: flush top only is ordinary.
    const [, , tall] = build({
      bounds: AREA,
      children: [{ bounds: rect(500, 700, 540, 1100), children: [{ bounds: inner }] }],
    });
    expect(isPossiblyClipped(tall!, rect(505, 700, 535, 740), AREA, 48)).toBe(false);
  });
});

describe('auditLayout', () => {
  const bars: SystemBars = { status: rect(0, 0, 1080, 100), navigation: rect(0, 2250, 1080, 2400) };

  it('a target one pixel under the minimum on both axes is too small; at the minimum on either axis it is not', () => {
    expect(auditOne(rect(500, 900, 547, 947))).toEqual([
      { issue: 'touch_target_too_small', index: 0, sizePx: [47, 47], minimumPx: 48 },
    ]);
    expect(auditOne(rect(500, 900, 548, 947))).toEqual([]);
    expect(auditOne(rect(500, 900, 547, 948))).toEqual([]);
    expect(auditOne(rect(500, 900, 548, 948))).toEqual([]);
    // 161 dpi: 48 dp is 48.3 px, so 48 px is still too small and the minimum said is 49.
    expect(auditOne(rect(500, 900, 548, 948), 161)).toEqual([
      { issue: 'touch_target_too_small', index: 0, sizePx: [48, 48], minimumPx: 49 },
    ]);
  });

  it('no area on either axis is its own finding', () => {
    expect(auditOne(rect(500, 900, 500, 1000))).toEqual([{ issue: 'no_area', index: 0, sizePx: [0, 100] }]);
    expect(auditOne(rect(500, 900, 600, 900))).toEqual([{ issue: 'no_area', index: 0, sizePx: [100, 0] }]);
    expect(auditOne(rect(500, 900, 490, 1000))).toEqual([{ issue: 'no_area', index: 0, sizePx: [-10, 100] }]);
  });

  it('a target reaching past any side of the area is off screen, and nothing more is said of it', () => {
    const [root, panel] = placed(null);
    const off = (r: Rect) => {
      const [node] = build({ bounds: r });
      return auditLayout([{ ...node!, parent: panel! }], SCREEN, [root!], 160);
    };
    for (const r of [
      rect(-1, 900, 10, 910),
      rect(500, -1, 510, 10),
      rect(1075, 900, 1081, 910),
      rect(500, 2395, 510, 2401),
    ]) {
      expect(off(r), JSON.stringify(r)).toEqual([
        { issue: 'off_screen', index: 0, sizePx: [r.right - r.left, r.bottom - r.top] },
      ]);
    }
  });

  it('a centre under the status or the navigation bar is a finding, with the size check after it', () => {
    expect(auditOne(rect(500, 40, 540, 80), 160, bars)).toEqual([
      { issue: 'under_status_bar', index: 0, sizePx: [40, 40] },
      { issue: 'touch_target_too_small', index: 0, sizePx: [40, 40], minimumPx: 48 },
    ]);
    expect(auditOne(rect(200, 2260, 800, 2390), 160, bars)).toEqual([
      { issue: 'under_navigation_bar', index: 0, sizePx: [600, 130] },
    ]);
    // Centre just outside each bar.
    expect(auditOne(rect(200, 80, 800, 120), 160, bars)).toEqual([]);
    expect(auditOne(rect(200, 2200, 800, 2298), 160, bars)).toEqual([]);
  });

  it("System UI's own windows, unknown bars, and a target without area are never under a bar", () => {
    expect(auditOne(rect(200, 2260, 800, 2390), 160, bars, 'com.android.systemui')).toEqual([]);
    expect(auditOne(rect(200, 2260, 800, 2390), 160, undefined)).toEqual([]);
    expect(auditOne(rect(200, 2260, 800, 2390), 160, { status: null, navigation: null })).toEqual([]);
    expect(auditOne(rect(500, 2300, 500, 2350), 160, bars)).toEqual([{ issue: 'no_area', index: 0, sizePx: [0, 50] }]);
    expect(auditOne(rect(500, 2300, 600, 2300), 160, bars)).toEqual([{ issue: 'no_area', index: 0, sizePx: [100, 0] }]);
  });

  it('a target without bounds is skipped and the others keep their index; a clipped one says nothing', () => {
    const [root, panel, a] = placed(null);
    const [b] = build({ bounds: rect(500, 900, 510, 910) });
    const [c] = build({ bounds: rect(0, 900, 10, 910) });
    const targets = [a!, { ...b!, parent: panel! }, { ...c!, parent: panel! }];
    expect(auditLayout(targets, SCREEN, [root!], 160)).toEqual([
      { issue: 'touch_target_too_small', index: 1, sizePx: [10, 10], minimumPx: 48 },
    ]);
  });
});

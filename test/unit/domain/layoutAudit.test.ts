import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { summariseScreen } from '../../../src/domain/summary/summary.js';
import { minimumTouchPx } from '../../../src/domain/summary/layoutAudit.js';
import { selectorOfEntry, type ScreenContext, type WindowState } from '../../../src/domain/tree/screen.js';
import { screen, uiautomatorDump, type NodeSpec } from './dumpBuilder.js';

function ctx(density: number, window: Partial<WindowState> = {}): ScreenContext {
  return {
    density,
    window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: null, ...window },
  };
}

function summary(children: NodeSpec[], density: number, window: Partial<WindowState> = {}, rootBounds?: string) {
  return summariseScreen(parseDump(uiautomatorDump([screen(children, rootBounds)])), ctx(density, window));
}

function audit(children: NodeSpec[], density: number, window: Partial<WindowState> = {}, rootBounds?: string) {
  return summary(children, density, window, rootBounds).layout_findings ?? [];
}

/** A clickable square of `size` px placed well inside a plain (non-scrollable) panel. */
function square(size: number, label = 'Icon'): NodeSpec {
  return {
    cls: 'android.widget.FrameLayout',
    bounds: '[100,500][980,1500]',
    children: [
      {
        cls: 'android.widget.ImageButton',
        desc: label,
        clickable: true,
        bounds: `[500,900][${500 + size},${900 + size}]`,
      },
    ],
  };
}

describe('layout audit: touch_target_too_small with the real density', () => {
  it.each([
    [160, 48],
    [320, 96],
    [420, 126],
    [480, 144],
  ])('minimum at %i dpi is %i px', (density, minimum) => {
    expect(minimumTouchPx(density)).toBe(minimum);
    // One pixel short on both axes: a finding that names the action (whose bounds give the size) and the minimum.
    const s = summary([square(minimum - 1)], density);
    expect(s.layout_findings).toEqual([{ issue: 'touch_target_too_small', actions: [0], minimum_px: minimum }]);
    expect(s.actions[0]).toEqual({ content_desc: 'Icon', bounds: [500, 900, minimum - 1, minimum - 1] });
    // Exactly the minimum: no finding.
    expect(audit([square(minimum)], density)).toEqual([]);
  });

  it('is not a finding when only one axis is small (a wide row)', () => {
    const row: NodeSpec = {
      cls: 'android.widget.FrameLayout',
      bounds: '[0,500][1080,1500]',
      children: [{ cls: 'android.widget.Button', text: 'Wide', clickable: true, bounds: '[40,900][1040,940]' }],
    };
    expect(audit([row], 420)).toEqual([]);
  });

  it('does not flag a 100 px target at 160 or 320 dpi but does at 420 and 480', () => {
    expect(audit([square(100)], 160)).toEqual([]);
    expect(audit([square(100)], 320)).toEqual([]);
    expect(audit([square(100)], 420).map((f) => f.minimum_px)).toEqual([126]);
    expect(audit([square(100)], 480).map((f) => f.minimum_px)).toEqual([144]);
  });
});

describe('layout audit: clipping is not a finding', () => {
  const list = (children: NodeSpec[]): NodeSpec => ({
    cls: 'androidx.recyclerview.widget.RecyclerView',
    scrollable: true,
    bounds: '[0,200][1080,1800]',
    children,
  });

  it('no finding for a wide row clipped by its scroll container', () => {
    const clippedRow: NodeSpec = {
      cls: 'android.widget.LinearLayout',
      clickable: true,
      bounds: '[0,1780][1080,1800]',
      children: [{ cls: 'android.widget.TextView', text: 'Half a row', bounds: '[40,1780][1040,1800]' }],
    };
    expect(audit([list([clippedRow])], 420)).toEqual([]);
  });

  it('no finding for a narrow tile or a zero-high row cut at the edge of the list', () => {
    const tile: NodeSpec = {
      cls: 'android.widget.ImageButton',
      desc: 'Tile',
      clickable: true,
      bounds: '[100,1790][200,1800]',
    };
    const gone: NodeSpec = { cls: 'android.widget.Button', text: 'Gone', clickable: true, bounds: '[0,200][1080,200]' };
    expect(audit([list([tile, gone])], 420)).toEqual([]);
  });

  it('no finding for an icon cut by the screen edge', () => {
    const chip: NodeSpec = {
      cls: 'android.widget.Button',
      text: 'Chip',
      clickable: true,
      bounds: '[1040,600][1080,640]',
    };
    expect(audit([chip], 420)).toEqual([]);
  });

  it('no finding for an icon flush with one edge of a container squeezed below the minimum', () => {
    const toolbar: NodeSpec = {
      cls: 'android.view.ViewGroup',
      bounds: '[0,1388][1080,1405]',
      children: [{ cls: 'android.widget.ImageButton', desc: 'Close', clickable: true, bounds: '[28,1397][152,1405]' }],
    };
    expect(
      audit([{ cls: 'android.widget.FrameLayout', bounds: '[0,1264][1080,2205]', children: [toolbar] }], 420),
    ).toEqual([]);
  });

  it('still flags a small icon inside a wrap_content row (flush with both edges is not clipping)', () => {
    const row: NodeSpec = {
      cls: 'android.widget.LinearLayout',
      bounds: '[300,800][700,836]',
      children: [{ cls: 'android.widget.ImageView', desc: 'Like', clickable: true, bounds: '[400,800][436,836]' }],
    };
    const s = summary([row], 240);
    expect(s.layout_findings).toEqual([{ issue: 'touch_target_too_small', actions: [0], minimum_px: 72 }]);
    expect(s.actions[0]!.bounds).toEqual([400, 800, 36, 36]);
  });
});

describe('layout audit: no_area and off_screen', () => {
  it('reports a zero-width target that nothing clipped', () => {
    const panel: NodeSpec = {
      cls: 'android.widget.FrameLayout',
      bounds: '[100,400][980,1400]',
      children: [{ cls: 'android.widget.Button', text: 'Thin', clickable: true, bounds: '[300,500][300,600]' }],
    };
    expect(audit([panel], 420)).toEqual([{ issue: 'no_area', actions: [0] }]);
  });

  it('reports a target reaching past the screen', () => {
    const findings = audit(
      [{ cls: 'android.widget.Button', text: 'Past the edge', clickable: true, bounds: '[900,500][1200,700]' }],
      420,
      { displaySize: { width: 1080, height: 2400 } },
    );
    expect(findings).toEqual([{ issue: 'off_screen', actions: [0] }]);
  });

  it('has no false off_screen when a rotated dump keeps portrait bounds (BlueStacks, rotation=1)', () => {
    const tree = parseDump(
      uiautomatorDump(
        [
          screen(
            [{ cls: 'android.widget.Button', text: 'Like', clickable: true, bounds: '[300,1700][800,1850]' }],
            '[0,0][1080,1920]',
          ),
        ],
        1,
      ),
    );
    const summary = summariseScreen(tree, ctx(240, { displaySize: { width: 1920, height: 1080 } }));
    expect(summary.screen).toEqual({ width: 1920, height: 1080 });
    expect(summary).not.toHaveProperty('layout_findings');
  });

  it('audits only offered actions, not plain text or scrollables', () => {
    const findings = audit(
      [
        { cls: 'android.widget.TextView', text: 'tiny caption', bounds: '[500,500][510,510]' },
        {
          cls: 'android.widget.ScrollView',
          scrollable: true,
          clickable: true,
          desc: 'scroller',
          bounds: '[500,600][510,610]',
        },
      ],
      420,
    );
    expect(findings).toEqual([]);
  });
});

describe('layout audit: how findings name their targets', () => {
  it('groups findings by issue, naming the offered actions by index in screen order', () => {
    const panel: NodeSpec = {
      cls: 'android.widget.FrameLayout',
      bounds: '[100,400][980,1400]',
      children: [
        { cls: 'android.widget.ImageButton', desc: 'A', clickable: true, bounds: '[200,500][250,550]' },
        { cls: 'android.widget.Button', text: 'Wide', clickable: true, bounds: '[200,600][900,800]' },
        { cls: 'android.widget.Button', text: 'Thin', clickable: true, bounds: '[300,900][300,1000]' },
        { cls: 'android.widget.ImageButton', desc: 'B', clickable: true, bounds: '[600,500][650,550]' },
      ],
    };
    expect(audit([panel], 420)).toEqual([
      { issue: 'touch_target_too_small', actions: [0, 3], minimum_px: 126 },
      { issue: 'no_area', actions: [2] },
    ]);
  });

  it('names an entry past the 120-action cut by its selector, label and size', () => {
    const buttons: NodeSpec[] = Array.from({ length: 120 }, (_, i) => ({
      cls: 'android.widget.Button',
      text: `B${i}`,
      clickable: true,
      bounds: `[100,${200 + i * 10}][900,${210 + i * 10}]`,
    }));
    const small: NodeSpec = {
      cls: 'android.widget.ImageButton',
      id: 'com.example.app:id/last',
      desc: 'Last',
      clickable: true,
      bounds: '[500,1500][540,1540]',
    };
    const s = summary(
      [{ cls: 'android.widget.FrameLayout', bounds: '[50,100][1000,2000]', children: [...buttons, small] }],
      420,
    );
    expect(s.actions).toHaveLength(120);
    expect(s.truncated).toBe(true);
    expect(s.layout_findings).toEqual([
      { issue: 'touch_target_too_small', selector: { id: 'last' }, label: 'Last', size_px: [40, 40], minimum_px: 126 },
    ]);
    // Its label stays in texts: no offered action shows it.
    expect(s.texts).toEqual(['Last']);
    expect(s.counts).toEqual({ texts: 1, actions: 121, layout_findings: 1 });
  });
});

// An edge-to-edge app (enforced for apps targeting API 35) draws under the system bars.
describe('layout audit: under_navigation_bar / under_status_bar (edge to edge)', () => {
  const BARS = {
    status: { left: 0, top: 0, right: 1080, bottom: 63 },
    navigation: { left: 0, top: 2274, right: 1080, bottom: 2400 },
  };
  const edgeToEdge = (children: NodeSpec[]): NodeSpec[] => [
    { cls: 'android.widget.FrameLayout', bounds: '[0,0][1080,2400]', children },
  ];
  const button = (text: string, bounds: string): NodeSpec => ({
    cls: 'android.widget.Button',
    text,
    clickable: true,
    bounds,
  });

  it('flags a control whose centre is under the navigation bar or the status bar, and only those', () => {
    const s = summary(
      edgeToEdge([
        button('Close', '[0,0][147,105]'), // centre y 52: under the 63 px status bar
        button('Save', '[63,1000][1017,1200]'),
        button('Place order', '[0,2232][1080,2400]'), // centre y 2316: under the bar, 42 px visible above it
        button('Above', '[0,2100][1080,2274]'), // touches the bar, centre above it
        button('Half', '[0,2200][1080,2340]'), // centre y 2270: still above it
      ]),
      420,
      { systemBars: BARS, displaySize: { width: 1080, height: 2400 } },
    );
    expect(s.actions.map((a) => selectorOfEntry(a))).toEqual([
      { text: 'Close' },
      { text: 'Save' },
      { text: 'Place order' },
      { text: 'Above' },
      { text: 'Half' },
    ]);
    expect(s.layout_findings).toEqual([
      { issue: 'under_status_bar', actions: [0] },
      { issue: 'under_navigation_bar', actions: [2] },
    ]);
  });

  it('says nothing when dumpsys window gave no bars, and nothing about System UI under its own bars', () => {
    const children = edgeToEdge([button('Place order', '[0,2232][1080,2400]')]);
    expect(audit(children, 420)).toEqual([]);
    const navButtons: NodeSpec[] = [
      {
        cls: 'android.widget.FrameLayout',
        pkg: 'com.android.systemui',
        bounds: '[0,2274][1080,2400]',
        children: [
          {
            cls: 'android.widget.ImageView',
            pkg: 'com.android.systemui',
            desc: 'Back',
            clickable: true,
            bounds: '[100,2274][300,2400]',
          },
        ],
      },
    ];
    expect(audit(navButtons, 420, { systemBars: BARS })).toEqual([]);
  });

  it('is a finding beside the others: a small icon under the bar is both', () => {
    const s = summary(
      edgeToEdge([
        { cls: 'android.widget.ImageButton', desc: 'Help', clickable: true, bounds: '[500,2300][560,2360]' },
      ]),
      420,
      { systemBars: BARS },
    );
    expect(s.layout_findings).toEqual([
      { issue: 'under_navigation_bar', actions: [0] },
      { issue: 'touch_target_too_small', actions: [0], minimum_px: 126 },
    ]);
  });
});

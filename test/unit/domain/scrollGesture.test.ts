/** Where ui_scroll's swipe runs, how it ends, and how "moved" is decided. */
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import type { ImeState } from '../../../src/domain/tree/screen.js';
import {
  contentSignature,
  gestureArea,
  mainContainer,
  planScroll,
  swipeArea,
  type ScrollContext,
  type SwipePath,
} from '../../../src/domain/gestures/scrollGesture.js';
import { appiumSource, screen, type NodeSpec } from './dumpBuilder.js';

const NO_IME: ImeState = { visible: false, frame: null };
const IME: ImeState = { visible: true, frame: { left: 0, top: 1517, right: 1080, bottom: 2400 } };
const phone = (ime: ImeState = NO_IME, density = 420): ScrollContext => ({
  screen: { width: 1080, height: 2400 },
  density,
  ime,
});

const rows = (top: number, count: number, height = 200): NodeSpec[] =>
  Array.from({ length: count }, (_, i) => ({
    cls: 'android.widget.TextView',
    text: `Row ${i}`,
    bounds: `[0,${top + i * height}][1080,${top + (i + 1) * height}]`,
  }));

function list(bounds: string, children: NodeSpec[], id = 'com.example:id/list'): NodeSpec {
  return { cls: 'androidx.recyclerview.widget.RecyclerView', id, scrollable: true, bounds, children };
}

const ys = (path: SwipePath): number[] => [path.start.y, ...path.moves.map((m) => m.to.y)];

describe('planScroll', () => {
  it('runs over the scrollable list, inside its visible part and clear of both screen edges', () => {
    const tree = parseDump(appiumSource([screen([list('[0,400][1080,2274]', rows(400, 9))])]));
    const plan = planScroll(tree, phone(), 'down');
    expect(plan.container?.resourceId).toBe('com.example:id/list');
    // 56 dp at 420 dpi = 147 px: the list's bottom (2274) is cut at 2253.
    expect(plan.area).toEqual({ left: 0, top: 400, right: 1080, bottom: 2253 });
    for (const y of ys(plan.path)) {
      expect(y).toBeGreaterThanOrEqual(400);
      expect(y).toBeLessThan(2253);
    }
    // Down: the finger goes up, about 80 % of the area.
    expect(plan.path.start.y).toBeGreaterThan(plan.path.moves.at(-1)!.to.y);
    expect(plan.path.start.y - plan.path.moves.at(-1)!.to.y).toBeGreaterThan(0.75 * (2253 - 400));
  });

  it('ends with a creep under the minimum fling velocity for longer than the velocity horizon, then a hold, at any density', () => {
    const tree = parseDump(appiumSource([screen([list('[0,400][1080,2274]', rows(400, 9))])]));
    for (const density of [120, 160, 420, 640]) {
      const { path } = planScroll(tree, phone(NO_IME, density), 'down');
      const [drag, creep] = path.moves as [SwipePath['moves'][0], SwipePath['moves'][0]];
      const creepSpeedDpPerS = (((drag.to.y - creep.to.y) / creep.durationMs) * 1000 * 160) / density;
      expect(creepSpeedDpPerS, `density ${density}`).toBeGreaterThan(0);
      expect(creepSpeedDpPerS, `density ${density}`).toBeLessThan(50 / 2);
      expect(creep.durationMs).toBeGreaterThanOrEqual(200);
      expect(path.holdMs).toBeGreaterThan(40);
    }
  });

  it('up is the same gesture the other way', () => {
    const tree = parseDump(appiumSource([screen([list('[0,400][1080,2274]', rows(400, 9))])]));
    const down = planScroll(tree, phone(), 'down').path;
    const up = planScroll(tree, phone(), 'up').path;
    expect(up.start.y).toBe(down.moves.at(-1)!.to.y);
    expect(up.moves.at(-1)!.to.y).toBe(down.start.y);
  });

  it('with the keyboard open, the whole swipe stays above it', () => {
    const tree = parseDump(
      appiumSource([
        screen([
          { cls: 'android.widget.EditText', bounds: '[0,63][1080,252]' },
          list('[0,252][1080,2274]', rows(252, 20)),
        ]),
      ]),
    );
    const plan = planScroll(tree, phone(IME), 'down');
    expect(plan.area.bottom).toBe(1517);
    for (const y of ys(plan.path)) expect(y).toBeLessThan(1517);
  });

  it('picks the largest visible scrollable, ignoring one hidden under the keyboard', () => {
    const tree = parseDump(
      appiumSource([
        screen([
          list('[0,300][1080,700]', rows(300, 5), 'com.example:id/chips'),
          list('[0,700][1080,1500]', rows(700, 10), 'com.example:id/feed'),
          list('[0,1600][1080,2300]', rows(1600, 10), 'com.example:id/under_ime'),
        ]),
      ]),
    );
    expect(planScroll(tree, phone(IME), 'down').container?.resourceId).toBe('com.example:id/feed');
  });

  it('without a scrollable container it uses the screen, still clear of the edges', () => {
    const tree = parseDump(
      appiumSource([screen([{ cls: 'android.widget.TextView', text: 'Hello', bounds: '[0,300][1080,400]' }])]),
    );
    const plan = planScroll(tree, phone(), 'down');
    expect(plan.container).toBeNull();
    expect(plan.area).toEqual(gestureArea(phone()));
    expect(plan.area).toEqual({ left: 0, top: 147, right: 1080, bottom: 2253 });
  });
});

describe('contentSignature', () => {
  it('changes when the rows of the container move, not when something outside it changes', () => {
    const page = (offset: number, title: string) =>
      parseDump(
        appiumSource([
          screen([
            { cls: 'android.widget.TextView', text: title, bounds: '[0,63][1080,200]' },
            list(
              '[0,400][1080,2274]',
              rows(400 - offset, 12).filter((r) => !r.bounds?.startsWith('[0,-')),
            ),
          ]),
        ]),
      );
    const before = page(0, 'Inbox');
    const container = planScroll(before, phone(), 'down').container;
    expect(contentSignature(page(0, 'Inbox (1)'), container)).toBe(contentSignature(before, container));
    expect(contentSignature(page(200, 'Inbox'), container)).not.toBe(contentSignature(before, container));
  });

  it('falls back to the whole tree when there is no container, or it is gone', () => {
    const a = parseDump(
      appiumSource([screen([{ cls: 'android.widget.TextView', text: 'A', bounds: '[0,300][1080,400]' }])]),
    );
    const b = parseDump(
      appiumSource([screen([{ cls: 'android.widget.TextView', text: 'B', bounds: '[0,300][1080,400]' }])]),
    );
    expect(contentSignature(a, null)).not.toBe(contentSignature(b, null));
    const withList = parseDump(appiumSource([screen([list('[0,400][1080,2274]', rows(400, 9))])]));
    const container = planScroll(withList, phone(), 'down').container;
    expect(contentSignature(a, container)).not.toBe(contentSignature(b, container));
  });
});

/** Four directions, the main container by orientation, a named container. */
const tiles = (top: number, count: number, width = 252, left = 24): NodeSpec[] =>
  Array.from({ length: count }, (_, i) => ({
    cls: 'android.widget.TextView',
    text: `Day ${i}`,
    clickable: true,
    bounds: `[${left + i * width},${top}][${Math.min(1080, left + i * width + 228)},${top + 168}]`,
  })).filter((t) => Number(/^\[(\d+)/.exec(t.bounds)![1]) < 1080);
const xs = (path: SwipePath): number[] => [path.start.x, ...path.moves.map((m) => m.to.x)];

describe('planScroll sideways and by orientation', () => {
  const calendar = (): ReturnType<typeof parseDump> =>
    parseDump(
      appiumSource([
        screen([
          list('[0,252][1080,462]', tiles(273, 5), 'com.example:id/day_strip'),
          list('[0,580][1080,1500]', rows(580, 5), 'com.example:id/schedule'),
          list('[0,1600][1080,2274]', rows(1600, 4, 150), 'com.example:id/task_list'),
        ]),
      ]),
    );

  it('right drags the finger leftwards across the carousel, inside it, clear of both side edges (56 dp = 147 px), at its middle height', () => {
    const plan = planScroll(calendar(), phone(), 'right');
    expect(plan.container?.resourceId).toBe('com.example:id/day_strip');
    expect(plan.area).toEqual({ left: 147, top: 252, right: 933, bottom: 462 });
    for (const x of xs(plan.path)) {
      expect(x).toBeGreaterThanOrEqual(147);
      expect(x).toBeLessThan(933);
    }
    expect(new Set(ys(plan.path))).toEqual(new Set([357]));
    expect(plan.path.start.x).toBeGreaterThan(plan.path.moves.at(-1)!.to.x);
    expect(plan.path.start.x - plan.path.moves.at(-1)!.to.x).toBeGreaterThan(0.75 * (933 - 147));
    // The same creep and hold as vertically: released under the fling threshold.
    const [drag, creep] = plan.path.moves as [SwipePath['moves'][0], SwipePath['moves'][0]];
    expect(((drag.to.x - creep.to.x) / creep.durationMs) * 1000 * (160 / 420)).toBeLessThan(25);
    expect(plan.path.holdMs).toBeGreaterThan(40);
  });

  it('left is the same gesture the other way', () => {
    const right = planScroll(calendar(), phone(), 'right').path;
    const left = planScroll(calendar(), phone(), 'left').path;
    expect(left.start).toEqual(right.moves.at(-1)!.to);
    expect(left.moves.at(-1)!.to).toEqual(right.start);
  });

  it('up and down take the largest vertical list, never the carousel, and keep x at its middle', () => {
    for (const direction of ['up', 'down'] as const) {
      const plan = planScroll(calendar(), phone(), direction);
      expect(plan.container?.resourceId, direction).toBe('com.example:id/schedule');
      expect(new Set(xs(plan.path))).toEqual(new Set([540]));
    }
  });

  it('the main container for a direction is the largest visible scrollable that scrolls that way, or none', () => {
    expect(mainContainer(calendar(), phone(), 'left')?.resourceId).toBe('com.example:id/day_strip');
    expect(mainContainer(calendar(), phone(), 'down')?.resourceId).toBe('com.example:id/schedule');
    const onlyVertical = parseDump(appiumSource([screen([list('[0,400][1080,2274]', rows(400, 9))])]));
    expect(mainContainer(onlyVertical, phone(), 'right')).toBeNull();
    expect(mainContainer(onlyVertical, phone(), 'left')).toBeNull();
  });

  it('a named container is swiped over even when it is not the largest', () => {
    const tree = calendar();
    const tasks = tree.nodes.find((n) => n.resourceId === 'com.example:id/task_list')!;
    const plan = planScroll(tree, phone(), 'down', tasks);
    expect(plan.container).toBe(tasks);
    // Clear of the bottom edge: 2400 - 147.
    expect(plan.area).toEqual({ left: 0, top: 1600, right: 1080, bottom: 2253 });
    for (const y of ys(plan.path)) {
      expect(y).toBeGreaterThanOrEqual(1600);
      expect(y).toBeLessThan(2253);
    }
  });

  it('swipeArea: none for a container hidden under the keyboard, or too narrow to swipe across', () => {
    const tree = calendar();
    const tasks = tree.nodes.find((n) => n.resourceId === 'com.example:id/task_list')!;
    expect(swipeArea(tasks, phone(IME), 'vertical')).toBeNull();
    const narrow = parseDump(
      appiumSource([screen([list('[1000,300][1080,700]', tiles(300, 2, 40, 1000), 'com.example:id/narrow')])]),
    );
    const node = narrow.nodes.find((n) => n.resourceId === 'com.example:id/narrow')!;
    expect(swipeArea(node, phone(), 'horizontal')).toBeNull();
  });
});

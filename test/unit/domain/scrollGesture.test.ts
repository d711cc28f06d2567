/** Issue 12 (items 4 and 5): where ui_scroll's swipe runs, how it ends, and how "moved" is decided. */
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/dump.js';
import type { ImeState } from '../../../src/domain/screen.js';
import { contentSignature, gestureArea, planScroll, type ScrollContext, type SwipePath } from '../../../src/domain/scrollGesture.js';
import { appiumSource, screen, type NodeSpec } from './dumpBuilder.js';

const NO_IME: ImeState = { visible: false, frame: null };
const IME: ImeState = { visible: true, frame: { left: 0, top: 1517, right: 1080, bottom: 2400 } };
const phone = (ime: ImeState = NO_IME, density = 420): ScrollContext => ({ screen: { width: 1080, height: 2400 }, density, ime });

const rows = (top: number, count: number, height = 200): NodeSpec[] =>
  Array.from({ length: count }, (_, i) => ({ cls: 'android.widget.TextView', text: `Row ${i}`, bounds: `[0,${top + i * height}][1080,${top + (i + 1) * height}]` }));

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
    const tree = parseDump(appiumSource([screen([{ cls: 'android.widget.EditText', bounds: '[0,63][1080,252]' }, list('[0,252][1080,2274]', rows(252, 20))])]));
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
    const tree = parseDump(appiumSource([screen([{ cls: 'android.widget.TextView', text: 'Hello', bounds: '[0,300][1080,400]' }])]));
    const plan = planScroll(tree, phone(), 'down');
    expect(plan.container).toBeNull();
    expect(plan.area).toEqual(gestureArea(phone()));
    expect(plan.area).toEqual({ left: 0, top: 147, right: 1080, bottom: 2253 });
  });
});

describe('contentSignature', () => {
  it('changes when the rows of the container move, not when something outside it changes', () => {
    const page = (offset: number, title: string) =>
      parseDump(appiumSource([screen([{ cls: 'android.widget.TextView', text: title, bounds: '[0,63][1080,200]' }, list('[0,400][1080,2274]', rows(400 - offset, 12).filter((r) => !r.bounds?.startsWith('[0,-')))])]));
    const before = page(0, 'Inbox');
    const container = planScroll(before, phone(), 'down').container;
    expect(contentSignature(page(0, 'Inbox (1)'), container)).toBe(contentSignature(before, container));
    expect(contentSignature(page(200, 'Inbox'), container)).not.toBe(contentSignature(before, container));
  });

  it('falls back to the whole tree when there is no container, or it is gone', () => {
    const a = parseDump(appiumSource([screen([{ cls: 'android.widget.TextView', text: 'A', bounds: '[0,300][1080,400]' }])]));
    const b = parseDump(appiumSource([screen([{ cls: 'android.widget.TextView', text: 'B', bounds: '[0,300][1080,400]' }])]));
    expect(contentSignature(a, null)).not.toBe(contentSignature(b, null));
    const withList = parseDump(appiumSource([screen([list('[0,400][1080,2274]', rows(400, 9))])]));
    const container = planScroll(withList, phone(), 'down').container;
    expect(contentSignature(a, container)).not.toBe(contentSignature(b, container));
  });
});

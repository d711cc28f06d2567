/**
 * Scrollable containers (src/domain/summary/scrollables.ts) at their edges: the ViewPager2 parent
 * rule read to the end of the class name, children with no area left out of the layout rule, two
 * children touching edge to edge in a column (vertical) or a row (horizontal), which scrollables are
 * listed, the intersection of two rectangles on each side, a class and bounds matched on every
 * coordinate, and each direction's orientation.
 */
import { describe, expect, it } from 'vitest';
import {
  containerOf,
  intersectRect,
  nodeOfElement,
  orientationOfDirection,
  sameClassAndBounds,
  scrollOrientation,
  visibleScrollables,
} from '../../../../src/domain/summary/scrollables.js';
import { parseDump } from '../../../../src/domain/tree/dump.js';
import type { Rect, UiNode, UiTree } from '../../../../src/domain/tree/uiNode.js';
import { appiumSource, screen, type NodeSpec } from '../dumpBuilder.js';

const RECYCLER = 'androidx.recyclerview.widget.RecyclerView';
const one = (container: NodeSpec): UiTree => parseDump(appiumSource([screen([container])]));
const byId = (tree: UiTree, id: string): UiNode => tree.nodes.find((n) => n.resourceId === id)!;
const rect = (left: number, top: number, right: number, bottom: number): Rect => ({ left, top, right, bottom });
const box = (bounds: string): NodeSpec => ({ cls: 'android.widget.FrameLayout', bounds });

/** A plain RecyclerView (no class rule) holding these children. */
function list(children: NodeSpec[], parentCls?: string): UiNode {
  const inner: NodeSpec = { cls: RECYCLER, id: 'a:id/list', scrollable: true, bounds: '[0,300][1080,700]', children };
  const tree = one(parentCls ? { cls: parentCls, bounds: '[0,300][1080,700]', children: [inner] } : inner);
  return byId(tree, 'a:id/list');
}

describe('scrollOrientation at its edges', () => {
  it("a ViewPager2's child is horizontal; a parent whose class only contains ViewPager2 is no ViewPager2", () => {
    expect(scrollOrientation(list([box('[0,300][1080,700]')], 'androidx.viewpager2.widget.ViewPager2'))).toBe(
      'horizontal',
    );
    expect(scrollOrientation(list([box('[0,300][1080,700]')], 'com.example.ViewPager2Host'))).toBe('vertical');
    expect(scrollOrientation(list([box('[0,300][1080,700]')], 'android.widget.FrameLayout'))).toBe('vertical');
  });

  it('two children touching edge to edge: one above the other is a column, side by side a row', () => {
    expect(scrollOrientation(list([box('[0,300][1080,500]'), box('[0,500][1080,700]')]))).toBe('vertical');
    expect(scrollOrientation(list([box('[0,300][540,700]'), box('[540,300][1080,700]')]))).toBe('horizontal');
    // Overlapping by a pixel vertically is still one row.
    expect(scrollOrientation(list([box('[0,300][540,501]'), box('[540,500][1080,700]')]))).toBe('horizontal');
  });

  it('children without area (no width, no height, inverted) or hidden do not count towards a row', () => {
    for (const other of ['[540,300][540,700]', '[540,300][1080,300]', '[600,300][540,700]', '[0,0][0,0]']) {
      expect(scrollOrientation(list([box('[0,300][540,700]'), box(other)])), other).toBe('vertical');
    }
    // With a third child side by side, two boxes with area remain: a row.
    expect(
      scrollOrientation(list([box('[0,300][540,700]'), box('[540,300][540,700]'), box('[540,300][1080,700]')])),
    ).toBe('horizontal');
  });
});

describe('visibleScrollables', () => {
  it('lists the visible scrollables with area, in document order', () => {
    const tree = one({
      cls: 'android.widget.FrameLayout',
      bounds: '[0,0][1080,2400]',
      children: [
        { cls: RECYCLER, id: 'a:id/one', scrollable: true, bounds: '[0,0][1080,500]' },
        { cls: RECYCLER, id: 'a:id/flat', scrollable: true, bounds: '[0,600][1080,600]' },
        { cls: RECYCLER, id: 'a:id/thin', scrollable: true, bounds: '[10,700][10,900]' },
        { cls: RECYCLER, id: 'a:id/hidden', scrollable: true, bounds: '[0,0][0,0]' },
        { cls: RECYCLER, id: 'a:id/still', bounds: '[0,1000][1080,1500]' },
        { cls: RECYCLER, id: 'a:id/two', scrollable: true, bounds: '[0,1600][1080,2400]' },
      ],
    });
    expect(visibleScrollables(tree).map((n) => n.resourceId)).toEqual(['a:id/one', 'a:id/two']);
  });
});

describe('intersectRect', () => {
  const a = rect(100, 100, 300, 300);

  it('is the overlap of two rectangles, taking each side from the one that cuts it', () => {
    expect(intersectRect(a, rect(200, 50, 400, 250))).toEqual(rect(200, 100, 300, 250));
    expect(intersectRect(rect(200, 50, 400, 250), a)).toEqual(rect(200, 100, 300, 250));
    expect(intersectRect(a, rect(0, 150, 150, 400))).toEqual(rect(100, 150, 150, 300));
  });

  it('is null when they only touch or are apart, on either axis', () => {
    expect(intersectRect(a, rect(300, 100, 400, 300))).toBeNull();
    expect(intersectRect(a, rect(100, 300, 300, 400))).toBeNull();
    expect(intersectRect(a, rect(0, 0, 100, 300))).toBeNull();
    expect(intersectRect(a, rect(100, 0, 300, 100))).toBeNull();
    expect(intersectRect(a, rect(299, 100, 400, 300))).toEqual(rect(299, 100, 300, 300));
    expect(intersectRect(a, rect(100, 299, 300, 400))).toEqual(rect(100, 299, 300, 300));
  });
});

describe('sameClassAndBounds and nodeOfElement', () => {
  const tree = one({ cls: RECYCLER, id: 'a:id/list', scrollable: true, bounds: '[10,20][30,40]' });
  const node = byId(tree, 'a:id/list');

  it('needs the class and every coordinate', () => {
    expect(sameClassAndBounds(node, RECYCLER, rect(10, 20, 30, 40))).toBe(true);
    expect(sameClassAndBounds(node, 'android.widget.ListView', rect(10, 20, 30, 40))).toBe(false);
    expect(sameClassAndBounds(node, RECYCLER, rect(11, 20, 30, 40))).toBe(false);
    expect(sameClassAndBounds(node, RECYCLER, rect(10, 21, 30, 40))).toBe(false);
    expect(sameClassAndBounds(node, RECYCLER, rect(10, 20, 31, 40))).toBe(false);
    expect(sameClassAndBounds(node, RECYCLER, rect(10, 20, 30, 41))).toBe(false);
    expect(sameClassAndBounds(node, RECYCLER, null)).toBe(false);
  });

  it('a node without bounds is never the element', () => {
    const bare = one({ cls: RECYCLER, id: 'a:id/bare', bounds: null });
    expect(sameClassAndBounds(byId(bare, 'a:id/bare'), RECYCLER, rect(0, 0, 0, 0))).toBe(false);
    expect(nodeOfElement(tree, { className: RECYCLER, bounds: rect(10, 20, 30, 40) })).toBe(node);
    expect(nodeOfElement(tree, { className: RECYCLER, bounds: rect(10, 20, 30, 39) })).toBeNull();
  });
});

describe('orientationOfDirection and containerOf', () => {
  it('left and right are horizontal, up and down vertical', () => {
    expect(orientationOfDirection('left')).toBe('horizontal');
    expect(orientationOfDirection('right')).toBe('horizontal');
    expect(orientationOfDirection('up')).toBe('vertical');
    expect(orientationOfDirection('down')).toBe('vertical');
  });

  it('the nearest scrollable the wrong way is named with its orientation, even past a farther one the wrong way', () => {
    const tree = one({
      cls: 'android.widget.ScrollView',
      id: 'a:id/outer',
      scrollable: true,
      bounds: '[0,0][1080,2400]',
      children: [
        {
          cls: 'android.widget.ListView',
          id: 'a:id/inner',
          scrollable: true,
          bounds: '[0,0][1080,1200]',
          children: [{ cls: 'android.widget.TextView', id: 'a:id/row', text: 'Row', bounds: '[0,0][1080,100]' }],
        },
      ],
    });
    expect(containerOf(byId(tree, 'a:id/row'), 'left')).toEqual({
      kind: 'wrong-orientation',
      nearest: byId(tree, 'a:id/inner'),
      orientation: 'vertical',
    });
    expect(containerOf(byId(tree, 'a:id/row'), 'down')).toEqual({ kind: 'found', container: byId(tree, 'a:id/inner') });
  });
});

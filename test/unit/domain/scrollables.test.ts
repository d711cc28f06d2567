/** Which way a container scrolls, and which container a named node stands for. */
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { containerOf, nodeOfElement, scrollOrientation } from '../../../src/domain/summary/scrollables.js';
import type { UiNode, UiTree } from '../../../src/domain/tree/uiNode.js';
import { appiumSource, screen, type NodeSpec } from './dumpBuilder.js';

const text = (t: string, bounds: string): NodeSpec => ({ cls: 'android.widget.TextView', text: t, bounds });
const byId = (tree: UiTree, id: string): UiNode => tree.nodes.find((n) => n.resourceId === id)!;
const byText = (tree: UiTree, t: string): UiNode => tree.nodes.find((n) => n.text === t)!;
const one = (container: NodeSpec): UiTree => parseDump(appiumSource([screen([container])]));

describe('scrollOrientation', () => {
  it('reads the class first: HorizontalScrollView, ViewPager and ViewPager2 sideways; ScrollView, ListView, GridView, WebView vertically', () => {
    for (const cls of [
      'android.widget.HorizontalScrollView',
      'androidx.viewpager.widget.ViewPager',
      'androidx.viewpager2.widget.ViewPager2',
      'android.widget.Gallery',
    ]) {
      expect(
        scrollOrientation(one({ cls, id: 'a:id/x', scrollable: true, bounds: '[0,300][1080,700]' }).nodes[1]!),
        cls,
      ).toBe('horizontal');
    }
    for (const cls of [
      'android.widget.ScrollView',
      'androidx.core.widget.NestedScrollView',
      'android.widget.ListView',
      'android.widget.GridView',
      'android.webkit.WebView',
    ]) {
      // Children side by side do not override the class.
      const tree = one({
        cls,
        scrollable: true,
        bounds: '[0,300][1080,700]',
        children: [text('A', '[0,300][540,700]'), text('B', '[540,300][1080,700]')],
      });
      expect(scrollOrientation(tree.nodes[1]!), cls).toBe('vertical');
    }
  });

  it('a RecyclerView whose visible children sit side by side in one row is horizontal (a carousel, a chip row)', () => {
    const tree = one({
      cls: 'androidx.recyclerview.widget.RecyclerView',
      scrollable: true,
      bounds: '[0,252][1080,462]',
      children: [
        text('Dec 1', '[24,273][252,441]'),
        text('Dec 2', '[276,273][504,441]'),
        text('Dec 3', '[528,273][756,441]'),
        text('Dec 4', '[780,273][1008,441]'),
        text('Dec 5', '[1032,273][1080,441]'),
      ],
    });
    expect(scrollOrientation(tree.nodes[1]!)).toBe('horizontal');
  });

  it('a column, a two-column grid, one child or no child is vertical', () => {
    const rv = (children: NodeSpec[]): UiNode =>
      one({
        cls: 'androidx.recyclerview.widget.RecyclerView',
        scrollable: true,
        bounds: '[0,300][1080,2000]',
        children,
      }).nodes[1]!;
    expect(scrollOrientation(rv([text('A', '[0,300][1080,500]'), text('B', '[0,500][1080,700]')]))).toBe('vertical');
    expect(
      scrollOrientation(
        rv([
          text('A', '[0,300][540,700]'),
          text('B', '[540,300][1080,700]'),
          text('C', '[0,700][540,1100]'),
          text('D', '[540,700][1080,1100]'),
        ]),
      ),
    ).toBe('vertical');
    expect(scrollOrientation(rv([text('A', '[0,300][1080,2000]')]))).toBe('vertical');
    expect(scrollOrientation(rv([]))).toBe('vertical');
  });

  it("a ViewPager2's RecyclerView scrolls sideways even with one page showing", () => {
    const tree = one({
      cls: 'androidx.viewpager2.widget.ViewPager2',
      bounds: '[0,300][1080,2000]',
      children: [
        {
          cls: 'androidx.recyclerview.widget.RecyclerView',
          id: 'a:id/pages',
          scrollable: true,
          bounds: '[0,300][1080,2000]',
          children: [text('Page 1', '[0,300][1080,2000]')],
        },
      ],
    });
    expect(scrollOrientation(byId(tree, 'a:id/pages'))).toBe('horizontal');
  });
});

describe('containerOf and nodeOfElement', () => {
  const feed = (): UiTree =>
    parseDump(
      appiumSource([
        screen([
          {
            cls: 'androidx.recyclerview.widget.RecyclerView',
            id: 'a:id/feed',
            scrollable: true,
            bounds: '[0,252][1080,2274]',
            children: [
              text('Top stories', '[0,252][1080,400]'),
              {
                cls: 'androidx.recyclerview.widget.RecyclerView',
                id: 'a:id/carousel',
                scrollable: true,
                bounds: '[0,400][1080,700]',
                children: [
                  text('Story 1', '[0,400][500,700]'),
                  text('Story 2', '[520,400][1020,700]'),
                  text('Story 3', '[1040,400][1080,700]'),
                ],
              },
            ],
          },
          text('Footer', '[0,2274][1080,2337]'),
        ]),
      ]),
    );

  it('the named node itself when it scrolls the way asked', () => {
    const tree = feed();
    expect(containerOf(byId(tree, 'a:id/carousel'), 'right')).toEqual({
      kind: 'found',
      container: byId(tree, 'a:id/carousel'),
    });
    expect(containerOf(byId(tree, 'a:id/feed'), 'up')).toEqual({ kind: 'found', container: byId(tree, 'a:id/feed') });
  });

  it('else its nearest ancestor that does: a tile names its carousel sideways and the feed vertically', () => {
    const tree = feed();
    expect(containerOf(byText(tree, 'Story 2'), 'left')).toEqual({
      kind: 'found',
      container: byId(tree, 'a:id/carousel'),
    });
    expect(containerOf(byText(tree, 'Story 2'), 'down')).toEqual({ kind: 'found', container: byId(tree, 'a:id/feed') });
    expect(containerOf(byId(tree, 'a:id/carousel'), 'down')).toEqual({
      kind: 'found',
      container: byId(tree, 'a:id/feed'),
    });
  });

  it('wrong orientation names the nearest scrollable; outside every scrollable, not-scrollable', () => {
    const tree = feed();
    expect(containerOf(byText(tree, 'Top stories'), 'right')).toEqual({
      kind: 'wrong-orientation',
      nearest: byId(tree, 'a:id/feed'),
      orientation: 'vertical',
    });
    expect(containerOf(byText(tree, 'Footer'), 'down')).toEqual({ kind: 'not-scrollable' });
  });

  it('finds the element the driver found by its class and bounds, nothing without them', () => {
    const tree = feed();
    expect(
      nodeOfElement(tree, {
        className: 'androidx.recyclerview.widget.RecyclerView',
        bounds: { left: 0, top: 400, right: 1080, bottom: 700 },
      }),
    ).toBe(byId(tree, 'a:id/carousel'));
    expect(
      nodeOfElement(tree, {
        className: 'android.widget.TextView',
        bounds: { left: 0, top: 400, right: 1080, bottom: 700 },
      }),
    ).toBeNull();
    expect(nodeOfElement(tree, { className: 'androidx.recyclerview.widget.RecyclerView', bounds: null })).toBeNull();
  });
});

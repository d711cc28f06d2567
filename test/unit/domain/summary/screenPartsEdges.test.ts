/**
 * ui_get_tree's parts (src/domain/summary/screenParts.ts) called directly on small hand-written
 * screens: what `within` keeps of the whole summary (the container's own entry and those inside it,
 * the texts its nodes show, the scrollables inside its bounds to the pixel; no findings, counts or
 * cut mark), and what the text mode reads (visible texts in screen order, trimmed, icon glyphs and
 * blanks left out, each once unless it stands in two entries or more, the cap of texts).
 */
import { describe, expect, it } from 'vitest';
import { screenTexts, summaryWithin } from '../../../../src/domain/summary/screenParts.js';
import { MAX_TEXTS, MAX_TEXT_CODE_POINTS, summariseScreenDetailed } from '../../../../src/domain/summary/summary.js';
import { parseDump } from '../../../../src/domain/tree/dump.js';
import type { ScreenContext, ScreenSummary } from '../../../../src/domain/tree/screen.js';
import type { UiNode, UiTree } from '../../../../src/domain/tree/uiNode.js';
import { screen, uiautomatorDump, type NodeSpec } from '../dumpBuilder.js';

const context: ScreenContext = {
  density: 420,
  window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: null },
};

const treeOf = (children: NodeSpec[]): UiTree => parseDump(uiautomatorDump([screen(children)]));
const byId = (tree: UiTree, id: string): UiNode => tree.nodes.find((n) => n.resourceId.endsWith(`/${id}`))!;

/** A page with a card (a button inside, a text, a list) and, outside it, a button and a text. */
function page(): NodeSpec[] {
  return [
    {
      id: 'com.example.app:id/card',
      bounds: '[0,100][1080,1100]',
      children: [
        { text: 'Card title', bounds: '[20,120][600,180]' },
        { cls: 'android.widget.Button', text: 'Inside', clickable: true, bounds: '[20,200][600,300]' },
        { text: 'Hidden', bounds: '[0,0][0,0]' },
        {
          cls: 'android.widget.ListView',
          id: 'com.example.app:id/list',
          scrollable: true,
          bounds: '[0,400][1080,1100]',
          children: [{ text: 'Row', bounds: '[0,400][1080,500]' }],
        },
      ],
    },
    { cls: 'android.widget.Button', text: 'Outside', clickable: true, bounds: '[20,1200][600,1300]' },
    { text: 'Footer', bounds: '[20,1400][600,1500]' },
    {
      cls: 'android.widget.ScrollView',
      id: 'com.example.app:id/other',
      scrollable: true,
      bounds: '[0,1600][1080,2400]',
    },
  ];
}

describe('summaryWithin', () => {
  it("keeps the container's entries, texts and scrollables, and leaves out findings, counts and the cut", () => {
    const tree = treeOf(page());
    const { summary, plans } = summariseScreenDetailed(tree, context);
    const whole: ScreenSummary = {
      ...summary,
      layout_findings: [{ issue: 'no_area', actions: [0] }],
      counts: { texts: 1, actions: 1, layout_findings: 1 },
      truncated: true,
      keyboard: { open: true, top: 2000 },
    };
    const part = summaryWithin(whole, plans, byId(tree, 'card'));
    expect(part.actions.map((a) => a.text)).toEqual(['Inside']);
    expect(part.texts).toEqual(['Card title', 'Row'].filter((t) => summary.texts.includes(t)));
    expect(part.texts).toContain('Card title');
    expect(part.texts).not.toContain('Footer');
    expect(part.scrollables?.map((s) => s.selector)).toEqual([{ id: 'list' }]);
    expect(part).not.toHaveProperty('layout_findings');
    expect(part).not.toHaveProperty('counts');
    expect(part).not.toHaveProperty('truncated');
    expect(part.keyboard).toEqual({ open: true, top: 2000 });
    expect(part.foreground_package).toBe(summary.foreground_package);
    expect(part.screen).toEqual(summary.screen);
  });

  it('the container itself is one of its entries; no scrollable inside leaves the key out', () => {
    const tree = treeOf(page());
    const { summary, plans } = summariseScreenDetailed(tree, context);
    const button = tree.nodes.find((n) => n.text === 'Outside')!;
    const part = summaryWithin(summary, plans, button);
    expect(part.actions.map((a) => a.text)).toEqual(['Outside']);
    expect(part).not.toHaveProperty('scrollables');
  });

  it('a scrollable is inside when its box lies within the bounds to the pixel, on every side', () => {
    const tree = treeOf(page());
    const { summary, plans } = summariseScreenDetailed(tree, context);
    const card = byId(tree, 'card');
    const at = (bounds: [number, number, number, number]) =>
      summaryWithin({ ...summary, scrollables: [{ bounds }] }, plans, card).scrollables ?? [];
    // The card is [0,100][1080,1100].
    expect(at([0, 100, 1080, 1000])).toHaveLength(1);
    expect(at([0, 99, 1080, 100])).toHaveLength(0);
    expect(at([-1, 100, 100, 100])).toHaveLength(0);
    expect(at([1, 100, 1080, 100])).toHaveLength(0);
    expect(at([0, 200, 100, 901])).toHaveLength(0);
    expect(at([0, 200, 100, 900])).toHaveLength(1);
  });

  it('a container without bounds holds no scrollable', () => {
    const tree = treeOf([{ id: 'com.example.app:id/box', bounds: null, children: page() }]);
    const { summary, plans } = summariseScreenDetailed(tree, context);
    const part = summaryWithin({ ...summary, scrollables: [{ bounds: [0, 0, 1, 1] }] }, plans, byId(tree, 'box'));
    expect(part).not.toHaveProperty('scrollables');
  });

  it("an entry past the plans' end is left out (no plan, no container to check)", () => {
    const tree = treeOf(page());
    const { summary, plans } = summariseScreenDetailed(tree, context);
    const part = summaryWithin(summary, plans.slice(0, 0), tree.roots[0]!);
    expect(part.actions).toEqual([]);
  });

  it('texts are those the nodes of the container show, visible, cut as the summary cuts them (40 code points and an ellipsis)', () => {
    const long = 'L'.repeat(60);
    const tree = treeOf([
      {
        id: 'com.example.app:id/box',
        bounds: '[0,0][1080,1000]',
        children: [
          { text: long, bounds: '[0,0][1080,100]' },
          { text: 'Gone', bounds: '[0,0][0,0]' },
        ],
      },
      { text: 'Gone', bounds: '[0,1200][1080,1300]' },
    ]);
    const { summary, plans } = summariseScreenDetailed(tree, context);
    const part = summaryWithin(summary, plans, byId(tree, 'box'));
    expect(part.texts).toEqual([`${'L'.repeat(40)}…`]);
  });
});

describe('screenTexts', () => {
  it('reads every visible text in screen order, trimmed, each once; blanks, icon glyphs and hidden ones left out', () => {
    const tree = treeOf([
      { text: '  First  ', bounds: '[0,0][100,100]' },
      { text: '   ', bounds: '[0,100][100,200]' },
      { text: '\ue000\ue001', bounds: '[0,200][100,300]' },
      { text: 'Hidden', bounds: '[0,0][0,0]' },
      { desc: 'Second', bounds: '[0,300][100,400]' },
      { text: 'First', bounds: '[0,400][100,500]' },
    ]);
    expect(screenTexts(tree)).toEqual({ texts: ['First', 'Second'], truncated: false });
  });

  it(`cuts a text at ${MAX_TEXT_CODE_POINTS} code points and an ellipsis`, () => {
    const tree = treeOf([{ text: 'x'.repeat(MAX_TEXT_CODE_POINTS + 5), bounds: '[0,0][100,100]' }]);
    expect(screenTexts(tree).texts).toEqual([`${'x'.repeat(MAX_TEXT_CODE_POINTS)}…`]);
  });

  it('within a container: the container and its descendants only', () => {
    const tree = treeOf([
      { text: 'Before', bounds: '[0,0][100,100]' },
      {
        id: 'com.example.app:id/box',
        desc: 'Box',
        bounds: '[0,100][1080,500]',
        children: [{ text: 'In', bounds: '[0,100][100,200]', children: [{ text: 'Deep', bounds: '[0,100][50,150]' }] }],
      },
      { text: 'After', bounds: '[0,600][100,700]' },
    ]);
    expect(screenTexts(tree, byId(tree, 'box')).texts).toEqual(['Box', 'In', 'Deep']);
  });

  it('a text in two entries or more is kept once per entry with its ref; once per entry, never twice', () => {
    const tree = treeOf([
      {
        cls: 'android.widget.Button',
        clickable: true,
        bounds: '[0,0][500,100]',
        children: [
          { text: 'Clock', bounds: '[0,0][100,100]' },
          { text: 'Clock', bounds: '[100,0][200,100]' },
        ],
      },
      {
        cls: 'android.widget.Button',
        clickable: true,
        bounds: '[0,200][500,300]',
        children: [{ text: 'Clock', bounds: '[0,200][100,300]' }],
      },
      { text: 'Clock', bounds: '[0,400][100,500]' },
      { text: 'Alone', bounds: '[0,500][100,600]' },
    ]);
    const refs = new Map<UiNode, string>(
      tree.nodes.filter((n) => n.clickable).map((n, i) => [n, `e${i + 1}`] as [UiNode, string]),
    );
    const { texts } = screenTexts(tree, undefined, (n) => refs.get(n));
    expect(texts).toEqual([{ text: 'Clock', ref: 'e1' }, { text: 'Clock', ref: 'e2' }, 'Clock', 'Alone']);
  });

  it('a text in one entry only, and the same text outside any entry, is written once, as a string', () => {
    const tree = treeOf([
      {
        cls: 'android.widget.Button',
        clickable: true,
        bounds: '[0,0][500,100]',
        children: [{ text: 'Clock', bounds: '[0,0][100,100]' }],
      },
      { text: 'Clock', bounds: '[0,400][100,500]' },
    ]);
    const button = tree.nodes.find((n) => n.clickable)!;
    const { texts } = screenTexts(tree, undefined, (n) => (n === button ? 'e1' : undefined));
    expect(texts).toEqual(['Clock']);
  });

  it(`keeps the first ${MAX_TEXTS} texts and says it cut; exactly ${MAX_TEXTS} is no cut`, () => {
    const many = (n: number): NodeSpec[] =>
      Array.from({ length: n }, (_v, i) => ({ text: `T${i}`, bounds: `[0,${i * 10 + 1}][100,${i * 10 + 10}]` }));
    const exact = screenTexts(treeOf(many(MAX_TEXTS)));
    expect(exact.texts).toHaveLength(MAX_TEXTS);
    expect(exact.truncated).toBe(false);
    const over = screenTexts(treeOf(many(MAX_TEXTS + 1)));
    expect(over.texts).toHaveLength(MAX_TEXTS);
    expect(over.texts[MAX_TEXTS - 1]).toBe(`T${MAX_TEXTS - 1}`);
    expect(over.truncated).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../../src/domain/tree/dump.js';
import { screenTitle } from '../../../../src/domain/tree/screenTitle.js';
import { screen, uiautomatorDump, type NodeSpec } from '../dumpBuilder.js';

const HIDDEN = '[0,0][0,0]';

function titleOf(children: NodeSpec[]): string | null {
  return screenTitle(parseDump(uiautomatorDump([screen(children)])));
}

function bar(children: NodeSpec[], extra: Partial<NodeSpec> = {}): NodeSpec {
  return { id: 'com.example.app:id/toolbar', bounds: '[0,63][1080,252]', children, ...extra };
}

describe('screenTitle: which label of an app bar is the title', () => {
  it('a hidden bar is no title, even with a text; the next visible bar is', () => {
    expect(titleOf([bar([{ text: 'Gone', bounds: '[189,105][1017,210]' }], { bounds: HIDDEN })])).toBeNull();
    expect(
      titleOf([
        bar([{ text: 'Gone', bounds: '[189,105][1017,210]' }], { bounds: HIDDEN }),
        bar([{ text: 'Shown', bounds: '[189,105][1017,210]' }]),
      ]),
    ).toBe('Shown');
  });

  it('a hidden collapsing toolbar says nothing', () => {
    expect(titleOf([{ id: 'com.android.settings:id/collapsing_toolbar', desc: 'Apps', bounds: HIDDEN }])).toBeNull();
  });

  it("a collapsing toolbar's label is trimmed; a blank one gives way to a later bar", () => {
    expect(
      titleOf([{ id: 'com.android.settings:id/collapsing_toolbar', desc: '  Apps  ', bounds: '[0,63][1080,400]' }]),
    ).toBe('Apps');
    expect(
      titleOf([
        { id: 'com.android.settings:id/collapsing_toolbar', desc: '   ', bounds: '[0,63][1080,400]' },
        bar([{ text: 'Network', bounds: '[189,105][1017,210]' }]),
      ]),
    ).toBe('Network');
  });

  it('only the ids of an app bar count: a text elsewhere, or an id that merely ends alike, is no title', () => {
    expect(titleOf([{ text: 'Apps', bounds: '[0,63][1080,252]' }])).toBeNull();
    expect(
      titleOf([bar([{ text: 'Apps', bounds: '[189,105][1017,210]' }], { id: 'com.example.app:id/my_toolbar' })]),
    ).toBeNull();
    expect(
      titleOf([{ id: 'com.example.app:id/collapsing_toolbar_x', desc: 'Apps', bounds: '[0,63][1080,400]' }]),
    ).toBeNull();
    expect(
      titleOf([bar([{ text: 'Apps', bounds: '[189,105][1017,210]' }], { id: 'com.example.app:id/action_bar' })]),
    ).toBe('Apps');
  });

  it('a bar skips its hidden children and its controls (Up, a menu), and reads the first label left', () => {
    expect(
      titleOf([
        bar([
          { text: 'Stale', bounds: HIDDEN },
          { cls: 'android.widget.ImageButton', desc: 'Navigate up', clickable: true, bounds: '[0,84][147,231]' },
          { text: '  Apps ', bounds: '[189,105][900,210]' },
          { text: 'Later', bounds: '[900,105][1017,210]' },
        ]),
      ]),
    ).toBe('Apps');
  });

  it('a title nested in a layout of the bar is found, and a blank label is passed over', () => {
    expect(
      titleOf([
        bar([
          { text: '   ', bounds: '[189,105][400,210]' },
          { bounds: '[400,105][1017,210]', children: [{ text: 'Storage', bounds: '[400,105][1017,210]' }] },
        ]),
      ]),
    ).toBe('Storage');
  });

  it('a bar with controls only is no title, and the search goes on to the next bar', () => {
    const controlsOnly = bar([
      { cls: 'android.widget.ImageButton', desc: 'Navigate up', clickable: true, bounds: '[0,84][147,231]' },
    ]);
    expect(titleOf([controlsOnly])).toBeNull();
    expect(titleOf([controlsOnly, bar([{ text: 'Next', bounds: '[189,105][1017,210]' }])])).toBe('Next');
  });
});

/**
 * Answers that need no second look, at the domain: a row's second line tied to its entry, a toggle
 * named by its row, no neighbour label from outside a list, the screen's title, and what an
 * unchanged `after` looks like (the long-press hint reads it). End to end: test/e2e/answers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { summariseScreen } from '../../../src/domain/summary/summary.js';
import { screenTexts } from '../../../src/domain/summary/screenParts.js';
import { isUnchangedAfter } from '../../../src/domain/summary/screenDiff.js';
import { screenTitle } from '../../../src/domain/tree/screenTitle.js';
import type { ScreenContext } from '../../../src/domain/tree/screen.js';
import { screen, uiautomatorDump, type NodeSpec } from './dumpBuilder.js';

const CONTEXT: ScreenContext = {
  density: 420,
  window: { foregroundPackage: 'com.example.app', ime: { visible: false, frame: null }, displaySize: null },
};

function treeOf(children: NodeSpec[]) {
  return parseDump(uiautomatorDump([screen(children)]));
}

function row(top: number, title: string, second: string): NodeSpec {
  return {
    clickable: true,
    bounds: `[0,${top}][1080,${top + 200}]`,
    children: [
      { text: title, bounds: `[40,${top + 20}][900,${top + 100}]` },
      { text: second, bounds: `[40,${top + 100}][900,${top + 180}]` },
    ],
  };
}

const TITLE: NodeSpec = {
  id: 'com.example.app:id/action_bar',
  bounds: '[0,63][1080,252]',
  children: [
    { cls: 'android.widget.ImageButton', desc: 'Navigate up', clickable: true, bounds: '[0,84][147,231]' },
    { text: 'Apps', bounds: '[189,105][1017,210]' },
  ],
};

describe('answers that need no second look (domain)', () => {
  it("a row's second line is its entry's detail, and leaves texts", () => {
    const summary = summariseScreen(treeOf([row(300, 'Clock', '21.45 MB'), row(500, 'Maps', '187 MB')]), CONTEXT);
    expect(summary.actions.map((a) => [a.text, a.detail])).toEqual([
      ['Clock', '21.45 MB'],
      ['Maps', '187 MB'],
    ]);
    expect(summary.texts).toEqual([]);
  });

  it('a name made of its content (every label said, case aside) has no second line and its labels leave texts; a name that says only some keeps them', () => {
    // React Native merges a touchable's texts into its content-desc ("0, Projects" over "0" and "Projects").
    const merged = (top: number, desc: string, labels: string[]): NodeSpec => ({
      desc,
      clickable: true,
      bounds: `[0,${top}][1080,${top + 200}]`,
      children: labels.map((text, i) => ({ text, bounds: `[40,${top + 20 + 60 * i}][900,${top + 80 + 60 * i}]` })),
    });
    const long = 'Reminder 12 due on Apr 17, 2026, recurs daily at noon';
    const summary = summariseScreen(
      treeOf([
        merged(300, '0, Projects', ['0', 'PROJECTS']),
        // "1" is in the name only by chance: the name does not say "Chats", so the badge keeps its line.
        merged(500, 'Tab 1 of 3', ['Chats', '1']),
        // Its name is cut after 40 code points: "at noon" lies past the cut, so the entry does not show it.
        merged(700, long, ['Reminder 12', 'at noon']),
      ]),
      CONTEXT,
    );
    expect(summary.actions.map((a) => [a.content_desc ?? a.text, a.label, a.detail])).toEqual([
      ['0, Projects', undefined, undefined],
      ['Tab 1 of 3', undefined, 'Chats'],
      ['Reminder 12', `${[...long].slice(0, 40).join('')}…`, 'at noon'],
    ]);
    expect(summary.texts).toEqual(['1']);
  });

  it('case aside: a tab described "Advanced" showing "ADVANCED" has no second line, and texts keep one of "Basic" and "BASIC"', () => {
    // A Material tab's title is drawn in capitals (textAllCaps) under its mixed-case description.
    const tab = (left: number, desc: string, clickable: boolean): NodeSpec => ({
      desc,
      clickable,
      bounds: `[${left},300][${left + 300},400]`,
      children: [{ text: desc.toUpperCase(), bounds: `[${left + 20},320][${left + 280},380]` }],
    });
    const summary = summariseScreen(
      treeOf([tab(0, 'Basic', false), tab(300, 'Advanced', true), row(500, 'Sound', 'SOUND OFF')]),
      CONTEXT,
    );
    expect(summary.actions.map((a) => [a.content_desc ?? a.text, a.detail])).toEqual([
      ['Advanced', undefined],
      ['Sound', 'SOUND OFF'],
    ]);
    expect(summary.texts).toEqual(['Basic']);
  });

  it("a toggle without text takes its row's title; a row clipped at its list's edge is not named after the page's title", () => {
    const summary = summariseScreen(
      treeOf([
        TITLE,
        {
          scrollable: true,
          bounds: '[0,252][1080,2000]',
          children: [
            {
              clickable: true,
              bounds: '[0,300][1080,500]',
              children: [
                { text: 'Wi-Fi', bounds: '[40,320][800,400]' },
                {
                  cls: 'android.widget.Switch',
                  id: 'android:id/switch_widget',
                  checkable: true,
                  checked: true,
                  bounds: '[900,350][1000,450]',
                },
              ],
            },
            // Clipped at the list's bottom edge: none of its content is visible.
            { clickable: true, bounds: '[0,1950][1080,2000]' },
          ],
        },
      ]),
      CONTEXT,
    );
    const toggle = summary.actions.find((a) => a.resource_id === 'android:id/switch_widget');
    expect(toggle).toMatchObject({ label: 'Wi-Fi', label_from: 'neighbour', checked: true });
    const clipped = summary.actions.at(-1);
    expect(clipped?.label).toBeUndefined();
    expect(clipped?.label_from).toBeUndefined();
  });

  it('text mode writes a text standing in two entries once per entry, with its ref; refs unknown, once', () => {
    const tree = treeOf([row(300, 'Clock', '21.45 MB'), row(500, 'Clock', '8.12 MB')]);
    const rows = tree.nodes.filter((n) => n.clickable);
    const refOf = (node: (typeof rows)[number]): string | undefined =>
      node === rows[0] ? 'e1' : node === rows[1] ? 'e2' : undefined;
    expect(screenTexts(tree, undefined, refOf).texts).toEqual([
      { text: 'Clock', ref: 'e1' },
      '21.45 MB',
      { text: 'Clock', ref: 'e2' },
      '8.12 MB',
    ]);
    expect(screenTexts(tree).texts).toEqual(['Clock', '21.45 MB', '8.12 MB']);
  });

  it("the screen's title is its app bar's text, never its Up button; none without a bar", () => {
    expect(screenTitle(treeOf([TITLE, row(300, 'All apps', 'See all 21 apps')]))).toBe('Apps');
    expect(
      screenTitle(
        treeOf([{ id: 'com.android.settings:id/collapsing_toolbar', desc: 'Apps', bounds: '[0,63][1080,400]' }]),
      ),
    ).toBe('Apps');
    expect(screenTitle(treeOf([row(300, 'All apps', 'See all 21 apps')]))).toBeNull();
  });

  it('an unchanged after is a diff with nothing in it; a whole read, a change or an unsettled read is not', () => {
    expect(isUnchangedAfter({ read: 'r5', diff_of: 'r4' })).toBe(true);
    expect(isUnchangedAfter({ read: 'r5', diff_of: 'r4', foreground_package: 'com.example.app' })).toBe(true);
    expect(isUnchangedAfter({ read: 'r5', diff_of: 'r4', texts_added: ['Restored'] })).toBe(false);
    expect(isUnchangedAfter({ read: 'r5', diff_of: 'r4', settled: false })).toBe(false);
    expect(isUnchangedAfter({ read: 'r5', actions: [] })).toBe(false);
    expect(isUnchangedAfter(undefined)).toBe(false);
  });
});

/**
 * The selector core's edges a mutation run found unwatched: the matcher's single-node rules (used for
 * `within` and the hand-written keys), the locator's UiSelector literal and its refusals, the wire
 * form's short `id` and its absent keys, and which element a scrollable or actionable match presses.
 */
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { matchTerm, termMatchesNode } from '../../../src/domain/selectors/matcher.js';
import { buildLocator, termPredicate } from '../../../src/domain/selectors/locator.js';
import {
  expandIds,
  idValueProblem,
  selectorToWire,
  termToWire,
  type Selector,
} from '../../../src/domain/selectors/selector.js';
import { pressTargets } from '../../../src/domain/selectors/pressTargets.js';
import type { UiNode } from '../../../src/domain/tree/uiNode.js';
import { screen, uiautomatorDump, type NodeSpec } from './dumpBuilder.js';

const PKG = 'com.example.app';

function nodesOf(roots: NodeSpec[]): UiNode[] {
  return [...parseDump(uiautomatorDump([screen(roots)])).nodes];
}

function byText(nodes: UiNode[], text: string): UiNode {
  const node = nodes.find((n) => n.text === text || n.contentDesc === text);
  if (!node) throw new Error(`no node ${text}`);
  return node;
}

describe('termMatchesNode: one node against one term (within, and the hand-written keys)', () => {
  const nodes = nodesOf([
    { cls: 'android.widget.TextView', text: 'Work profile', bounds: '[0,100][500,200]' },
    { cls: 'android.widget.EditText', text: 'hunter2', password: true, bounds: '[0,300][500,400]' },
    {
      cls: 'android.widget.EditText',
      bounds: '[0,500][500,600]',
      children: [{ cls: 'android.widget.TextView', text: 'Search settings', bounds: '[10,510][400,590]' }],
    },
  ]);
  const profile = byText(nodes, 'Work profile');
  const password = nodes.find((n) => n.password)!;
  const search = nodes.find((n) => n.className === 'android.widget.EditText' && !n.password)!;

  it('text is the whole text, never a password field', () => {
    expect(termMatchesNode({ key: 'text', value: 'Work profile' }, profile)).toBe(true);
    expect(termMatchesNode({ key: 'text', value: 'Work' }, profile)).toBe(false);
    expect(termMatchesNode({ key: 'text', value: 'hunter2' }, password)).toBe(false);
  });

  it('text_contains is a part of the text, never a password field', () => {
    expect(termMatchesNode({ key: 'text_contains', value: 'profile' }, profile)).toBe(true);
    expect(termMatchesNode({ key: 'text_contains', value: 'Home' }, profile)).toBe(false);
    expect(termMatchesNode({ key: 'text_contains', value: 'hunter' }, password)).toBe(false);
  });

  it('input_hint is a field whose own or inner words contain it; not a text that says it', () => {
    expect(termMatchesNode({ key: 'input_hint', value: 'Search' }, search)).toBe(true);
    expect(termMatchesNode({ key: 'input_hint', value: 'Work' }, profile)).toBe(false);
    expect(termMatchesNode({ key: 'input_hint', value: 'Home' }, search)).toBe(false);
  });

  it('an id term is a programming error, said where it was met', () => {
    expect(() => termMatchesNode({ key: 'id', value: 'row' }, profile)).toThrow(
      'termMatchesNode got an unexpanded id term: expand it with expandIds and the foreground package first',
    );
    const tree = parseDump(uiautomatorDump([screen([])]));
    expect(() => matchTerm(tree, { key: 'id', value: 'row' })).toThrow('matchTerm got an unexpanded id term');
  });
});

describe('buildLocator: refusals and the UiSelector chain', () => {
  it('an id term, as the target or the within, is refused by buildLocator itself', () => {
    expect(() => buildLocator({ target: { key: 'id', value: 'row' } })).toThrow(
      'buildLocator got an unexpanded id term',
    );
    expect(() =>
      buildLocator({ target: { key: 'text', value: 'OK' }, within: { key: 'id', value: 'dialog' } }),
    ).toThrow('buildLocator got an unexpanded id term');
    expect(() => termPredicate({ key: 'id', value: 'row' })).toThrow('termPredicate got an unexpanded id term');
    expect(() => termPredicate({ key: 'resource_id_matches', value: '.*' })).toThrow(
      'resource_id_matches has no XPath form',
    );
  });

  it('a pattern with a double quote or a final backslash never becomes a UiSelector literal', () => {
    const pattern = (value: string): Selector => ({ target: { key: 'resource_id_matches', value } });
    expect(() => buildLocator(pattern('a"b'))).toThrow('value cannot be a UiSelector string literal');
    expect(() => buildLocator(pattern('a\\'))).toThrow('value cannot be a UiSelector string literal');
    // A backslash that escapes something is fine: only a final one would escape the closing quote.
    expect(buildLocator(pattern('\\.a')).value).toBe('new UiSelector().resourceIdMatches("\\.a")');
  });

  it('adds each flag with its value, and an instance only when there is one', () => {
    expect(
      buildLocator({
        target: { key: 'resource_id_matches', value: '.*:id/x' },
        states: { checked: false, enabled: true },
      }),
    ).toEqual({
      using: '-android uiautomator',
      value: 'new UiSelector().resourceIdMatches(".*:id/x").checked(false).enabled(true)',
    });
  });

  it('only a resource_id goes by the id strategy; a text that looks like one stays XPath', () => {
    expect(buildLocator({ target: { key: 'text', value: 'com.x:id/y' } })).toEqual({
      using: 'xpath',
      value: "//*[@text='com.x:id/y' and not(@password='true')]",
    });
  });
});

describe('the wire form', () => {
  it('an empty id says so', () => {
    expect(idValueProblem('')).toBe('must not be empty');
  });

  it('only a resource_id of the foreground package is written as a short id', () => {
    expect(termToWire({ key: 'resource_id', value: `${PKG}:id/row` }, PKG)).toEqual({ id: 'row' });
    expect(termToWire({ key: 'text', value: `${PKG}:id/row` }, PKG)).toEqual({ text: `${PKG}:id/row` });
  });

  it('expands only the id terms', () => {
    expect(expandIds({ target: { key: 'id', value: 'row' } }, PKG)).toEqual({
      target: { key: 'resource_id', value: `${PKG}:id/row` },
    });
    expect(expandIds({ target: { key: 'id', value: 'row' }, within: { key: 'text', value: 'Work' } }, PKG)).toEqual({
      target: { key: 'resource_id', value: `${PKG}:id/row` },
      within: { key: 'text', value: 'Work' },
    });
  });

  it('expands an id that is only the within', () => {
    expect(expandIds({ target: { key: 'text', value: 'OK' }, within: { key: 'id', value: 'dialog' } }, PKG)).toEqual({
      target: { key: 'text', value: 'OK' },
      within: { key: 'resource_id', value: `${PKG}:id/dialog` },
    });
  });

  it('writes no key for a flag or an instance the selector does not have', () => {
    expect(Object.keys(selectorToWire({ target: { key: 'text', value: 'OK' } }))).toEqual(['text']);
    expect(
      Object.keys(selectorToWire({ target: { key: 'text', value: 'OK' }, states: { checked: true }, instance: 0 })),
    ).toEqual(['text', 'checked', 'instance']);
  });
});

describe('pressTargets: which element a press reaches', () => {
  it('a scrollable match inside a clickable card is the list itself, not the card', () => {
    const nodes = nodesOf([
      {
        cls: 'android.widget.FrameLayout',
        clickable: true,
        bounds: '[0,0][1080,1000]',
        children: [{ cls: 'android.widget.ListView', desc: 'Apps', scrollable: true, bounds: '[0,100][1080,900]' }],
      },
    ]);
    const [target] = pressTargets([byText(nodes, 'Apps')]);
    expect(target!.element.className).toBe('android.widget.ListView');
  });

  it('an actionable match inside an actionable card is itself, not the card', () => {
    const nodes = nodesOf([
      {
        cls: 'android.widget.FrameLayout',
        clickable: true,
        bounds: '[0,0][1080,1000]',
        children: [{ cls: 'android.widget.Button', text: 'Share', clickable: true, bounds: '[100,100][400,200]' }],
      },
    ]);
    const [target] = pressTargets([byText(nodes, 'Share')]);
    expect(target!.element.className).toBe('android.widget.Button');
  });

  it('a label inside a list inside a clickable card presses no further than the list', () => {
    const nodes = nodesOf([
      {
        cls: 'android.widget.FrameLayout',
        clickable: true,
        bounds: '[0,0][1080,1000]',
        children: [
          {
            cls: 'android.widget.ListView',
            scrollable: true,
            bounds: '[0,100][1080,900]',
            children: [{ cls: 'android.widget.TextView', text: 'Clock', bounds: '[100,150][400,250]' }],
          },
        ],
      },
    ]);
    const [target] = pressTargets([byText(nodes, 'Clock')]);
    expect(target!.element.className).toBe('android.widget.TextView');
  });
});

/**
 * The words of an ambiguous refusal (ambiguousMessage.ts) for the cases pressTargets.test.ts does not
 * reach: an unlabelled candidate, more texts than it names, an actionable element without a ref, more
 * candidates than it lists, the selectors that can take no within, and the "moved while counting" refusal.
 * A mutation run showed each of these words could change with no test failing.
 */
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { matchSelector } from '../../../src/domain/selectors/matcher.js';
import { pressTargets, type PressTarget } from '../../../src/domain/selectors/pressTargets.js';
import {
  ambiguousMessage,
  candidateFacts,
  movedWhileCountingMessage,
  type NamedCandidate,
} from '../../../src/domain/selectors/ambiguousMessage.js';
import type { Selector } from '../../../src/domain/selectors/selector.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { screen, uiautomatorDump, type NodeSpec } from './dumpBuilder.js';

const PKG = 'com.example.app';

function targetsOf(roots: NodeSpec[], wire: Record<string, unknown>): { selector: Selector; targets: PressTarget[] } {
  const tree = parseDump(uiautomatorDump([screen(roots)]));
  const selector = parseSelector(wire);
  return { selector, targets: pressTargets(matchSelector(tree, selector)) };
}

/** A clickable row with the given texts inside, one below the other. */
function row(top: number, texts: string[], more: Partial<NodeSpec> = {}): NodeSpec {
  return {
    cls: 'android.widget.LinearLayout',
    clickable: true,
    bounds: `[0,${top}][1080,${top + 200}]`,
    children: texts.map((t, i) => ({
      cls: 'android.widget.TextView',
      text: t,
      bounds: `[40,${top + 10 + i * 40}][800,${top + 40 + i * 40}]`,
    })),
    ...more,
  };
}

const named = (targets: PressTarget[], selector: Selector, refs: (string | null)[]): NamedCandidate[] =>
  candidateFacts(selector, targets).map((facts, i) => ({ facts, ref: refs[i] ?? null }));

describe('what the refusal says about each candidate', () => {
  it('an element with no visible label is named by its class; texts hidden at [0,0][0,0] are not its label', () => {
    const button = (top: number, hidden: string): NodeSpec => ({
      cls: 'android.widget.ImageButton',
      desc: 'Share',
      clickable: true,
      bounds: `[0,${top}][200,${top + 100}]`,
      children: [{ cls: 'android.widget.TextView', text: hidden, bounds: '[0,0][0,0]' }],
    });
    const { selector, targets } = targetsOf([button(100, 'hidden one'), button(300, 'hidden two')], {
      content_desc: 'Share',
    });
    const facts = candidateFacts(selector, targets);
    // The button's own content-desc is its label; the hidden text inside is none of its words.
    expect(facts.map((f) => [f.label, f.alsoShows])).toEqual([
      ['Share', []],
      ['Share', []],
    ]);
    const unlabelled = facts.map((f) => ({ ...f, label: '' }));
    expect(
      ambiguousMessage(
        selector,
        unlabelled.map((f, i) => ({ facts: f, ref: `e${i + 1}` })),
      ),
    ).toBe(
      '{"content_desc":"Share"} matches 2 different elements on this screen, so acting on it would be a coin toss: ' +
        'nothing was tapped or typed. Send the one you mean by its ref (or by the selector with the within given): ' +
        '{"ref":"e1"} an unlabelled ImageButton; {"ref":"e2"} an unlabelled ImageButton.',
    );
  });

  it('a candidate with nothing visible to say is "an unlabelled" its class, or "element" without one', () => {
    const blank = (top: number, cls: string): NodeSpec => ({
      cls,
      clickable: true,
      bounds: `[0,${top}][200,${top + 100}]`,
      id: `${PKG}:id/blank`,
    });
    const { selector, targets } = targetsOf([blank(100, 'android.view.View'), blank(300, '')], {
      resource_id: `${PKG}:id/blank`,
    });
    const facts = candidateFacts(selector, targets);
    expect(facts.map((f) => f.label)).toEqual(['', '']);
    const message = ambiguousMessage(selector, [
      { facts: facts[0]!, ref: 'e1' },
      { facts: facts[1]!, ref: 'e2' },
    ]);
    expect(message).toContain(`{"ref":"e1"} an unlabelled View; {"ref":"e2"} an unlabelled element.`);
  });

  it('names at most two more texts of a candidate, separated by commas; an actionable one without a ref says so', () => {
    const { selector, targets } = targetsOf(
      [row(100, ['Clock', '21 MB', 'Updated today', 'Installed']), row(400, ['Clock', '8 MB'])],
      { text: 'Clock' },
    );
    const facts = candidateFacts(selector, targets);
    expect(facts[0]!.alsoShows).toEqual(['21 MB', 'Updated today']);
    const message = ambiguousMessage(selector, [
      { facts: facts[0]!, ref: 'e1' },
      { facts: facts[1]!, ref: null },
    ]);
    expect(message).toContain(
      `{"ref":"e1"} 'Clock' (with '21 MB', 'Updated today'); 'Clock' (with '8 MB') (no ref: ui_get_tree offers none for it).`,
    );
  });

  it('lists six candidates and counts the rest', () => {
    const rows = Array.from({ length: 7 }, (_, i) => row(100 + i * 250, ['Clock', `${i + 1} MB`]));
    const { selector, targets } = targetsOf(rows, { text: 'Clock' });
    expect(targets).toHaveLength(7);
    const message = ambiguousMessage(
      selector,
      named(
        targets,
        selector,
        targets.map((_, i) => `e${i + 1}`),
      ),
    );
    expect(message).toMatch(/^\{"text":"Clock"\} matches 7 different elements on this screen/);
    expect(message).toContain(`{"ref":"e6"} 'Clock' (with '6 MB'); and 1 more (ui_get_tree lists them).`);
    expect(message).not.toContain('e7');
    // Six exactly: no "more".
    const six = ambiguousMessage(selector, named(targets.slice(0, 6), selector, ['e1', 'e2', 'e3', 'e4', 'e5', 'e6']));
    expect(six).toMatch(/\{"ref":"e6"\} 'Clock' \(with '6 MB'\)\.$/);
  });
});

describe('which selectors are offered a within', () => {
  // Two "Storage" entries in two differently named containers: a within tells them apart.
  const roots: NodeSpec[] = [
    {
      cls: 'android.widget.FrameLayout',
      id: `${PKG}:id/top`,
      bounds: '[0,0][1080,500]',
      children: [row(100, ['Storage'])],
    },
    {
      cls: 'android.widget.FrameLayout',
      id: `${PKG}:id/bottom`,
      bounds: '[0,600][1080,1100]',
      children: [row(700, ['Storage'])],
    },
  ];
  const { selector, targets } = targetsOf(roots, { text: 'Storage' });

  it('a plain selector is', () => {
    expect(candidateFacts(selector, targets).map((f) => f.within)).toEqual([
      { key: 'resource_id', value: `${PKG}:id/top` },
      { key: 'resource_id', value: `${PKG}:id/bottom` },
    ]);
  });

  it.each([
    ['one with a within already', { ...selector, within: { key: 'class_name', value: 'android.widget.FrameLayout' } }],
    ['one with state flags', { ...selector, states: { enabled: true } }],
    ['one with an instance', { ...selector, instance: 0 }],
    [
      'a pattern (it runs as a UiSelector, which has no ancestor test)',
      {
        target: { key: 'resource_id_matches', value: '.*' },
      },
    ],
  ] as [string, Selector][])('%s is not', (_name, other) => {
    expect(candidateFacts(other, targets).map((f) => f.within)).toEqual([null, null]);
  });
});

describe('the driver found several, and the screen changed before they could be counted', () => {
  it('says how many it found and what to do', () => {
    expect(movedWhileCountingMessage({ target: { key: 'resource_id', value: `${PKG}:id/row` } }, 3, PKG)).toBe(
      '{"id":"row"} matched 3 elements, and the screen changed before they could be told apart, so nothing was ' +
        'tapped or typed. Call ui_get_tree and send the ref of the one you mean.',
    );
  });
});

/**
 * The diff of two readings of a screen (src/domain/summary/screenDiff.ts), called directly on small
 * hand-written summaries: when two readings are "the same screen" (each condition alone makes them
 * not, the share of entries kept at its exact edge), what the diff carries (each list only when it has
 * something, texts as multisets, the extras only when they changed, null for a keyboard that closed),
 * and when an action's `after` says nothing changed.
 */
import { describe, expect, it } from 'vitest';
import {
  diffSummaries,
  isSameScreen,
  isUnchangedAfter,
  SAME_SCREEN_SHARE,
  type DiffableSummary,
} from '../../../../src/domain/summary/screenDiff.js';
import type { LayoutFinding } from '../../../../src/domain/tree/screen.js';

interface Entry {
  readonly ref?: string;
  readonly name?: string;
  readonly checked?: boolean;
}

type Reading = Omit<DiffableSummary, 'actions'> & { readonly actions: readonly Entry[] };

function reading(over: Partial<Reading> = {}): Reading {
  return {
    foreground_package: 'com.example.app',
    screen: { width: 1080, height: 2400 },
    texts: ['Title'],
    actions: [
      { ref: 'e1', name: 'One' },
      { ref: 'e2', name: 'Two' },
    ],
    can_scroll: false,
    ...over,
  };
}

const entries = (n: number, from = 1): Entry[] =>
  Array.from({ length: n }, (_v, i) => ({ ref: `e${from + i}`, name: `N${from + i}` }));

const finding = { kind: 'overlap' } as unknown as LayoutFinding;

describe('isSameScreen', () => {
  it('a reading is the same screen as itself', () => {
    expect(isSameScreen(reading(), reading())).toBe(true);
  });

  it('another package, another width or another height is another screen', () => {
    expect(isSameScreen(reading(), reading({ foreground_package: 'com.other' }))).toBe(false);
    expect(isSameScreen(reading(), reading({ screen: { width: 1079, height: 2400 } }))).toBe(false);
    expect(isSameScreen(reading(), reading({ screen: { width: 1080, height: 2399 } }))).toBe(false);
  });

  it('a reading cut by the budget, earlier or later, has no end to diff against', () => {
    expect(isSameScreen(reading({ truncated: true }), reading())).toBe(false);
    expect(isSameScreen(reading(), reading({ truncated: true }))).toBe(false);
  });

  it('layout findings that differ make another screen; none and an empty list are alike', () => {
    expect(isSameScreen(reading({ layout_findings: [finding] }), reading())).toBe(false);
    expect(isSameScreen(reading(), reading({ layout_findings: [finding] }))).toBe(false);
    expect(isSameScreen(reading({ layout_findings: [] }), reading())).toBe(true);
    expect(isSameScreen(reading(), reading({ layout_findings: [] }))).toBe(true);
    expect(isSameScreen(reading({ layout_findings: [finding] }), reading({ layout_findings: [finding] }))).toBe(true);
  });

  it('with no entries before: the same when none now, or when the texts are the same', () => {
    const empty = reading({ actions: [] });
    expect(isSameScreen(empty, reading({ actions: [], texts: ['Other'] }))).toBe(true);
    expect(isSameScreen(empty, reading({ actions: entries(1) }))).toBe(true);
    expect(isSameScreen(empty, reading({ actions: entries(1), texts: ['Other'] }))).toBe(false);
  });

  it(`at least ${SAME_SCREEN_SHARE * 100} % of the earlier entries must still be offered, by ref`, () => {
    const prev = reading({ actions: entries(4) });
    // Two of four kept: exactly the share.
    expect(isSameScreen(prev, reading({ actions: [...entries(2), ...entries(5, 10)] }))).toBe(true);
    // One of four: below it.
    expect(isSameScreen(prev, reading({ actions: [...entries(1), ...entries(5, 10)] }))).toBe(false);
    // Three of five kept, then two of five.
    const five = reading({ actions: entries(5) });
    expect(isSameScreen(five, reading({ actions: entries(3) }))).toBe(true);
    expect(isSameScreen(five, reading({ actions: entries(2) }))).toBe(false);
    // The same names under other refs are other elements.
    expect(isSameScreen(prev, reading({ actions: entries(4, 20).map((e, i) => ({ ...e, name: `N${i + 1}` })) }))).toBe(
      false,
    );
  });
});

describe('diffSummaries', () => {
  it('a reading diffed with itself carries only its package', () => {
    expect(diffSummaries(reading(), reading())).toEqual({ foreground_package: 'com.example.app' });
  });

  it('names what was added, removed and changed, in screen order, by ref', () => {
    const prev = reading({
      actions: [
        { ref: 'e1', name: 'One' },
        { ref: 'e2', name: 'Two', checked: false },
        { ref: 'e3', name: 'Three' },
        { ref: 'e4', name: 'Four' },
      ],
    });
    const next = reading({
      foreground_package: 'com.example.app',
      actions: [
        { ref: 'e5', name: 'Five' },
        { ref: 'e2', name: 'Two', checked: true },
        { ref: 'e1', name: 'One' },
        { ref: 'e6', name: 'Six' },
        { ref: 'e4', name: 'Four!' },
      ],
    });
    expect(diffSummaries(prev, next)).toEqual({
      foreground_package: 'com.example.app',
      added: [
        { ref: 'e5', name: 'Five' },
        { ref: 'e6', name: 'Six' },
      ],
      removed: ['e3'],
      changed: [
        { ref: 'e2', name: 'Two', checked: true },
        { ref: 'e4', name: 'Four!' },
      ],
    });
  });

  it('an entry without a ref is added when new and never named as removed', () => {
    const prev = reading({ actions: [{ ref: 'e1' }, { name: 'no ref' }] });
    const next = reading({ actions: [{ ref: 'e1' }, { name: 'no ref either' }] });
    expect(diffSummaries(prev, next)).toEqual({
      foreground_package: 'com.example.app',
      changed: [{ name: 'no ref either' }],
    });
    expect(diffSummaries(reading({ actions: [{ name: 'gone' }] }), reading({ actions: [] }))).toEqual({
      foreground_package: 'com.example.app',
    });
    expect(diffSummaries(reading({ actions: [] }), reading({ actions: [{ name: 'new' }] }))).toEqual({
      foreground_package: 'com.example.app',
      added: [{ name: 'new' }],
    });
  });

  it('texts are compared as multisets: a second copy is added or removed, each in its reading order', () => {
    const prev = reading({ texts: ['A', 'B', 'A', 'C'] });
    const next = reading({ texts: ['D', 'A', 'B', 'B', 'D'] });
    expect(diffSummaries(prev, next)).toEqual({
      foreground_package: 'com.example.app',
      texts_added: ['D', 'B', 'D'],
      texts_removed: ['A', 'C'],
    });
    expect(diffSummaries(reading({ texts: ['A', 'A'] }), reading({ texts: ['A'] }))).toEqual({
      foreground_package: 'com.example.app',
      texts_removed: ['A'],
    });
    expect(diffSummaries(reading({ texts: ['A'] }), reading({ texts: ['A', 'A'] }))).toEqual({
      foreground_package: 'com.example.app',
      texts_added: ['A'],
    });
  });

  it('can_scroll is carried only when it flipped, with its new value', () => {
    expect(diffSummaries(reading(), reading({ can_scroll: true }))).toEqual({
      foreground_package: 'com.example.app',
      can_scroll: true,
    });
    expect(diffSummaries(reading({ can_scroll: true }), reading())).toEqual({
      foreground_package: 'com.example.app',
      can_scroll: false,
    });
    expect(diffSummaries(reading({ can_scroll: true }), reading({ can_scroll: true }))).toEqual({
      foreground_package: 'com.example.app',
    });
  });

  it('the keyboard is carried when it opened, moved or closed (null), never when it stayed', () => {
    const open = { open: true, top: 1500 } as const;
    expect(diffSummaries(reading(), reading({ keyboard: open }))).toEqual({
      foreground_package: 'com.example.app',
      keyboard: open,
    });
    expect(diffSummaries(reading({ keyboard: open }), reading({ keyboard: { open: true, top: 1400 } }))).toEqual({
      foreground_package: 'com.example.app',
      keyboard: { open: true, top: 1400 },
    });
    expect(diffSummaries(reading({ keyboard: open }), reading())).toEqual({
      foreground_package: 'com.example.app',
      keyboard: null,
    });
    expect(diffSummaries(reading({ keyboard: open }), reading({ keyboard: open }))).toEqual({
      foreground_package: 'com.example.app',
    });
  });

  it('the scrollables are carried whole when they changed, an empty list when they went', () => {
    const list = [{ ref: 'e9', bounds: [0, 0, 10, 10] }];
    expect(diffSummaries(reading(), reading({ scrollables: list }))).toEqual({
      foreground_package: 'com.example.app',
      scrollables: list,
    });
    expect(diffSummaries(reading({ scrollables: list }), reading())).toEqual({
      foreground_package: 'com.example.app',
      scrollables: [],
    });
    expect(diffSummaries(reading({ scrollables: list }), reading({ scrollables: [...list] }))).toEqual({
      foreground_package: 'com.example.app',
    });
    expect(diffSummaries(reading({ scrollables: [] }), reading())).toEqual({ foreground_package: 'com.example.app' });
  });

  it("the diff carries the later reading's package", () => {
    expect(diffSummaries(reading(), reading({ foreground_package: 'com.later' })).foreground_package).toBe('com.later');
  });
});

describe('isUnchangedAfter', () => {
  it('only a diff with its frame alone says nothing changed', () => {
    expect(isUnchangedAfter({ diff_of: 'r1' })).toBe(true);
    expect(isUnchangedAfter({ read: 'r2', diff_of: 'r1', foreground_package: 'p' })).toBe(true);
    expect(isUnchangedAfter({ read: 'r2', diff_of: 'r1', can_scroll: true })).toBe(false);
    expect(isUnchangedAfter({ read: 'r2', foreground_package: 'p' })).toBe(false);
    expect(isUnchangedAfter(null)).toBe(false);
    expect(isUnchangedAfter('diff_of')).toBe(false);
    expect(isUnchangedAfter(1)).toBe(false);
  });
});

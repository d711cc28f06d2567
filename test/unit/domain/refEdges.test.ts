/**
 * The ref core's edges a mutation run found unwatched: each refusal of a `{ref}` word for word, the
 * visual ref's prefix, what counts as a node's own content in its identity, the window rank, and how a
 * fresh reading is searched when the rank no longer holds.
 */
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import {
  formatBounds,
  identify,
  locateIdentity,
  screenOf,
  type RefIdentity,
} from '../../../src/domain/refs/refIdentity.js';
import { formatVisualRef, isRefTarget, isVisualRef, parseActionTarget } from '../../../src/domain/refs/refTarget.js';
import { HarnessError } from '../../../src/domain/errors.js';
import type { WindowState } from '../../../src/domain/tree/screen.js';
import type { UiTree, UiNode } from '../../../src/domain/tree/uiNode.js';
import { screen, uiautomatorDump, type NodeSpec } from './dumpBuilder.js';

const WINDOW: WindowState = {
  foregroundPackage: 'com.example.app',
  foregroundActivity: 'com.example.app.MainActivity',
  ime: { visible: false, frame: null },
  displaySize: { width: 1080, height: 2400 },
};

function refusal(input: unknown): string {
  try {
    parseActionTarget(input);
    return 'accepted';
  } catch (error) {
    if (!(error instanceof HarnessError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

const HOW =
  'A ref goes alone, exactly as ui_get_tree gave it, e.g. {"ref": "e12"} (no "within", no other key); or send the entry\'s selector instead.';

describe('the {ref} form', () => {
  it('each refusal says what is wrong and how a ref is sent', () => {
    expect(refusal({ ref: 'e5', text: 'Sign in', role: 'button' })).toBe(
      `INVALID_SELECTOR: Invalid selector: a ref cannot be combined with 'text', 'role': send only the ref, or only the selector keys without it. ${HOW}`,
    );
    expect(refusal({ ref: 5 })).toBe(`INVALID_SELECTOR: Invalid selector: selector.ref must be a string. ${HOW}`);
    expect(refusal({ ref: 'x1' })).toBe(`INVALID_SELECTOR: Invalid selector: 'x1' is not a ref. ${HOW}`);
  });

  it('a key sent as undefined is no key; null and a plain selector are not refs', () => {
    expect(parseActionTarget({ ref: 'e1', text: undefined })).toEqual({ ref: 'e1' });
    expect(refusal(null)).toMatch(/^INVALID_SELECTOR: /);
    expect(isRefTarget({ ref: 'e1' })).toBe(true);
    expect(isRefTarget(parseActionTarget({ text: 'OK' }))).toBe(false);
  });

  it('a visual ref starts with v', () => {
    expect(formatVisualRef(36)).toBe('v10');
    expect(isVisualRef('v10')).toBe(true);
    expect(isVisualRef('e1v')).toBe(false);
  });
});

function treeOf(roots: NodeSpec[]): UiTree {
  return parseDump(uiautomatorDump(roots));
}

function labelled(tree: UiTree, label: string, nth = 0): UiNode {
  const found = tree.nodes.filter((n) => n.text === label || n.contentDesc === label)[nth];
  if (!found) throw new Error(`no node '${label}'`);
  return found;
}

/** The node's own part of its identity, as the JSON array it is. */
function ownPart(identity: RefIdentity): unknown[] {
  return JSON.parse(identity.node) as unknown[];
}

describe('what a node shows, in its identity', () => {
  it('its visible content that takes no taps itself: texts and descriptions, through hidden containers', () => {
    const row: NodeSpec = {
      cls: 'android.widget.LinearLayout',
      clickable: true,
      desc: 'Row',
      bounds: '[0,100][1080,400]',
      children: [
        { cls: 'android.widget.TextView', text: 'Clock', bounds: '[10,110][500,150]' },
        { cls: 'android.widget.ImageView', desc: 'Alarm icon', bounds: '[10,160][100,200]' },
        { cls: 'android.widget.TextView', bounds: '[10,160][100,200]' },
        { cls: 'android.widget.EditText', text: 'typed', desc: 'Note', bounds: '[10,210][500,250]' },
        { cls: 'android.widget.Button', text: 'Delete', clickable: true, bounds: '[600,110][1000,200]' },
        {
          cls: 'android.widget.ListView',
          scrollable: true,
          bounds: '[600,210][1000,390]',
          children: [{ cls: 'android.widget.TextView', text: 'In the list', bounds: '[610,220][990,260]' }],
        },
        {
          cls: 'android.widget.FrameLayout',
          bounds: '[0,0][0,0]',
          text: 'hidden',
          children: [{ cls: 'android.widget.TextView', text: '21 MB', bounds: '[10,260][500,300]' }],
        },
      ],
    };
    const tree = treeOf([screen([row])]);
    const identity = identify(tree, labelled(tree, 'Row'), WINDOW);
    // A field takes taps (its role is input): neither its text nor its description is the row's.
    expect(ownPart(identity)[5]).toEqual(['Clock', 'Alarm icon', '21 MB']);
  });

  it("a field's own text is not part of it (the model types it); its bounds are", () => {
    const tree = treeOf([
      screen([{ cls: 'android.widget.EditText', text: 'cal', desc: 'Search', bounds: '[0,100][1080,200]' }]),
    ]);
    expect(ownPart(identify(tree, labelled(tree, 'Search'), WINDOW))).toEqual([
      'android.widget.EditText',
      '',
      'Search',
      '',
      '[0,100][1080,200]',
      [],
    ]);
    expect(formatBounds(null)).toBe('');
    expect(screenOf({ ...WINDOW, foregroundPackage: null, foregroundActivity: null })).toBe('/');
  });
});

/** A window of `pkg` with one button. */
function windowWith(pkg: string, label: string): NodeSpec {
  return {
    cls: 'android.widget.FrameLayout',
    pkg,
    bounds: '[0,0][1080,2400]',
    children: [{ cls: 'android.widget.Button', pkg, text: label, clickable: true, bounds: '[100,100][500,200]' }],
  };
}

describe('the window rank and the search of a fresh reading', () => {
  it('counts only earlier windows of the same class and package', () => {
    const tree = treeOf([
      windowWith('com.example.app', 'OK'),
      windowWith('com.android.systemui', 'OK'),
      windowWith('com.example.app', 'OK'),
    ]);
    expect(identify(tree, labelled(tree, 'OK', 0), WINDOW).windowRank).toBe(0);
    expect(identify(tree, labelled(tree, 'OK', 1), WINDOW).windowRank).toBe(0);
    expect(identify(tree, labelled(tree, 'OK', 2), WINDOW).windowRank).toBe(1);
  });

  it('finds the node in its own window, not in a look-alike of another window or rank', () => {
    const tree = treeOf([
      windowWith('com.android.systemui', 'OK'),
      windowWith('com.example.app', 'OK'),
      windowWith('com.example.app', 'OK'),
    ]);
    const second = labelled(tree, 'OK', 1);
    expect(locateIdentity(tree, WINDOW, identify(tree, second, WINDOW))).toBe(second);
    const third = labelled(tree, 'OK', 2);
    expect(locateIdentity(tree, WINDOW, identify(tree, third, WINDOW))).toBe(third);
  });

  it('past its rank, the one window alike that holds it; none, or two, is null', () => {
    const tree = treeOf([windowWith('com.example.app', 'Other'), windowWith('com.example.app', 'OK')]);
    const known = identify(tree, labelled(tree, 'OK'), WINDOW);
    const shifted = { ...known, windowRank: 5 };
    expect(locateIdentity(tree, WINDOW, shifted)).toBe(labelled(tree, 'OK'));
    const twice = treeOf([windowWith('com.example.app', 'OK'), windowWith('com.example.app', 'OK')]);
    expect(locateIdentity(twice, WINDOW, shifted)).toBeNull();
    const none = treeOf([windowWith('com.example.app', 'Other')]);
    expect(locateIdentity(none, WINDOW, shifted)).toBeNull();
    expect(locateIdentity(tree, { ...WINDOW, foregroundActivity: 'com.example.app.Other' }, known)).toBeNull();
  });
});

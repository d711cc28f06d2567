/**
 * What makes a ref's element "that element", and how to name exactly it on the device.
 * Pure: no registry, no I/O (the registry lives in src/application/RefRegistry.ts).
 *
 * Identity of a target node N, judged on N alone, never on the whole screen:
 *  - the screen it stands on: the foreground package and activity (a navigation to another
 *    activity makes every ref of the old one stale, even where a look-alike now stands);
 *  - its window: the root's class and package, and its rank among roots with the same two;
 *  - its position in the hierarchy: the child indexes from that root down to N;
 *  - N itself: class, resource-id, content-desc, text (except for a field, whose text is what
 *    the model types), bounds;
 *  - what N shows: the texts and content-descs of N's own content, i.e. its visible descendants
 *    minus those that take taps themselves (the summary's selector sources). A recycled list row
 *    at the same place with other content is another element.
 * Left out on purpose: every other node (a clock, a counter elsewhere), checked/selected/focused
 * (a tap toggles them), hint, and the root's bounds (an IME resizing the window would otherwise
 * void every ref on the screen).
 */
import type { Locator } from '../ports.js';
import type { WindowState } from '../tree/screen.js';
import type { Rect, UiNode, UiTree } from '../tree/uiNode.js';
import { xpathLiteral } from '../selectors/locator.js';
import { isEditText, isVisible, roleOf } from '../tree/nodeFacts.js';

export interface RefIdentity {
  /** `package/activity` of the foreground window ('' parts when adb could not tell). */
  readonly screen: string;
  /** Root class and package. */
  readonly window: string;
  /** Rank of the root among the roots with the same `window`. */
  readonly windowRank: number;
  /** Child indexes (0-based) from the root down to the node; [] for the root itself. */
  readonly path: readonly number[];
  /** The node's own attributes and content (JSON). */
  readonly node: string;
}

/** One string per identity, so equal identities are equal keys. */
export function identityKey(identity: RefIdentity): string {
  return JSON.stringify([identity.screen, identity.window, identity.windowRank, identity.path, identity.node]);
}

export function screenOf(window: WindowState): string {
  return `${window.foregroundPackage ?? ''}/${window.foregroundActivity ?? ''}`;
}

function windowOf(root: UiNode): string {
  return JSON.stringify([root.className, root.packageName]);
}

export function formatBounds(b: Rect | null): string {
  return b === null ? '' : `[${b.left},${b.top}][${b.right},${b.bottom}]`;
}

function rootOf(node: UiNode): UiNode {
  let n = node;
  while (n.parent !== null) n = n.parent;
  return n;
}

/** Child indexes from the root to `node`. */
function pathOf(node: UiNode): number[] {
  const path: number[] = [];
  for (let n = node; n.parent !== null; n = n.parent) path.push(n.parent.children.indexOf(n));
  return path.reverse();
}

/** The labels of the node's own content: visible descendants that do not take taps themselves. */
function contentLabels(node: UiNode): string[] {
  const out: string[] = [];
  const walk = (parent: UiNode): void => {
    for (const child of parent.children) {
      if (child.scrollable || roleOf(child) !== null) continue;
      if (isVisible(child)) {
        if (!isEditText(child) && child.text !== '') out.push(child.text);
        if (child.contentDesc !== '') out.push(child.contentDesc);
      }
      walk(child);
    }
  };
  walk(node);
  return out;
}

function nodeKey(node: UiNode): string {
  const text = isEditText(node) ? '' : node.text;
  return JSON.stringify([
    node.className,
    node.resourceId,
    node.contentDesc,
    text,
    formatBounds(node.bounds),
    contentLabels(node),
  ]);
}

export function identify(tree: UiTree, node: UiNode, window: WindowState): RefIdentity {
  const root = rootOf(node);
  const key = windowOf(root);
  const windowRank = tree.roots.filter((r) => r.order < root.order && windowOf(r) === key).length;
  return { screen: screenOf(window), window: key, windowRank, path: pathOf(node), node: nodeKey(node) };
}

/**
 * The node that is still `identity` on this fresh reading, or null when the screen changed
 * around it: another foreground activity, no such window, nothing at that position, or
 * something else there.
 */
export function locateIdentity(tree: UiTree, window: WindowState, identity: RefIdentity): UiNode | null {
  if (screenOf(window) !== identity.screen) return null;
  const alike = tree.roots.filter((r) => windowOf(r) === identity.window);
  const at = (root: UiNode | undefined): UiNode | null => {
    let node: UiNode | undefined = root;
    for (const index of identity.path) node = node?.children[index];
    return node && nodeKey(node) === identity.node ? node : null;
  };
  const ranked = at(alike[identity.windowRank]);
  if (ranked) return ranked;
  // `uiautomator dump` may list a window the driver's page source leaves out (a dialog over its
  // activity, both of one app and class: the driver shows only the active one), which shifts the
  // rank. Another window alike is accepted only when exactly one holds the whole identity there.
  const elsewhere = alike.map(at).filter((n): n is UiNode => n !== null);
  return elsewhere.length === 1 ? elsewhere[0]! : null;
}

/**
 * An XPath naming exactly `node` of this reading: its element position under the document
 * element, step by step (1-based, element children only: what `*[n]` counts), and its bounds,
 * so that if the screen changes between this reading and the driver's find, the find comes back
 * empty rather than with whatever moved into that position. The UiAutomator2 server evaluates
 * XPath over the same page source the reading parsed.
 */
export function refLocator(tree: UiTree, node: UiNode): Locator {
  const steps: number[] = [];
  let n = node;
  for (; n.parent !== null; n = n.parent) steps.push(n.parent.children.indexOf(n) + 1);
  steps.push(tree.roots.indexOf(n) + 1);
  steps.reverse();
  const path = steps.map((s) => `/*[${s}]`).join('');
  return { using: 'xpath', value: `/*${path}[@bounds=${xpathLiteral(formatBounds(node.bounds))}]` };
}

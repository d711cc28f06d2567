/**
 * Scrollable containers: which way each one scrolls, which one is the screen's
 * main container for a direction, and which container a node the model named belongs to.
 *
 * A dump says `scrollable="true"` but not which way: AccessibilityNodeInfo carries the actions
 * (ACTION_SCROLL_FORWARD/BACKWARD) without an axis, and uiautomator writes no actions at all.
 * The orientation is therefore inferred, first from the class (a HorizontalScrollView, a
 * ViewPager, a Gallery scroll sideways; ScrollView, ListView, GridView and WebView vertically),
 * else from how the container lays out its visible children: side by side in one row is a
 * horizontal list (a RecyclerView with a horizontal LinearLayoutManager: carousels, chip rows,
 * tab strips), anything else (a column, a grid, one child) is vertical, the common case.
 *
 * Pure: the same tree gives the same answers.
 */
import { isVisible } from '../tree/nodeFacts.js';
import type { Rect, UiNode, UiTree } from '../tree/uiNode.js';
import type { ScrollDirection } from '../gestures/scrollDirection.js';

export type Orientation = 'vertical' | 'horizontal';

const HORIZONTAL_CLASS = /(?:HorizontalScrollView|ViewPager2?|Gallery)$/;
const VERTICAL_CLASS = /(?:ScrollView|ListView|GridView|WebView)$/;

export function orientationOfDirection(direction: ScrollDirection): Orientation {
  return direction === 'left' || direction === 'right' ? 'horizontal' : 'vertical';
}

const hasArea = (r: Rect | null): r is Rect => r !== null && r.right > r.left && r.bottom > r.top;

/** Which way a scrollable node scrolls (see the file comment for the rules). */
export function scrollOrientation(node: UiNode): Orientation {
  if (HORIZONTAL_CLASS.test(node.className)) return 'horizontal';
  // A ViewPager2 hosts a horizontal RecyclerView that fills it, one page at a time.
  if (node.parent && /ViewPager2$/.test(node.parent.className)) return 'horizontal';
  if (VERTICAL_CLASS.test(node.className)) return 'vertical';
  const boxes = node.children
    .filter(isVisible)
    .map((c) => c.bounds)
    .filter(hasArea);
  if (boxes.length < 2) return 'vertical';
  // One row: no child lies wholly below another (a grid has rows, so it stays vertical).
  for (const a of boxes) {
    for (const b of boxes) if (b.top >= a.bottom) return 'vertical';
  }
  return 'horizontal';
}

/** The visible scrollable nodes, in document order. */
export function visibleScrollables(tree: UiTree): UiNode[] {
  return tree.nodes.filter((n) => n.scrollable && isVisible(n) && hasArea(n.bounds));
}

/** The part of `a` inside `b`, or null when they do not overlap. */
export function intersectRect(a: Rect, b: Rect): Rect | null {
  const r = {
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  };
  return r.right > r.left && r.bottom > r.top ? r : null;
}

/**
 * The node the driver found, in the page source read with it: the first node (document order)
 * with the element's class and bounds. A ref or any selector the driver resolved lands here the
 * same way, since only the element's own attributes are compared.
 */
export function nodeOfElement(
  tree: UiTree,
  place: { readonly className: string; readonly bounds: Rect | null },
): UiNode | null {
  return tree.nodes.find((n) => sameClassAndBounds(n, place.className, place.bounds)) ?? null;
}

/** The node has this class and exactly these bounds (a container keeps both while its content moves). */
export function sameClassAndBounds(node: UiNode, className: string, bounds: Rect | null): boolean {
  const a = node.bounds;
  return (
    node.className === className &&
    a !== null &&
    bounds !== null &&
    a.left === bounds.left &&
    a.top === bounds.top &&
    a.right === bounds.right &&
    a.bottom === bounds.bottom
  );
}

export type NamedContainer =
  | { readonly kind: 'found'; readonly container: UiNode }
  /** Neither the node nor any ancestor is scrollable. */
  | { readonly kind: 'not-scrollable' }
  /** The node or its ancestors scroll, but only the other way: the nearest of them. */
  | { readonly kind: 'wrong-orientation'; readonly nearest: UiNode; readonly orientation: Orientation };

/**
 * The container a named node stands for: the node itself when it scrolls the way asked,
 * else its nearest ancestor that does (a row or a tile names the list that holds it).
 */
export function containerOf(node: UiNode, direction: ScrollDirection): NamedContainer {
  const wanted = orientationOfDirection(direction);
  let other: UiNode | null = null;
  for (let n: UiNode | null = node; n !== null; n = n.parent) {
    if (!n.scrollable) continue;
    if (scrollOrientation(n) === wanted) return { kind: 'found', container: n };
    other ??= n;
  }
  return other
    ? { kind: 'wrong-orientation', nearest: other, orientation: scrollOrientation(other) }
    : { kind: 'not-scrollable' };
}

/**
 * ui_scroll's gesture, planned from the screen it is about to move: four directions,
 * any scrollable container.
 *
 * Where: a touch belongs to the window it starts in, so a swipe that starts on the open keyboard
 * scrolls the keyboard, and one that starts on a system bar goes to System UI. The swipe runs
 * over the named container, else the main one for the direction (the largest visible scrollable
 * that scrolls that way), inside the part of it that is above the IME and clear of the screen's
 * top and bottom edges, and for a sideways swipe of its left and right edges too, where gesture
 * navigation takes a swipe for Back.
 *
 * How: a list keeps moving after the finger lifts when the release velocity is at least
 * ViewConfiguration's minimum fling velocity (50 dp/s), and a fling skips rows. The finger
 * drags, then creeps its last few dp at a speed far under that threshold for longer than the
 * VelocityTracker's 100 ms horizon, then holds still before it lifts: the release velocity is
 * the creep's, on every Android version (older ones keep the last velocity through a pause;
 * newer ones also clear it after a 40 ms stop). docs/internals/device-quirks.md has the sources.
 *
 * Pure: the same tree and context give the same plan.
 */
import type { ImeState } from '../tree/screen.js';
import {
  intersectRect,
  orientationOfDirection,
  sameClassAndBounds,
  scrollOrientation,
  visibleScrollables,
  type Orientation,
} from '../summary/scrollables.js';
import type { ScrollDirection } from './scrollDirection.js';
import type { Point, Rect, UiNode, UiTree } from '../tree/uiNode.js';

export interface SwipeMove {
  readonly to: Point;
  readonly durationMs: number;
}

/** One finger: down at `start`, through `moves` in order, still for `holdMs`, then up. */
export interface SwipePath {
  readonly start: Point;
  readonly moves: readonly SwipeMove[];
  readonly holdMs: number;
}

/** What the plan needs besides the tree: the display, its density and the keyboard. */
export interface ScrollContext {
  readonly screen: { readonly width: number; readonly height: number };
  readonly density: number;
  readonly ime: ImeState;
}

export interface ScrollPlan {
  readonly path: SwipePath;
  /** The scrollable container the swipe runs over; null when the screen shows none that fits. */
  readonly container: UiNode | null;
  /** Where the swipe runs: that container's visible part above the keyboard and clear of the screen edges. */
  readonly area: Rect;
}

/**
 * Kept clear at the top and the bottom of the screen: more than a status bar (24 dp, up to
 * about 48 dp with a display cutout) and a three-button navigation bar (48 dp), so no swipe
 * starts or ends on System UI, whatever the app draws under the bars.
 */
export const EDGE_GUARD_DP = 56;
/** Each end of the swipe stays this fraction of the area inside it: consecutive pages overlap by about a fifth. */
const END_INSET = 0.1;
/** The drag itself; its speed does not matter, the creep that follows decides the release velocity. */
export const DRAG_MS = 400;
/** The creep: 4 dp in 200 ms is 20 dp/s, under half the 50 dp/s minimum fling velocity, for twice the 100 ms horizon. */
export const CREEP_DP = 4;
export const CREEP_MS = 200;
/** Still before the lift: longer than the 40 ms after which Android treats a pointer as stopped. */
export const HOLD_MS = 100;
/** A container whose usable part is shorter than this along its axis is not worth aiming at. */
const MIN_AREA_DP = 48;

function dpToPx(dp: number, density: number): number {
  return Math.round((dp * density) / 160);
}

const areaOf = (r: Rect): number => (r.right - r.left) * (r.bottom - r.top);

/** The part of the screen a gesture may use: clear of the edge guards and above an open keyboard. */
export function gestureArea(context: ScrollContext): Rect {
  const guard = dpToPx(EDGE_GUARD_DP, context.density);
  const { width, height } = context.screen;
  let bottom = height - guard;
  const frame = context.ime.visible ? context.ime.frame : null;
  if (frame && frame.top > guard) bottom = Math.min(bottom, frame.top);
  return { left: 0, top: guard, right: width, bottom: Math.max(guard + 1, bottom) };
}

/** The gesture area for a swipe along `orientation`: a sideways swipe also keeps clear of the side edges (the back gesture). */
function usableFor(context: ScrollContext, orientation: Orientation): Rect {
  const usable = gestureArea(context);
  if (orientation === 'vertical') return usable;
  const guard = dpToPx(EDGE_GUARD_DP, context.density);
  return { ...usable, left: guard, right: Math.max(guard + 1, context.screen.width - guard) };
}

/**
 * Where a swipe along the container's axis may run: its visible part inside the gesture area,
 * or null when too little of it is left there (hidden under the keyboard or the system bars).
 */
export function swipeArea(container: UiNode, context: ScrollContext, orientation: Orientation): Rect | null {
  if (!container.bounds) return null;
  const area = intersectRect(container.bounds, usableFor(context, orientation));
  if (!area) return null;
  const length = orientation === 'vertical' ? area.bottom - area.top : area.right - area.left;
  return length >= dpToPx(MIN_AREA_DP, context.density) ? area : null;
}

/**
 * The screen's main container for a direction: the visible scrollable that scrolls that way
 * (scrollables.ts) with the largest part inside the gesture area; null when none does.
 */
export function mainContainer(tree: UiTree, context: ScrollContext, direction: ScrollDirection): UiNode | null {
  const orientation = orientationOfDirection(direction);
  let best: { node: UiNode; area: Rect } | null = null;
  for (const node of visibleScrollables(tree)) {
    if (scrollOrientation(node) !== orientation) continue;
    const area = swipeArea(node, context, orientation);
    if (area && (!best || areaOf(area) > areaOf(best.area))) best = { node, area };
  }
  return best?.node ?? null;
}

/**
 * The swipe over `container` (the main one for the direction when not given). Without any
 * container the swipe runs over the whole gesture area (the application allows that only
 * vertically). A named container with no usable area is swiped over the whole gesture area
 * too; the application refuses it before it gets here.
 */
export function planScroll(
  tree: UiTree,
  context: ScrollContext,
  direction: ScrollDirection,
  named?: UiNode,
): ScrollPlan {
  const orientation = orientationOfDirection(direction);
  const container = named ?? mainContainer(tree, context, direction);
  const area = (container ? swipeArea(container, context, orientation) : null) ?? usableFor(context, orientation);
  return { container, area, path: swipeOver(area, context, direction) };
}

function swipeOver(area: Rect, context: ScrollContext, direction: ScrollDirection): SwipePath {
  const vertical = orientationOfDirection(direction) === 'vertical';
  const [lo, hi] = vertical ? [area.top, area.bottom] : [area.left, area.right];
  const cross = vertical ? Math.round((area.left + area.right) / 2) : Math.round((area.top + area.bottom) / 2);
  const inset = Math.round((hi - lo) * END_INSET);
  const far = hi - 1 - inset;
  const near = lo + inset;
  const creep = Math.min(dpToPx(CREEP_DP, context.density), Math.floor((far - near) / 2));
  // The finger moves against the content: to see what is further down (or right), drag up (or left).
  const forward = direction === 'down' || direction === 'right';
  const [from, to, step] = forward ? [far, near, creep] : [near, far, -creep];
  const at = (along: number): Point => (vertical ? { x: cross, y: along } : { x: along, y: cross });
  return {
    start: at(from),
    moves: [
      { to: at(to + step), durationMs: DRAG_MS },
      { to: at(to), durationMs: CREEP_MS },
    ],
    holdMs: HOLD_MS,
  };
}

/** The container again in another reading of the screen: the same class, id and bounds (a list does not move itself). */
function sameContainer(tree: UiTree, container: UiNode): UiNode | null {
  return (
    tree.nodes.find(
      (n) => n.resourceId === container.resourceId && sameClassAndBounds(n, container.className, container.bounds),
    ) ?? null
  );
}

function descendants(node: UiNode): UiNode[] {
  const out: UiNode[] = [];
  const walk = (n: UiNode): void => {
    for (const c of n.children) {
      out.push(c);
      walk(c);
    }
  };
  walk(node);
  return out;
}

/**
 * What the content of `container` shows, in `tree`: each node's place and words. Equal before
 * and after a swipe means nothing moved. Without a container (or when it is gone), the whole tree.
 */
export function contentSignature(tree: UiTree, container: UiNode | null): string {
  const scope = container ? sameContainer(tree, container) : null;
  const nodes = scope ? descendants(scope) : tree.nodes;
  return nodes
    .map((n) => {
      const b = n.bounds;
      return `${b ? `${b.left},${b.top},${b.right},${b.bottom}` : '-'}|${n.className}|${n.text}|${n.contentDesc}`;
    })
    .join('\n');
}

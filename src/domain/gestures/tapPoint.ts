/**
 * Where a tap on an element lands, edge-to-edge apps included. A touch belongs to the window it
 * starts in: one inside the open keyboard goes to the IME, one on a system bar goes to System UI.
 * The driver's click presses the centre of the element's visible bounds, and an app drawn edge to
 * edge (enforced for apps targeting API 35) reports bounds that run on under the bars, so that
 * centre can be on the navigation bar. The harness then presses the middle of the element's
 * largest strip outside every such window instead; with none left, it presses nothing.
 *
 * Pure: the same bounds and windows give the same answer.
 */
import type { ImeState, NotActionable, SystemBars } from '../tree/screen.js';
import type { Point, Rect } from '../tree/uiNode.js';

/** A window over the app that takes the touches inside it. */
export interface Obstruction {
  readonly kind: 'keyboard' | 'status_bar' | 'navigation_bar';
  readonly frame: Rect;
}

export type TapPlan =
  /** The centre is free: the driver's own click (or long click) on the element. */
  | { readonly kind: 'centre' }
  /** The centre is covered: press this point of the element instead (it lies outside every obstruction). */
  | { readonly kind: 'point'; readonly point: Point; readonly coveredBy: Obstruction['kind'] }
  /** No part of the element is outside the obstructions: nothing can be pressed. */
  | { readonly kind: 'hidden'; readonly coveredBy: Obstruction['kind'] };

/** The windows over the app: the open keyboard, then the status and navigation bars. */
export function obstructionsOf(ime: ImeState, bars: SystemBars | undefined): Obstruction[] {
  const out: Obstruction[] = [];
  if (ime.visible && ime.frame) out.push({ kind: 'keyboard', frame: ime.frame });
  if (bars?.status) out.push({ kind: 'status_bar', frame: bars.status });
  if (bars?.navigation) out.push({ kind: 'navigation_bar', frame: bars.navigation });
  return out;
}

function contains(r: Rect, x: number, y: number): boolean {
  return x >= r.left && x < r.right && y >= r.top && y < r.bottom;
}

/** The centre UiAutomator2 presses: the middle of the bounds, rounded down as Rect.centerX/Y do. */
export function centreOf(bounds: Rect): Point {
  return { x: Math.floor((bounds.left + bounds.right) / 2), y: Math.floor((bounds.top + bounds.bottom) / 2) };
}

/**
 * UiAutomator2 clicks an element at the centre of its visible bounds, so a descendant can name
 * N only when that centre lies inside N. A clipped descendant of a row scrolled almost out of
 * its list reports an empty or inverted rectangle (`[49,326][431,263]`) whose centre lies
 * outside the row: a tap there would land on something else.
 */
export function tapLandsIn(child: { readonly bounds: Rect | null }, target: Rect | null): boolean {
  const b = child.bounds;
  if (b === null || target === null || b.right <= b.left || b.bottom <= b.top) return false;
  const { x, y } = centreOf(b);
  return x >= target.left && x < target.right && y >= target.top && y < target.bottom;
}

/** The first obstruction under a point, or null. */
export function obstructionAt(point: Point, obstructions: readonly Obstruction[]): Obstruction | null {
  return obstructions.find((o) => contains(o.frame, point.x, point.y)) ?? null;
}

/**
 * The longest run of [from, to) left free by `cuts` (each an interval to remove), or null.
 * Ties go to the first run: the upper part of an element under the navigation bar.
 */
function longestFreeRun(
  from: number,
  to: number,
  cuts: readonly (readonly [number, number])[],
): readonly [number, number] | null {
  const sorted = [...cuts].filter(([a, b]) => b > from && a < to).sort((p, q) => p[0] - q[0]);
  let best: readonly [number, number] | null = null;
  let cursor = from;
  const consider = (a: number, b: number): void => {
    if (b > a && (!best || b - a > best[1] - best[0])) best = [a, b];
  };
  for (const [a, b] of sorted) {
    consider(cursor, Math.min(a, to));
    cursor = Math.max(cursor, b);
  }
  consider(cursor, to);
  return best;
}

/**
 * Where to press the element. Along the vertical line through its centre, the obstructions that
 * cross that line are cut out of its bounds, and the middle of the longest strip left is pressed
 * (the bars and the keyboard span the display's width, so that line is as good as any). Then the
 * same sideways, for a bar on the side of a landscape display.
 */
export function planTap(bounds: Rect, obstructions: readonly Obstruction[]): TapPlan {
  const centre = centreOf(bounds);
  const covering = obstructionAt(centre, obstructions);
  if (!covering) return { kind: 'centre' };
  const crossing = (axis: 'x' | 'y'): (readonly [number, number])[] =>
    obstructions
      .filter((o) =>
        axis === 'y'
          ? o.frame.left <= centre.x && centre.x < o.frame.right
          : o.frame.top <= centre.y && centre.y < o.frame.bottom,
      )
      .map((o): readonly [number, number] =>
        axis === 'y' ? [o.frame.top, o.frame.bottom] : [o.frame.left, o.frame.right],
      );
  const vertical = longestFreeRun(bounds.top, bounds.bottom, crossing('y'));
  if (vertical)
    return {
      kind: 'point',
      point: { x: centre.x, y: Math.floor((vertical[0] + vertical[1]) / 2) },
      coveredBy: covering.kind,
    };
  const horizontal = longestFreeRun(bounds.left, bounds.right, crossing('x'));
  if (horizontal)
    return {
      kind: 'point',
      point: { x: Math.floor((horizontal[0] + horizontal[1]) / 2), y: centre.y },
      coveredBy: covering.kind,
    };
  return { kind: 'hidden', coveredBy: covering.kind };
}

const UNREACHABLE_BY: Readonly<Record<Obstruction['kind'], NotActionable>> = {
  keyboard: 'covered_by_keyboard',
  status_bar: 'under_status_bar',
  navigation_bar: 'under_navigation_bar',
};

/**
 * Null when a tap can reach the element; else why not, exactly as ui_tap would refuse it: no
 * visible area (the driver's centre would lie outside it), or no part outside the windows on top
 * (planTap's `hidden`). System UI's own nodes sit in the bars' windows, which do not cover them.
 */
export function unreachable(
  bounds: Rect,
  packageName: string,
  ime: ImeState,
  bars: SystemBars | undefined,
): NotActionable | null {
  if (bounds.right <= bounds.left || bounds.bottom <= bounds.top) return 'no_area';
  const plan = planTap(bounds, obstructionsOf(ime, packageName === SYSTEM_UI_PACKAGE ? undefined : bars));
  return plan.kind === 'hidden' ? UNREACHABLE_BY[plan.coveredBy] : null;
}

/** System UI's package: its nodes (the bars' buttons, the shade) are the bars. */
export const SYSTEM_UI_PACKAGE = 'com.android.systemui';

const COVER_NAMES: Readonly<Record<Obstruction['kind'], string>> = {
  keyboard: 'the keyboard (close it with device_back, or scroll the element above it with ui_scroll)',
  status_bar:
    'the status bar (the app draws edge to edge, and a touch there goes to System UI; scroll it into view with ui_scroll)',
  navigation_bar:
    'the navigation bar (the app draws edge to edge, and a touch there goes to System UI; scroll it into view with ui_scroll)',
};

/** The refusal of an element with no visible area: the driver's centre would lie outside it. */
export function noAreaMessage(target: Readonly<Record<string, unknown>>): string {
  return (
    `The element ${JSON.stringify(target)} has no visible area (it is clipped out of view), so a tap would land on something else. ` +
    'Scroll it into view (ui_scroll), then call ui_get_tree again and tap it. Nothing was tapped.'
  );
}

/** The refusal when no part of the element is outside the windows on top of it. */
export function coveredMessage(target: Readonly<Record<string, unknown>>, coveredBy: Obstruction['kind']): string {
  return (
    `The element ${JSON.stringify(target)} lies entirely under ${COVER_NAMES[coveredBy]}, so a tap would not reach it. ` +
    'Then call ui_get_tree again and tap it. Nothing was tapped.'
  );
}

/**
 * The rectangle the UiAutomator2 server reports for a node and clicks the centre of
 * (appium-uiautomator2-server, AxNodeInfoHelper.getBounds → getVisibleBoundsInScreen with the
 * default `simpleBoundsCalculation: false`): the node's bounds trimmed into the visible rectangle of
 * its nearest scrollable ancestor, itself trimmed the same way. `uiautomator dump` does not trim
 * (docs/internals/device-quirks.md, "Bounds: the dump and the server"), so the two can differ for a node that
 * reaches past its list (a Compose row drawn into the list's padding).
 */
import type { Rect } from '../device/geometry.js';
import type { UiElement } from '../device/uiTree.js';

/** android.graphics.Rect#intersect: only when the two overlap, and then in place (inverted bounds stay inverted). */
function intersect(b: Rect, a: Rect): Rect {
  if (!(b.left < a.right && a.left < b.right && b.top < a.bottom && a.top < b.bottom)) return b;
  return {
    left: Math.max(b.left, a.left),
    top: Math.max(b.top, a.top),
    right: Math.min(b.right, a.right),
    bottom: Math.min(b.bottom, a.bottom),
  };
}

export function serverBounds(e: UiElement): Rect {
  let ancestor = e.parent;
  while (ancestor !== null && !ancestor.scrollable) ancestor = ancestor.parent;
  return ancestor === null ? e.bounds : intersect(e.bounds, serverBounds(ancestor));
}

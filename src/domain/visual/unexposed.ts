/**
 * Where the accessibility tree is silent about what the screen shows (docs/reference/summary.md,
 * "Visual refs"): the parts of the screen worth reading from pixels. Pure rules over the tree, so a
 * screen whose tree names everything costs nothing: no screenshot is decoded and no OCR runs.
 *
 * A node's content is unexposed when it is visible and
 * - it renders into a surface of its own (SurfaceView, GLSurfaceView, TextureView, a video or map
 *   view): what is drawn there never becomes an accessibility node;
 * - it is a WebView with no child nodes (the page did not expose its accessibility tree);
 * - it is a large clickable with no label anywhere inside it (a Pressable or a canvas button bar
 *   whose text is painted, not set).
 * Images, icons and decorations are not rules: their pixels rarely hold text a model must act on,
 * and OCR on every screen with a picture would make every read pay for it.
 */
import { isVisible, ownLabel } from '../tree/nodeFacts.js';
import type { Rect, UiNode, UiTree } from '../tree/uiNode.js';

export type UnexposedReason = 'surface' | 'empty_web_view' | 'unlabelled_clickable';

export interface UnexposedRegion {
  readonly bounds: Rect;
  readonly reason: UnexposedReason;
}

/** Classes that draw into a Surface of their own, by the end of their name (subclasses keep it). */
const SURFACE_CLASS = /(SurfaceView|TextureView|VideoView|MapView)$/;
const WEB_VIEW_CLASS = /WebView$/;
/**
 * A clickable this large with no label is a control the app forgot to name, not an icon: 1/16 of
 * the screen's area (a 1080×2400 screen: about a 400×400 px tile). Smaller unlabelled clickables
 * are icons, which the summary already offers by their id or place.
 */
const LARGE_CLICKABLE_SHARE = 1 / 16;
/** A region smaller than this on either side holds no readable line of text. */
const MIN_SIDE_PX = 24;
/** At most this many regions: a list of unlabelled rows is read as one area, not row by row. */
export const MAX_UNEXPOSED_REGIONS = 8;

export function unexposedRegions(
  tree: UiTree,
  screen: { readonly width: number; readonly height: number },
): UnexposedRegion[] {
  const screenRect: Rect = { left: 0, top: 0, right: screen.width, bottom: screen.height };
  const largeArea = screen.width * screen.height * LARGE_CLICKABLE_SHARE;
  const found: UnexposedRegion[] = [];
  for (const node of tree.nodes) {
    if (!isVisible(node) || !node.bounds) continue;
    const reason = reasonOf(node, largeArea);
    if (!reason) continue;
    const bounds = intersection(node.bounds, screenRect);
    if (!bounds || bounds.right - bounds.left < MIN_SIDE_PX || bounds.bottom - bounds.top < MIN_SIDE_PX) continue;
    // A region inside one already found adds nothing (a clickable inside a map).
    if (found.some((r) => inside(bounds, r.bounds))) continue;
    found.push({ bounds, reason });
  }
  return found.slice(0, MAX_UNEXPOSED_REGIONS);
}

function reasonOf(node: UiNode, largeArea: number): UnexposedReason | null {
  if (SURFACE_CLASS.test(node.className) && node.children.length === 0) return 'surface';
  if (WEB_VIEW_CLASS.test(node.className) && node.children.length === 0) return 'empty_web_view';
  if (node.clickable && area(node.bounds!) >= largeArea && !labelledWithin(node)) return 'unlabelled_clickable';
  return null;
}

function labelledWithin(node: UiNode): boolean {
  // A resource id names the control for a selector, not for a reader: it does not count as a label.
  if (ownLabel(node) !== '') return true;
  return node.children.some(labelledWithin);
}

function area(r: Rect): number {
  return Math.max(0, r.right - r.left) * Math.max(0, r.bottom - r.top);
}

export function intersection(a: Rect, b: Rect): Rect | null {
  const r = {
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  };
  return r.right > r.left && r.bottom > r.top ? r : null;
}

export function inside(inner: Rect, outer: Rect): boolean {
  return (
    inner.left >= outer.left && inner.top >= outer.top && inner.right <= outer.right && inner.bottom <= outer.bottom
  );
}

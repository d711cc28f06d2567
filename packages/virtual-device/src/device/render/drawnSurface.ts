/**
 * What a view draws into its own pixels (scenario `drawn`): a game's menu on a SurfaceView, a
 * canvas-drawn button bar. Each item is a filled box with its text centred in it, in Roboto, so a
 * screenshot shows real glyphs that OCR can read while the dump shows one childless node.
 */
import type { Rect } from '../geometry.js';
import type { UiElement } from '../uiTree.js';
import { drawText } from './text.js';
import { DP } from './theme.js';
import { fillRound, height, width, type PaintContext } from './widgetPaint.js';

/** A game's dark backdrop and light buttons: high contrast, as game menus are drawn. */
const SURFACE = '#10131A';
const ITEM = '#2F6FEB';
const ITEM_TEXT = '#FFFFFF';

/** Paints the view's backdrop, then every drawn item; nothing when the view draws nothing of its own. */
export function paintDrawn(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  if (e.drawn.length === 0) return;
  const { ctx } = p;
  ctx.fillStyle = SURFACE;
  ctx.fillRect(box.left, box.top, width(box), height(box));
  for (const item of e.drawn) {
    fillRound(ctx, item.bounds, 12 * DP, ITEM);
    drawText(ctx, item.text, item.bounds, clip, {
      size: Math.min(24 * DP, height(item.bounds) * 0.45),
      weight: 500,
      colour: ITEM_TEXT,
      align: 'center',
      maxLines: 1,
    });
  }
}

/**
 * What a view draws into its own pixels (scenario `drawn`): a game's menu on a SurfaceView, a
 * canvas-drawn button bar, a web page's article in a WebView. Each item is painted in Roboto, so a
 * screenshot shows real glyphs that OCR can read while the dump shows one childless node.
 */
import type { Rect } from '../geometry.js';
import type { DrawnItem, UiElement } from '../uiTree.js';
import { drawText } from './text.js';
import { DP, TEXT } from './theme.js';
import { fillRound, height, width, type PaintContext } from './widgetPaint.js';

/** A game's dark backdrop and light buttons: high contrast, as game menus are drawn. */
const SURFACE = '#10131A';
/** A web page's white, as a browser's default stylesheet paints a page with no background of its own. */
const PAGE = '#FFFFFF';
const PAGE_TEXT = '#202124';
/** A browser's default unvisited link blue (the HTML standard's rendering section: `:link { color: #0000EE }`). */
const LINK = '#0000EE';
const ITEM = '#2F6FEB';
const ITEM_TEXT = '#FFFFFF';
/** A class whose drawn content is a web page (light), not a game's surface (dark). */
const WEB_VIEW_CLASS = /WebView$/;

/** Paints the view's backdrop, then every drawn item; nothing when the view draws nothing of its own. */
export function paintDrawn(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  if (e.drawn.length === 0) return;
  const { ctx } = p;
  ctx.fillStyle = WEB_VIEW_CLASS.test(e.className) ? PAGE : SURFACE;
  ctx.fillRect(box.left, box.top, width(box), height(box));
  for (const item of e.drawn) paintItem(p, item, clip);
}

function paintItem({ ctx }: PaintContext, item: DrawnItem, clip: Rect): void {
  if (item.style === 'button') {
    fillRound(ctx, item.bounds, 12 * DP, ITEM);
    drawText(ctx, item.text, item.bounds, clip, {
      size: Math.min(24 * DP, height(item.bounds) * 0.45),
      weight: 500,
      colour: ITEM_TEXT,
      align: 'center',
      maxLines: 1,
    });
    return;
  }
  // Body text and links: one line each, the page's 16 px body text at the device's density.
  const size = Math.min(TEXT.body, height(item.bounds) * 0.6);
  const colour = item.style === 'link' ? LINK : PAGE_TEXT;
  drawText(ctx, item.text, item.bounds, clip, { size, colour, align: 'left', maxLines: 1 });
  if (item.style === 'link') {
    // The underline a browser draws under a link, across the text's width, below its baseline.
    const y = Math.round((item.bounds.top + item.bounds.bottom) / 2 + size * 0.55);
    ctx.fillStyle = LINK;
    ctx.fillRect(item.bounds.left, y, Math.min(width(item.bounds), ctx.measureText(item.text).width), Math.max(2, DP));
  }
}

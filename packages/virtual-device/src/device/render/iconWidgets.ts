/** Icon-like widgets: icon buttons (floating action buttons included), images and launcher app icons. */
import type { Rect } from '../geometry.js';
import type { UiElement } from '../uiTree.js';
import { search, symbolFor } from './icons.js';
import { drawText } from './text.js';
import { COLOURS, DP, TEXT } from './theme.js';
import { fillRound, height, labelNear, letterIcon, shownLabel, width, type PaintContext } from './widgetPaint.js';

export function paintIconButton(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  const { ctx } = p;
  const side = Math.min(width(box), height(box));
  const cx = (box.left + box.right) / 2;
  const cy = (box.top + box.bottom) / 2;
  // A floating action button (an "add"/"create" action, or the class says so); a toolbar's 56 dp up button is not one.
  const fab =
    /FloatingActionButton$/.test(e.className) ||
    (side >= 48 * DP && /^(add|create|new|compose|write)\b/i.test(e.contentDesc));
  let colour: string = p.onWallpaper ? COLOURS.onWallpaper : e.enabled ? COLOURS.onSurfaceVariant : COLOURS.disabled;
  if (fab) {
    // A floating action button: a tonal rounded square.
    const s = Math.min(side, 64 * DP);
    fillRound(
      ctx,
      { left: cx - s / 2, top: cy - s / 2, right: cx + s / 2, bottom: cy + s / 2 },
      16 * DP,
      COLOURS.primaryContainer,
    );
    colour = COLOURS.onPrimaryContainer;
  }
  const glyph = Math.min(24 * DP, side * 0.6);
  if (!symbolFor(ctx, e.contentDesc, cx, cy, glyph, colour)) {
    const label = labelNear(e);
    if (label !== '')
      letterIcon(
        p,
        { left: cx - glyph / 2, top: cy - glyph / 2, right: cx + glyph / 2, bottom: cy + glyph / 2 },
        clip,
        label,
      );
  }
}

export function paintImage(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  const side = Math.min(width(box), height(box));
  if (side < 12) return;
  if (/search/i.test(e.parent?.resourceId ?? '') || /search/i.test(e.resourceId)) {
    search(
      p.ctx,
      (box.left + box.right) / 2,
      (box.top + box.bottom) / 2,
      Math.min(side, 24 * DP),
      p.onWallpaper ? COLOURS.onWallpaper : COLOURS.onSurfaceVariant,
    );
    return;
  }
  if (side > 120 * DP) {
    // A picture, not an icon.
    fillRound(p.ctx, box, 12 * DP, COLOURS.surfaceContainerHighest);
    return;
  }
  const label = labelNear(e);
  if (label === '') {
    fillRound(p.ctx, box, side / 2, COLOURS.surfaceContainerHighest);
    return;
  }
  letterIcon(p, box, clip, label);
}

export function paintAppIcon(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  const label = shownLabel(e);
  const d = Math.min(width(box) * 0.56, height(box) * 0.56);
  const cx = (box.left + box.right) / 2;
  const top = box.top + height(box) * 0.1;
  letterIcon(p, { left: cx - d / 2, top, right: cx + d / 2, bottom: top + d }, clip, label);
  drawText(p.ctx, label, { left: box.left, top: top + d + 4 * DP, right: box.right, bottom: box.bottom }, clip, {
    size: TEXT.small,
    colour: p.onWallpaper ? COLOURS.onWallpaper : COLOURS.onSurface,
    align: 'center',
    valign: 'top',
    maxLines: 1,
  });
}

/**
 * One node of the UI tree as the widget its class and state say it is: text fields with their text,
 * hint or password bullets, switches and check boxes in their checked state, buttons, icons, list
 * rows with dividers, Flutter/Compose semantics nodes (whose content-desc is their visible label)
 * and launcher icons. Every node is drawn at its laid-out bounds and cut at its visible bounds, so
 * a row scrolled half out of its list shows half.
 */
import type { Rect } from '../geometry.js';
import type { UiElement } from '../uiTree.js';
import { paintButton, paintCheck, paintField, paintSwitch } from './controlWidgets.js';
import { paintDrawn } from './drawnSurface.js';
import { paintAppIcon, paintIconButton, paintImage } from './iconWidgets.js';
import { drawText, type TextStyle } from './text.js';
import { COLOURS, DP, TEXT } from './theme.js';
import { roleOf, TAB_SUFFIX } from './widgetRole.js';
import { fillRound, height, shownLabel, textColour, width, type PaintContext } from './widgetPaint.js';

/** Is this text a title (a toolbar's, a page header's, a big clock)? */
function isHeadline(e: UiElement, box: Rect): boolean {
  if (/title/i.test(e.resourceId) && height(box) >= 90) return true;
  if (height(box) >= 100 && [...e.text].length <= 24) return true;
  let a = e.parent;
  for (let depth = 0; a && depth < 3; depth++, a = a.parent)
    if (/(action_bar|toolbar|app_bar)$/i.test(a.resourceId)) return height(box) >= 80;
  return false;
}

/** A summary: a TextView after another TextView in the same container. */
function isSecondary(e: UiElement): boolean {
  const siblings = e.parent?.children ?? [];
  const texts = siblings.filter((s) => roleOf(s) === 'text' && s.text !== '');
  return texts.length > 1 && texts[0] !== e;
}

function paintText(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  const text = shownLabel(e);
  if (text === '') return;
  const h = height(box);
  let style: TextStyle;
  if (isHeadline(e, box)) style = { size: Math.min(h * 0.5, 160), colour: textColour(p, e), maxLines: 2 };
  else if (isSecondary(e)) style = { size: Math.min(TEXT.secondary, h * 0.8), colour: textColour(p, e, true) };
  else style = { size: Math.min(TEXT.body, h * 0.8), colour: textColour(p, e) };
  drawText(p.ctx, text, box, clip, style);
}

function paintTab(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  const { ctx } = p;
  const label = e.contentDesc.replace(TAB_SUFFIX, '');
  const cx = (box.left + box.right) / 2;
  const pillH = Math.min(32 * DP, height(box) * 0.4);
  const pillTop = box.top + height(box) * 0.16;
  const pill: Rect = { left: cx - pillH, top: pillTop, right: cx + pillH, bottom: pillTop + pillH };
  if (e.selected) fillRound(ctx, pill, pillH / 2, COLOURS.secondaryContainer);
  ctx.fillStyle = e.selected ? COLOURS.onPrimaryContainer : COLOURS.onSurfaceVariant;
  ctx.beginPath();
  ctx.roundRect(cx - pillH * 0.33, pillTop + pillH * 0.17, pillH * 0.66, pillH * 0.66, pillH * 0.12);
  ctx.fill();
  drawText(ctx, label, { ...box, top: pill.bottom + 4 * DP }, clip, {
    size: Math.min(TEXT.small, height(box) * 0.2),
    weight: e.selected ? 500 : 400,
    colour: textColour(p, e, !e.selected),
    align: 'center',
    valign: 'top',
    maxLines: 1,
  });
}

/** A Flutter/Compose node: its label is what it shows. Clickable ones are cards, first line bold. */
function paintSemantics(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  const text = shownLabel(e);
  const padX = box.left <= 0 ? 16 * DP : e.clickable ? 16 * DP : 0;
  if (e.clickable && !p.onWallpaper) {
    fillRound(p.ctx, box, 12 * DP, e.selected ? COLOURS.secondaryContainer : COLOURS.surfaceContainer);
    const [first = '', ...rest] = text.split('\n');
    if (rest.length === 0) {
      drawText(p.ctx, first, box, clip, { size: TEXT.body, weight: 500, colour: textColour(p, e), padX });
      return;
    }
    const mid = box.top + height(box) * 0.5;
    drawText(p.ctx, first, { ...box, top: box.top + 8 * DP, bottom: mid }, clip, {
      size: TEXT.body,
      weight: 500,
      colour: textColour(p, e),
      padX,
      maxLines: 1,
    });
    drawText(p.ctx, rest.join('\n'), { ...box, top: mid, bottom: box.bottom - 8 * DP }, clip, {
      size: TEXT.secondary,
      colour: textColour(p, e, true),
      padX,
    });
    return;
  }
  const headline = height(box) >= 120 && !text.includes('\n') && [...text].length <= 32;
  drawText(p.ctx, text, box, clip, {
    size: headline ? Math.min(22 * DP, height(box) * 0.5) : Math.min(TEXT.body, height(box) * 0.8),
    colour: textColour(p, e),
    padX,
  });
}

function paintContainer(p: PaintContext, e: UiElement, box: Rect): void {
  const { ctx } = p;
  if (e.clickable && /search/i.test(e.resourceId) && !p.onWallpaper) {
    fillRound(ctx, box, height(box) / 2, COLOURS.surfaceContainerHigh);
    return;
  }
  if (e.children.some((c) => roleOf(c) === 'tab')) {
    ctx.fillStyle = COLOURS.surfaceContainer;
    ctx.fillRect(box.left, box.top, width(box), height(box));
    return;
  }
  if (e.selected && !p.onWallpaper) fillRound(ctx, box, 12 * DP, COLOURS.secondaryContainer);
  // A row of a list: a divider under it, from where its text starts.
  if (e.clickable && e.parent?.scrollable === true && !p.onWallpaper) {
    const lefts: number[] = [];
    const walk = (n: UiElement): void => {
      if (n !== e && n.text !== '') lefts.push(n.fullBounds.left);
      for (const c of n.children) walk(c);
    };
    walk(e);
    const textLeft = lefts.length > 0 ? Math.min(...lefts) : box.left + 16 * DP;
    ctx.fillStyle = COLOURS.divider;
    ctx.fillRect(textLeft, box.bottom - DP, box.right - textLeft, DP);
  }
}

/** Paints `e` (not its children). */
export function paintNode(p: PaintContext, e: UiElement): void {
  const box = e.fullBounds;
  const clip = e.bounds;
  if (width(clip) <= 0 || height(clip) <= 0) return;
  const { ctx } = p;
  ctx.save();
  try {
    ctx.beginPath();
    ctx.rect(clip.left, clip.top, width(clip), height(clip));
    ctx.clip();
    paintRole(p, e, box, clip);
    paintDrawn(p, e, box, clip);
  } finally {
    ctx.restore();
  }
}

function paintRole(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  switch (roleOf(e)) {
    case 'field':
      paintField(p, e, box, clip);
      break;
    case 'switch':
      paintSwitch(p, e, box, clip);
      break;
    case 'checkbox':
      paintCheck(p, e, box, clip, false);
      break;
    case 'radio':
      paintCheck(p, e, box, clip, true);
      break;
    case 'button':
      paintButton(p, e, box, clip);
      break;
    case 'card':
      if (!p.onWallpaper)
        fillRound(
          p.ctx,
          box,
          Math.min(12 * DP, height(box) / 2),
          e.enabled ? COLOURS.surfaceContainer : COLOURS.surfaceContainerHighest,
        );
      break;
    case 'iconButton':
      paintIconButton(p, e, box, clip);
      break;
    case 'image':
      paintImage(p, e, box, clip);
      break;
    case 'text':
      paintText(p, e, box, clip);
      break;
    case 'appIcon':
      paintAppIcon(p, e, box, clip);
      break;
    case 'tab':
      paintTab(p, e, box, clip);
      break;
    case 'semantics':
      paintSemantics(p, e, box, clip);
      break;
    case 'container':
      paintContainer(p, e, box);
      break;
  }
}

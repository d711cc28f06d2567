/**
 * What every widget painter shares: the paint context, the text a node shows, rectangle arithmetic,
 * rounded fills and strokes, and the letter icon drawn for an image with no picture of its own.
 */
import type { Rect } from '../geometry.js';
import { passwordBullets, type UiElement } from '../uiTree.js';
import type { Context } from './fonts.js';
import { drawText } from './text.js';
import { COLOURS, tintFor } from './theme.js';

export interface PaintContext {
  readonly ctx: Context;
  /** The app draws on the launcher's wallpaper (light text, no surfaces). */
  readonly onWallpaper: boolean;
}

/**
 * What a node's text looks like on screen, from its own content rather than what it reports to
 * accessibility: a password shows one bullet per character whatever the password trait says, and
 * a field that reports its hint as its text is empty on screen (its hint is drawn in the hint colour).
 */
export function shownText(e: UiElement): string {
  if (e.password) return passwordBullets(e.editableText);
  return e.showingHint ? '' : e.text;
}

/** The label a node shows: its text, else its content-desc. */
export function shownLabel(e: UiElement): string {
  const text = shownText(e);
  return text !== '' ? text : e.contentDesc;
}

export function inset(r: Rect, dx: number, dy = dx): Rect {
  return { left: r.left + dx, top: r.top + dy, right: r.right - dx, bottom: r.bottom - dy };
}

export function width(r: Rect): number {
  return r.right - r.left;
}

export function height(r: Rect): number {
  return r.bottom - r.top;
}

export function textColour(p: PaintContext, e: UiElement, secondary = false): string {
  if (p.onWallpaper) return COLOURS.onWallpaper;
  if (!e.enabled) return COLOURS.disabled;
  return secondary ? COLOURS.onSurfaceVariant : COLOURS.onSurface;
}

export function fillRound(ctx: Context, r: Rect, radius: number, colour: string): void {
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.roundRect(r.left, r.top, width(r), height(r), Math.max(0, Math.min(radius, width(r) / 2, height(r) / 2)));
  ctx.fill();
}

export function strokeRound(ctx: Context, r: Rect, radius: number, colour: string, lineWidth: number): void {
  ctx.strokeStyle = colour;
  ctx.lineWidth = lineWidth;
  ctx.beginPath();
  const h = lineWidth / 2;
  ctx.roundRect(
    r.left + h,
    r.top + h,
    width(r) - lineWidth,
    height(r) - lineWidth,
    Math.max(0, Math.min(radius, width(r) / 2, height(r) / 2)),
  );
  ctx.stroke();
}

/** The first text after `e` inside its parent (an icon's row title, an app header's name). */
export function labelNear(e: UiElement): string {
  if (e.contentDesc !== '') return e.contentDesc;
  const parent = e.parent;
  if (!parent) return '';
  let seen = false;
  let found = '';
  const walk = (n: UiElement): void => {
    if (found !== '') return;
    if (n === e) seen = true;
    else if (seen && n.text !== '' && !n.password) found = n.text;
    for (const c of n.children) walk(c);
  };
  walk(parent);
  return found;
}

function initial(label: string): string {
  const first = [...label.trim()][0];
  return first ? first.toLocaleUpperCase('en') : '';
}

export function letterIcon(p: PaintContext, box: Rect, clip: Rect, label: string): void {
  const d = Math.min(width(box), height(box));
  if (d < 16) return;
  const cx = (box.left + box.right) / 2;
  const cy = (box.top + box.bottom) / 2;
  p.ctx.fillStyle = tintFor(label);
  p.ctx.beginPath();
  p.ctx.arc(cx, cy, d / 2, 0, Math.PI * 2);
  p.ctx.fill();
  const letter = initial(label);
  if (letter !== '')
    drawText(p.ctx, letter, { left: cx - d / 2, top: cy - d / 2, right: cx + d / 2, bottom: cy + d / 2 }, clip, {
      size: d * 0.5,
      weight: 500,
      colour: '#FFFFFF',
      align: 'center',
      maxLines: 1,
    });
}

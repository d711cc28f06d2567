/**
 * Text in a box, as a TextView lays it out: wrapped at spaces into as many lines as the box holds,
 * shrunk a little when it still does not fit (the scenario's bounds are fixed, a real row would grow),
 * and ellipsized with "…" as the last resort. Layouts are cached: the same screen lays out the same
 * strings again after every tap.
 */
import type { Rect } from '../geometry.js';
import { CAP_HEIGHT, font, printable, type Context } from './fonts.js';

export interface TextStyle {
  /** Preferred size in px. */
  readonly size: number;
  readonly weight?: 400 | 500;
  readonly colour: string;
  readonly align?: 'left' | 'center' | 'right';
  readonly valign?: 'center' | 'top';
  /** Most lines to wrap into (default: as many as fit). */
  readonly maxLines?: number;
  /**
   * Smallest scale of `size` before the text is ellipsized instead (default 0.85: a little smaller,
   * then "…", as a phone never shrinks text far).
   */
  readonly minScale?: number;
  /** Horizontal padding inside the box, px. */
  readonly padX?: number;
  /** Top padding when `valign` is top, px. */
  readonly padTop?: number;
}

interface Layout {
  readonly size: number;
  readonly lineHeight: number;
  readonly lines: readonly string[];
}

const LINE_HEIGHT = 1.25;
const SCALES = [1, 0.92, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6];
const layouts = new Map<string, Layout>();

function measure(ctx: Context, text: string): number {
  return ctx.measureText(text).width;
}

/** Greedy wrap at spaces; a word wider than the box is broken between characters. */
function wrap(ctx: Context, paragraph: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/(?<= )/)) {
    const candidate = line + word;
    if (line === '' || measure(ctx, candidate.trimEnd()) <= width) {
      line = candidate;
    } else {
      lines.push(line.trimEnd());
      line = word;
    }
    while (measure(ctx, line.trimEnd()) > width && [...line].length > 1) {
      const chars = [...line];
      let cut = chars.length - 1;
      while (cut > 1 && measure(ctx, chars.slice(0, cut).join('')) > width) cut--;
      lines.push(chars.slice(0, cut).join(''));
      line = chars.slice(cut).join('');
    }
  }
  lines.push(line.trimEnd());
  return lines;
}

function ellipsize(ctx: Context, text: string, width: number): string {
  if (measure(ctx, text) <= width) return text;
  const chars = [...text];
  let keep = chars.length;
  while (keep > 0 && measure(ctx, `${chars.slice(0, keep).join('').trimEnd()}…`) > width) keep--;
  return `${chars.slice(0, keep).join('').trimEnd()}…`;
}

function layout(ctx: Context, text: string, width: number, height: number, style: TextStyle): Layout {
  const key = `${text}\u0000${width}\u0000${height}\u0000${style.size}\u0000${style.weight ?? 400}\u0000${style.maxLines ?? 0}\u0000${style.minScale ?? 0.85}`;
  const hit = layouts.get(key);
  if (hit) return hit;
  const paragraphs = text.split('\n');
  const minScale = style.minScale ?? 0.85;
  let result: Layout | undefined;
  for (const scale of SCALES) {
    if (scale < minScale - 1e-9) break;
    const size = style.size * scale;
    const lineHeight = size * LINE_HEIGHT;
    ctx.font = font(size, style.weight);
    const fit = Math.max(1, Math.min(style.maxLines ?? Infinity, Math.floor((height + 0.25 * size) / lineHeight)));
    const lines = paragraphs.flatMap((p) => wrap(ctx, p, width));
    result = { size, lineHeight, lines };
    if (lines.length <= fit && lines.every((l) => measure(ctx, l) <= width)) break;
    result = undefined;
  }
  if (!result) {
    // Nothing fits at the smallest scale: keep the first lines that do and end the last with "…".
    const size = style.size * Math.max(minScale, SCALES[SCALES.length - 1] ?? 0.6);
    const lineHeight = size * LINE_HEIGHT;
    ctx.font = font(size, style.weight);
    const fit = Math.max(1, Math.min(style.maxLines ?? Infinity, Math.floor((height + 0.25 * size) / lineHeight)));
    const all = paragraphs.flatMap((p) => wrap(ctx, p, width));
    const kept = all.slice(0, fit);
    const last = kept.length - 1;
    kept[last] = ellipsize(ctx, all.length > fit ? `${kept[last] ?? ''}…` : (kept[last] ?? ''), width);
    result = { size, lineHeight, lines: kept };
  }
  if (layouts.size > 4096) layouts.clear();
  layouts.set(key, result);
  return result;
}

/**
 * Draws `text` in `box` (the node's laid-out bounds), cut at `clip` (its visible bounds).
 * Returns the right edge of the last line (for a cursor), or null when nothing was drawn.
 */
export function drawText(
  ctx: Context,
  raw: string,
  box: Rect,
  clip: Rect,
  style: TextStyle,
): { x: number; y: number; size: number } | null {
  const text = printable(raw);
  if (text.trim() === '') return null;
  const padX = style.padX ?? 0;
  const width = box.right - box.left - 2 * padX;
  const height = box.bottom - box.top - (style.valign === 'top' ? 2 * (style.padTop ?? 0) : 0);
  if (width <= 4 || height <= 4) return null;
  const { size, lineHeight, lines } = layout(ctx, text, width, height, style);
  const blockHeight = lines.length * lineHeight;
  const top =
    style.valign === 'top' ? box.top + (style.padTop ?? 0) : box.top + (box.bottom - box.top - blockHeight) / 2;
  const align = style.align ?? 'left';
  const x = align === 'left' ? box.left + padX : align === 'right' ? box.right - padX : (box.left + box.right) / 2;
  ctx.save();
  ctx.beginPath();
  ctx.rect(clip.left, clip.top, clip.right - clip.left, clip.bottom - clip.top);
  ctx.clip();
  ctx.font = font(size, style.weight);
  ctx.fillStyle = style.colour;
  ctx.textAlign = align;
  ctx.textBaseline = 'alphabetic';
  let endX = x;
  let baseline = top;
  lines.forEach((line, i) => {
    baseline = top + i * lineHeight + lineHeight / 2 + (CAP_HEIGHT * size) / 2;
    ctx.fillText(line, x, baseline);
    const w = measure(ctx, line);
    endX = align === 'left' ? x + w : align === 'right' ? x : x + w / 2;
  });
  ctx.restore();
  return { x: endX, y: baseline, size };
}

/** The width `raw` takes at `size`. */
export function textWidth(ctx: Context, raw: string, size: number, weight: 400 | 500 = 400): number {
  ctx.font = font(size, weight);
  return measure(ctx, printable(raw));
}

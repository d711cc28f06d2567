/**
 * The few Material symbols a phone screen shows, drawn as strokes (Roboto has no icon glyphs):
 * arrows, plus, search, the status-bar and navigation-bar symbols, the keyboard's modifier keys.
 * Each takes a centre and a size (the symbol's box edge in px).
 */
import type { Context } from './fonts.js';

function stroke(ctx: Context, colour: string, width: number, draw: () => void): void {
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  draw();
  ctx.stroke();
  ctx.restore();
}

export function arrowBack(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const h = size / 2;
  stroke(ctx, colour, size / 10, () => {
    ctx.moveTo(cx + h * 0.75, cy);
    ctx.lineTo(cx - h * 0.75, cy);
    ctx.moveTo(cx - h * 0.05, cy - h * 0.7);
    ctx.lineTo(cx - h * 0.75, cy);
    ctx.lineTo(cx - h * 0.05, cy + h * 0.7);
  });
}

export function plus(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const h = size / 2;
  stroke(ctx, colour, size / 10, () => {
    ctx.moveTo(cx - h * 0.7, cy);
    ctx.lineTo(cx + h * 0.7, cy);
    ctx.moveTo(cx, cy - h * 0.7);
    ctx.lineTo(cx, cy + h * 0.7);
  });
}

export function search(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const r = size * 0.28;
  stroke(ctx, colour, size / 10, () => {
    ctx.arc(cx - size * 0.08, cy - size * 0.08, r, 0, Math.PI * 2);
    ctx.moveTo(cx - size * 0.08 + r * 0.72, cy - size * 0.08 + r * 0.72);
    ctx.lineTo(cx + size * 0.38, cy + size * 0.38);
  });
}

export function moreVertical(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  ctx.save();
  ctx.fillStyle = colour;
  for (const dy of [-0.3, 0, 0.3]) {
    ctx.beginPath();
    ctx.arc(cx, cy + dy * size, size * 0.07, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

export function check(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const h = size / 2;
  stroke(ctx, colour, size / 8, () => {
    ctx.moveTo(cx - h * 0.6, cy + h * 0.02);
    ctx.lineTo(cx - h * 0.15, cy + h * 0.45);
    ctx.lineTo(cx + h * 0.65, cy - h * 0.45);
  });
}

export function chevronDown(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const h = size / 2;
  stroke(ctx, colour, size / 10, () => {
    ctx.moveTo(cx - h * 0.6, cy - h * 0.3);
    ctx.lineTo(cx, cy + h * 0.3);
    ctx.lineTo(cx + h * 0.6, cy - h * 0.3);
  });
}

/** Navigation bar: back (a triangle pointing left), home (a circle), recents (a rounded square). */
export function navBack(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const h = size / 2;
  stroke(ctx, colour, size / 12, () => {
    ctx.moveTo(cx + h * 0.55, cy - h * 0.7);
    ctx.lineTo(cx + h * 0.55, cy + h * 0.7);
    ctx.lineTo(cx - h * 0.65, cy);
    ctx.closePath();
  });
}

export function navHome(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  stroke(ctx, colour, size / 12, () => ctx.arc(cx, cy, size * 0.36, 0, Math.PI * 2));
}

export function navRecents(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const h = size * 0.33;
  stroke(ctx, colour, size / 12, () => ctx.roundRect(cx - h, cy - h, 2 * h, 2 * h, size * 0.06));
}

/** Status bar: Wi-Fi (a full fan), cellular signal (a full triangle), battery (full). */
export function wifi(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  ctx.save();
  ctx.fillStyle = colour;
  ctx.beginPath();
  const bottom = cy + size * 0.38;
  ctx.moveTo(cx, bottom);
  ctx.arc(cx, bottom, size * 0.8, Math.PI * 1.25, Math.PI * 1.75);
  ctx.closePath();
  ctx.fill();
  ctx.restore();
}

export function signal(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const h = size * 0.4;
  ctx.save();
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.moveTo(cx + h, cy - h);
  ctx.lineTo(cx + h, cy + h);
  ctx.lineTo(cx - h, cy + h);
  ctx.closePath();
  ctx.fill();
  ctx.restore();
}

export function battery(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const w = size * 0.42;
  const h = size * 0.8;
  ctx.save();
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.roundRect(cx - w / 2, cy - h / 2 + size * 0.08, w, h - size * 0.08, size * 0.06);
  ctx.fill();
  ctx.fillRect(cx - w * 0.25, cy - h / 2, w * 0.5, size * 0.1);
  ctx.restore();
}

/** Keyboard: shift (an outlined up arrow), backspace (a tag with a cross), enter (a return arrow). */
export function shift(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const h = size / 2;
  stroke(ctx, colour, size / 14, () => {
    ctx.moveTo(cx, cy - h * 0.75);
    ctx.lineTo(cx + h * 0.7, cy);
    ctx.lineTo(cx + h * 0.32, cy);
    ctx.lineTo(cx + h * 0.32, cy + h * 0.65);
    ctx.lineTo(cx - h * 0.32, cy + h * 0.65);
    ctx.lineTo(cx - h * 0.32, cy);
    ctx.lineTo(cx - h * 0.7, cy);
    ctx.closePath();
  });
}

export function backspace(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const h = size / 2;
  stroke(ctx, colour, size / 14, () => {
    ctx.moveTo(cx - h * 0.85, cy);
    ctx.lineTo(cx - h * 0.4, cy - h * 0.55);
    ctx.lineTo(cx + h * 0.85, cy - h * 0.55);
    ctx.lineTo(cx + h * 0.85, cy + h * 0.55);
    ctx.lineTo(cx - h * 0.4, cy + h * 0.55);
    ctx.closePath();
    ctx.moveTo(cx - h * 0.05, cy - h * 0.25);
    ctx.lineTo(cx + h * 0.45, cy + h * 0.25);
    ctx.moveTo(cx + h * 0.45, cy - h * 0.25);
    ctx.lineTo(cx - h * 0.05, cy + h * 0.25);
  });
}

export function enter(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const h = size / 2;
  stroke(ctx, colour, size / 12, () => {
    ctx.moveTo(cx + h * 0.65, cy - h * 0.6);
    ctx.lineTo(cx + h * 0.65, cy + h * 0.1);
    ctx.lineTo(cx - h * 0.65, cy + h * 0.1);
    ctx.moveTo(cx - h * 0.25, cy - h * 0.3);
    ctx.lineTo(cx - h * 0.65, cy + h * 0.1);
    ctx.lineTo(cx - h * 0.25, cy + h * 0.5);
  });
}

export function smiley(ctx: Context, cx: number, cy: number, size: number, colour: string): void {
  const r = size * 0.38;
  stroke(ctx, colour, size / 14, () => {
    ctx.arc(cx, cy, r, 0, Math.PI * 2);
    ctx.moveTo(cx + r * 0.55, cy + r * 0.15);
    ctx.arc(cx, cy + r * 0.15, r * 0.55, 0, Math.PI);
  });
  ctx.save();
  ctx.fillStyle = colour;
  for (const dx of [-0.35, 0.35]) {
    ctx.beginPath();
    ctx.arc(cx + dx * r, cy - r * 0.25, size * 0.04, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

/** Draws the symbol a content-desc names, or returns false when it names none of these. */
export function symbolFor(ctx: Context, label: string, cx: number, cy: number, size: number, colour: string): boolean {
  const l = label.toLowerCase();
  if (/navigate up|^back$|go back/.test(l)) arrowBack(ctx, cx, cy, size, colour);
  else if (/^(add|create|new)\b|\bnew\b/.test(l)) plus(ctx, cx, cy, size, colour);
  else if (/search/.test(l)) search(ctx, cx, cy, size, colour);
  else if (/more options|^more$|menu/.test(l)) moreVertical(ctx, cx, cy, size, colour);
  else return false;
  return true;
}

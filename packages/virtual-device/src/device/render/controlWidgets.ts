/** Form controls: text fields (text, hint, cursor), switches, check boxes, radio buttons and buttons. */
import type { Rect } from '../geometry.js';
import type { UiElement } from '../uiTree.js';
import { check } from './icons.js';
import { drawText, type TextStyle } from './text.js';
import { COLOURS, DP, TEXT } from './theme.js';
import { shortClass } from './widgetRole.js';
import {
  fillRound,
  height,
  inset,
  shownLabel,
  shownText,
  strokeRound,
  textColour,
  width,
  type PaintContext,
} from './widgetPaint.js';

export function paintField(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  const { ctx } = p;
  const focused = e.focused;
  strokeRound(
    ctx,
    box,
    4 * DP,
    !e.enabled ? COLOURS.disabled : focused ? COLOURS.primary : COLOURS.outline,
    focused ? 2 * DP : 1 * DP,
  );
  const value = shownText(e);
  const multiLine = height(box) > 3.2 * TEXT.body;
  const base: Omit<TextStyle, 'colour'> = multiLine
    ? { size: TEXT.body, valign: 'top', padX: 16 * DP, padTop: 16 * DP, minScale: 1 }
    : { size: Math.min(TEXT.body, height(box) * 0.6), padX: 16 * DP, maxLines: 1, minScale: 1 };
  const shown = value !== '' ? drawText(ctx, value, box, clip, { ...base, colour: textColour(p, e) }) : null;
  if (value === '' && e.hint !== '') drawText(ctx, e.hint, box, clip, { ...base, colour: COLOURS.onSurfaceVariant });
  if (!focused) return;
  // The cursor: after the text, or at the start of an empty field (before its hint).
  const size = shown?.size ?? base.size;
  const x = Math.min(shown ? shown.x + 2 : box.left + 16 * DP, box.right - 16 * DP);
  const baseline = shown?.y ?? (multiLine ? box.top + 16 * DP + size * 0.95 : (box.top + box.bottom) / 2 + size * 0.36);
  ctx.fillStyle = COLOURS.primary;
  ctx.fillRect(x, baseline - size * 0.85, Math.max(2, 0.9 * DP), size * 1.05);
}

function paintSwitchTrack(p: PaintContext, e: UiElement, area: Rect): void {
  const { ctx } = p;
  // Controls are sized in the device's own dp: on a low-density tablet a switch is smaller than
  // this renderer's 420 dpi margins, and nothing smaller than a pixel is drawn.
  if (width(area) < 1 || height(area) < 1) return;
  let trackH = Math.min(height(area) * 0.9, 32 * DP);
  let trackW = trackH * 1.625;
  if (trackW > width(area)) {
    trackW = width(area);
    trackH = trackW / 1.625;
  }
  const cx = (area.left + area.right) / 2;
  const cy = (area.top + area.bottom) / 2;
  const track: Rect = { left: cx - trackW / 2, top: cy - trackH / 2, right: cx + trackW / 2, bottom: cy + trackH / 2 };
  if (e.checked) {
    fillRound(ctx, track, trackH / 2, e.enabled ? COLOURS.primary : COLOURS.disabled);
    ctx.fillStyle = COLOURS.onPrimary;
    ctx.beginPath();
    ctx.arc(track.right - trackH / 2, cy, trackH * 0.36, 0, Math.PI * 2);
    ctx.fill();
    check(ctx, track.right - trackH / 2, cy, trackH * 0.42, e.enabled ? COLOURS.primary : COLOURS.disabled);
  } else {
    fillRound(ctx, track, trackH / 2, COLOURS.surfaceContainerHighest);
    strokeRound(ctx, track, trackH / 2, COLOURS.outline, 2 * DP);
    ctx.fillStyle = COLOURS.outline;
    ctx.beginPath();
    ctx.arc(track.left + trackH / 2, cy, trackH * 0.24, 0, Math.PI * 2);
    ctx.fill();
  }
}

/** A checkable widget wider than it is tall carries its label; the control sits at its end (or start, for a check box). */
function splitControl(box: Rect, controlWidth: number, atEnd: boolean): { control: Rect; label: Rect } {
  if (atEnd)
    return { control: { ...box, left: box.right - controlWidth }, label: { ...box, right: box.right - controlWidth } };
  return { control: { ...box, right: box.left + controlWidth }, label: { ...box, left: box.left + controlWidth } };
}

function controlLabel(p: PaintContext, e: UiElement, label: Rect, clip: Rect, padX: number): void {
  const text = shownLabel(e);
  if (text !== '')
    drawText(p.ctx, text, label, clip, {
      size: Math.min(TEXT.body, height(label) * 0.7),
      colour: textColour(p, e),
      padX,
    });
}

export function paintSwitch(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  if (width(box) > 2.5 * height(box)) {
    const { control, label } = splitControl(box, Math.min(width(box) / 3, 52 * DP + 24 * DP), true);
    controlLabel(p, e, label, clip, 16 * DP);
    // The margin shrinks with a control narrower than the margins themselves (a 160 dpi tablet's switch).
    paintSwitchTrack(p, e, inset(control, Math.min(12 * DP, width(control) / 4), 0));
  } else paintSwitchTrack(p, e, box);
}

export function paintCheck(p: PaintContext, e: UiElement, box: Rect, clip: Rect, radio: boolean): void {
  const { ctx } = p;
  const side = Math.max(0, Math.min(18 * DP, height(box) * 0.8, width(box)));
  const wide = width(box) > 2 * height(box);
  const atEnd = shortClass(e) === 'CheckedTextView' || !/CheckBox$|RadioButton$/.test(shortClass(e));
  const slot = wide ? 48 * DP : width(box);
  const { control, label } = wide ? splitControl(box, slot, atEnd) : { control: box, label: null };
  if (label) controlLabel(p, e, label, clip, atEnd ? 16 * DP : 0);
  const cx = (control.left + control.right) / 2;
  const cy = (control.top + control.bottom) / 2;
  const colour = !e.enabled ? COLOURS.disabled : e.checked ? COLOURS.primary : COLOURS.onSurfaceVariant;
  if (radio) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2 * DP;
    ctx.beginPath();
    ctx.arc(cx, cy, Math.max(0, side / 2 - DP), 0, Math.PI * 2);
    ctx.stroke();
    if (e.checked) {
      ctx.fillStyle = colour;
      ctx.beginPath();
      ctx.arc(cx, cy, side / 4, 0, Math.PI * 2);
      ctx.fill();
    }
    return;
  }
  const square: Rect = { left: cx - side / 2, top: cy - side / 2, right: cx + side / 2, bottom: cy + side / 2 };
  if (e.checked) {
    fillRound(ctx, square, 2 * DP, colour);
    check(ctx, cx, cy, side * 0.8, COLOURS.onPrimary);
  } else strokeRound(ctx, square, 2 * DP, colour, 2 * DP);
}

export function paintButton(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  const label = shownLabel(e);
  const pill = inset(box, 0, Math.min(6 * DP, height(box) * 0.1));
  fillRound(p.ctx, pill, height(pill) / 2, e.enabled ? COLOURS.primary : COLOURS.surfaceContainerHighest);
  if (label !== '')
    drawText(p.ctx, label, pill, clip, {
      size: Math.min(TEXT.label, height(pill) * 0.6),
      weight: 500,
      colour: e.enabled ? COLOURS.onPrimary : COLOURS.disabled,
      align: 'center',
      padX: 12 * DP,
      maxLines: 2,
    });
}

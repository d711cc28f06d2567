/**
 * One node of the UI tree as the widget its class and state say it is: text fields with their text,
 * hint or password bullets, switches and check boxes in their checked state, buttons, icons, list
 * rows with dividers, Flutter/Compose semantics nodes (whose content-desc is their visible label)
 * and launcher icons. Every node is drawn at its laid-out bounds and cut at its visible bounds, so
 * a row scrolled half out of its list shows half.
 */
import type { Rect } from '../geometry.js';
import { passwordBullets, type UiElement } from '../uiTree.js';
import type { Context } from './fonts.js';
import { check, search, symbolFor } from './icons.js';
import { drawText, type TextStyle } from './text.js';
import { COLOURS, DP, TEXT, tintFor } from './theme.js';

export type Role =
  | 'field'
  | 'switch'
  | 'checkbox'
  | 'radio'
  | 'button'
  | 'card'
  | 'iconButton'
  | 'image'
  | 'text'
  | 'appIcon'
  | 'tab'
  | 'semantics'
  | 'container';

export interface PaintContext {
  readonly ctx: Context;
  /** The app draws on the launcher's wallpaper (light text, no surfaces). */
  readonly onWallpaper: boolean;
}

/** Flutter's tab semantics append this to the tab's label; it is read out, not shown. */
const TAB_SUFFIX = /\nTab \d+ of \d+$/;

function shortClass(e: UiElement): string {
  return e.className.slice(e.className.lastIndexOf('.') + 1);
}

function isLeaf(e: UiElement): boolean {
  return e.children.length === 0;
}

/**
 * What a node's text looks like on screen, from its own content rather than what it reports to
 * accessibility: a password shows one bullet per character whatever the password trait says, and
 * a field that reports its hint as its text is empty on screen (its hint is drawn in the hint colour).
 */
function shownText(e: UiElement): string {
  if (e.password) return passwordBullets(e.editableText);
  return e.showingHint ? '' : e.text;
}

/** The label a node shows: its text, else its content-desc. */
function shownLabel(e: UiElement): string {
  const text = shownText(e);
  return text !== '' ? text : e.contentDesc;
}

function hasLabelledDescendant(e: UiElement): boolean {
  return e.children.some((c) => c.text !== '' || c.contentDesc !== '' || hasLabelledDescendant(c));
}

export function roleOf(e: UiElement): Role {
  const cls = shortClass(e);
  if (/EditText$|AutoCompleteTextView$/.test(cls)) return 'field';
  if (/Switch/.test(cls) || cls === 'ToggleButton') return 'switch';
  if (/CheckBox$|CheckedTextView$/.test(cls)) return 'checkbox';
  if (/RadioButton$/.test(cls)) return 'radio';
  if (/ImageButton$|FloatingActionButton$/.test(cls)) return 'iconButton';
  // A Compose/Flutter "button" that holds its own texts is a clickable surface (a card), not a label on a pill.
  if (/Button$/.test(cls)) return hasLabelledDescendant(e) ? 'card' : 'button';
  if (/Image(View)?$/.test(cls)) return 'image';
  if (/TextView$|Chip$/.test(cls)) return /launcher/i.test(e.package) && e.clickable ? 'appIcon' : 'text';
  if (e.checkable) return 'checkbox';
  if (isLeaf(e) && TAB_SUFFIX.test(e.contentDesc)) return 'tab';
  if (isLeaf(e) && (e.text !== '' || e.contentDesc !== '')) return 'semantics';
  return 'container';
}

function inset(r: Rect, dx: number, dy = dx): Rect {
  return { left: r.left + dx, top: r.top + dy, right: r.right - dx, bottom: r.bottom - dy };
}

function width(r: Rect): number {
  return r.right - r.left;
}

function height(r: Rect): number {
  return r.bottom - r.top;
}

function textColour(p: PaintContext, e: UiElement, secondary = false): string {
  if (p.onWallpaper) return COLOURS.onWallpaper;
  if (!e.enabled) return COLOURS.disabled;
  return secondary ? COLOURS.onSurfaceVariant : COLOURS.onSurface;
}

function fillRound(ctx: Context, r: Rect, radius: number, colour: string): void {
  ctx.fillStyle = colour;
  ctx.beginPath();
  ctx.roundRect(r.left, r.top, width(r), height(r), Math.max(0, Math.min(radius, width(r) / 2, height(r) / 2)));
  ctx.fill();
}

function strokeRound(ctx: Context, r: Rect, radius: number, colour: string, lineWidth: number): void {
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
function labelNear(e: UiElement): string {
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

function letterIcon(p: PaintContext, box: Rect, clip: Rect, label: string): void {
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

function paintField(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
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

function paintSwitch(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
  if (width(box) > 2.5 * height(box)) {
    const { control, label } = splitControl(box, Math.min(width(box) / 3, 52 * DP + 24 * DP), true);
    controlLabel(p, e, label, clip, 16 * DP);
    // The margin shrinks with a control narrower than the margins themselves (a 160 dpi tablet's switch).
    paintSwitchTrack(p, e, inset(control, Math.min(12 * DP, width(control) / 4), 0));
  } else paintSwitchTrack(p, e, box);
}

function paintCheck(p: PaintContext, e: UiElement, box: Rect, clip: Rect, radio: boolean): void {
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

function paintButton(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
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

function paintIconButton(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
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

function paintImage(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
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

function paintAppIcon(p: PaintContext, e: UiElement, box: Rect, clip: Rect): void {
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

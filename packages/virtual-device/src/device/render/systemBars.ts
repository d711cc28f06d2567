/**
 * The system UI around the app: the status bar (clock, Wi-Fi, signal, battery) and the
 * three-button navigation bar, whose back button turns into "hide keyboard" while the IME is open,
 * as on Android 10 and later. The clock always reads 10:42 and the battery is full (as
 * `dumpsys battery` says), so the same screen always gives the same bytes.
 */
import type { Rect } from '../geometry.js';
import type { Context } from './fonts.js';
import { battery, chevronDown, navBack, navHome, navRecents, signal, wifi } from './icons.js';
import { drawText } from './text.js';
import { TEXT } from './theme.js';

export const STATUS_BAR_CLOCK = '10:42';

export function drawStatusBar(ctx: Context, bar: Rect, colour: string): void {
  const height = bar.bottom - bar.top;
  drawText(ctx, STATUS_BAR_CLOCK, { ...bar, left: bar.left + 63, right: bar.left + 400 }, bar, {
    size: Math.min(TEXT.statusBar, height * 0.55),
    weight: 500,
    colour,
    maxLines: 1,
  });
  const cy = bar.top + height / 2;
  const size = height * 0.55;
  wifi(ctx, bar.right - 200, cy, size, colour);
  signal(ctx, bar.right - 140, cy, size, colour);
  battery(ctx, bar.right - 84, cy, size, colour);
}

export function drawNavigationBar(ctx: Context, bar: Rect, colour: string, imeOpen: boolean): void {
  const cy = (bar.top + bar.bottom) / 2;
  const size = Math.min(60, (bar.bottom - bar.top) * 0.42);
  const width = bar.right - bar.left;
  if (imeOpen) chevronDown(ctx, bar.left + width * 0.25, cy, size, colour);
  else navBack(ctx, bar.left + width * 0.25, cy, size, colour);
  navHome(ctx, bar.left + width * 0.5, cy, size, colour);
  navRecents(ctx, bar.left + width * 0.75, cy, size, colour);
}

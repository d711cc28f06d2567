/**
 * The on-screen keyboard while the IME is shown: a Gboard-like QWERTY in its light theme, filling
 * the IME frame `dumpsys window` reports (the navigation bar's buttons are drawn over its bottom).
 */
import type { Rect } from '../geometry.js';
import type { Context } from './fonts.js';
import { backspace, enter, shift, smiley } from './icons.js';
import { drawText } from './text.js';
import { COLOURS, DP, TEXT } from './theme.js';

type Key =
  | { readonly label: string; readonly units: number; readonly kind: 'char' | 'modifier' }
  | { readonly symbol: 'shift' | 'backspace' | 'enter' | 'emoji' | 'space'; readonly units: number };

const letters = (s: string): Key[] => [...s].map((label) => ({ label, units: 1, kind: 'char' as const }));

const ROWS: readonly (readonly Key[])[] = [
  letters('qwertyuiop'),
  letters('asdfghjkl'),
  [{ symbol: 'shift', units: 1.5 }, ...letters('zxcvbnm'), { symbol: 'backspace', units: 1.5 }],
  [
    { label: '?123', units: 1.5, kind: 'modifier' },
    { label: ',', units: 1, kind: 'char' },
    { symbol: 'emoji', units: 1 },
    { symbol: 'space', units: 4 },
    { label: '.', units: 1, kind: 'char' },
    { symbol: 'enter', units: 1.5 },
  ],
];

function toolbarIcons(ctx: Context, strip: Rect): void {
  const cy = (strip.top + strip.bottom) / 2;
  const size = (strip.bottom - strip.top) * 0.42;
  // Apps grid, emoji, voice input: the toolbar Gboard shows before anything is typed.
  ctx.save();
  ctx.fillStyle = COLOURS.onSurfaceVariant;
  const gx = strip.left + 80;
  for (const dx of [-1, 1])
    for (const dy of [-1, 1])
      ctx.fillRect(gx + dx * size * 0.22 - size * 0.16, cy + dy * size * 0.22 - size * 0.16, size * 0.32, size * 0.32);
  ctx.restore();
  smiley(ctx, strip.left + 230, cy, size, COLOURS.onSurfaceVariant);
  ctx.save();
  ctx.strokeStyle = COLOURS.onSurfaceVariant;
  ctx.fillStyle = COLOURS.onSurfaceVariant;
  ctx.lineWidth = size / 12;
  const mx = strip.right - 80;
  ctx.beginPath();
  ctx.roundRect(mx - size * 0.16, cy - size * 0.45, size * 0.32, size * 0.55, size * 0.16);
  ctx.fill();
  ctx.beginPath();
  ctx.arc(mx, cy - size * 0.05, size * 0.3, 0, Math.PI);
  ctx.moveTo(mx, cy + size * 0.25);
  ctx.lineTo(mx, cy + size * 0.42);
  ctx.stroke();
  ctx.restore();
}

/** Draws the keyboard into `frame`; `navigationBarHeight` px at its bottom are left for the navigation buttons. */
export function drawKeyboard(ctx: Context, frame: Rect, navigationBarHeight: number): void {
  ctx.fillStyle = COLOURS.keyboard;
  ctx.fillRect(frame.left, frame.top, frame.right - frame.left, frame.bottom - frame.top);
  const bottom = frame.bottom - navigationBarHeight;
  const height = bottom - frame.top;
  if (height < 200) return;
  const stripHeight = Math.round(height * 0.15);
  toolbarIcons(ctx, { ...frame, bottom: frame.top + stripHeight });
  const rowsTop = frame.top + stripHeight;
  const rowHeight = (bottom - rowsTop - 4 * DP) / ROWS.length;
  const unit = (frame.right - frame.left - 4 * DP) / 10;
  const gapX = 3 * DP;
  const gapY = 5 * DP;
  ROWS.forEach((row, r) => {
    const units = row.reduce((sum, k) => sum + k.units, 0);
    let x = frame.left + 2 * DP + ((10 - units) * unit) / 2;
    const top = rowsTop + r * rowHeight + gapY;
    const keyHeight = rowHeight - 2 * gapY;
    for (const key of row) {
      const box: Rect = { left: x + gapX, top, right: x + key.units * unit - gapX, bottom: top + keyHeight };
      x += key.units * unit;
      const modifier = 'symbol' in key ? key.symbol !== 'space' : key.kind === 'modifier';
      const action = 'symbol' in key && key.symbol === 'enter';
      ctx.fillStyle = action ? COLOURS.primaryContainer : modifier ? COLOURS.keyModifier : COLOURS.key;
      ctx.beginPath();
      ctx.roundRect(box.left, box.top, box.right - box.left, box.bottom - box.top, action ? keyHeight / 2 : 6 * DP);
      ctx.fill();
      const cx = (box.left + box.right) / 2;
      const cy = (box.top + box.bottom) / 2;
      const size = keyHeight * 0.42;
      if (!('symbol' in key)) {
        drawText(ctx, key.label, box, box, {
          size: key.kind === 'modifier' ? TEXT.label : TEXT.key,
          weight: key.kind === 'modifier' ? 500 : 400,
          colour: COLOURS.keyLabel,
          align: 'center',
          maxLines: 1,
        });
      } else if (key.symbol === 'shift') shift(ctx, cx, cy, size, COLOURS.keyLabel);
      else if (key.symbol === 'backspace') backspace(ctx, cx, cy, size, COLOURS.keyLabel);
      else if (key.symbol === 'enter') enter(ctx, cx, cy, size, COLOURS.onPrimaryContainer);
      else if (key.symbol === 'emoji') smiley(ctx, cx, cy, size, COLOURS.keyLabel);
    }
  });
}

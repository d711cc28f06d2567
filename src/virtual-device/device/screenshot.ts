/**
 * Screenshots drawn from the rendered tree: each labelled or actionable node is a
 * rectangle whose colour hashes its class, texts and state, and whose texts are drawn
 * as a bar code, so any navigation, text change, toggle or scroll changes the pixels.
 * Deterministic: the same screen state gives the same bytes.
 */
import { PNG } from 'pngjs';
import { NAVIGATION_BAR_HEIGHT, SCREEN_HEIGHT, SCREEN_WIDTH, STATUS_BAR_HEIGHT } from '../scenario/model.js';
import { intersect, type Rect } from './geometry.js';
import { flatten, passwordBullets, type UiElement } from './uiTree.js';

type Rgb = readonly [number, number, number];

function hash(text: string): number {
  // FNV-1a: small and stable across runs.
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function colour(seed: string, light: boolean): Rgb {
  const h = hash(seed);
  const base = light ? 150 : 40;
  const span = light ? 100 : 150;
  return [base + (h & 0xff) % span, base + ((h >>> 8) & 0xff) % span, base + ((h >>> 16) & 0xff) % span];
}

class Canvas {
  readonly png = new PNG({ width: SCREEN_WIDTH, height: SCREEN_HEIGHT, colorType: 2, inputColorType: 2, inputHasAlpha: false, bitDepth: 8 });
  private readonly full: Rect = { left: 0, top: 0, right: SCREEN_WIDTH, bottom: SCREEN_HEIGHT };

  constructor() {
    // pngjs keeps RGBA internally even for colour type 2.
    this.png.data = Buffer.alloc(SCREEN_WIDTH * SCREEN_HEIGHT * 4, 255);
  }

  fill(rect: Rect, [r, g, b]: Rgb): void {
    const clipped = intersect(rect, this.full);
    if (!clipped) return;
    const width = clipped.right - clipped.left;
    const row = Buffer.alloc(width * 4);
    for (let x = 0; x < width; x++) {
      row[x * 4] = r;
      row[x * 4 + 1] = g;
      row[x * 4 + 2] = b;
      row[x * 4 + 3] = 255;
    }
    for (let y = clipped.top; y < clipped.bottom; y++) row.copy(this.png.data, (y * SCREEN_WIDTH + clipped.left) * 4);
  }

  frame(rect: Rect, c: Rgb, w = 3): void {
    this.fill({ ...rect, bottom: Math.min(rect.bottom, rect.top + w) }, c);
    this.fill({ ...rect, top: Math.max(rect.top, rect.bottom - w) }, c);
    this.fill({ ...rect, right: Math.min(rect.right, rect.left + w) }, c);
    this.fill({ ...rect, left: Math.max(rect.left, rect.right - w) }, c);
  }

  /** Texts as bars: one bar per character, its height and shade from the code point. */
  barcode(rect: Rect, text: string, c: Rgb): void {
    const height = rect.bottom - rect.top;
    if (height < 12) return;
    let x = rect.left + 10;
    for (const ch of text) {
      if (x + 4 > rect.right - 6) break;
      const code = ch.codePointAt(0) ?? 0;
      const barHeight = Math.max(4, Math.floor(((code % 17) + 4) / 21 * (height - 10)));
      const top = rect.top + Math.floor((height - barHeight) / 2);
      this.fill({ left: x, top, right: x + 4, bottom: top + barHeight }, c);
      x += 7;
    }
  }
}

/** What the screen draws: a password field shows dots whatever it tells accessibility. */
function drawnText(e: UiElement): string {
  return e.password && e.editableText !== '' ? passwordBullets(e.editableText) : e.text;
}

function isLabelled(e: UiElement): boolean {
  return e.text !== '' || e.contentDesc !== '' || e.hint !== '' || e.clickable || e.checkable || e.className.endsWith('EditText') || e.className.endsWith('ImageView');
}

export interface ScreenshotState {
  readonly root: UiElement;
  readonly screenId: string;
  readonly imeFrame: Rect | null;
  readonly blank: boolean;
}

export function renderScreenshot(state: ScreenshotState): Buffer {
  const canvas = new Canvas();
  if (state.blank) {
    canvas.fill({ left: 0, top: 0, right: SCREEN_WIDTH, bottom: SCREEN_HEIGHT }, [0, 0, 0]);
    return PNG.sync.write(canvas.png, { colorType: 2, deflateLevel: 1 });
  }
  canvas.fill({ left: 0, top: 0, right: SCREEN_WIDTH, bottom: SCREEN_HEIGHT }, colour(`bg:${state.screenId}:${state.root.package}`, true));
  for (const e of flatten(state.root)) {
    const area = (e.bounds.right - e.bounds.left) * (e.bounds.bottom - e.bounds.top);
    const seed = `${e.className}|${drawnText(e)}|${e.contentDesc}|${e.hint}|${e.checked}|${e.focused}|${e.selected}|${e.enabled}`;
    if (area > (SCREEN_WIDTH * SCREEN_HEIGHT) / 3) continue;
    if (!isLabelled(e)) {
      canvas.frame(e.bounds, colour(`frame:${seed}`, true), 2);
      continue;
    }
    const inset = { left: e.bounds.left + 2, top: e.bounds.top + 2, right: e.bounds.right - 2, bottom: e.bounds.bottom - 2 };
    if (e.clickable || e.checkable || e.className.endsWith('EditText')) canvas.fill(inset, colour(`fill:${seed}`, true));
    canvas.frame(e.bounds, colour(`edge:${seed}`, false), e.focused ? 6 : 2);
    canvas.barcode(inset, drawnText(e) || e.contentDesc || e.hint, colour(`ink:${seed}`, false));
    if (e.checkable) canvas.fill({ left: inset.right - 40, top: inset.top + 8, right: inset.right - 8, bottom: inset.top + 40 }, e.checked ? [20, 160, 60] : [120, 120, 120]);
  }
  canvas.fill({ left: 0, top: 0, right: SCREEN_WIDTH, bottom: STATUS_BAR_HEIGHT }, [32, 33, 36]);
  canvas.fill({ left: 0, top: SCREEN_HEIGHT - NAVIGATION_BAR_HEIGHT, right: SCREEN_WIDTH, bottom: SCREEN_HEIGHT }, [32, 33, 36]);
  canvas.fill({ left: 440, top: SCREEN_HEIGHT - 70, right: 640, bottom: SCREEN_HEIGHT - 58 }, [220, 220, 220]);
  if (state.imeFrame) {
    const ime = state.imeFrame;
    canvas.fill(ime, [60, 64, 67]);
    const keyW = Math.floor((ime.right - ime.left) / 10);
    for (let row = 0; row < 4; row++) {
      for (let k = 0; k < 10; k++) {
        const top = ime.top + 40 + row * 170;
        canvas.fill({ left: ime.left + k * keyW + 8, top, right: ime.left + (k + 1) * keyW - 8, bottom: top + 140 }, [95, 99, 104]);
      }
    }
  }
  return PNG.sync.write(canvas.png, { colorType: 2, deflateLevel: 1 });
}

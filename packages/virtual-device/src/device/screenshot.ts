/**
 * Screenshots drawn from the rendered tree, as a person would see the phone: the status bar, the
 * app's widgets with their real text (Roboto, bundled; tofu for scripts it lacks), the keyboard
 * while the IME is open, and the three-button navigation bar. Only what the tree says is drawn, at
 * the tree's bounds, so a navigation, a typed character, a toggle or a scroll changes the pixels.
 * Deterministic: the same screen state gives the same bytes (no clock, no system fonts).
 * See docs/internals/virtual-device.md, "Screenshots".
 */
import { NAVIGATION_BAR_HEIGHT, SCREEN_HEIGHT, SCREEN_WIDTH, STATUS_BAR_HEIGHT } from '../scenario/model.js';
import type { Rect } from './geometry.js';
import type { Canvas } from '@napi-rs/canvas';
import type { CaptureThread } from './captureThread.js';
import { renderer, type Context } from './render/fonts.js';
import { drawKeyboard } from './render/keyboard.js';
import { encodeRgbaPng } from './render/png.js';
import { drawNavigationBar, drawStatusBar } from './render/systemBars.js';
import { COLOURS } from './render/theme.js';
import type { PaintContext } from './render/widgetPaint.js';
import { paintNode } from './render/widgets.js';
import type { DeviceUi } from './ui.js';
import { flatten, type UiElement } from './uiTree.js';

export interface ScreenshotState {
  readonly root: UiElement;
  readonly screenId: string;
  readonly imeFrame: Rect | null;
  readonly blank: boolean;
  /** The display's size in px (default: the phone's 1080x2400). */
  readonly width?: number;
  readonly height?: number;
}

/** One canvas per display size, reused: allocating 10 MB of pixels per capture costs more than clearing them. */
const canvases = new Map<string, Canvas>();
const blanks = new Map<string, Buffer>();

function canvasFor(width: number, height: number): { canvas: Canvas; ctx: Context } {
  const key = `${width}x${height}`;
  let canvas = canvases.get(key);
  if (!canvas) {
    canvas = renderer().canvas.createCanvas(width, height);
    canvases.set(key, canvas);
  }
  const ctx = canvas.getContext('2d');
  // The default follows the host's language, which changes some glyphs: pin it so every host draws the same.
  ctx.lang = 'en';
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  return { canvas, ctx };
}

/** What `screencap` gives while the panel shows nothing (the blank-screenshot fault): one flat colour. */
function blankPng(width: number, height: number): Buffer {
  const key = `${width}x${height}`;
  let png = blanks.get(key);
  if (!png) {
    const pixels = Buffer.alloc(width * height * 4);
    for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
    png = encodeRgbaPng(pixels, width, height);
    blanks.set(key, png);
  }
  return png;
}

function paintBackground(ctx: Context, width: number, height: number, onWallpaper: boolean): void {
  if (!onWallpaper) {
    ctx.fillStyle = COLOURS.background;
    ctx.fillRect(0, 0, width, height);
    return;
  }
  const gradient = ctx.createLinearGradient(0, 0, 0, height);
  gradient.addColorStop(0, COLOURS.wallpaperTop);
  gradient.addColorStop(1, COLOURS.wallpaperBottom);
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, width, height);
}

export function renderScreenshot(state: ScreenshotState): Buffer {
  return renderScreenshotFrame(state).png;
}

/** A capture as PNG, with the pixels it was encoded from (null for a blank panel's cached PNG). */
export interface RenderedFrame {
  readonly png: Buffer;
  readonly rgba: Uint8Array | null;
  readonly width: number;
  readonly height: number;
}

/** renderScreenshot, keeping the pixels: `screencap` without `-p` sends them as they are. */
export function renderScreenshotFrame(state: ScreenshotState): RenderedFrame {
  const width = state.width ?? SCREEN_WIDTH;
  const height = state.height ?? SCREEN_HEIGHT;
  if (state.blank) return { png: blankPng(width, height), rgba: null, width, height };
  const { canvas, ctx } = canvasFor(width, height);
  const onWallpaper = /launcher/i.test(state.root.package);
  paintBackground(ctx, width, height, onWallpaper);
  const nodes = flatten(state.root);
  const paint: PaintContext = { ctx, onWallpaper };
  for (const e of nodes) paintNode(paint, e);
  // A real dump that has the system UI in it (several windows) draws its own bars.
  const systemUiInTree = nodes.some((e) => e.package === 'com.android.systemui');
  const barColour = onWallpaper ? COLOURS.onWallpaper : COLOURS.onSurfaceVariant;
  if (!systemUiInTree) {
    if (!onWallpaper) {
      ctx.fillStyle = COLOURS.background;
      ctx.fillRect(0, 0, width, STATUS_BAR_HEIGHT);
      ctx.fillRect(0, height - NAVIGATION_BAR_HEIGHT, width, NAVIGATION_BAR_HEIGHT);
    }
    drawStatusBar(ctx, { left: 0, top: 0, right: width, bottom: STATUS_BAR_HEIGHT }, barColour);
  }
  if (state.imeFrame) drawKeyboard(ctx, state.imeFrame, state.imeFrame.bottom >= height ? NAVIGATION_BAR_HEIGHT : 0);
  if (!systemUiInTree) {
    drawNavigationBar(
      ctx,
      { left: 0, top: height - NAVIGATION_BAR_HEIGHT, right: width, bottom: height },
      state.imeFrame ? COLOURS.onSurfaceVariant : barColour,
      state.imeFrame !== null,
    );
  }
  const rgba = canvas.data();
  return { png: encodeRgbaPng(rgba, width, height), rgba, width, height };
}

/** What a capture shows, read afresh for each capture. */
export interface CaptureSource {
  readonly ui: DeviceUi;
  /** Black: the blank-screenshot fault, or a display that is off. */
  blank(): boolean;
  locked(): boolean;
}

/** What a capture shows at the moment it runs, and the key of its PNG in the cache. */
interface Snapshot {
  readonly key: string;
  state(): ScreenshotState;
}

/**
 * `screencap` of the display in its current rotation (docs/internals/device-quirks.md). Drawing costs tens of
 * ms, so the last capture is kept until anything it depends on changes.
 */
export class ScreenCapture {
  private cache: { key: string; png: Buffer } | null = null;
  /** Captures being drawn, by key: a second capture of the same screen waits for the same drawing. */
  private readonly drawing = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly source: CaptureSource,
    private readonly thread: CaptureThread,
    /** A real capture served as it is while its screen shows (`--screen DUMP.xml --screenshot SHOT.png`). */
    private readonly captured?: { readonly screenId: string; readonly png: Buffer },
  ) {}

  /** Drawn in this thread (the control API: tests read a capture without the shell). */
  png(): Buffer {
    const real = this.realCapture();
    if (real) return real;
    const snapshot = this.snapshot();
    if (this.cache?.key !== snapshot.key) this.cache = { key: snapshot.key, png: renderScreenshot(snapshot.state()) };
    return this.cache.png;
  }

  /**
   * What `screencap` and the UiAutomator2 server's screenshot answer: the screen is read now, and
   * drawn in the capture thread, so the device serves other requests while it is drawn.
   */
  capture(): Promise<Buffer> {
    const real = this.realCapture();
    if (real) return Promise.resolve(real);
    const snapshot = this.snapshot();
    if (this.cache?.key === snapshot.key) return Promise.resolve(this.cache.png);
    const pending = this.drawing.get(snapshot.key);
    if (pending) return pending;
    const drawn = this.thread.render(snapshot.state()).then(
      (png) => {
        this.drawing.delete(snapshot.key);
        this.cache = { key: snapshot.key, png };
        return png;
      },
      (error: unknown) => {
        this.drawing.delete(snapshot.key);
        throw error;
      },
    );
    this.drawing.set(snapshot.key, drawn);
    return drawn;
  }

  /**
   * The real capture, while its screen shows with the display on and unlocked, unturned: a
   * keyguard, a dark display, another screen or a rotation is the device's own drawing, as the
   * capture no longer shows what is there.
   */
  private realCapture(): Buffer | null {
    const captured = this.captured;
    if (!captured) return null;
    const ui = this.source.ui;
    if (this.source.blank() || this.source.locked() || ui.foreground().screenId !== captured.screenId) return null;
    if (ui.displayRotation() !== ui.rotationDrawnFor()) return null;
    return captured.png;
  }

  private snapshot(): Snapshot {
    const ui = this.source.ui;
    const blank = this.source.blank();
    const display = ui.displaySize();
    const screenId = ui.foreground().screenId;
    const ime = ui.imeVisible();
    return {
      key: `${ui.version}:${ime}:${blank}:${this.source.locked()}:${screenId}:${display.width}x${display.height}`,
      state: () => ({
        root: ui.tree(),
        screenId,
        imeFrame: ime ? ui.imeFrame() : null,
        blank,
        width: display.width,
        height: display.height,
      }),
    };
  }
}

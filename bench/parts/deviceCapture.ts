/**
 * Part 6: what one `screencap -p` costs the virtual device: the tree drawn with
 * real text (skia through @napi-rs/canvas, the bundled Roboto) and encoded as a 1080x2400 PNG.
 * In process, on the renderer itself, so the device's per-screen cache does not hide the work: per
 * screen, the first (cold) render, then warm-up renders and N timed renders; wall and CPU time
 * (process.cpuUsage, which is not inflated when other processes share the cores).
 */
import { renderScreenshot, type ScreenshotState } from '../../packages/virtual-device/src/device/screenshot.js';
import { VirtualDevice } from '../../packages/virtual-device/src/device/VirtualDevice.js';
import { median, p90, round } from '../lib/stats.js';

export interface CaptureRow {
  readonly screen: string;
  readonly first_ms: number;
  readonly wall_ms: { readonly median: number; readonly p90: number; readonly min: number };
  readonly cpu_ms: { readonly median: number };
  readonly png_bytes: number;
}

export interface DeviceCaptureResult {
  readonly status: 'measured' | 'skipped';
  readonly reason?: string;
  readonly runs: number;
  readonly width: number;
  readonly height: number;
  readonly rows: CaptureRow[];
}

/** The screens the demo and the oracle rows capture most: a long list, the app list, the keyboard with typed text, the launcher. */
const SCREENS: readonly { readonly label: string; readonly screen: string; readonly typed?: string }[] = [
  { label: 'settings_home (Settings)', screen: 'settings_home' },
  { label: 'all_apps (apps list)', screen: 'all_apps' },
  { label: 'settings_search, keyboard open, "wifi" typed', screen: 'settings_search', typed: 'wifi' },
  { label: 'launcher', screen: 'launcher' },
];

function stateOf(device: VirtualDevice): ScreenshotState {
  const display = device.traits.activeDisplay();
  return {
    root: device.ui.tree(),
    screenId: device.ui.foreground().screenId,
    imeFrame: device.ui.imeVisible() ? device.ui.imeFrame() : null,
    blank: false,
    width: display.width,
    height: display.height,
  };
}

export function runDeviceCapture(runs = 20, warmup = 3): DeviceCaptureResult {
  const device = VirtualDevice.withDefaultScenario();
  const display = device.traits.activeDisplay();
  const rows: CaptureRow[] = [];
  for (const s of SCREENS) {
    device.setScreen(s.screen);
    if (s.typed !== undefined) device.ui.typeText(s.typed, 'bench');
    const state = stateOf(device);
    const t0 = performance.now();
    let png = renderScreenshot(state);
    const first = performance.now() - t0;
    for (let i = 0; i < warmup; i++) renderScreenshot(state);
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i < runs; i++) {
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      png = renderScreenshot(state);
      wall.push(performance.now() - w0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    rows.push({
      screen: s.label,
      first_ms: round(first, 1),
      wall_ms: { median: round(median(wall), 1), p90: round(p90(wall), 1), min: round(Math.min(...wall), 1) },
      cpu_ms: { median: round(median(cpu), 1) },
      png_bytes: png.length,
    });
  }
  return { status: 'measured', runs, width: display.width, height: display.height, rows };
}

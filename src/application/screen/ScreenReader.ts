import { parseDump } from '../../domain/tree/dump.js';
import type { AutomationSession, DeviceGateway } from '../../domain/ports.js';
import type { ScreenContext, ScreenSummary, WindowState } from '../../domain/tree/screen.js';
import { summariseScreenDetailed, type ActionPlan } from '../../domain/summary/summary.js';
import type { UiTree } from '../../domain/tree/uiNode.js';
import { together } from '../time/together.js';
import type { VisualEntry } from '../../domain/visual/visualEntries.js';

export interface ScreenReading {
  readonly summary: ScreenSummary;
  /** The nodes behind `summary.actions` (same order), then those past the cut. */
  readonly plans: readonly ActionPlan[];
  readonly tree: UiTree;
  /** The window state the summary was made with (the foreground is part of a ref's identity). */
  readonly window: WindowState;
  readonly xml: string;
  /** The density and window state read alongside the tree. */
  readonly context: ScreenContext;
  /** What OCR read where the tree is silent (VisualReader); absent when nothing is unexposed or it was not asked. */
  readonly visual?: VisualReading;
}

/** Lines read from pixels, each with the digest of its box's pixels, or why none could be read. */
export type VisualReading =
  | { readonly kind: 'read'; readonly entries: readonly DigestedEntry[] }
  | { readonly kind: 'unavailable'; readonly remedy: string };

export type DigestedEntry = VisualEntry & { readonly digest: string };

/**
 * Reads the screen and summarises it (docs/reference/summary.md), from one of two sources:
 * `uiautomator dump` through adb when no Appium session is alive, or the page
 * source of a live session. Android lets only one UiAutomation client register, so
 * dumping while a session runs would break that session: whoever holds a session
 * must read through it. Density and window state always come from adb (dumpsys and
 * wm, which do not touch UiAutomation).
 */
export function readScreenViaAdb(device: DeviceGateway): Promise<ScreenReading> {
  return readAlongside(device, device.dumpUi());
}

export function readScreenViaDriver(device: DeviceGateway, session: AutomationSession): Promise<ScreenReading> {
  return readAlongside(device, session.pageSource());
}

/**
 * The tree and the window state are independent reads: taken at once, both fresh. The density
 * comes with the window dump; `wm density` is asked only when that dump did not print it.
 */
function readAlongside(device: DeviceGateway, source: Promise<string>): Promise<ScreenReading> {
  const window = device.getWindowState();
  return readScreenWith(
    source,
    window.then((w) => densityOf(device, w)),
    window,
  );
}

/** The density the window dump printed, else `wm density`'s answer. */
export function densityOf(device: DeviceGateway, window: WindowState): Promise<number> {
  return typeof window.density === 'number' ? Promise.resolve(window.density) : device.getDensity();
}

/**
 * The screen from reads already under way or made: an action's `after` reuses the window state its
 * foreground settle just read, rather than a third `dumpsys window` in the same moment.
 */
export async function readScreenWith(
  source: Promise<string>,
  densityRead: Promise<number>,
  windowRead: WindowState | Promise<WindowState>,
): Promise<ScreenReading> {
  const [xml, density, window] = await together(source, densityRead, Promise.resolve(windowRead));
  const tree = parseDump(xml);
  const context: ScreenContext = { density, window };
  const { summary, plans } = summariseScreenDetailed(tree, context);
  return { summary, plans, tree, window, xml, context };
}

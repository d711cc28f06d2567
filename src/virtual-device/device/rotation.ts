/**
 * The display turned (the UiAutomator2 server's SetOrientation: `UiAutomation.setRotation`, then a
 * wait of up to 2 s until `UiDevice.getDisplayRotation()` reports it). LANDSCAPE is ROTATION_270
 * there (ScreenRotation.ofOrientation, with the default useResourcesForOrientationDetection false),
 * PORTRAIT ROTATION_0. docs/device-quirks.md, "Rotation".
 *
 * Apps lay themselves out again for the new size. Scenario screens are drawn for the portrait
 * phone, so the device re-lays each one the simplest way that keeps every node on screen and in
 * order: x stretched to the landscape width, the app area between the bars fitted to the landscape
 * height, the status and navigation bars kept at their heights. A real app's landscape layout
 * differs; what is modelled is what the harness relies on: the sizes, the rotation fields and
 * nodes that stay inside the new screen.
 */
import { NAVIGATION_BAR_HEIGHT, SCREEN_HEIGHT, SCREEN_WIDTH, STATUS_BAR_HEIGHT } from '../scenario/model.js';
import type { Rect } from './geometry.js';

/** Surface.ROTATION_0 and ROTATION_270, the two values SetOrientation sets. */
export type DisplayRotation = 0 | 3;

export function isLandscape(rotation: DisplayRotation): boolean {
  return rotation === 3;
}

/** The logical display size at this rotation. */
export function displaySize(rotation: DisplayRotation): { width: number; height: number } {
  return isLandscape(rotation) ? { width: SCREEN_HEIGHT, height: SCREEN_WIDTH } : { width: SCREEN_WIDTH, height: SCREEN_HEIGHT };
}

const PORTRAIT_APP_BOTTOM = SCREEN_HEIGHT - NAVIGATION_BAR_HEIGHT;
const LANDSCAPE_APP_BOTTOM = SCREEN_WIDTH - NAVIGATION_BAR_HEIGHT;

function layoutY(y: number): number {
  if (y <= STATUS_BAR_HEIGHT) return y;
  if (y >= PORTRAIT_APP_BOTTOM) return LANDSCAPE_APP_BOTTOM + (y - PORTRAIT_APP_BOTTOM);
  return Math.round(STATUS_BAR_HEIGHT + ((y - STATUS_BAR_HEIGHT) * (LANDSCAPE_APP_BOTTOM - STATUS_BAR_HEIGHT)) / (PORTRAIT_APP_BOTTOM - STATUS_BAR_HEIGHT));
}

function layoutX(x: number): number {
  return Math.round((x * SCREEN_HEIGHT) / SCREEN_WIDTH);
}

/** A portrait rectangle as the landscape layout places it. */
export function landscapeRect(r: Rect): Rect {
  return { left: layoutX(r.left), top: layoutY(r.top), right: layoutX(r.right), bottom: layoutY(r.bottom) };
}

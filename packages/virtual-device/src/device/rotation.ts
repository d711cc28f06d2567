/**
 * The display turned (the UiAutomator2 server's SetOrientation: `UiAutomation.setRotation`, then a
 * wait of up to 2 s until `UiDevice.getDisplayRotation()` reports it). LANDSCAPE is ROTATION_270
 * there (ScreenRotation.ofOrientation, with the default useResourcesForOrientationDetection false),
 * PORTRAIT ROTATION_0. docs/internals/device-quirks.md, "Rotation".
 *
 * Apps lay themselves out again for the new size. Scenario screens are drawn for one orientation
 * (the portrait phone, or the frame a static dump was taken in), so when the display turns the
 * other way the device re-lays each one the simplest way that keeps every node on screen and in
 * order: x stretched to the new width, the app area between the bars fitted to the new height, the
 * status and navigation bars kept at their heights. A real app's layout for the other orientation
 * differs; what is modelled is what the harness relies on: the sizes, the rotation fields and
 * nodes that stay inside the new screen.
 */
import { NAVIGATION_BAR_HEIGHT, STATUS_BAR_HEIGHT } from '../scenario/model.js';
import type { Rect } from './geometry.js';
import type { Rotation } from './traits.js';

/** Surface.ROTATION_0 … ROTATION_270 (SetOrientation sets 0 or 3; a static dump may bring 1 or 2). */
export type DisplayRotation = Rotation;

/** A quarter turn from the panel's natural orientation: width and height trade places. */
export function isLandscape(rotation: DisplayRotation): boolean {
  return rotation % 2 === 1;
}

interface Size {
  readonly width: number;
  readonly height: number;
}

/** A rectangle laid out for a display of size `from` as the layout places it on one of size `to`. */
export function relayoutRect(r: Rect, from: Size, to: Size): Rect {
  const fromAppBottom = from.height - NAVIGATION_BAR_HEIGHT;
  const toAppBottom = to.height - NAVIGATION_BAR_HEIGHT;
  const y = (v: number): number => {
    if (v <= STATUS_BAR_HEIGHT) return v;
    if (v >= fromAppBottom) return toAppBottom + (v - fromAppBottom);
    return Math.round(
      STATUS_BAR_HEIGHT +
        ((v - STATUS_BAR_HEIGHT) * (toAppBottom - STATUS_BAR_HEIGHT)) / (fromAppBottom - STATUS_BAR_HEIGHT),
    );
  };
  const x = (v: number): number => Math.round((v * to.width) / from.width);
  return { left: x(r.left), top: y(r.top), right: x(r.right), bottom: y(r.bottom) };
}

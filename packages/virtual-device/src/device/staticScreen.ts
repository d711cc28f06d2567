/** The scenarios the device's factories build: a captured screen as a one-screen scenario, and Appium's helper packages. */
import { platformPackages, type HelperVersions } from '../scenario/defaultScenario.js';
import { NAVIGATION_BAR_HEIGHT, type NodeSpec, type PackageSpec, type ScenarioSpec } from '../scenario/model.js';
import { importHierarchyXml } from '../scenario/xmlImport.js';
import {
  BUILT_IN_DISPLAY,
  rotatedSize,
  type DeviceTraitOptions,
  type Rotation,
  type VirtualDisplay,
} from './traits.js';

/** The navigation bar's own nodes: System UI's bar window, or the bar background an app's decor draws. */
const NAVIGATION_BAR_IDS = new Set([
  'com.android.systemui:id/navigation_bar_frame',
  'android:id/navigationBarBackground',
]);

/** The top of the navigation bar a dump shows along its bottom edge, or null when it shows none. */
function navigationBarTop(root: NodeSpec, frame: { width: number; height: number }): number | null {
  let top: number | null = null;
  const visit = (n: NodeSpec): void => {
    const [left, t, right, bottom] = n.bounds;
    // Only a bar across the lower edge is one the double can lay (its bar is a bottom bar); a side bar is left out.
    const across = right - left >= frame.width / 2 && bottom > t && t >= frame.height / 2;
    if (NAVIGATION_BAR_IDS.has(n.resourceId ?? '') && across) top = top === null ? t : Math.min(top, t);
    n.children?.forEach(visit);
  };
  visit(root);
  return top;
}

/**
 * The panel a static screen's dump was taken on, or null to keep the phone's. A dump shows one
 * window, and an app's window is not the display: with the default layout it stops above the
 * navigation bar (PhoneWindow fits the navigation bar inset unless the app lays out behind it),
 * while its status-bar area is inside it; a page source's declared size is `Display.getSize()`,
 * the app's area without the bar (appium-uiautomator2-server,
 * AccessibilityNodeInfoDumper.addDisplayInfo). So the panel is the window with the double's
 * navigation bar below it, where the real window manager puts the bar: at the bottom on a large
 * screen in either orientation (DisplayPolicy, "Allow the navigation bar to move on non-square
 * small devices (phones)": `mNavigationBarCanMove = width != height && shortSizeDp < 600`; WM
 * Shell DisplayLayout.navigationBarPosition gives NAV_BAR_BOTTOM unless the bar can move and the
 * display is landscape), and at the bottom on a phone with gesture navigation, which the double
 * models.
 *
 * - The bar's own nodes (`navigation_bar_frame` of System UI, the decor's
 *   `navigationBarBackground`) say where it starts: the panel ends one double's bar below that.
 * - A window that fits the phone's 1080x2400 frame in its rotation keeps the phone's display (its
 *   frame often stops above the navigation bar, or is the whole display).
 * - Otherwise nothing in the dump tells where the bar is: the window is taken to stop above it,
 *   and the panel is the window plus the double's bar. Its height is the double's bar (126 px,
 *   48 dp at 420 dpi) whatever the real one was (72 px on a 240 dpi tablet): the panel may be a
 *   little taller than the real one, never over the window (docs/internals/virtual-device.md).
 */
function staticDisplay(
  frame: { width: number; height: number } | null,
  rotation: Rotation,
  root: NodeSpec,
): { panel: VirtualDisplay; rotation: Rotation } | null {
  if (frame === null || frame.width < 100 || frame.height < 100) return null;
  const barTop = navigationBarTop(root, frame);
  const phone = rotatedSize(BUILT_IN_DISPLAY, rotation);
  const fitsPhone = frame.width <= phone.width && frame.height <= phone.height;
  if (barTop === null && fitsPhone) return rotation === 0 ? null : { panel: BUILT_IN_DISPLAY, rotation };
  const height = (barTop ?? frame.height) + NAVIGATION_BAR_HEIGHT;
  if (rotation === 0 && frame.width === BUILT_IN_DISPLAY.width && height === BUILT_IN_DISPLAY.height) return null;
  const natural = rotatedSize({ width: frame.width, height }, rotation);
  return { panel: { ...BUILT_IN_DISPLAY, width: natural.width, height: natural.height }, rotation };
}

/** The scenario's packages, and Appium's helper packages it does not declare itself. */
export function withPlatformPackages(scenario: ScenarioSpec, versions: HelperVersions): ScenarioSpec {
  const declared = new Set(scenario.packages.map((p) => p.name));
  const extra: PackageSpec[] = platformPackages(versions).filter((p) => !declared.has(p.name));
  return { ...scenario, packages: [...scenario.packages, ...extra] };
}

/** The one screen of a static dump's scenario. */
export const STATIC_SCREEN_ID = 'static';

/**
 * A dump as the only screen of a scenario, and the options with the display the dump stands for
 * (unless the caller chose the displays or the rotation).
 */
export function staticScreenScenario<
  O extends DeviceTraitOptions & { readonly package?: string; readonly activity?: string },
>(dumpXml: string, options: O): { scenario: ScenarioSpec; options: O } {
  const imported = importHierarchyXml(dumpXml);
  const display =
    options.displays === undefined && options.rotation === undefined
      ? staticDisplay(imported.frame, imported.rotation, imported.root)
      : null;
  if (display) options = { ...options, displays: [display.panel], rotation: display.rotation };
  const pkg = options.package ?? imported.package;
  const activity = options.activity ?? '.StaticActivity';
  const scenario: ScenarioSpec = {
    name: 'static-screen',
    home: STATIC_SCREEN_ID,
    packages: [{ name: pkg, launcher: { activity, screen: STATIC_SCREEN_ID } }],
    screens: [{ id: STATIC_SCREEN_ID, package: pkg, activity, root: imported.root, static: true, onBack: [] }],
  };
  return { scenario, options };
}

/** The scenarios the device's factories build: a captured screen as a one-screen scenario, and Appium's helper packages. */
import { platformPackages, type HelperVersions } from '../scenario/defaultScenario.js';
import type { PackageSpec, ScenarioSpec } from '../scenario/model.js';
import { importHierarchyXml } from '../scenario/xmlImport.js';
import {
  BUILT_IN_DISPLAY,
  rotatedSize,
  type DeviceTraitOptions,
  type Rotation,
  type VirtualDisplay,
} from './traits.js';

/**
 * The panel a static screen's dump was taken on, or null to keep the phone's: only a dump that is
 * rotated or does not fit the phone's 1080x2400 frame says something the phone cannot show. A
 * phone-sized dump keeps the phone's display (its frame often stops above the navigation bar).
 */
function staticDisplay(
  frame: { width: number; height: number } | null,
  rotation: Rotation,
): { panel: VirtualDisplay; rotation: Rotation } | null {
  if (frame === null || frame.width < 100 || frame.height < 100) return null;
  if (rotation === 0 && frame.width <= BUILT_IN_DISPLAY.width && frame.height <= BUILT_IN_DISPLAY.height) return null;
  const natural = rotatedSize(frame, rotation);
  return { panel: { ...BUILT_IN_DISPLAY, width: natural.width, height: natural.height }, rotation };
}

/** The scenario's packages, and Appium's helper packages it does not declare itself. */
export function withPlatformPackages(scenario: ScenarioSpec, versions: HelperVersions): ScenarioSpec {
  const declared = new Set(scenario.packages.map((p) => p.name));
  const extra: PackageSpec[] = platformPackages(versions).filter((p) => !declared.has(p.name));
  return { ...scenario, packages: [...scenario.packages, ...extra] };
}

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
      ? staticDisplay(imported.frame, imported.rotation)
      : null;
  if (display) options = { ...options, displays: [display.panel], rotation: display.rotation };
  const pkg = options.package ?? imported.package;
  const activity = options.activity ?? '.StaticActivity';
  const scenario: ScenarioSpec = {
    name: 'static-screen',
    home: 'static',
    packages: [{ name: pkg, launcher: { activity, screen: 'static' } }],
    screens: [{ id: 'static', package: pkg, activity, root: imported.root, static: true, onBack: [] }],
  };
  return { scenario, options };
}

/**
 * Where the harness's own Appium lives. The harness ships Appium 3 and the UiAutomator2
 * driver as dependencies, so a user never installs them by hand: this module finds them
 * through Node's own lookup rules (walking up `node_modules` folders), which works for a
 * git checkout, a global install and an npx cache alike, even when npm hoisted them.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HARNESS_PACKAGE_NAME = 'android-mcp-harness';

export interface InstalledPackage {
  readonly name: string;
  readonly version: string;
  /** Directory that holds the package's package.json. */
  readonly dir: string;
}

function readJson(file: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The harness's package root: the nearest ancestor of `fromFile` whose package.json is named
 * android-mcp-harness. Works from src/ (tests) and from dist/ (the bin) alike.
 */
export function findPackageRoot(fromFile: string = fileURLToPath(import.meta.url)): string {
  let dir = path.dirname(fromFile);
  for (;;) {
    const pkg = readJson(path.join(dir, 'package.json'));
    if (pkg?.name === HARNESS_PACKAGE_NAME) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No ${HARNESS_PACKAGE_NAME} package.json above ${path.dirname(fromFile)}`);
    dir = parent;
  }
}

/**
 * Finds `name` the way Node resolves a bare import from `fromDir`, without loading it and
 * without tripping over packages whose `exports` hide their package.json.
 */
export function findInstalledPackage(name: string, fromDir: string): InstalledPackage | null {
  let dir = path.resolve(fromDir);
  for (;;) {
    const candidate = path.join(dir, 'node_modules', ...name.split('/'));
    const pkg = readJson(path.join(candidate, 'package.json'));
    if (pkg && pkg.name === name && typeof pkg.version === 'string') {
      return { name, version: pkg.version, dir: candidate };
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export interface AppiumInstall {
  readonly appiumVersion: string;
  readonly driverVersion: string;
  /** appium/index.js: run with node, so the pid we hold is the server's own. */
  readonly appiumMain: string;
  /**
   * APPIUM_HOME: the folder whose node_modules holds the UiAutomator2 driver. Appium 3 scans
   * `APPIUM_HOME/node_modules/*` for drivers, so no `appium driver install` is ever needed.
   */
  readonly appiumHome: string;
}

export const APPIUM_PACKAGE = 'appium';
export const UIAUTOMATOR2_DRIVER_PACKAGE = 'appium-uiautomator2-driver';

/** Locates Appium and its driver next to the harness, or says exactly what is missing. */
export function locateAppiumInstall(packageRoot: string): AppiumInstall | { readonly missing: string } {
  const appium = findInstalledPackage(APPIUM_PACKAGE, packageRoot);
  if (!appium) return { missing: APPIUM_PACKAGE };
  const driver = findInstalledPackage(UIAUTOMATOR2_DRIVER_PACKAGE, packageRoot);
  if (!driver) return { missing: UIAUTOMATOR2_DRIVER_PACKAGE };
  const appiumMain = path.join(appium.dir, 'index.js');
  if (!existsSync(appiumMain)) return { missing: `${APPIUM_PACKAGE}/index.js` };
  // driver.dir is <home>/node_modules/appium-uiautomator2-driver.
  const appiumHome = path.dirname(path.dirname(driver.dir));
  return { appiumVersion: appium.version, driverVersion: driver.version, appiumMain, appiumHome };
}

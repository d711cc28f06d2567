/**
 * How an exported WebdriverIO test runs as printed: against Appium started the way the harness
 * starts its own (src/wiring/localAdapters.ts, ManagedAppium): Appium 3 from the harness's
 * dependencies with APPIUM_HOME where its UiAutomator2 driver is, and ANDROID_HOME naming the SDK
 * folder of the adb in use, without which appium-adb refuses every session ("Neither ANDROID_HOME
 * nor ANDROID_SDK_ROOT environment variable was exported"). Both paths are read where the export runs.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { locateAdb } from '../../infrastructure/adb/adbLocator.js';
import { findPackageRoot, locateAppiumInstall } from '../../infrastructure/appium/appiumInstall.js';
import { inputVariable } from '../../flow/flowInputs.js';
import type { WdioRunLines } from '../exportTrace.js';

/** The SDK folder of `adb` (`<root>/platform-tools/adb`, followed through a symlink such as Debian's /usr/bin/adb), or null. */
export function sdkRootOf(adbPath: string): string | null {
  const candidates = [adbPath];
  try {
    candidates.push(realpathSync(adbPath));
  } catch {
    // A dangling path: no root to name.
  }
  for (const candidate of candidates) {
    const dir = path.dirname(candidate);
    if (path.basename(dir) === 'platform-tools') return path.dirname(dir);
  }
  return null;
}

/** Quoted for a POSIX shell when it needs to be (a path with spaces). */
function word(value: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export function wdioRunLines(
  inputs: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  packageRoot: string = findPackageRoot(),
): WdioRunLines {
  const adb = locateAdb(env);
  const sdk =
    (adb && (adb.source === 'PATH' ? sdkRootOf(adb.path) : path.dirname(path.dirname(adb.path)))) ??
    '<the SDK folder whose platform-tools holds adb>';
  const install = locateAppiumInstall(packageRoot);
  const appium =
    'missing' in install
      ? `ANDROID_HOME=${word(sdk)} npx appium --address 127.0.0.1 --port 4723 (install the harness's dependencies first: ${install.missing} is missing)`
      : `ANDROID_HOME=${word(sdk)} APPIUM_HOME=${word(install.appiumHome)} node ${word(install.appiumMain)} --address 127.0.0.1 --port 4723`;
  const variables = inputs.map((name) => `${inputVariable(name)}=… `).join('');
  return {
    appium,
    run: `${variables}APPIUM_URL=http://127.0.0.1:4723 ANDROID_UDID=emulator-5554 node --test <this file>`,
  };
}

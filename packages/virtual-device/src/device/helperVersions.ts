/**
 * The versions of Appium's helper APKs that the installed driver ships, so that
 * `dumpsys package` reports them as installed and current and Appium installs nothing.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HelperVersions } from '../scenario/defaultScenario.js';

const FALLBACK: HelperVersions = { uiautomator2Server: '10.6.6', appiumSettings: '8.0.9' };

function versionOf(fromDir: string, pkg: string): string | null {
  // Walk up node_modules folders the way Node resolves packages; package.json may be hidden by "exports".
  let dir = fromDir;
  for (;;) {
    try {
      const json = JSON.parse(readFileSync(path.join(dir, 'node_modules', pkg, 'package.json'), 'utf8')) as {
        version?: unknown;
      };
      if (typeof json.version === 'string') return json.version;
    } catch {
      // not here; keep walking
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function findPackageDir(fromDir: string, pkg: string): string | null {
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', pkg);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Reads the versions next to the installed appium-uiautomator2-driver; falls back to the versions this code was written against. */
export function detectHelperVersions(startDir = path.dirname(fileURLToPath(import.meta.url))): HelperVersions {
  const driverDir = findPackageDir(startDir, 'appium-uiautomator2-driver');
  if (!driverDir) return FALLBACK;
  return {
    uiautomator2Server: versionOf(driverDir, 'appium-uiautomator2-server') ?? FALLBACK.uiautomator2Server,
    appiumSettings: versionOf(driverDir, 'io.appium.settings') ?? FALLBACK.appiumSettings,
  };
}

/** ANDROID_MCP_APPIUM_CAPS: the extra capabilities the user may add, and those the harness keeps for itself. */
import { z } from 'zod';
import { DRIVER_IDLE_MARGIN_MS } from '../domain/driverIdleTimeout.js';
import type { Warn } from './read.js';

/**
 * Capabilities the harness sets itself; ANDROID_MCP_APPIUM_CAPS may not override them.
 * `appium:newCommandTimeout` is derived per session from the lease it serves (driverIdleTimeout.ts):
 * a lower value would let Appium drop a session the harness still holds (a UI session voided with
 * APPIUM_UNAVAILABLE), a higher one or 0 (never) would let an orphaned session keep the device
 * long after the harness let go. Change ANDROID_MCP_SESSION_IDLE_TIMEOUT or ANDROID_MCP_ACTION_TIMEOUT
 * instead; the driver's timeout follows them.
 */
export const PROTECTED_CAPABILITIES: readonly string[] = Object.freeze([
  'platformName',
  'appium:automationName',
  'appium:udid',
  'appium:noReset',
  'appium:newCommandTimeout',
]);

const jsonObject = z.record(z.string(), z.unknown());

/** A W3C extension capability: `vendor:name` (bstack:options, sauce:options, LT:Options). */
const VENDOR_CAPABILITY = /^[A-Za-z][A-Za-z0-9_-]*:[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * Outside remote mode only `appium:` keys; in remote mode also a device farm's own `vendor:options`
 * (a farm reads its credentials and device choice there: docs/guide/many-devices.md).
 */
export function readCapabilities(
  env: NodeJS.ProcessEnv,
  protectedKeys: readonly string[],
  remote: boolean,
  warn: Warn,
): Record<string, unknown> {
  const raw = env.ANDROID_MCP_APPIUM_CAPS?.trim();
  if (!raw) return {};
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    warn('ANDROID_MCP_APPIUM_CAPS is not valid JSON; no extra capabilities are used.');
    return {};
  }
  const parsed = jsonObject.safeParse(json);
  if (!parsed.success || Array.isArray(json)) {
    warn('ANDROID_MCP_APPIUM_CAPS must be a JSON object; no extra capabilities are used.');
    return {};
  }
  const caps: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed.data)) {
    if (!key.startsWith('appium:') && !(remote && VENDOR_CAPABILITY.test(key))) {
      warn(
        remote
          ? `ANDROID_MCP_APPIUM_CAPS: '${key}' is ignored; only appium:-prefixed and vendor:name capabilities (bstack:options, sauce:options, LT:Options) may be added.`
          : `ANDROID_MCP_APPIUM_CAPS: '${key}' is ignored; only appium:-prefixed capabilities may be added (a device farm's vendor:options need ANDROID_MCP_REMOTE=1).`,
      );
    } else if (key === 'appium:newCommandTimeout') {
      warn(
        `ANDROID_MCP_APPIUM_CAPS: '${key}' is ignored; the harness derives it from ANDROID_MCP_SESSION_IDLE_TIMEOUT and ANDROID_MCP_ACTION_TIMEOUT (the longer plus ${DRIVER_IDLE_MARGIN_MS / 1000} s): set those instead.`,
      );
    } else if (protectedKeys.includes(key)) {
      warn(`ANDROID_MCP_APPIUM_CAPS: '${key}' is ignored; the harness fixes it.`);
    } else {
      caps[key] = value;
    }
  }
  return caps;
}

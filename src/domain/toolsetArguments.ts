/**
 * Validation of the opt-in toolsets' arguments. Each value that reaches a device is
 * one of a closed set or a bounded number: no model text ever reaches adb or the driver.
 */
import { HarnessError } from './errors.js';

function shown(input: unknown): string {
  if (input === undefined) return 'nothing';
  if (input === null) return 'null';
  if (typeof input === 'string')
    return `'${input.slice(0, 20).replace(/[^\x20-\x7e]/g, '?')}${input.length > 20 ? '…' : ''}'`;
  if (Array.isArray(input)) return 'an array';
  return `a ${typeof input}`;
}

/** Android KeyEvent codes (android.view.KeyEvent): HOME 3, BACK 4, ENTER 66, APP_SWITCH 187 (Recents). */
export const DEVICE_KEYS = Object.freeze({ home: 3, recents: 187, enter: 66, back: 4 });
export type DeviceKey = keyof typeof DEVICE_KEYS;
const KEY_NAMES = Object.keys(DEVICE_KEYS) as DeviceKey[];

/** Throws HarnessError('INVALID_ARGUMENT'). */
export function parseDeviceKey(input: unknown): DeviceKey {
  if (typeof input === 'string' && (KEY_NAMES as string[]).includes(input)) return input as DeviceKey;
  throw new HarnessError(
    'INVALID_ARGUMENT',
    `Invalid key: got ${shown(input)}. Send "key": one of ${KEY_NAMES.map((k) => `"${k}"`).join(', ')} (exactly, lowercase).`,
  );
}

/** device_rotate's two values, lowercase as the model sends them. */
export type Orientation = 'portrait' | 'landscape';

/** Throws HarnessError('INVALID_ARGUMENT'). */
export function parseOrientation(input: unknown): Orientation {
  if (input === 'portrait' || input === 'landscape') return input;
  throw new HarnessError(
    'INVALID_ARGUMENT',
    `Invalid orientation: got ${shown(input)}. Send "orientation": "portrait" or "landscape" (exactly, lowercase).`,
  );
}

export type WaitUntil = 'visible' | 'gone';

/** Throws HarnessError('INVALID_ARGUMENT'). */
export function parseWaitUntil(input: unknown): WaitUntil {
  if (input === 'visible' || input === 'gone') return input;
  throw new HarnessError('INVALID_ARGUMENT', `Invalid until: got ${shown(input)}. Send "until": "visible" or "gone".`);
}

/**
 * An optional whole or fractional number of seconds in [min, max]; absent or null is `fallback`.
 * Throws HarnessError('INVALID_ARGUMENT') naming the range.
 */
export function parseBoundedNumber(
  input: unknown,
  name: string,
  min: number,
  max: number,
  fallback: number,
  integer = false,
): number {
  if (input === undefined || input === null) return fallback;
  if (
    typeof input === 'number' &&
    Number.isFinite(input) &&
    input >= min &&
    input <= max &&
    (!integer || Number.isInteger(input))
  )
    return input;
  throw new HarnessError(
    'INVALID_ARGUMENT',
    `Invalid ${name}: got ${typeof input === 'number' ? String(input) : shown(input)}. Send ${integer ? 'a whole number' : 'a number'} from ${min} to ${max} (no quotes), or leave it out for ${fallback}.`,
  );
}

/** logcat's priority letters (android/log.h), lowest first. */
export const MIN_LEVELS = ['V', 'D', 'I', 'W', 'E', 'F'] as const;
export type MinLevel = (typeof MIN_LEVELS)[number];

/** Optional; absent or null is `fallback`. Throws HarnessError('INVALID_ARGUMENT'). */
export function parseMinLevel(input: unknown, fallback: MinLevel): MinLevel {
  if (input === undefined || input === null) return fallback;
  if (typeof input === 'string' && (MIN_LEVELS as readonly string[]).includes(input)) return input as MinLevel;
  throw new HarnessError(
    'INVALID_ARGUMENT',
    `Invalid min_level: got ${shown(input)}. Send one of ${MIN_LEVELS.map((l) => `"${l}"`).join(', ')} (Verbose, Debug, Info, Warn, Error, Fatal; one capital letter), or leave it out for "${fallback}".`,
  );
}

/** An ISO 8601 time with its zone, to the second or finer: 2026-12-01T22:40:00Z, 2026-12-01T23:40:00.5+01:00. */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** Date.parse rolls 02-30 over to March and takes 24:00; a calendar date and a clock time only. */
function realTime(m: RegExpExecArray): boolean {
  const [y, mo, d, h, mi, s, zh = '00', zm = '00'] = m.slice(1).map((part) => Number(part ?? '0'));
  const days = new Date(Date.UTC(y ?? 0, mo ?? 0, 0)).getUTCDate();
  return (
    (mo ?? 0) >= 1 &&
    (mo ?? 0) <= 12 &&
    (d ?? 0) >= 1 &&
    (d ?? 0) <= days &&
    (h ?? 0) <= 23 &&
    (mi ?? 0) <= 59 &&
    (s ?? 0) <= 59 &&
    Number(zh) <= 14 &&
    Number(zm) <= 59
  );
}

/**
 * Optional `since`: epoch milliseconds of an ISO 8601 time with a zone, or null when absent.
 * Throws HarnessError('INVALID_ARGUMENT').
 */
export function parseSince(input: unknown): number | null {
  if (input === undefined || input === null) return null;
  const m = typeof input === 'string' && input.length <= 40 ? ISO_TIME.exec(input) : null;
  if (m && realTime(m)) {
    const ms = Date.parse(input as string);
    if (Number.isFinite(ms)) return ms;
  }
  throw new HarnessError(
    'INVALID_ARGUMENT',
    `Invalid since: got ${shown(input)}. Send an ISO 8601 time with its zone, e.g. "2026-12-01T22:40:00Z" (the device's clock), or leave it out for every crash the device still holds.`,
  );
}

import { describe, expect, it } from 'vitest';
import {
  parseBoundedNumber,
  parseDeviceKey,
  parseMinLevel,
  parseOrientation,
  parseSince,
  parseWaitUntil,
} from '../../../../src/domain/toolsetArguments.js';
import { refusalMessage } from '../../../support/harnessError.js';

/** The refusal's message; fails unless `fn` throws INVALID_ARGUMENT. */
const refusal = (fn: () => unknown): string => refusalMessage('INVALID_ARGUMENT', fn);

describe("the opt-in toolsets' closed sets", () => {
  it('a key is one of four names, exactly', () => {
    for (const key of ['home', 'recents', 'enter', 'back']) expect(parseDeviceKey(key)).toBe(key);
    expect(refusal(() => parseDeviceKey('HOME'))).toBe(
      `Invalid key: got 'HOME'. Send "key": one of "home", "recents", "enter", "back" (exactly, lowercase).`,
    );
  });

  it('what a refusal shows of the value: cut to 20 printable characters, or its kind', () => {
    expect(refusal(() => parseDeviceKey(undefined))).toContain('got nothing.');
    expect(refusal(() => parseDeviceKey(null))).toContain('got null.');
    expect(refusal(() => parseDeviceKey(['home']))).toContain('got an array.');
    expect(refusal(() => parseDeviceKey({}))).toContain('got a object.');
    expect(refusal(() => parseDeviceKey(3))).toContain('got a number.');
    expect(refusal(() => parseDeviceKey('a\u0000b\u00e9\u007f~ '))).toContain("got 'a?b??~ '.");
    expect(refusal(() => parseDeviceKey('x'.repeat(20)))).toContain(`got '${'x'.repeat(20)}'.`);
    expect(refusal(() => parseDeviceKey('x'.repeat(21)))).toContain(`got '${'x'.repeat(20)}…'.`);
  });

  it('an orientation and an until take their two values', () => {
    expect(parseOrientation('portrait')).toBe('portrait');
    expect(parseOrientation('landscape')).toBe('landscape');
    expect(refusal(() => parseOrientation('Portrait'))).toBe(
      `Invalid orientation: got 'Portrait'. Send "orientation": "portrait" or "landscape" (exactly, lowercase).`,
    );
    expect(parseWaitUntil('visible')).toBe('visible');
    expect(parseWaitUntil('gone')).toBe('gone');
    expect(refusal(() => parseWaitUntil('shown'))).toBe(
      `Invalid until: got 'shown'. Send "until": "visible" or "gone".`,
    );
  });

  it('a level is one capital letter of logcat, absent or null the fallback', () => {
    for (const level of ['V', 'D', 'I', 'W', 'E', 'F']) expect(parseMinLevel(level, 'I')).toBe(level);
    expect(parseMinLevel(undefined, 'W')).toBe('W');
    expect(parseMinLevel(null, 'E')).toBe('E');
    expect(refusal(() => parseMinLevel('w', 'W'))).toBe(
      `Invalid min_level: got 'w'. Send one of "V", "D", "I", "W", "E", "F" (Verbose, Debug, Info, Warn, Error, Fatal; one capital letter), or leave it out for "W".`,
    );
    expect(refusal(() => parseMinLevel(1, 'W'))).toContain('got a number.');
  });
});

describe('parseBoundedNumber', () => {
  it('takes the bounds themselves and what lies between; absent or null is the fallback', () => {
    expect(parseBoundedNumber(0.5, 'timeout_s', 0.5, 30, 10)).toBe(0.5);
    expect(parseBoundedNumber(30, 'timeout_s', 0.5, 30, 10)).toBe(30);
    expect(parseBoundedNumber(2.5, 'timeout_s', 0.5, 30, 10)).toBe(2.5);
    expect(parseBoundedNumber(undefined, 'timeout_s', 0.5, 30, 10)).toBe(10);
    expect(parseBoundedNumber(null, 'timeout_s', 0.5, 30, 10)).toBe(10);
  });

  it('refuses just outside, a non-finite number and a string, naming the range', () => {
    expect(refusal(() => parseBoundedNumber(0.4, 'timeout_s', 0.5, 30, 10))).toBe(
      'Invalid timeout_s: got 0.4. Send a number from 0.5 to 30 (no quotes), or leave it out for 10.',
    );
    expect(refusal(() => parseBoundedNumber(30.1, 'timeout_s', 0.5, 30, 10))).toContain('got 30.1.');
    expect(refusal(() => parseBoundedNumber(Number.NaN, 'timeout_s', 0.5, 30, 10))).toContain('got NaN.');
    expect(refusal(() => parseBoundedNumber(Infinity, 'x', 0, Infinity, 1))).toContain('got Infinity.');
    expect(refusal(() => parseBoundedNumber('5', 'timeout_s', 0.5, 30, 10))).toContain("got '5'.");
  });

  it('a whole number only when asked', () => {
    expect(parseBoundedNumber(3, 'lines', 1, 2000, 200, true)).toBe(3);
    expect(refusal(() => parseBoundedNumber(2.5, 'lines', 1, 2000, 200, true))).toBe(
      'Invalid lines: got 2.5. Send a whole number from 1 to 2000 (no quotes), or leave it out for 200.',
    );
  });
});

describe('parseSince: an ISO 8601 time with its zone', () => {
  it('reads Z, an offset and fractions of a second; absent or null is null', () => {
    expect(parseSince('2026-12-01T22:40:00Z')).toBe(Date.UTC(2026, 11, 1, 22, 40, 0));
    expect(parseSince('2026-12-01T23:40:00.5+01:00')).toBe(Date.UTC(2026, 11, 1, 22, 40, 0, 500));
    expect(parseSince('2026-12-01T20:40:00-02:00')).toBe(Date.UTC(2026, 11, 1, 22, 40, 0));
    expect(parseSince(undefined)).toBeNull();
    expect(parseSince(null)).toBeNull();
  });

  it('takes the last moments of a day, a month and a leap year', () => {
    expect(parseSince('2024-02-29T23:59:59Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59));
    expect(parseSince('2026-01-31T00:00:00Z')).toBe(Date.UTC(2026, 0, 31));
    expect(parseSince('2026-12-01T00:00:00+14:59')).toBe(Date.UTC(2026, 10, 30, 9, 1));
  });

  it('refuses a date or time the calendar or the clock does not have', () => {
    for (const bad of [
      '2026-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-13-10T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01T00:00:60Z',
      '2026-01-01T00:00:00+15:00',
      '2026-01-01T00:00:00+00:60',
      '2026-01-01T00:00:00',
      '2026-01-01 00:00:00Z',
      `2026-01-01T00:00:00.${'1'.repeat(25)}Z`,
      1_700_000_000_000,
    ]) {
      expect(
        refusal(() => parseSince(bad)),
        String(bad),
      ).toMatch(/^Invalid since: got /);
    }
    expect(refusal(() => parseSince('yesterday'))).toBe(
      `Invalid since: got 'yesterday'. Send an ISO 8601 time with its zone, e.g. "2026-12-01T22:40:00Z" (the device's clock), or leave it out for every crash the device still holds.`,
    );
  });
});

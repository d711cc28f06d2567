/**
 * A locked or sleeping screen, in every form the parsers meet (fixtures shaped after
 * AOSP's PhoneWindowManager, DisplayPolicy, KeyguardServiceDelegate and PowerManagerService dumps:
 * docs/internals/device-quirks.md). The app behind the keyguard is never the foreground.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseScreenLock, parseWakefulness, parseWindowState } from '../../../src/infrastructure/adb/parsers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string): string => readFileSync(path.join(here, 'fixtures', name), 'utf8');
const crlf = (text: string): string => text.replace(/\n/g, '\r\n');

describe('parseScreenLock / parseWindowState with the keyguard', () => {
  it.each([
    ['dumpsys-window-api28-locked.txt', { locked: true, awake: true }],
    ['dumpsys-window-api30-asleep-locked.txt', { locked: true, awake: false }],
    ['dumpsys-window-api34-locked.txt', { locked: true, awake: true }],
    ['dumpsys-window-api34-shade-open.txt', { locked: false, awake: true }],
    ['dumpsys-window-api34-ime.txt', { locked: false, awake: null }],
  ])('%s → %o (LF and CRLF)', (name, expected) => {
    expect(parseScreenLock(fixture(name))).toEqual(expected);
    expect(parseScreenLock(crlf(fixture(name)))).toEqual(expected);
  });

  it('behind the keyguard the foreground is System UI, not the app mFocusedApp names (API 28 StatusBar, API 34 NotificationShade)', () => {
    for (const name of ['dumpsys-window-api28-locked.txt', 'dumpsys-window-api34-locked.txt']) {
      const state = parseWindowState(fixture(name));
      expect(state.foregroundPackage, name).toBe('com.android.systemui');
      expect(state.foregroundActivity, name).toBeNull();
      expect(state.lock?.locked, name).toBe(true);
    }
  });

  it('the pulled-down shade has the NotificationShade focus too, and is not a lock: the app stays named through mFocusedApp', () => {
    const state = parseWindowState(fixture('dumpsys-window-api34-shade-open.txt'));
    expect(state.lock).toEqual({ locked: false, awake: true });
    expect(state.foregroundPackage).toBe('com.example.notes');
  });

  it('an activity shown over the keyguard (occluded=true) is usable; mShowingLockscreen / mDreamingLockscreen / a Keyguard window are locks (older releases)', () => {
    const occluded = fixture('dumpsys-window-api34-locked.txt').replace('occluded=false', 'occluded=true');
    expect(parseScreenLock(occluded).locked).toBe(false);
    expect(parseScreenLock('    mShowingLockscreen=true mShowingDream=false\n').locked).toBe(true);
    expect(parseScreenLock('    mShowingDream=true mDreamingLockscreen=true\n').locked).toBe(true);
    expect(parseScreenLock('  mCurrentFocus=Window{41e2 u0 Keyguard}\n').locked).toBe(true);
    expect(parseScreenLock('  mCurrentFocus=Window{41e2 u0 StatusBar}\n').locked).toBe(false);
  });

  it('a frozen ANR copy that was locked does not lock the live state', () => {
    const live = fixture('dumpsys-window-api34-shade-open.txt');
    const frozen = `WINDOW MANAGER LAST ANR (dumpsys window lastanr)\n  ANR time: Dec 1, 2026\n    isKeyguardShowing=true\n    mAwake=false\nLast ANR continued\nWINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n    isKeyguardShowing=true\n\n`;
    expect(parseScreenLock(frozen + live)).toEqual({ locked: false, awake: true });
  });
});

describe('parseWakefulness (dumpsys power)', () => {
  it('reads mWakefulness and the getWakefulnessLocked() spelling; null without one', () => {
    expect(parseWakefulness(fixture('dumpsys-power-dozing.txt'))).toBe('Dozing');
    expect(parseWakefulness(crlf('Power Manager State:\n  mWakefulness=Asleep\n'))).toBe('Asleep');
    expect(parseWakefulness('  getWakefulnessLocked()=Awake\n')).toBe('Awake');
    expect(parseWakefulness('  mWakefulness=Dreaming\n')).toBe('Dreaming');
    expect(parseWakefulness('POWER MANAGER (dumpsys power)\n')).toBeNull();
  });
});

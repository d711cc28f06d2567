/**
 * The locked and asleep traits and io.appium.settings's trampoline, in process: what
 * `dumpsys window` and `dumpsys power` print per API level (read back by the harness's parsers),
 * and that the screen really behaves so (the lock screen takes taps, keys and swipes; `am start`
 * starts the app behind it; a display that is off drops input and captures black).
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { parseWakefulness, parseWindowState } from '../../../src/infrastructure/adb/parsers.js';
import { VirtualDevice } from '../../../packages/virtual-device/src/device/index.js';
import { sh, shBytes } from '../../../packages/virtual-device/test/unit/helpers.js';

const newDevice = (): VirtualDevice => VirtualDevice.withDefaultScenario();
const focusLine = (text: string): string =>
  /mCurrentFocus=(\S+)/.exec(text.slice(text.indexOf('WINDOW MANAGER DISPLAY CONTENTS')))?.[1] ?? '';

describe('locked trait: dumpsys window per API level', () => {
  it.each([
    [28, 'StatusBar', /mAwake=truemScreenOnEarly=true mScreenOnFully=true/],
    [30, 'StatusBar', /DisplayPolicy\n[\s\S]*isKeyguardShowing=true/],
    [33, 'NotificationShade', /mExpandedPanel=Window\{\S+ u0 NotificationShade\}\n\s+isKeyguardShowing=true/],
    [34, 'NotificationShade', /mExpandedPanel=Window\{\S+ u0 NotificationShade\}\n\s+isKeyguardShowing=true/],
  ])(
    'API %i: focus on %s, mFocusedApp still the app, the policy says showing; the harness reads System UI, locked',
    async (sdk, window, form) => {
      const d = newDevice();
      d.setSdk(sdk);
      d.setScreen('settings_home');
      d.setLocked(true);
      const out = (await sh(d, 'dumpsys window')).stdout;
      expect(focusLine(out)).toBe(`Window{5e0c2a1`);
      expect(out).toMatch(new RegExp(`mCurrentFocus=Window\\{\\S+ u0 ${window}\\}`));
      expect(out).toMatch(/mFocusedApp=.*ActivityRecord\{\S+ u0 com\.android\.settings\//);
      expect(out).toMatch(/KeyguardServiceDelegate\n\s+showing=true\n\s+inputRestricted=true/);
      expect(out).toMatch(form);
      expect(parseWindowState(out)).toMatchObject({
        foregroundPackage: 'com.android.systemui',
        lock: { locked: true, awake: true },
      });
      d.setLocked(false);
      const unlocked = (await sh(d, 'dumpsys window')).stdout;
      expect(parseWindowState(unlocked)).toMatchObject({
        foregroundPackage: 'com.android.settings',
        lock: { locked: false },
      });
    },
  );

  it('asleep: mWakefulness=Asleep (Dozing on an ambient display), mAwake=false, the keyguard delegate says SCREEN_STATE_OFF', async () => {
    const d = newDevice();
    expect(parseWakefulness((await sh(d, 'dumpsys power')).stdout)).toBe('Awake');
    d.setAsleep('asleep');
    expect((await sh(d, 'dumpsys power')).stdout).toMatch(/^ {2}mWakefulness=Asleep$/m);
    const out = (await sh(d, 'dumpsys window')).stdout;
    expect(out).toMatch(/mAwake=false mScreenOnEarly=false mScreenOnFully=false/);
    expect(out).toMatch(/screenState=SCREEN_STATE_OFF/);
    expect(parseWindowState(out).lock).toEqual({ locked: false, awake: false });
    d.setAsleep('dozing');
    expect(parseWakefulness((await sh(d, 'dumpsys power')).stdout)).toBe('Dozing');
    d.resetTraits();
    expect(parseWakefulness((await sh(d, 'dumpsys power')).stdout)).toBe('Awake');
  });
});

describe('locked trait: the screen behaves so', () => {
  it('the dump shows the lock screen (System UI), a tap on where the app was does nothing, Back and Home do not navigate', async () => {
    const d = newDevice();
    d.setScreen('settings_home');
    const before = d.currentScreen().screenId;
    const apps = d.nodes().find((n) => n.text === 'Apps');
    if (!apps) throw new Error('Settings home has an Apps row');
    const x = Math.round((apps.bounds.left + apps.bounds.right) / 2);
    const y = Math.round((apps.bounds.top + apps.bounds.bottom) / 2);
    d.setLocked(true);
    const dump = (await sh(d, 'uiautomator dump /dev/tty')).stdout;
    expect(dump).toContain('package="com.android.systemui"');
    expect(dump).toContain('com.android.systemui:id/keyguard_root_view');
    expect(dump).not.toContain('package="com.android.settings"');
    // "Apps" is a row of Settings' home screen: tap where it is drawn.
    await sh(d, `input tap ${x} ${y}`);
    await sh(d, 'input keyevent 4');
    await sh(d, 'input keyevent 3');
    await sh(d, 'input swipe 540 1800 540 600');
    expect(d.currentScreen().screenId).toBe(before);
    expect(d.log()?.some((e) => e.kind === 'input' && /the lock screen takes it/.test(e.detail))).toBe(true);
    // Unlocked, the same tap opens Apps (so the check above could fail).
    d.setLocked(false);
    await sh(d, `input tap ${x} ${y}`);
    expect(d.currentScreen().screenId).not.toBe(before);
  });

  it('am start while locked starts the app behind the keyguard: mFocusedApp is the app, the focus stays on the lock screen', async () => {
    const d = newDevice();
    d.setLocked(true);
    const start = await sh(d, 'am start -W -n com.example.notes/.MainActivity');
    expect(start.stdout).toMatch(/Status: ok/);
    const out = (await sh(d, 'dumpsys window')).stdout;
    expect(out).toMatch(/mFocusedApp=ActivityRecord\{\S+ u0 com\.example\.notes\//);
    expect(out).toMatch(/mCurrentFocus=Window\{\S+ u0 NotificationShade\}/);
    expect(parseWindowState(out).foregroundPackage).toBe('com.android.systemui');
  });

  it('asleep: input is dropped and screencap captures black', async () => {
    const d = newDevice();
    d.setScreen('settings_home');
    d.setAsleep('asleep');
    await sh(d, 'input tap 540 1000');
    expect(d.currentScreen().screenId).toBe('settings_home');
    const png = PNG.sync.read(await shBytes(d, 'screencap -p'));
    const centre = (png.width * Math.floor(png.height / 2) + Math.floor(png.width / 2)) * 4;
    expect([png.data[centre], png.data[centre + 1], png.data[centre + 2]]).toEqual([0, 0, 0]);
  });
});

describe('settings helper trait: the first start of io.appium.settings takes the focus for a moment', () => {
  it('holds mCurrentFocus for the trait duration, closes an open keyboard; a second start (service running) does not', async () => {
    let now = 1_000_000;
    const d = VirtualDevice.withDefaultScenario({ clock: { nowMs: () => now, sleep: async () => undefined } });
    d.setSettingsHelperFocus(600);
    d.setScreen('settings_search');
    expect(d.imeVisible()).toBe(true);
    await sh(
      d,
      'am start -n io.appium.settings/.Settings -a android.intent.action.MAIN -c android.intent.category.LAUNCHER',
    );
    expect(d.imeVisible()).toBe(false);
    expect(parseWindowState((await sh(d, 'dumpsys window')).stdout).foregroundPackage).toBe('io.appium.settings');
    now += 600;
    expect(parseWindowState((await sh(d, 'dumpsys window')).stdout).foregroundPackage).toBe(
      'com.google.android.settings.intelligence',
    );
    await sh(
      d,
      'am start -n io.appium.settings/.Settings -a android.intent.action.MAIN -c android.intent.category.LAUNCHER',
    );
    expect(parseWindowState((await sh(d, 'dumpsys window')).stdout).foregroundPackage).toBe(
      'com.google.android.settings.intelligence',
    );
  });
});

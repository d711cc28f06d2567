/**
 * A locked or sleeping screen, and the first Appium session after boot
 * starting io.appium.settings. Each behaviour is a named test (QUIRK-…) that first shows the raw
 * behaviour through the real adb and the real Appium (what the virtual device does), then the
 * harness's answer: the envelope of the built server over real stdio. One private adb server, one
 * virtual device and one real Appium 3 for the file; every test starts from resetTraits().
 * The table: docs/internals/device-quirks.md.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { describeWithAdb, type PrivateAdbServer } from '../support/adbServer.js';
import type { RunningAppium } from '../support/appium.js';
import { quirkProbes } from '../support/quirkProbes.js';
import { quirksScenario } from '../support/quirksScenario.js';
import { startQuirkStack, type QuirkStack } from '../support/quirkStack.js';
import { ensureBuilt } from '../support/rawServer.js';
import { openRawSession } from '../support/rawSession.js';

const NEVER_UNLOCKS =
  /The harness never unlocks or wakes the device itself: it cannot know the PIN, pattern or password\./;

describeWithAdb('a locked or sleeping screen, io.appium.settings at the first session', () => {
  let stack: QuirkStack;
  let adb: PrivateAdbServer;
  let device: VirtualDevice;
  let serial: string;
  let appium: RunningAppium;

  const { call, report, rawText, untilNoSession } = quirkProbes('quirks-lock', () => stack);
  /** Until the session a harness kept after an action (lease 1 s) is gone. */
  const noSessionLeft = (): Promise<void> => untilNoSession();
  const liveFocus = (text: string): string =>
    /mCurrentFocus=(\S+)/.exec(text.slice(text.indexOf('WINDOW MANAGER DISPLAY CONTENTS')))?.[1] ?? '';

  beforeAll(async () => {
    ensureBuilt();
    stack = await startQuirkStack({
      label: 'quirks-lock',
      scenario: quirksScenario(),
      harness: { ANDROID_MCP_ACTION_TIMEOUT: '30' },
    });
    ({ adb, device, serial, appium } = stack);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  afterEach(async () => {
    await noSessionLeft();
    device.clearFaults();
    device.resetTraits();
  });

  it('QUIRK-LOCK-1: with the keyguard up the lock screen has the focus and takes taps, `am start` succeeds behind it; the harness answers DEVICE_LOCKED', async () => {
    device.setScreen('settings_home');
    device.setLocked(true);
    // Raw, API 34: System UI's NotificationShade window has the focus, the policy says the keyguard shows,
    // and mFocusedApp still names the app behind it (the fallback that would report Settings in front).
    const window = await rawText(['shell', 'dumpsys', 'window']);
    expect(liveFocus(window)).toBe('Window{5e0c2a1');
    expect(window).toMatch(/mCurrentFocus=Window\{\S+ u0 NotificationShade\}/);
    expect(window).toMatch(/mFocusedApp=ActivityRecord\{\S+ u0 com\.android\.settings\//);
    expect(window).toMatch(/isKeyguardShowing=true/);
    expect(window).toMatch(/KeyguardServiceDelegate\n\s+showing=true/);
    // `am start -W` prints a normal launch; the app is started behind the keyguard, which keeps the focus.
    const start = await rawText(['shell', 'am', 'start', '-W', '-n', 'com.example.notes/.MainActivity']);
    expect(start).toMatch(/Status: ok/);
    const after = await rawText(['shell', 'dumpsys', 'window']);
    expect(after).toMatch(/mFocusedApp=ActivityRecord\{\S+ u0 com\.example\.notes\//);
    expect(after).toMatch(/mCurrentFocus=Window\{\S+ u0 NotificationShade\}/);
    // The dump is the lock screen's; a tap goes to it.
    const dump = await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty']);
    expect(dump).toContain('com.android.systemui:id/keyguard_root_view');
    expect(dump).not.toContain('package="com.example.notes"');
    const screenBefore = device.currentScreen().screenId;
    await rawText(['shell', 'input', 'tap', '540', '1200']);
    expect(device.currentScreen().screenId).toBe(screenBefore);

    // The harness: status says locked; every launch and action says DEVICE_LOCKED and starts nothing.
    const status = await call('emulator_get_status');
    report('QUIRK-LOCK-1 emulator_get_status', status);
    expect(status.envelope, JSON.stringify(status.envelope.error)).toMatchObject({
      ok: true,
      data: { screen: { awake: true, locked: true } },
    });
    const tree = await call('ui_get_tree');
    expect(tree.envelope.data).toMatchObject({ foreground_package: 'com.android.systemui' });
    const starts = device.log().filter((e) => e.kind === 'shell' && /am start/.test(e.detail)).length;
    const open = await call('app_open', { package_name: 'com.android.settings' });
    report('QUIRK-LOCK-1 app_open', open);
    expect(open.envelope.error?.code).toBe('DEVICE_LOCKED');
    expect(open.envelope.error?.message).toMatch(
      /^The device is locked \(the lock screen is showing\), so opening com\.android\.settings was not done/,
    );
    expect(open.envelope.error?.message).toMatch(NEVER_UNLOCKS);
    const settings = await call('settings_open_apps');
    expect(settings.envelope.error?.code).toBe('DEVICE_LOCKED');
    expect(device.log().filter((e) => e.kind === 'shell' && /am start/.test(e.detail)).length).toBe(starts);
    const tap = await call('ui_tap', { selector: { text: 'Apps' } });
    report('QUIRK-LOCK-1 ui_tap', tap);
    expect(tap.envelope.error?.code).toBe('DEVICE_LOCKED');
    expect(tap.envelope.error?.message).toMatch(/so the tap was not done/);
    expect(await appium.sessionIds()).toEqual([]);

    // API 30: the StatusBar window holds the keyguard; the harness reads that form too.
    device.setSdk(30);
    expect(await rawText(['shell', 'dumpsys', 'window'])).toMatch(/mCurrentFocus=Window\{\S+ u0 StatusBar\}/);
    expect((await call('app_open', { package_name: 'com.android.settings' })).envelope.error?.code).toBe(
      'DEVICE_LOCKED',
    );
    device.setSdk(28);
    expect(await rawText(['shell', 'dumpsys', 'window'])).toMatch(/mAwake=truemScreenOnEarly=true/);
    expect((await call('app_open', { package_name: 'com.android.settings' })).envelope.error?.code).toBe(
      'DEVICE_LOCKED',
    );

    // Unlocked by the person at the device: the same call works.
    device.resetTraits();
    const unlocked = await call('app_open', { package_name: 'com.android.settings' });
    expect(unlocked.envelope, JSON.stringify(unlocked.envelope.error)).toMatchObject({
      ok: true,
      data: { foreground_package: 'com.android.settings' },
    });
  }, 120_000);

  it('QUIRK-SLEEP-1: with the screen off dumpsys power says Asleep (Dozing on an ambient display) and input is dropped; the harness says the screen is off', async () => {
    device.setScreen('settings_home');
    device.setAsleep('asleep');
    expect(await rawText(['shell', 'dumpsys', 'power'])).toMatch(/^ {2}mWakefulness=Asleep\r?$/m);
    expect(await rawText(['shell', 'dumpsys', 'window'])).toMatch(
      /mAwake=false mScreenOnEarly=false mScreenOnFully=false/,
    );
    await rawText(['shell', 'input', 'keyevent', '4']);
    expect(device.currentScreen().screenId).toBe('settings_home');

    const status = await call('emulator_get_status');
    expect(status.envelope, JSON.stringify(status.envelope.error)).toMatchObject({
      ok: true,
      data: { screen: { awake: false, locked: false } },
    });
    const back = await call('device_back');
    report('QUIRK-SLEEP-1 device_back', back);
    expect(back.envelope.error?.code).toBe('DEVICE_LOCKED');
    expect(back.envelope.error?.message).toMatch(
      /^The device's screen is off \(asleep\), so Back was not done.*Wake the device/,
    );
    expect(back.envelope.error?.message).toMatch(NEVER_UNLOCKS);
    device.setAsleep('dozing');
    expect(await rawText(['shell', 'dumpsys', 'power'])).toMatch(/mWakefulness=Dozing/);
    const dozing = await call('app_open', { package_name: 'com.android.settings' });
    expect(dozing.envelope.error?.message).toMatch(/screen is off \(dozing \(ambient display\)\)/);
  }, 60_000);

  it('QUIRK-SETTINGS-HELPER-1: the first session after boot starts io.appium.settings, which takes the focus and closes the keyboard; the harness never reports it in front and says the keyboard was closed', async () => {
    // Raw, through the real Appium: a session on the form (keyboard up), its service not running yet.
    device.setSettingsHelperFocus(10_000);
    device.stopSettingsHelper();
    device.setScreen('quirks_form');
    expect(device.imeVisible()).toBe(true);
    const began = Date.now();
    const driver = await openRawSession({ appiumPort: Number(new URL(appium.url).port), serial, adbPort: adb.port });
    const sessionStartMs = Date.now() - began;
    try {
      expect(
        device
          .log()
          .some(
            (e) => e.kind === 'shell' && /am start(?:-activity)? .*io\.appium\.settings\/\.Settings/.test(e.detail),
          ),
      ).toBe(true);
      expect(device.imeVisible()).toBe(false);
      expect(liveFocus(await rawText(['shell', 'dumpsys', 'window']))).toBe('Window{8d0a2f1');
      expect(await rawText(['shell', 'dumpsys', 'window'])).toMatch(
        /mCurrentFocus=Window\{\S+ u0 io\.appium\.settings\/io\.appium\.settings\.Settings\}/,
      );
    } finally {
      await driver.deleteSession().catch(() => undefined);
    }
    process.stderr.write(`[quirks-lock] QUIRK-SETTINGS-HELPER-1 raw session start: ${sessionStartMs} ms\n`);

    // The harness: again after a "reboot", the helper holding the focus a little past the session start.
    await noSessionLeft();
    device.resetTraits();
    device.stopSettingsHelper();
    device.setScreen('quirks_form');
    device.setSettingsHelperFocus(sessionStartMs + 700);
    const tap = await call('ui_tap', { selector: { content_desc: 'Attach' } });
    report('QUIRK-SETTINGS-HELPER-1 ui_tap', tap);
    expect(tap.envelope, JSON.stringify(tap.envelope.error)).toMatchObject({
      ok: true,
      data: { keyboard_closed_before_action: true },
    });
    expect(tap.envelope.data.foreground_package).not.toBe('io.appium.settings');
    expect(['com.example.quirks', null]).toContain(tap.envelope.data.foreground_package);

    // A helper that keeps the focus past the settle bound (1.5 s): the harness says it does not know, never "io.appium.settings".
    await noSessionLeft();
    device.stopSettingsHelper();
    device.setScreen('quirks_form');
    device.setSettingsHelperFocus(10_000);
    const held = await call('ui_tap', { selector: { content_desc: 'Attach' } });
    report('QUIRK-SETTINGS-HELPER-1 ui_tap, helper in front throughout', held);
    expect(held.envelope, JSON.stringify(held.envelope.error)).toMatchObject({
      ok: true,
      data: { foreground_package: null, foreground_settled: false, keyboard_closed_before_action: true },
    });
    expect(await rawText(['shell', 'dumpsys', 'window'])).toMatch(
      /mCurrentFocus=Window\{\S+ u0 io\.appium\.settings\//,
    );
  }, 120_000);
});

/**
 * A locked or sleeping screen in the application layer (fake device): DEVICE_LOCKED from
 * app_open, settings_open_apps and the acting tools before anything starts (no launch, no Appium
 * session), `screen` in emulator_get_status, and io.appium.settings never reported in front.
 */
import { describe, expect, it } from 'vitest';
import { buildLocator } from '../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { ERROR_CODES } from '../../../src/domain/errors.js';
import { buildHarness } from '../../support/fakes/harness.js';

const LOCKED = { locked: true, awake: true } as const;

describe('DEVICE_LOCKED', () => {
  it('is one of the closed error codes', () => {
    expect(ERROR_CODES).toContain('DEVICE_LOCKED');
  });

  it('app_open on a locked device: DEVICE_LOCKED saying to unlock it and that the harness never does; nothing is started', async () => {
    const h = buildHarness();
    h.device.lock = LOCKED;
    const envelope = await h.envelope('app_open', { package_name: 'com.example.app' });
    expect(envelope.error?.code).toBe('DEVICE_LOCKED');
    expect(envelope.error?.message).toMatch(
      /^The device is locked \(the lock screen is showing\), so opening com\.example\.app was not done/,
    );
    expect(envelope.error?.message).toMatch(
      /Unlock the device on its screen .* then retry\. The harness never unlocks or wakes the device itself: it cannot know the PIN, pattern or password\./,
    );
    expect(h.device.calls).not.toContain('startActivity');
  });

  it('settings_open_apps with the screen off (dumpsys power Asleep): DEVICE_LOCKED saying to wake it; Settings is not started', async () => {
    const h = buildHarness();
    h.device.wakefulness = 'Asleep';
    const envelope = await h.envelope('settings_open_apps');
    expect(envelope.error?.code).toBe('DEVICE_LOCKED');
    expect(envelope.error?.message).toMatch(
      /^The device's screen is off \(asleep\), so opening Settings → Apps was not done.*Wake the device/,
    );
    expect(h.device.calls).not.toContain('startApplicationSettings');
  });

  it('ui_tap, ui_scroll, device_back and device_key on a locked device: DEVICE_LOCKED, no Appium session opened', async () => {
    const h = buildHarness();
    h.device.lock = LOCKED;
    h.automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    for (const [tool, args] of [
      ['ui_tap', { selector: { text: 'Calendar' } }],
      ['ui_scroll', { direction: 'down' }],
      ['device_back', {}],
    ] as const) {
      const envelope = await h.envelope(tool, args);
      expect(envelope.error?.code, tool).toBe('DEVICE_LOCKED');
    }
    expect(h.automation.log).toEqual([]);
    // Dozing (always-on display) is off too; dumpsys window's mAwake is only the fallback.
    h.device.lock = undefined;
    h.device.wakefulness = 'Dozing';
    expect((await h.envelope('ui_tap', { selector: { text: 'Calendar' } })).error?.message).toMatch(
      /screen is off \(dozing \(ambient display\)\)/,
    );
    h.device.wakefulness = null;
    h.device.lock = { locked: false, awake: false };
    expect((await h.envelope('ui_tap', { selector: { text: 'Calendar' } })).error?.code).toBe('DEVICE_LOCKED');
    h.device.lock = { locked: false, awake: true };
    expect((await h.envelope('ui_tap', { selector: { text: 'Calendar' } })).ok).toBe(true);
  });

  it('emulator_get_status answers (ok) and reports screen {awake, locked}', async () => {
    const h = buildHarness();
    h.device.lock = LOCKED;
    h.device.wakefulness = 'Asleep';
    const envelope = await h.envelope('emulator_get_status');
    expect(envelope.ok).toBe(true);
    expect(envelope.data.screen).toEqual({ awake: false, locked: true });
  });
});

describe('io.appium.settings is never the app in front', () => {
  it('ui_tap settles past it; at the bound it reports no package rather than the helper', async () => {
    const h = buildHarness();
    h.automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    h.device.foregroundReads = [
      'com.android.settings',
      'io.appium.settings',
      'io.appium.settings',
      'com.android.settings',
    ];
    const passed = await h.envelope('ui_tap', { selector: { text: 'Calendar' } });
    expect(passed.data).toMatchObject({ foreground_package: 'com.android.settings' });
    expect(passed.data).not.toHaveProperty('foreground_settled');

    h.device.foregroundReads = ['com.android.settings', ...Array.from({ length: 20 }, () => 'io.appium.settings')];
    const stuck = await h.envelope('ui_tap', { selector: { text: 'Calendar' } });
    expect(stuck.data).toMatchObject({ foreground_package: null, foreground_settled: false });
  });

  it('a keyboard open before the action and closed once the session is there is reported (keyboard_closed_before_action)', async () => {
    const h = buildHarness();
    h.automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    const open = { visible: true, frame: { left: 0, top: 1517, right: 1080, bottom: 2400 } };
    h.device.ime = open;
    // The screen check sees the keyboard; the session start (io.appium.settings taking the focus) closes it.
    let reads = 0;
    const original = h.device.getWindowState.bind(h.device);
    h.device.getWindowState = async () => {
      reads += 1;
      if (reads === 2) h.device.ime = { visible: false, frame: null };
      return original();
    };
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Calendar' } });
    expect(envelope.data).toMatchObject({ keyboard_closed_before_action: true });
    h.device.ime = open;
    reads = 10;
    const kept = await h.envelope('ui_tap', { selector: { text: 'Calendar' } });
    expect(kept.data).not.toHaveProperty('keyboard_closed_before_action');
  });
});

describe('emulator_get_status when the screen cannot be read', () => {
  it('answers ok with screen: null (the status is the diagnostic call)', async () => {
    const { HarnessError } = await import('../../../src/domain/errors.js');
    const h = buildHarness();
    h.device.failWith.getWakefulness = new HarnessError(
      'EMULATOR_UNAVAILABLE',
      'Reading the device failed (dumpsys power).',
    );
    const envelope = await h.envelope('emulator_get_status');
    expect(envelope.ok).toBe(true);
    expect(envelope.data.screen).toBeNull();
  });
});

describe('the lock check reads dumpsys power only when dumpsys window shows something changed', () => {
  const tapCalendar = { selector: { text: 'Calendar' } } as const;
  const powerReads = (calls: readonly string[]): number => calls.filter((c) => c === 'getWakefulness').length;

  it('consecutive actions on an awake, unlocked screen with the same focus: dumpsys power once, then dumpsys window alone', async () => {
    const h = buildHarness();
    h.device.lock = { locked: false, awake: true };
    h.device.activity = 'com.android.settings.Settings';
    h.automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    expect((await h.envelope('ui_tap', tapCalendar)).ok).toBe(true);
    expect(powerReads(h.device.calls)).toBe(1);
    for (let i = 0; i < 3; i++) expect((await h.envelope('ui_tap', tapCalendar)).ok).toBe(true);
    // Three more actions, each reading dumpsys window: no second dumpsys power.
    expect(powerReads(h.device.calls)).toBe(1);
    expect(h.device.calls.filter((c) => c === 'getWindowState').length).toBeGreaterThanOrEqual(4);
  });

  it('reads dumpsys power again after the focus moved (a screensaver takes the focus), and a Dreaming answer is DEVICE_LOCKED', async () => {
    const h = buildHarness();
    h.device.lock = { locked: false, awake: true };
    h.automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    expect((await h.envelope('ui_tap', tapCalendar)).ok).toBe(true);
    // Dreaming is interactive for Android: mAwake stays true; the dream's window has the focus.
    h.device.wakefulness = 'Dreaming';
    h.device.foreground = 'com.android.dreams.basic';
    const before = powerReads(h.device.calls);
    const clicks = h.automation.log.length;
    const envelope = await h.envelope('ui_tap', tapCalendar);
    expect(powerReads(h.device.calls)).toBe(before + 1);
    expect(envelope.error?.code).toBe('DEVICE_LOCKED');
    expect(envelope.error?.message).toMatch(/showing a screensaver/);
    expect(h.automation.log.slice(clicks).filter((l) => l.endsWith(':click'))).toEqual([]);
  });

  it('reads dumpsys power again when dumpsys window shows the display off or no display flag at all', async () => {
    const h = buildHarness();
    h.device.lock = { locked: false, awake: true };
    h.automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    expect((await h.envelope('ui_tap', tapCalendar)).ok).toBe(true);
    h.device.lock = { locked: false, awake: false };
    h.device.wakefulness = 'Dozing';
    let before = powerReads(h.device.calls);
    expect((await h.envelope('ui_tap', tapCalendar)).error?.message).toMatch(/dozing/);
    expect(powerReads(h.device.calls)).toBe(before + 1);
    // Awake again, on a build whose dumpsys window prints no display flag: every action reads both.
    h.device.lock = undefined;
    h.device.wakefulness = 'Awake';
    before = powerReads(h.device.calls);
    expect((await h.envelope('ui_tap', tapCalendar)).ok).toBe(true);
    expect((await h.envelope('ui_tap', tapCalendar)).ok).toBe(true);
    expect(powerReads(h.device.calls)).toBe(before + 2);
  });
});

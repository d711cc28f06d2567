import { HarnessError } from '../../../../src/domain/errors.js';
import { loadConfig } from '../../../../src/config.js';
import { describe, expect, it } from 'vitest';
import { buildLocator } from '../../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../../src/domain/validation.js';
import { buildHarness, type TestHarness } from '../../../support/fakes/harness.js';
import { launcherDump, settingsAppsDump } from '../../../support/fakes/screens.js';
import { offer, windowReads } from './support.js';

describe('actions: ui_tap', () => {
  it('ui_tap reads the label before the click, reports the foreground and leaves evidence; the temporary session is closed', async () => {
    const h = buildHarness();
    offer(h, { text: 'Calendar' }, 'Calendar');
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Calendar' } });
    expect(envelope).toMatchObject({
      ok: true,
      data: { target: { text: 'Calendar' }, element_label: 'Calendar', foreground_package: 'com.android.settings' },
    });
    expect(envelope.evidence?.artifact_id).toMatch(/-ui-tap\.png$/);
    const calls = h.automation.sessions[0]?.calls ?? [];
    // A `text` selector matched exactly that text on a node that is no password field: no read for the label.
    expect(calls).not.toContain('elementLabel');
    expect(calls).toContain('click');
    expect(calls.at(-1)).toBe('close');
    expect(h.automation.open.size).toBe(0);
    expect(h.device.calls).not.toContain('dumpUi');
  });

  it("ui_tap by another selector reads the element's label before the click (the click may navigate away)", async () => {
    const h = buildHarness();
    offer(h, { content_desc: 'Search' }, 'Search settings');
    const envelope = await h.envelope('ui_tap', { selector: { content_desc: 'Search' } });
    expect(envelope).toMatchObject({
      ok: true,
      data: { target: { content_desc: 'Search' }, element_label: 'Search settings' },
    });
    const calls = h.automation.sessions[0]?.calls ?? [];
    expect(calls.indexOf('elementLabel')).toBeGreaterThanOrEqual(0);
    expect(calls.indexOf('elementLabel')).toBeLessThan(calls.indexOf('click'));
  });

  // An edge-to-edge app's element can have its centre under a system bar or the keyboard.
  describe('ui_tap on an element whose centre is covered', () => {
    const BARS = {
      status: { left: 0, top: 0, right: 1080, bottom: 63 },
      navigation: { left: 0, top: 2274, right: 1080, bottom: 2400 },
    };
    const placed = (bounds: string, className = 'android.widget.Button'): TestHarness => {
      const h = buildHarness();
      offer(h, { text: 'Place order' }, 'Place order');
      h.automation.places.set('Place order', { className, bounds });
      h.device.systemBars = BARS;
      return h;
    };

    it('presses the part outside the navigation bar (a W3C tap the harness computed), not the centre', async () => {
      const h = placed('[0,2232][1080,2400]');
      const envelope = await h.envelope('ui_tap', { selector: { text: 'Place order' } });
      expect(envelope).toMatchObject({
        ok: true,
        data: { target: { text: 'Place order' }, element_label: 'Place order', pressed_outside: 'navigation_bar' },
      });
      const session = h.automation.sessions[0];
      expect(session?.presses).toEqual([{ point: { x: 540, y: 2253 }, holdMs: 0 }]);
      expect(session?.calls).not.toContain('click');
    });

    it('a long press there holds as long as the long click would', async () => {
      const h = placed('[0,2232][1080,2400]');
      const envelope = await h.envelope('ui_tap', { selector: { text: 'Place order' }, long_press: true });
      expect(envelope).toMatchObject({ ok: true, data: { long_press: true, pressed_outside: 'navigation_bar' } });
      expect(h.automation.sessions[0]?.presses).toEqual([{ point: { x: 540, y: 2253 }, holdMs: 1500 }]);
      expect(h.automation.sessions[0]?.calls).not.toContain('longClick');
    });

    it('the keyboard counts as well: the part above it', async () => {
      const h = placed('[0,1400][1080,2000]');
      h.device.ime = { visible: true, frame: { left: 0, top: 1517, right: 1080, bottom: 2400 } };
      expect((await h.envelope('ui_tap', { selector: { text: 'Place order' } })).data).toMatchObject({
        pressed_outside: 'keyboard',
      });
      expect(h.automation.sessions[0]?.presses).toEqual([{ point: { x: 540, y: 1458 }, holdMs: 0 }]);
    });

    it('an element entirely under the bar is refused with what to do; nothing is pressed', async () => {
      const h = placed('[300,2300][780,2390]');
      const envelope = await h.envelope('ui_tap', { selector: { text: 'Place order' } });
      expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
      expect(envelope.error?.message).toMatch(
        /lies entirely under the navigation bar .*System UI.*ui_scroll.*Nothing was tapped\.$/,
      );
      const session = h.automation.sessions[0];
      expect(session?.presses).toEqual([]);
      expect(session?.calls).not.toContain('click');
    });

    it('a free centre, or bars nobody reported, is the driver’s own click', async () => {
      const free = placed('[63,1000][1017,1200]');
      expect((await free.envelope('ui_tap', { selector: { text: 'Place order' } })).data).not.toHaveProperty(
        'pressed_outside',
      );
      expect(free.automation.sessions[0]?.calls).toContain('click');
      const unknown = placed('[0,2232][1080,2400]');
      unknown.device.systemBars = undefined;
      await unknown.envelope('ui_tap', { selector: { text: 'Place order' } });
      expect(unknown.automation.sessions[0]?.calls).toContain('click');
      expect(unknown.automation.sessions[0]?.presses).toEqual([]);
    });

    it('with the warm session kept from an earlier call, the press plans with the check’s window read; a fresh session reads it again', async () => {
      const h = buildHarness({ warmSessionTimeoutMs: 60_000 });
      offer(h, { text: 'Place order' }, 'Place order');
      h.automation.places.set('Place order', { className: 'android.widget.Button', bounds: '[0,2232][1080,2400]' });
      h.device.systemBars = BARS;
      const tap = () => h.envelope('ui_tap', { selector: { text: 'Place order' }, observe: false });
      // First call: the session opens in it, and opening can move the focus: the window is read again before the press.
      expect((await tap()).data).toMatchObject({ pressed_outside: 'navigation_bar' });
      expect(windowReads(h)).toBe(1 + 1 + 1);
      expect(h.automation.sessions).toHaveLength(1);
      // Second call on the kept session: the check's read stands (nothing acted since), one read fewer.
      expect((await tap()).data).toMatchObject({ pressed_outside: 'navigation_bar' });
      expect(windowReads(h)).toBe(3 + 1 + 1);
      expect(h.automation.sessions).toHaveLength(1);
      expect(h.automation.sessions[0]?.presses).toEqual([
        { point: { x: 540, y: 2253 }, holdMs: 0 },
        { point: { x: 540, y: 2253 }, holdMs: 0 },
      ]);
    });

    it('System UI’s own buttons are in the bar’s window: the bar does not cover them', async () => {
      const h = placed('[100,2274][300,2400]');
      h.automation.places.set('Place order', {
        className: 'android.widget.ImageView',
        bounds: '[100,2274][300,2400]',
        packageName: 'com.android.systemui',
      });
      expect((await h.envelope('ui_tap', { selector: { text: 'Place order' } })).ok).toBe(true);
      expect(h.automation.sessions[0]?.calls).toContain('click');
      expect(h.automation.sessions[0]?.presses).toEqual([]);
    });

    it('ui_type_text focuses a field under the bar through its visible part, and types into one with none left without a tap', async () => {
      const h = placed('[0,2232][1080,2400]', 'android.widget.EditText');
      expect((await h.envelope('ui_type_text', { selector: { text: 'Place order' }, text: 'x' })).ok).toBe(true);
      expect(h.automation.sessions[0]?.presses).toEqual([{ point: { x: 540, y: 2253 }, holdMs: 0 }]);
      const hidden = placed('[300,2300][780,2390]', 'android.widget.EditText');
      expect((await hidden.envelope('ui_type_text', { selector: { text: 'Place order' }, text: 'x' })).ok).toBe(true);
      expect(hidden.automation.sessions[0]?.calls).not.toContain('click');
      expect(hidden.automation.sessions[0]?.typed).toEqual(['x']);
    });
  });

  it('ui_tap with long_press: true long-clicks (held past any long-press timeout), never clicks, with its own evidence label', async () => {
    const h = buildHarness();
    offer(h, { text: 'Calendar' }, 'Calendar');
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Calendar' }, long_press: true });
    expect(envelope).toMatchObject({
      ok: true,
      data: { target: { text: 'Calendar' }, element_label: 'Calendar', long_press: true },
    });
    expect(envelope.evidence?.artifact_id).toMatch(/-ui-long-press\.png$/);
    const session = h.automation.sessions[0];
    expect(session?.calls).toContain('longClick');
    expect(session?.calls).not.toContain('click');
    expect(session?.longClicks).toEqual([1500]);
    // long_press: false (or null) is a plain tap.
    for (const value of [false, null]) {
      const plain = await h.envelope('ui_tap', { selector: { text: 'Calendar' }, long_press: value });
      expect(plain.data).not.toHaveProperty('long_press');
      expect(plain.evidence?.artifact_id).toMatch(/-ui-tap\.png$/);
    }
  });

  it('a hand-written selector reaches the driver as the locator the domain built', async () => {
    const h = buildHarness();
    const selector = { resource_id_matches: 'com\\.x:id/row_.*', checked: true, instance: 1 };
    h.automation.elements.set(
      'new UiSelector().resourceIdMatches("com\\.x:id/row_.*").checked(true).instance(1)',
      'Row',
    );
    const envelope = await h.envelope('ui_tap', { selector });
    expect(envelope).toMatchObject({ ok: true, data: { target: selector, element_label: 'Row' } });
    expect(h.automation.locators[0]?.using).toBe('-android uiautomator');
  });

  it('a selector with within reaches the driver as one locator', async () => {
    const h = buildHarness();
    const selector = { text: 'Save', within: { content_desc: 'Work profile' } };
    offer(h, selector, 'Save');
    const envelope = await h.envelope('ui_tap', { selector });
    expect(envelope.data).toMatchObject({ target: selector });
    expect(h.automation.locators[0]?.using).toBe('xpath');
  });

  it('nothing matched: UI_ELEMENT_NOT_FOUND naming what the screen offers, with failure evidence', async () => {
    const h = buildHarness();
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Bluetooth' } });
    expect(envelope.ok).toBe(false);
    expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
    expect(envelope.error?.message).toContain('The screen offers');
    expect(envelope.error?.message).toContain("'Calendar' (button)");
    expect(envelope.evidence?.artifact_id).toMatch(/-failure-ui-tap\.png$/);
    expect(h.store.files.has(envelope.evidence?.artifact_id ?? '')).toBe(true);
    expect(h.device.calls).not.toContain('dumpUi');
    expect(h.automation.open.size).toBe(0);
  });

  it('asks for the page source of `after` beside the first foreground read, not behind it', async () => {
    const h = buildHarness({ actionTimeoutMs: 3_000 });
    h.automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    // Every foreground read after the lock check never answers: only a source asked beside it is asked at all.
    const real = h.device.getWindowState.bind(h.device);
    let reads = 0;
    h.device.getWindowState = () => (++reads === 1 ? real() : new Promise(() => undefined));
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Calendar' } });
    expect(envelope.error?.code).toBe('OPERATION_TIMEOUT');
    const calls = h.automation.sessions[0]?.calls ?? [];
    expect(calls.slice(calls.indexOf('click'))).toContain('pageSource');
  });

  it('drops that early source when the first read finds no focused window, and reads the settled screen', async () => {
    const h = buildHarness();
    h.automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    let sources = 0;
    Object.defineProperty(h.automation, 'source', {
      // A navigation inside the same app: the first source is of the moment no window had focus (the old
      // screen, same package, so the tree alone cannot tell); later ones are the new screen's.
      get: () => (++sources === 1 ? settingsAppsDump() : launcherDump('com.android.settings')),
    });
    h.device.foregroundReads = ['com.android.settings', null, 'com.android.settings'];
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Calendar' } });
    expect(envelope.ok).toBe(true);
    expect(JSON.stringify(envelope.data)).toContain('Hello');
    expect(JSON.stringify(envelope.data)).not.toContain('All apps');
    expect(sources).toBe(2);
  });

  it('keeps that early source when the first read finds a focused window: one source read for `after`', async () => {
    const h = buildHarness();
    h.automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Calendar' } });
    expect(envelope.ok).toBe(true);
    const calls = h.automation.sessions[0]?.calls ?? [];
    expect(calls.slice(calls.indexOf('click')).filter((c) => c === 'pageSource')).toHaveLength(1);
  });

  it('ui_tap reads the foreground once when a window has focus, and waits out a moment with none', async () => {
    const h = buildHarness();
    h.automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    const quick = await h.envelope('ui_tap', { selector: { text: 'Calendar' }, observe: false });
    expect(quick.data).toMatchObject({ foreground_package: 'com.android.settings' });
    // The screen check before the session, then one read after the tap.
    expect(windowReads(h)).toBe(1 + 1);
    expect(h.clock.monotonicMs()).toBe(0);

    h.device.foregroundReads = ['com.android.settings', null, null, 'com.google.android.calendar'];
    const navigated = await h.envelope('ui_tap', { selector: { text: 'Calendar' }, observe: false });
    expect(navigated.data).toMatchObject({ foreground_package: 'com.google.android.calendar' });
    expect(navigated.data).not.toHaveProperty('foreground_settled');
    expect(windowReads(h)).toBe(2 + 1 + 3);
  });

  it('a hung driver call without a flow: OPERATION_TIMEOUT at the ceiling, gate free, session closed', async () => {
    const h = buildHarness({ actionTimeoutMs: 3_000 });
    h.automation.hang.add('back');
    const envelope = await h.envelope('device_back', { observe: false });
    expect(envelope.error?.code).toBe('OPERATION_TIMEOUT');
    expect(h.clock.monotonicMs()).toBeLessThanOrEqual(3_100);
    expect(h.container.gate.isHeld).toBe(false);
    expect(envelope.evidence).toBeNull();
    await new Promise((r) => setImmediate(r));
    expect(h.automation.open.size).toBe(0);
  });

  it('Appium down: APPIUM_UNAVAILABLE, nothing left open', async () => {
    const h = buildHarness();
    h.automation.openFailure = new HarnessError('APPIUM_UNAVAILABLE', 'Start Appium.');
    const envelope = await h.envelope('device_back', { observe: false });
    expect(envelope.error).toEqual({ code: 'APPIUM_UNAVAILABLE', message: 'Start Appium.' });
    expect(envelope.evidence).toBeNull();
  });

  it('a selector find waits ANDROID_MCP_FIND_TIMEOUT for its element: 10 s unset, the configured wait when set (the integration stacks set it lower)', async () => {
    const unset = buildHarness({ findTimeoutMs: loadConfig({}, () => undefined).findTimeoutMs });
    const missing = await unset.envelope('ui_tap', { selector: { text: 'Gone' } });
    expect(missing.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
    expect(unset.automation.sessions[0]?.findWaits).toEqual([10_000]);
    const set = buildHarness({
      findTimeoutMs: loadConfig({ ANDROID_MCP_FIND_TIMEOUT: '2' }, () => undefined).findTimeoutMs,
    });
    offer(set, { text: 'Calendar' }, 'Calendar');
    expect((await set.envelope('ui_tap', { selector: { text: 'Calendar' } })).ok).toBe(true);
    expect((await set.envelope('ui_tap', { selector: { text: 'Gone' } })).error?.code).toBe('UI_ELEMENT_NOT_FOUND');
    expect(set.automation.sessions.map((s) => s.findWaits)).toEqual([[2_000], [2_000]]);
  });
});

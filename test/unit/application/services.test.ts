import { PNG } from 'pngjs';
import { HarnessError } from '../../../src/domain/errors.js';
import { describe, expect, it } from 'vitest';
import { buildLocator } from '../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { nameOfEntry, type ActionEntry } from '../../../src/domain/tree/screen.js';
import { buildHarness, envelopeOf, type TestHarness } from '../../support/fakes/harness.js';
import { makePng } from '../../support/fakes/images.js';
import { launcherDump, settingsAppsDump } from '../../support/fakes/screens.js';
import { appiumSource, screen } from '../domain/dumpBuilder.js';
import { selectorOfEntry } from '../../../src/application/screen/wireSummary.js';

/** Makes the fake Appium find `selector` (through the domain's own locator) as an element labelled `label`. */
function offer(h: TestHarness, selector: Record<string, unknown>, label: string): void {
  h.automation.elements.set(buildLocator(parseSelector(selector)).value, label);
}

/** Starts a call that holds the gate until the test lets the device answer. */
/** A call that holds the gate until released (emulator_get_status no longer takes it: it runs beside any owner). */
function holdGate(h: TestHarness): { pending: Promise<unknown>; release: () => void } {
  h.device.hang.add('listPackages');
  const pending = h.call('app_list_installed');
  return {
    pending,
    release: () => {
      h.device.hang.delete('listPackages');
    },
  };
}

describe('validation comes before the gate and the session checks', () => {
  it.each([
    ['ui_tap', { selector: { text: '' } }, 'INVALID_SELECTOR'],
    ['ui_tap', { selector: { text: 'a', resource_id: 'b' } }, 'INVALID_SELECTOR'],
    ['ui_tap', { selector: 'Calendar' }, 'INVALID_SELECTOR'],
    ['ui_tap', { selector: { text: 'Calendar', x: 10, y: 20 } }, 'INVALID_SELECTOR'],
    ['ui_tap', { selector: { text: 'Calendar' }, long_press: 'true' }, 'INVALID_ARGUMENT'],
    ['ui_tap', { selector: { text: 'Calendar' }, long_press: 1 }, 'INVALID_ARGUMENT'],
    ['ui_type_text', { selector: { text: 'Search' }, text: 'line\nbreak' }, 'INVALID_TEXT'],
    ['ui_type_text', { selector: { text: 'Search' }, text: '' }, 'INVALID_TEXT'],
    ['app_open', { package_name: 'com.x; rm -rf /' }, 'INVALID_PACKAGE'],
    ['app_open', { package_name: '--user 0' }, 'INVALID_PACKAGE'],
    ['ui_scroll', { direction: 'sideways' }, 'INVALID_SCROLL_DIRECTION'],
    ['ui_scroll', { direction: 'right', selector: { x: 10, y: 20 } }, 'INVALID_SELECTOR'],
    ['ui_scroll', { direction: 'right', selector: 'com.example:id/day_strip' }, 'INVALID_SELECTOR'],
    ['device_back', { session_id: 'short' }, 'INVALID_UI_SESSION'],
    ['ui_session_close', {}, 'INVALID_UI_SESSION'],
    ['ui_get_tree', { session_id: 'has spaces in it and is long enough' }, 'INVALID_UI_SESSION'],
    // "yes" used to be ignored silently; only the JSON booleans are accepted.
    ['ui_get_tree', { include_raw: 'yes' }, 'INVALID_ARGUMENT'],
    ['ui_get_tree', { include_raw: 'true' }, 'INVALID_ARGUMENT'],
    ['ui_get_tree', { include_raw: 1 }, 'INVALID_ARGUMENT'],
  ] as const)('%s %j answers %s while the gate is held, touching nothing', async (tool, args, code) => {
    const h = buildHarness();
    const held = holdGate(h);
    await new Promise((r) => setImmediate(r));
    expect(h.container.gate.isHeld).toBe(true);
    const callsBefore = h.device.calls.length;
    const envelope = envelopeOf(await h.call(tool, args as Record<string, unknown>));
    expect(envelope.error?.code).toBe(code);
    expect(h.device.calls.length).toBe(callsBefore);
    expect(h.automation.log).toEqual([]);
    held.release();
  });

  it('a valid call while the gate is held gets EMULATOR_BUSY at once, without waiting', async () => {
    const h = buildHarness();
    holdGate(h);
    await new Promise((r) => setImmediate(r));
    const started = h.clock.monotonicMs();
    const envelope = envelopeOf(await h.call('ui_get_tree'));
    expect(envelope.error?.code).toBe('EMULATOR_BUSY');
    expect(envelope.error?.message).toContain('app_list_installed');
    expect(h.clock.monotonicMs()).toBe(started);
    expect(h.device.calls).toEqual(['listPackages']);
  });

  it('emulator_get_status answers while another call holds the device, beside it', async () => {
    const h = buildHarness();
    const held = holdGate(h);
    await new Promise((r) => setImmediate(r));
    expect(h.container.gate.isHeld).toBe(true);
    const envelope = envelopeOf(await h.call('emulator_get_status'));
    expect(envelope.error, JSON.stringify(envelope.error)).toBeNull();
    expect(h.container.gate.isHeld).toBe(true);
    held.release();
  });

  it('two simultaneous calls never share the device', async () => {
    const h = buildHarness();
    const [a, b] = await Promise.all([h.call('app_list_installed'), h.call('screen_capture')]);
    // Which one wins is not promised (no queue); that exactly one does is.
    const codes = [envelopeOf(a), envelopeOf(b)].map((e) => (e.ok ? 'ok' : e.error?.code));
    expect(codes.sort()).toEqual(['EMULATOR_BUSY', 'ok']);
  });
});

describe('guards run before anything is sent', () => {
  const ALL_CALLS: [string, Record<string, unknown>][] = [
    ['emulator_get_status', {}],
    ['ui_get_tree', {}],
    ['screen_capture', {}],
    ['app_list_installed', {}],
    ['app_open', { package_name: 'com.example.app' }],
    ['ui_session_open', {}],
    ['ui_tap', { selector: { text: 'Calendar' } }],
    ['ui_type_text', { selector: { text: 'Calendar' }, text: 'hi' }],
    ['ui_scroll', { direction: 'down' }],
    ['device_back', {}],
    ['settings_open_apps', {}],
  ];

  it('a serial that is not an emulator is refused with EMULATOR_UNAVAILABLE and nothing reaches adb or Appium', async () => {
    const h = buildHarness({ udid: 'R58M12345' });
    for (const [tool, args] of ALL_CALLS) {
      const envelope = await h.envelope(tool, args);
      expect(envelope.error?.code, tool).toBe('EMULATOR_UNAVAILABLE');
      expect(envelope.error?.message).toContain('ANDROID_MCP_ALLOW_SERIALS');
    }
    expect(h.device.calls).toEqual([]);
    expect(h.automation.log).toEqual([]);
  });

  it('an allow-listed serial is accepted', async () => {
    const h = buildHarness({ udid: '127.0.0.1:5555', allowSerials: ['127.0.0.1:5555'] });
    expect((await h.envelope('app_list_installed')).ok).toBe(true);
  });

  it('a non-loopback Appium is refused with APPIUM_UNAVAILABLE before any request, and nothing mutating runs', async () => {
    const h = buildHarness({ appiumUrl: 'http://10.0.0.5:4723' });
    for (const tool of [
      'emulator_get_status',
      'ui_session_open',
      'ui_tap',
      'device_back',
      'app_open',
      'settings_open_apps',
    ] as const) {
      const args =
        tool === 'ui_tap'
          ? { selector: { text: 'Calendar' } }
          : tool === 'app_open'
            ? { package_name: 'com.android.settings' }
            : {};
      expect((await h.envelope(tool, args)).error?.code, tool).toBe('APPIUM_UNAVAILABLE');
    }
    expect(h.automation.log).toEqual([]);
    expect(h.device.calls).toEqual([]);
    // adb-only observers still work.
    expect((await h.envelope('ui_get_tree')).ok).toBe(true);
  });
});

describe('observers', () => {
  it('emulator_get_status reports the device and Appium', async () => {
    const h = buildHarness();
    const envelope = await h.envelope('emulator_get_status');
    expect(envelope.data).toEqual({
      udid: 'emulator-5554',
      android_version: '14',
      model: 'sdk_gphone64_x86_64',
      screen: { awake: true, locked: false },
      appium_version: '3.8.0',
      appium_endpoint: { kind: 'appium', ready: true },
      // Without a device list (the fakes) the device at hand is the list.
      devices: [
        {
          serial: 'emulator-5554',
          state: 'device',
          avd_name: null,
          android_version: '14',
          model: 'sdk_gphone64_x86_64',
          held_by: null,
        },
      ],
    });
    expect(h.automation.log).toEqual(['status']);
  });

  it('emulator_get_status behind a Selenium Grid: ok, appium_version null, the Grid’s readiness and nodes', async () => {
    const h = buildHarness();
    h.automation.grid = {
      kind: 'selenium-grid',
      version: null,
      ready: false,
      message: 'Selenium Grid not ready.',
      gridVersion: null,
      nodes: { total: 0, up: 0, available: 0 },
      sessions: 0,
    };
    const envelope = await h.envelope('emulator_get_status');
    expect(envelope.ok).toBe(true);
    expect(envelope.data).toEqual({
      udid: 'emulator-5554',
      android_version: '14',
      model: 'sdk_gphone64_x86_64',
      screen: { awake: true, locked: false },
      appium_version: null,
      appium_endpoint: {
        kind: 'selenium-grid',
        ready: false,
        message: 'Selenium Grid not ready.',
        grid_version: null,
        nodes: { total: 0, up: 0, available: 0 },
        sessions: 0,
      },
      devices: [
        {
          serial: 'emulator-5554',
          state: 'device',
          avd_name: null,
          android_version: '14',
          model: 'sdk_gphone64_x86_64',
          held_by: null,
        },
      ],
    });
  });

  it('ui_get_tree summarises the dump read through adb and adds ui_tree only on request', async () => {
    const h = buildHarness();
    const plain = await h.envelope('ui_get_tree');
    expect(plain.ok).toBe(true);
    const data = plain.data as Record<string, unknown>;
    expect(data.foreground_package).toBe('com.android.settings');
    expect(data).not.toHaveProperty('ui_tree');
    const labels = (data.actions as ActionEntry[]).map(nameOfEntry);
    expect(labels).toEqual(expect.arrayContaining(['Calendar', 'Clock']));
    const raw = await h.envelope('ui_get_tree', { include_raw: true });
    expect((raw.data as Record<string, unknown>).ui_tree).toBe(settingsAppsDump());
    expect((await h.envelope('ui_get_tree', { include_raw: false })).data).not.toHaveProperty('ui_tree');
    expect((await h.envelope('ui_get_tree', { include_raw: null })).data).not.toHaveProperty('ui_tree');
    expect(h.device.calls.filter((c) => c === 'dumpUi')).toHaveLength(4);
    expect(h.automation.log).toEqual([]);
  });

  it('ui_get_tree answers UI_TREE_UNAVAILABLE for an unparseable dump', async () => {
    const h = buildHarness();
    h.device.dump = 'ERROR: null root node returned by UiTestAutomationBridge.';
    expect((await h.envelope('ui_get_tree')).error?.code).toBe('UI_TREE_UNAVAILABLE');
  });

  it('app_list_installed sorts and counts', async () => {
    const h = buildHarness();
    h.device.packages = ['b.two', 'a.one', 'b.two', 'c.three'];
    expect((await h.envelope('app_list_installed')).data).toEqual({
      packages: ['a.one', 'b.two', 'c.three'],
      count: 3,
    });
  });

  it('screen_capture keeps the full picture on disk and returns a preview of at most 1568 px', async () => {
    const h = buildHarness();
    h.device.png = makePng(2000, 300);
    const result = await h.call('screen_capture');
    const envelope = envelopeOf(result);
    expect(envelope.data).toEqual({ captured: true, width: 2000, height: 300 });
    expect(envelope.evidence?.artifact_id).toMatch(/-screen\.png$/);
    expect(h.store.files.get(envelope.evidence?.artifact_id ?? '')).toEqual(h.device.png);
    const image = result.content.find((c) => c.type === 'image');
    expect(image).toBeDefined();
    const preview = PNG.sync.read(Buffer.from((image as { data: string }).data, 'base64'));
    expect(Math.max(preview.width, preview.height)).toBeLessThanOrEqual(1568);
    expect(Buffer.from((image as { data: string }).data, 'base64').length).toBeLessThan(1_000_000);
  });

  it('screen_capture refuses a blank screen with the graphics remedy', async () => {
    const h = buildHarness();
    h.device.png = makePng(30, 30, true);
    const envelope = await h.envelope('screen_capture');
    expect(envelope.error?.code).toBe('EVIDENCE_WRITE_FAILED');
    expect(envelope.error?.message).toContain('swiftshader');
    expect(h.store.files.size).toBe(0);
  });
});

describe('actions', () => {
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

  it('ui_type_text counts code points and replaces the text', async () => {
    const h = buildHarness();
    offer(h, { input_hint: 'Search' }, '');
    const text = 'café 👍🏽';
    const envelope = await h.envelope('ui_type_text', { selector: { input_hint: 'Search' }, text });
    expect(envelope.data).toMatchObject({ target: { input_hint: 'Search' }, characters_sent: [...text].length });
    expect(h.automation.sessions[0]?.typed).toEqual([text]);
    expect(envelope.evidence?.artifact_id).toMatch(/-ui-type\.png$/);
  });

  it('ui_type_text taps a field that has no focus before typing (Flutter takes set-text only then), and leaves a focused one alone', async () => {
    const h = buildHarness();
    offer(h, { input_hint: 'Title' }, 'Title');
    // A Flutter-like field: set-text only while focused.
    h.automation.takesText = (_label, focused) => focused;
    const first = await h.envelope('ui_type_text', { selector: { input_hint: 'Title' }, text: 'Milk' });
    expect(first.ok).toBe(true);
    const calls = h.automation.sessions[0]?.calls ?? [];
    expect(calls.slice(calls.indexOf('findElements'), calls.indexOf('typeText') + 1)).toEqual([
      'findElements',
      'elementPlace',
      'isFocused',
      'elementBounds',
      'click',
      'typeText',
    ]);
    // Focused now: no second tap (a tap could move the caret or toggle a selection).
    expect((await h.envelope('ui_type_text', { selector: { input_hint: 'Title' }, text: 'Eggs' })).ok).toBe(true);
    expect(h.automation.sessions[1]?.calls).not.toContain('click');
    expect(h.automation.sessions.flatMap((s) => s.typed)).toEqual(['Milk', 'Eggs']);
  });

  it('ui_type_text on an element that is not a text field is refused before any tap: nothing pressed or typed, the fields offered named', async () => {
    const h = buildHarness();
    offer(h, { content_desc: 'Navigate up' }, 'Navigate up');
    h.automation.places.set('Navigate up', { className: 'android.widget.ImageButton', bounds: '[0,63][147,210]' });
    const envelope = await h.envelope('ui_type_text', { selector: { content_desc: 'Navigate up' }, text: 'hi' });
    expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_EDITABLE');
    expect(envelope.error?.message).toMatch(
      /^The element matched by content_desc 'Navigate up' is a android\.widget\.ImageButton, not a text field, so ui_type_text did not touch it: nothing was tapped or typed\. /,
    );
    const session = h.automation.sessions[0];
    expect(session?.calls).not.toContain('click');
    expect(session?.presses).toEqual([]);
    expect(session?.typed).toEqual([]);
  });

  it('ui_type_text types into an AutoCompleteTextView (it extends EditText but reports its own class)', async () => {
    const h = buildHarness();
    offer(h, { input_hint: 'To' }, 'To');
    h.automation.places.set('To', {
      className: 'android.widget.MultiAutoCompleteTextView',
      bounds: '[0,300][1080,420]',
    });
    expect((await h.envelope('ui_type_text', { selector: { input_hint: 'To' }, text: 'ana' })).ok).toBe(true);
    expect(h.automation.sessions[0]?.typed).toEqual(['ana']);
  });

  it('ui_type_text into an element that refuses text: its own message (found, but it does not take text), the inputs offered, failure evidence', async () => {
    const h = buildHarness();
    offer(h, { text: 'All apps' }, 'All apps');
    h.automation.takesText = (label) => label !== 'All apps';
    const envelope = await h.envelope('ui_type_text', { selector: { text: 'All apps' }, text: 'hunter2' });
    // Found, and it will not take text: its own code, never the not-found one.
    expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_EDITABLE');
    const message = envelope.error?.message ?? '';
    expect(message).toMatch(
      /^The element matched by text 'All apps' refused the text \(invalid element state\) even after a tap on it/,
    );
    expect(message).not.toContain('No visible element matched');
    expect(message).toMatch(/input fields instead: \{"ref":"e[0-9a-z]+"\} 'Search apps'/);
    expect(message).not.toContain('hunter2');
    expect(envelope.evidence?.artifact_id).toMatch(/-failure-ui-type\.png$/);
    expect(h.automation.sessions[0]?.typed).toEqual([]);
  });

  it('ui_scroll runs over the list, clear of the system bars, creeps slower than a fling and holds before the lift; moved says whether the content changed', async () => {
    const h = buildHarness();
    const still = await h.envelope('ui_scroll', { direction: 'down', observe: false });
    // The list did not move (the fake's page source stays the same): said so.
    expect(still.data).toEqual({ direction: 'down', moved: false, foreground_package: 'com.android.settings' });
    expect(still.evidence?.artifact_id).toMatch(/-ui-scroll\.png$/);
    const path = h.automation.sessions[0]?.swipes[0];
    // The list is [0,440][1080,2400]; 56 dp at 420 dpi (147 px) stay clear of each screen edge.
    expect(path).toEqual({
      start: { x: 540, y: 2071 },
      moves: [
        { to: { x: 540, y: 632 }, durationMs: 400 },
        { to: { x: 540, y: 621 }, durationMs: 200 },
      ],
      holdMs: 100,
    });
    // Under 50 dp/s (131 px/s at 420 dpi) for longer than the 100 ms velocity horizon, then still for more than 40 ms.
    const creep = path!.moves[1]!;
    expect((Math.abs(creep.to.y - path!.moves[0]!.to.y) / creep.durationMs) * 1000).toBeLessThan((50 * 420) / 160);
    expect(creep.durationMs).toBeGreaterThan(100);
    expect(path!.holdMs).toBeGreaterThan(40);

    h.automation.onSwipe = () => {
      h.automation.source = settingsAppsDump().replace('[0,440][1080,600]', '[0,440][1080,500]');
    };
    const up = await h.envelope('ui_scroll', { direction: 'up', observe: false });
    expect(up.data).toEqual({ direction: 'up', moved: true, foreground_package: 'com.android.settings' });
    expect(h.automation.sessions[1]?.swipes[0]?.start).toEqual({ x: 540, y: 621 });
    expect(h.automation.sessions[1]?.swipes[0]?.moves.at(-1)?.to).toEqual({ x: 540, y: 2071 });
  });

  describe('ui_scroll in four directions and in a named container', () => {
    const rv = 'androidx.recyclerview.widget.RecyclerView';
    const row = (t: string, top: number, height: number) => ({
      cls: 'android.widget.TextView',
      text: t,
      bounds: `[0,${top}][1080,${top + height}]`,
    });
    const calendarSource = appiumSource([
      screen([
        {
          cls: rv,
          id: 'com.example:id/day_strip',
          scrollable: true,
          bounds: '[0,252][1080,462]',
          children: [0, 1, 2, 3, 4].map((i) => ({
            cls: 'android.widget.TextView',
            text: `Dec ${i + 1}`,
            clickable: true,
            bounds: `[${24 + i * 252},273][${Math.min(1080, 252 + i * 252)},441]`,
          })),
        },
        {
          cls: rv,
          id: 'com.example:id/schedule',
          scrollable: true,
          bounds: '[0,580][1080,1500]',
          children: [0, 1, 2, 3].map((i) => row(`Event ${i}`, 580 + i * 200, 200)),
        },
        { cls: 'android.widget.TextView', text: 'Tasks', bounds: '[63,1520][1017,1590]' },
        {
          cls: rv,
          id: 'com.example:id/task_list',
          scrollable: true,
          bounds: '[0,1600][1080,2274]',
          children: [0, 1, 2, 3].map((i) => row(`Task ${i}`, 1600 + i * 150, 150)),
        },
      ]),
    ]);
    const calendar = (): TestHarness => {
      const h = buildHarness();
      h.automation.source = calendarSource;
      return h;
    };
    /** The fake Appium finds `selector` as an element of this class and bounds. */
    const place = (
      h: TestHarness,
      selector: Record<string, unknown>,
      label: string,
      className: string,
      bounds: string,
    ): void => {
      offer(h, selector, label);
      h.automation.places.set(label, { className, bounds });
    };
    const xsOf = (h: TestHarness): number[] => {
      const path = h.automation.sessions[0]!.swipes[0]!;
      return [path.start.x, ...path.moves.map((m) => m.to.x)];
    };

    it('right without a selector swipes leftwards over the one sideways container, clear of the side edges', async () => {
      const h = calendar();
      const envelope = await h.envelope('ui_scroll', { direction: 'right', observe: false });
      expect(envelope.data).toEqual({ direction: 'right', moved: false, foreground_package: 'com.android.settings' });
      const path = h.automation.sessions[0]!.swipes[0]!;
      expect(path.start.y).toBe(357);
      for (const x of xsOf(h)) expect(x >= 147 && x < 933, `x ${x}`).toBe(true);
      expect(path.start.x).toBeGreaterThan(path.moves.at(-1)!.to.x);
    });

    it('right on a screen where nothing scrolls sideways swipes nothing and says what does scroll', async () => {
      const h = buildHarness();
      const envelope = await h.envelope('ui_scroll', { direction: 'right', observe: false });
      expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
      expect(envelope.error?.message).toMatch(
        /^Nothing on this screen scrolls sideways, so ui_scroll right did not swipe\. Scrollable containers here: .*\(vertical, bounds \[/,
      );
      expect(envelope.evidence?.artifact_id).toMatch(/-failure-ui-scroll\.png$/);
      expect(h.automation.sessions[0]!.swipes).toEqual([]);
    });

    it('a named container is swiped over although it is not the largest, and the answer echoes it', async () => {
      const h = calendar();
      place(h, { resource_id: 'com.example:id/task_list' }, 'tasks', rv, '[0,1600][1080,2274]');
      h.automation.onSwipe = () => {
        h.automation.source = calendarSource.replace('Task 0', 'Task 4');
      };
      const envelope = await h.envelope('ui_scroll', {
        direction: 'down',
        selector: { resource_id: 'com.example:id/task_list' },
        observe: false,
      });
      expect(envelope.data).toEqual({
        direction: 'down',
        target: { resource_id: 'com.example:id/task_list' },
        moved: true,
        foreground_package: 'com.android.settings',
      });
      const path = h.automation.sessions[0]!.swipes[0]!;
      for (const y of [path.start.y, ...path.moves.map((m) => m.to.y)])
        expect(y >= 1600 && y < 2253, `y ${y}`).toBe(true);
    });

    it('moved compares the named container only: a change elsewhere is not a move', async () => {
      const h = calendar();
      place(h, { resource_id: 'com.example:id/task_list' }, 'tasks', rv, '[0,1600][1080,2274]');
      h.automation.onSwipe = () => {
        h.automation.source = calendarSource.replace('Event 0', 'Event 9');
      };
      const envelope = await h.envelope('ui_scroll', {
        direction: 'down',
        selector: { resource_id: 'com.example:id/task_list' },
        observe: false,
      });
      expect(envelope.data.moved).toBe(false);
    });

    it('a row names the list that holds it', async () => {
      const h = calendar();
      place(h, { text: 'Task 1' }, 'task1', 'android.widget.TextView', '[0,1750][1080,1900]');
      await h.envelope('ui_scroll', { direction: 'up', selector: { text: 'Task 1' }, observe: false });
      const path = h.automation.sessions[0]!.swipes[0]!;
      expect(path.start.y).toBeGreaterThanOrEqual(1600);
    });

    it('an element outside every scrollable is refused, naming its class and the containers, and nothing is swiped', async () => {
      const h = calendar();
      place(h, { text: 'Tasks' }, 'tasks-title', 'android.widget.TextView', '[63,1520][1017,1590]');
      const envelope = await h.envelope('ui_scroll', {
        direction: 'down',
        selector: { text: 'Tasks' },
        observe: false,
      });
      expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
      expect(envelope.error?.message).toContain(
        "The element matched by text 'Tasks' is a android.widget.TextView 'Tasks': it does not scroll and no container around it does, so nothing was swiped.",
      );
      expect(envelope.error?.message).toContain(
        '{"resource_id":"com.example:id/day_strip"} (horizontal, bounds [0,252,1080,210])',
      );
      expect(h.automation.sessions[0]!.swipes).toEqual([]);
    });

    it('a vertical container asked to scroll right is refused with the directions it takes', async () => {
      const h = calendar();
      place(h, { resource_id: 'com.example:id/task_list' }, 'tasks', rv, '[0,1600][1080,2274]');
      const envelope = await h.envelope('ui_scroll', {
        direction: 'right',
        selector: { resource_id: 'com.example:id/task_list' },
        observe: false,
      });
      expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
      expect(envelope.error?.message).toMatch(
        /is in a vertical container \(androidx\.recyclerview\.widget\.RecyclerView 'com\.example:id\/task_list'\), which cannot scroll right; nothing was swiped\. Send up or down for it/,
      );
      expect(h.automation.sessions[0]!.swipes).toEqual([]);
    });

    it('a named container hidden under the keyboard is refused; one the driver does not find is not-found as for ui_tap', async () => {
      const h = calendar();
      h.device.ime = { visible: true, frame: { left: 0, top: 1517, right: 1080, bottom: 2400 } };
      place(h, { resource_id: 'com.example:id/task_list' }, 'tasks', rv, '[0,1600][1080,2274]');
      const hidden = await h.envelope('ui_scroll', {
        direction: 'down',
        selector: { resource_id: 'com.example:id/task_list' },
        observe: false,
      });
      expect(hidden.error?.message).toMatch(/shows too little of itself above the keyboard/);
      const missing = await h.envelope('ui_scroll', {
        direction: 'down',
        selector: { text: 'Nowhere' },
        observe: false,
      });
      expect(missing.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
      expect(missing.error?.message).toMatch(/^No visible element matched text 'Nowhere' before timeout\./);
      expect(h.automation.sessions.flatMap((s) => s.swipes)).toEqual([]);
    });
  });

  it('ui_scroll with the keyboard open starts and ends above it', async () => {
    const h = buildHarness();
    h.device.ime = { visible: true, frame: { left: 0, top: 1517, right: 1080, bottom: 2400 } };
    await h.envelope('ui_scroll', { direction: 'down', observe: false });
    const path = h.automation.sessions[0]!.swipes[0]!;
    const ys = [path.start.y, ...path.moves.map((m) => m.to.y)];
    for (const y of ys) expect(y).toBeLessThan(1517);
    expect(Math.max(...ys) - Math.min(...ys)).toBeGreaterThan(700);
  });

  it('device_back presses back then reads the foreground package', async () => {
    const h = buildHarness();
    h.device.foreground = 'com.android.settings';
    // Only the press leads to the launcher: without it the answer would stay on Settings.
    h.automation.onBack = () => {
      h.device.foreground = 'com.google.android.apps.nexuslauncher';
    };
    const envelope = await h.envelope('device_back', { observe: false });
    expect(envelope.data).toEqual({
      back_to_package: 'com.google.android.apps.nexuslauncher',
      foreground_package: 'com.google.android.apps.nexuslauncher',
    });
    expect(h.automation.log.filter((l) => l.endsWith(':back'))).toHaveLength(1);
    expect(envelope.evidence?.artifact_id).toMatch(/-device-back\.png$/);
  });

  // PressBack returns before the window focus has moved.
  const windowReads = (h: TestHarness): number => h.device.calls.filter((c) => c === 'getWindowState').length;

  it('device_back reads the package in front first, then the foreground until it settles: old, none, then where Back led', async () => {
    const h = buildHarness();
    // The first read is the screen check before any session (not locked, awake).
    h.device.foregroundReads = [
      'com.android.settings',
      'com.android.settings',
      'com.android.settings',
      null,
      'com.google.android.apps.nexuslauncher',
    ];
    const envelope = await h.envelope('device_back', { observe: false });
    expect(envelope.data).toEqual({
      back_to_package: 'com.google.android.apps.nexuslauncher',
      foreground_package: 'com.google.android.apps.nexuslauncher',
    });
    expect(windowReads(h)).toBe(5);
    // Two waits of 150 ms (fake time) between the three reads after Back.
    expect(h.clock.monotonicMs()).toBeGreaterThanOrEqual(300);
    // The read before Back happens inside the session, right before the key; the evidence once settled.
    expect(h.automation.log.filter((l) => l.endsWith(':back'))).toHaveLength(1);
    expect(h.device.calls.lastIndexOf('screencap')).toBeGreaterThan(h.device.calls.lastIndexOf('getWindowState'));
    expect(envelope.evidence?.artifact_id).toMatch(/-device-back\.png$/);
  });

  it('device_back that stays in the same package (or only closes the keyboard) settles on two equal reads', async () => {
    const h = buildHarness();
    h.device.foregroundReads = [
      'com.android.settings',
      'com.android.settings',
      'com.android.settings',
      'com.android.settings',
    ];
    const envelope = await h.envelope('device_back', { observe: false });
    expect(envelope.data).toEqual({
      back_to_package: 'com.android.settings',
      foreground_package: 'com.android.settings',
    });
    expect(windowReads(h)).toBe(1 + 3);
  });

  it('device_back whose focus never settles: bounded at 1.5 s, reporting honestly what it saw last and that it had not settled', async () => {
    const h = buildHarness();
    h.device.foregroundReads = ['com.android.settings', 'com.android.settings', null];
    const envelope = await h.envelope('device_back', { observe: false });
    expect(envelope.ok).toBe(true);
    expect(envelope.data).toEqual({ back_to_package: null, foreground_package: null, foreground_settled: false });
    expect(h.clock.monotonicMs()).toBeLessThanOrEqual(1_600);
    // The screen check, the read before Back, then one every 150 ms from 0 to 1500 ms.
    expect(windowReads(h)).toBe(1 + 1 + 11);

    // Unknown before, and two packages taking turns: never two equal reads, so the last one seen, unsettled.
    const flapping = buildHarness();
    flapping.device.foregroundReads = [
      null,
      null,
      ...Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? 'com.a' : 'com.b')),
    ];
    const seen = await flapping.envelope('device_back', { observe: false });
    // The eleventh read after Back, the last within the bound, was com.a.
    expect(seen.data).toEqual({ back_to_package: 'com.a', foreground_package: 'com.a', foreground_settled: false });
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
    h.automation.openFailure = new (await import('../../../src/domain/errors.js')).HarnessError(
      'APPIUM_UNAVAILABLE',
      'Start Appium.',
    );
    const envelope = await h.envelope('device_back', { observe: false });
    expect(envelope.error).toEqual({ code: 'APPIUM_UNAVAILABLE', message: 'Start Appium.' });
    expect(envelope.evidence).toBeNull();
  });
});

describe('app_open and settings_open_apps (adb only, no Appium)', () => {
  it('app_open resolves the launcher activity, starts it, waits until visible and leaves evidence', async () => {
    const h = buildHarness();
    h.device.onStart = (component) => {
      h.device.foreground = component.split('/')[0] ?? null;
      // The window appears a second later, as a cold start does.
      h.device.dump = '<?xml version="1.0"?><hierarchy rotation="0"></hierarchy>';
      h.clock.setTimeout(() => (h.device.dump = launcherDump('com.example.app')), 1_000);
    };
    const envelope = await h.envelope('app_open', { package_name: 'com.example.app' });
    expect(envelope).toMatchObject({
      ok: true,
      data: { opened_package: 'com.example.app', foreground_package: 'com.example.app' },
    });
    expect(envelope.evidence?.artifact_id).toMatch(/-app-open\.png$/);
    expect(h.device.calls).toContain('startActivity');
    expect(h.automation.log).toEqual([]);
    expect(h.clock.monotonicMs()).toBeGreaterThanOrEqual(1_000);
  });

  it('app_open: no launcher activity is APP_NOT_FOUND, with a hint for installed and missing packages', async () => {
    const h = buildHarness();
    const missing = await h.envelope('app_open', { package_name: 'com.not.there' });
    expect(missing.error?.code).toBe('APP_NOT_FOUND');
    expect(missing.error?.message).toContain('not installed');
    const noLauncher = await h.envelope('app_open', { package_name: 'com.android.chrome' });
    expect(noLauncher.error?.message).toContain('no single launcher activity');
    expect(h.device.calls).not.toContain('startActivity');
  });

  it('app_open: an app that never shows is APP_NOT_FOUND after 6 s, with failure evidence', async () => {
    const h = buildHarness();
    h.device.onStart = () => undefined; // Settings stays in front.
    const envelope = await h.envelope('app_open', { package_name: 'com.example.app' });
    expect(envelope.error?.code).toBe('APP_NOT_FOUND');
    expect(envelope.error?.message).toContain('6 s');
    expect(envelope.evidence?.artifact_id).toMatch(/-failure-app-open\.png$/);
    expect(h.clock.monotonicMs()).toBeGreaterThanOrEqual(5_500);
    expect(h.clock.monotonicMs()).toBeLessThan(7_000);
  });

  it('app_open: focused but its window still empty after 6 s (slow cold start) is APP_NOT_FOUND saying so', async () => {
    const h = buildHarness();
    h.device.onStart = (component) => {
      h.device.foreground = component.split('/')[0] ?? null;
      h.device.dump = launcherDump('com.google.android.apps.nexuslauncher');
    };
    const envelope = await h.envelope('app_open', { package_name: 'com.example.app' });
    expect(envelope.error?.code).toBe('APP_NOT_FOUND');
    expect(envelope.error?.message).toMatch(/has focus, but its window still showed no content after 6 s/);
  });

  it('app_open: focused and no dump readable (a screen that never idles) still counts as opened', async () => {
    const h = buildHarness();
    h.device.onStart = (component) => {
      h.device.foreground = component.split('/')[0] ?? null;
      h.device.failWith.dumpUi = new HarnessError('UI_TREE_UNAVAILABLE', 'could not get idle state');
    };
    const envelope = await h.envelope('app_open', { package_name: 'com.example.app' });
    expect(envelope).toMatchObject({ ok: true, data: { opened_package: 'com.example.app' } });
    expect(h.clock.monotonicMs()).toBeGreaterThanOrEqual(5_500);
  });

  it('settings_open_apps waits for All apps and leaves evidence', async () => {
    const h = buildHarness();
    h.device.foreground = 'com.google.android.apps.nexuslauncher';
    const envelope = await h.envelope('settings_open_apps');
    expect(envelope).toMatchObject({ ok: true, data: { screen_marker: 'All apps' } });
    expect(envelope.evidence?.artifact_id).toMatch(/-settings-apps\.png$/);
    expect(h.automation.log).toEqual([]);
  });

  it('settings_open_apps: Settings not in front is SETTINGS_FOREGROUND_FAILED with failure evidence', async () => {
    const h = buildHarness();
    h.device.foreground = 'com.android.launcher';
    h.device.onStart = () => undefined;
    const envelope = await h.envelope('settings_open_apps');
    expect(envelope.error?.code).toBe('SETTINGS_FOREGROUND_FAILED');
    expect(envelope.evidence?.artifact_id).toMatch(/-failure-settings-apps\.png$/);
    expect(h.clock.monotonicMs()).toBeLessThanOrEqual(8_500);
  });

  it('settings_open_apps: Settings without the Apps list is SETTINGS_FOREGROUND_FAILED after 8 s', async () => {
    const h = buildHarness();
    h.device.dump = launcherDump('com.android.settings');
    const envelope = await h.envelope('settings_open_apps');
    expect(envelope.error?.code).toBe('SETTINGS_FOREGROUND_FAILED');
    expect(envelope.error?.message).toContain('All apps');
  });
});

describe('unclassified failures', () => {
  it('become INTERNAL_ERROR with the operation id, no stack and no host path', async () => {
    const h = buildHarness();
    h.device.listPackages = () => Promise.reject(new RangeError('boom at /home/dev/secret/file.ts:1:2'));
    const result = await h.call('app_list_installed');
    const envelope = envelopeOf(result);
    expect(result.isError).toBe(true);
    expect(envelope.error?.code).toBe('INTERNAL_ERROR');
    expect(envelope.error?.message).toContain(envelope.operation_id);
    expect(JSON.stringify(result)).not.toMatch(/\/home|RangeError|boom/);
    expect(h.logger.entries.some((e) => e.level === 'error' && String(e.fields?.cause).includes('boom'))).toBe(true);
  });
});

describe("a password field's text never leaves the harness", () => {
  const SECRET = 'hunter2-secret';
  // A view that exposes the plain text to accessibility: the worst case a device can do.
  const loginDump = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.login" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]"><node index="0" text="${SECRET}" resource-id="" class="android.widget.EditText" package="com.example.login" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true" scrollable="false" long-clickable="true" password="true" selected="false" bounds="[42,300][1038,450]" hint="Password" /><node index="1" text="Sign in" resource-id="" class="android.widget.Button" package="com.example.login" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[42,500][1038,650]" /></node></hierarchy>`;

  const leaks = (h: TestHarness, envelope: unknown): string[] => [
    ...(JSON.stringify(envelope).includes(SECRET) ? ['the envelope'] : []),
    ...h.logger.entries
      .filter((e) => `${e.message} ${JSON.stringify(e.fields ?? {})}`.includes(SECRET))
      .map((e) => `log: ${e.message}`),
  ];

  it('ui_get_tree, with and without include_raw, through adb and through a flow', async () => {
    const h = buildHarness({ logLevel: 'debug' });
    h.device.dump = loginDump;
    h.automation.source = loginDump;
    for (const args of [{}, { include_raw: true }]) {
      const envelope = await h.envelope('ui_get_tree', args);
      expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
      const actions = (envelope.data as { actions: ActionEntry[] }).actions;
      expect(selectorOfEntry(actions.find((a) => a.role === 'input')!)).toEqual({ input_hint: 'Password' });
      expect(leaks(h, envelope)).toEqual([]);
    }
    const raw = (await h.envelope('ui_get_tree', { include_raw: true })).data as { ui_tree: string };
    expect(raw.ui_tree).toContain('password="true"');
    expect(raw.ui_tree).toContain('text="[hidden password]"');
    const open = await h.envelope('ui_session_open');
    const sessionId = (open.data as { session_id: string }).session_id;
    const viaFlow = await h.envelope('ui_get_tree', { session_id: sessionId, include_raw: true });
    expect(viaFlow.ok).toBe(true);
    expect(leaks(h, viaFlow)).toEqual([]);
  });

  it('ui_tap that finds nothing names the field by its hint, never by its text', async () => {
    const h = buildHarness({ logLevel: 'debug' });
    h.automation.source = loginDump;
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Log in' } });
    expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
    expect(envelope.error?.message).toContain("'Password' (input)");
    expect(leaks(h, envelope)).toEqual([]);
  });
});

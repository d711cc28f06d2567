/** The UiAutomator2 HTTP emulation, reached through openTcp(6790) streams as the transport reaches it. */
import { afterEach, describe, expect, it } from 'vitest';
import { INSTRUMENT, W3C, aborts, call, serving, stopServing } from './uia2Client.js';
import { VirtualDevice } from '../../src/device/VirtualDevice.js';
import { detectHelperVersions } from '../../src/device/helperVersions.js';
import { platformPackages } from '../../src/scenario/defaultScenario.js';
import { sh } from './helpers.js';

afterEach(stopServing);

describe('UIA2 server emulation: long click', () => {
  const find = async (device: VirtualDevice, sid: string, desc: string): Promise<string> => {
    const found = await call(device, 'POST', `/session/${sid}/element`, {
      strategy: 'accessibility id',
      selector: desc,
    });
    return (found.body.value as Record<string, string>)[W3C] as string;
  };
  const status = (device: VirtualDevice) =>
    device.nodes().find((n) => n.text.startsWith('Selected') || n.text.startsWith('Restored'))?.text ?? '';

  it('POST /appium/gestures/long_click held past the timeout is a long click; the row shows its context action', async () => {
    const { device, sid } = await serving();
    device.setScreen('notes_history');
    const id = await find(device, sid, 'Ideas\nA virtual device for tests');
    device.clearLog();
    const answer = await call(device, 'POST', `/session/${sid}/appium/gestures/long_click`, {
      origin: { ELEMENT: id, [W3C]: id },
      duration: 1500,
    });
    expect(answer.status).toBe(200);
    expect(device.clicks().map((c) => [c.source, c.gesture, c.heldMs])).toEqual([
      ['uia2-long-click', 'long-click', 1500],
    ]);
    expect(device.log().filter((e) => e.kind === 'long-click')).toHaveLength(1);
    expect(status(device)).toBe('Selected: Ideas (Delete, Share)');
  });

  it('a press not held past the long-press timeout is a click, never a long click (the default hold is exactly the timeout)', async () => {
    const { device, sid } = await serving();
    device.setScreen('notes_history');
    const id = await find(device, sid, 'Ideas\nA virtual device for tests');
    device.clearLog();
    for (const body of [
      { origin: { ELEMENT: id }, duration: 300 },
      { origin: { ELEMENT: id } },
      { origin: { ELEMENT: id }, duration: 400 },
    ]) {
      expect((await call(device, 'POST', `/session/${sid}/appium/gestures/long_click`, body)).status).toBe(200);
    }
    expect(device.clicks().map((c) => c.gesture)).toEqual(['click', 'click', 'click']);
    expect(device.log().filter((e) => e.kind === 'long-click')).toEqual([]);
    expect(status(device)).toBe('');
    // A longer touch & hold delay (accessibility setting) makes 1 s a plain click too.
    device.system.settings.secure.set('long_press_timeout', '1500');
    expect(
      (
        await call(device, 'POST', `/session/${sid}/appium/gestures/long_click`, {
          origin: { ELEMENT: id },
          duration: 1000,
        })
      ).status,
    ).toBe(200);
    expect(device.clicks().at(-1)?.gesture).toBe('click');
    expect(
      (
        await call(device, 'POST', `/session/${sid}/appium/gestures/long_click`, {
          origin: { ELEMENT: id },
          duration: -1,
        })
      ).status,
    ).toBe(400);
    expect((await call(device, 'POST', `/session/${sid}/appium/gestures/long_click`, {})).status).toBe(400);
  });

  it('a W3C pointer held past the timeout long-clicks a long-clickable-only node; a long hold on a plain button clicks it', async () => {
    const { device, sid } = await serving();
    device.setScreen('notes_history');
    const hold = (x: number, y: number, ms: number) => ({
      actions: [
        {
          type: 'pointer',
          id: 'f',
          parameters: { pointerType: 'touch' },
          actions: [
            { type: 'pointerMove', duration: 0, x, y },
            { type: 'pointerDown', button: 0 },
            { type: 'pause', duration: ms },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ],
    });
    device.clearLog();
    await call(device, 'POST', `/session/${sid}/actions`, hold(540, 630, 100));
    expect(device.clicks().at(-1)).toMatchObject({ gesture: 'click', target: null });
    await call(device, 'POST', `/session/${sid}/actions`, hold(540, 630, 800));
    expect(device.clicks().at(-1)).toMatchObject({ gesture: 'long-click', heldMs: 800 });
    expect(status(device)).toBe('Restored: Archived');
    // The tab bar is clickable, not long-clickable: a long hold on it is a click that switches tabs.
    await call(device, 'POST', `/session/${sid}/actions`, hold(900, 2150, 1500));
    expect(device.clicks().at(-1)?.gesture).toBe('click');
    expect(device.currentScreen().screenId).toBe('notes_settings');
  });
});

describe('UIA2 server emulation: UiSelector strings as the real parser reads them', () => {
  it('only \\" is an escape; other backslashes reach the regex as written; no id never matches', async () => {
    const { device, sid } = await serving();
    device.setScreen('settings_network');
    const count = async (selector: string) =>
      (
        (await call(device, 'POST', `/session/${sid}/elements`, { strategy: '-android uiautomator', selector })).body
          .value as unknown[]
      ).length;
    // Java reads a backslash before a non-letter as that character: \_ is _.
    expect(await count('new UiSelector().resourceIdMatches("android:id/switch\\_widget")')).toBe(1);
    expect(await count('new UiSelector().resourceIdMatches("android:id/switch_widget")')).toBe(1);
    expect(await count('new UiSelector().resourceIdMatches("android:id/switch.widget")')).toBe(1);
    expect(await count('new UiSelector().resourceIdMatches("android:id/switch\\.widget")')).toBe(0);
    expect(await count('new UiSelector().resourceIdMatches(".*")')).toBe(
      device.nodes().filter((n) => n.resourceId !== '').length,
    );
    expect(await count('new UiSelector().resourceIdMatches("switch_widget")')).toBe(0);
    expect(await count('new UiSelector().textStartsWith("Wi").checked(true)')).toBe(0);
    expect(await count('new UiSelector().className("android.widget.Switch").checked(true).instance(0)')).toBe(1);
  });
});

describe('UIA2 server emulation', () => {
  it('answers the calls Appium makes at session start', async () => {
    const { device, sid } = await serving();
    expect((await call(device, 'GET', `/session/${sid}/appium/device/pixel_ratio`)).body.value).toBe(2.625);
    expect((await call(device, 'GET', `/session/${sid}/window/current/size`)).body.value).toEqual({
      width: 1080,
      height: 2400,
    });
    expect((await call(device, 'GET', `/session/${sid}/appium/device/info`)).body.value).toMatchObject({
      apiVersion: '34',
      realDisplaySize: '1080x2400',
      displayDensity: 420,
    });
    expect((await call(device, 'GET', '/sessions')).body.value).toEqual([
      { id: sid, capabilities: { platformName: 'Android' } },
    ]);
  });

  it('finds, reads, clicks, and marks elements stale after navigation', async () => {
    const { device, sid } = await serving();
    device.setScreen('settings_home');
    const found = await call(device, 'POST', `/session/${sid}/element`, {
      strategy: '-android uiautomator',
      selector: 'new UiSelector().textContains("Network")',
    });
    const id = (found.body.value as Record<string, string>)[W3C] as string;
    expect((await call(device, 'GET', `/session/${sid}/element/${id}/text`)).body.value).toBe('Network & internet');
    const again = await call(device, 'POST', `/session/${sid}/element`, {
      strategy: 'xpath',
      selector: "//*[@text='Network & internet']",
    });
    expect((again.body.value as Record<string, string>)[W3C]).toBe(id);
    device.clearLog();
    expect((await call(device, 'POST', `/session/${sid}/element/${id}/click`, {})).status).toBe(200);
    expect(device.clicks()).toHaveLength(1);
    expect(device.currentScreen().screenId).toBe('settings_network');
    const stale = await call(device, 'GET', `/session/${sid}/element/${id}/text`);
    expect(stale).toMatchObject({ status: 404, body: { value: { error: 'stale element reference' } } });
    const missing = await call(device, 'POST', `/session/${sid}/element`, {
      strategy: 'accessibility id',
      selector: 'Nope',
    });
    expect(missing).toEqual({
      status: 404,
      body: {
        value: {
          error: 'no such element',
          message: 'An element could not be located on the page using the given search parameters.',
          stacktrace: '',
        },
      },
    });
    expect((await call(device, 'GET', `/session/${sid}/nope`)).body.value).toMatchObject({ error: 'unknown command' });
    expect((await call(device, 'GET', '/session/other/source')).body.value).toMatchObject({
      error: 'invalid session id',
    });
  });

  it('UiScrollable scrolls a row into view', async () => {
    const { device, sid } = await serving();
    device.setScreen('all_apps');
    const r = await call(device, 'POST', `/session/${sid}/element`, {
      strategy: '-android uiautomator',
      selector:
        'new UiScrollable(new UiSelector().scrollable(true)).scrollIntoView(new UiSelector().text("YouTube Music"))',
    });
    expect(r.status).toBe(200);
    expect(device.nodes().some((n) => n.text === 'YouTube Music')).toBe(true);
  });

  it('hangs the click endpoint on request', async () => {
    const { device, sid } = await serving();
    device.injectFault({ kind: 'hung', target: 'uia2', match: '/click' });
    device.setScreen('settings_home');
    const found = await call(device, 'POST', `/session/${sid}/element`, {
      strategy: 'xpath',
      selector: "//*[@text='Apps']",
    });
    const id = (found.body.value as Record<string, string>)[W3C] as string;
    const outcome = await Promise.race([
      call(device, 'POST', `/session/${sid}/element/${id}/click`, {}).then(() => 'answered'),
      new Promise((r) => setTimeout(() => r('hung'), 80)),
    ]);
    expect(outcome).toBe('hung');
    expect(device.currentScreen().screenId).toBe('settings_home');
  });

  it('DELETE /session ends the instrumentation and closes port 6790', async () => {
    const { device, instrument, sid } = await serving();
    expect((await call(device, 'DELETE', `/session/${sid}`)).status).toBe(200);
    expect((await instrument).stdout).toContain('OK (1 test)');
    expect(device.instrumentationRunning()).toBe(false);
    expect(device.openTcp(6790)).toBeNull();
  });

  it('an injected crash ends the instrumentation with Process crashed', async () => {
    const { device, instrument } = await serving();
    device.injectFault({ kind: 'instrumentation-crash' });
    expect((await instrument).stdout).toContain('shortMsg=Process crashed.');
    expect(device.openTcp(6790)).toBeNull();
  });

  // --- what real fields report ------------------------------------------------------

  const find = async (device: VirtualDevice, sid: string, using: string, value: string): Promise<string> => {
    const found = await call(device, 'POST', `/session/${sid}/element`, { strategy: using, selector: value });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    return (found.body.value as Record<string, string>)[W3C] as string;
  };
  const textOf = async (device: VirtualDevice, sid: string, id: string): Promise<unknown> =>
    (await call(device, 'GET', `/session/${sid}/element/${id}/text`)).body.value;

  it('an empty field reports its hint as its text, in the dump, the page source, finds and GET /text (§2)', async () => {
    const { device, sid } = await serving();
    device.setScreen('settings_add_account');
    // What `uiautomator dump` prints (a real dump would be refused while the session runs).
    const dump = device.dumpXml();
    expect(dump.match(/<node [^>]*text="Name"[^>]*class="android\.widget\.EditText"[^>]*hint="Name"/g)).toHaveLength(2);
    expect(dump).toMatch(
      /text="Email" resource-id="com\.android\.settings:id\/account_email" class="android\.widget\.EditText"/,
    );
    expect(dump).toMatch(/text="Password" [^>]*password="true"[^>]*hint="Password"/);
    // uiautomator dump has no showing-hint; the UiAutomator2 page source has it on every node.
    expect(dump).not.toContain('showing-hint');
    const source = (await call(device, 'GET', `/session/${sid}/source`)).body.value as string;
    expect(source).toMatch(/<android\.widget\.EditText [^>]*text="Email"[^>]*hint="Email"[^>]*showing-hint="true"/);
    const email = await find(device, sid, 'xpath', "//*[@text='Email']");
    expect(await textOf(device, sid, email)).toBe('Email');
    expect((await call(device, 'GET', `/session/${sid}/element/${email}/attribute/showing-hint`)).body.value).toBe(
      'true',
    );
    expect(await find(device, sid, '-android uiautomator', 'new UiSelector().text("Email")')).toBe(email);
  });

  it('typing replaces the hint (UiAutomator2 takes a text that survives clear() for a hint), and the hint stays an attribute (§2)', async () => {
    const { device, sid } = await serving();
    device.setScreen('settings_add_account');
    const email = await find(device, sid, 'id', 'com.android.settings:id/account_email');
    // No `replace`: what webdriverio's elementSendKeys sends.
    expect(
      (await call(device, 'POST', `/session/${sid}/element/${email}/value`, { text: 'ada@example.com' })).status,
    ).toBe(200);
    expect(await textOf(device, sid, email)).toBe('ada@example.com');
    expect(await find(device, sid, 'xpath', "//*[contains(@hint, 'Email')]")).toBe(email);
    expect(
      (await call(device, 'POST', `/session/${sid}/element`, { strategy: 'xpath', selector: "//*[@text='Email']" }))
        .status,
    ).toBe(404);
    const source = (await call(device, 'GET', `/session/${sid}/source`)).body.value as string;
    expect(source).toMatch(/text="ada@example\.com"[^>]*hint="Email"[^>]*showing-hint="false"/);
    // Appending to a field that has a hint replaces its text: after clear() it still reports a
    // text (its hint), which SendKeysToElement takes for a hint and appends to nothing.
    await call(device, 'POST', `/session/${sid}/element/${email}/value`, { text: '.uk' });
    expect(await textOf(device, sid, email)).toBe('.uk');
    // Emptied, it reports its hint again.
    await call(device, 'POST', `/session/${sid}/element/${email}/clear`, {});
    expect(await textOf(device, sid, email)).toBe('Email');
  });

  it('a password field reports one bullet per character; the plain-text trait reports what was typed (§8)', async () => {
    const { device, sid } = await serving();
    device.setScreen('settings_add_account');
    const field = await find(device, sid, 'xpath', "//*[@password='true']");
    await call(device, 'POST', `/session/${sid}/element/${field}/value`, { text: 'hunter2-secret' });
    const bullets = '\u2022'.repeat('hunter2-secret'.length);
    expect(await textOf(device, sid, field)).toBe(bullets);
    expect(device.dumpXml()).toContain(`text="${bullets}"`);
    expect(device.dumpXml()).not.toContain('hunter2-secret');
    expect(device.nodes().find((n) => n.password)?.editableText).toBe('hunter2-secret');
    device.setPasswordText('plain');
    expect(await textOf(device, sid, field)).toBe('hunter2-secret');
    expect((await call(device, 'GET', `/session/${sid}/source`)).body.value as string).toContain(
      'text="hunter2-secret"',
    );
    device.resetTraits();
    expect(await textOf(device, sid, field)).toBe(bullets);
  });

  it('appending to a password field without a hint keeps its bullets, as SendKeysToElement does on a device (§8)', async () => {
    const device = new VirtualDevice(
      {
        name: 'pin',
        home: 'pin',
        packages: [
          ...platformPackages(detectHelperVersions()),
          { name: 'com.example.pin', launcher: { activity: '.Main', screen: 'pin' } },
        ],
        screens: [
          {
            id: 'pin',
            package: 'com.example.pin',
            activity: '.Main',
            root: {
              class: 'android.widget.FrameLayout',
              bounds: [0, 0, 1080, 2400],
              children: [
                {
                  class: 'android.widget.EditText',
                  key: 'pin',
                  text: '1234',
                  password: true,
                  clickable: true,
                  bounds: [0, 300, 1080, 450],
                },
              ],
            },
          },
        ],
      },
      { instrumentationStartupMs: 5 },
    );
    const abort = new AbortController();
    aborts.push(abort);
    void sh(device, INSTRUMENT, abort.signal);
    for (let i = 0; i < 100 && !device.instrumentation.isServing(); i++) await new Promise((r) => setTimeout(r, 5));
    const created = await call(device, 'POST', '/session', {
      capabilities: { firstMatch: [{ platformName: 'Android' }], alwaysMatch: {} },
    });
    const sid = created.body.sessionId as string;
    const field = await find(device, sid, 'class name', 'android.widget.EditText');
    await call(device, 'POST', `/session/${sid}/element/${field}/value`, { text: '5' });
    expect(device.nodes().find((n) => n.password)?.editableText).toBe('\u2022\u2022\u2022\u20225');
  });
});

/** The UiAutomator2 HTTP emulation, reached through openTcp(6790) streams as the transport reaches it. */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualDevice } from '../../../src/virtual-device/device/VirtualDevice.js';
import { sh } from './helpers.js';

const W3C = 'element-6066-11e4-a52e-4f735466cecf';
const INSTRUMENT = 'am instrument -w -e disableAnalytics true io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner';

interface Reply {
  status: number;
  body: { sessionId?: string | null; value: unknown };
}

function call(device: VirtualDevice, method: string, path: string, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const socket = device.openTcp(6790);
    if (!socket) return reject(new Error('port 6790 refused'));
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      { method, path, createConnection: () => socket as never, headers: payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Reply['body'] }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const aborts: AbortController[] = [];
afterEach(() => {
  for (const a of aborts.splice(0)) a.abort();
});

async function serving(): Promise<{ device: VirtualDevice; instrument: Promise<{ stdout: string }>; sid: string }> {
  const device = VirtualDevice.withDefaultScenario({ instrumentationStartupMs: 5 });
  expect(device.openTcp(6790)).toBeNull();
  const abort = new AbortController();
  aborts.push(abort);
  const instrument = sh(device, INSTRUMENT, abort.signal);
  for (let i = 0; i < 100 && !device.instrumentation.isServing(); i++) await new Promise((r) => setTimeout(r, 5));
  expect((await call(device, 'GET', '/status')).body.value).toMatchObject({ ready: true });
  const created = await call(device, 'POST', '/session', { capabilities: { firstMatch: [{ platformName: 'Android' }], alwaysMatch: {} } });
  const sid = created.body.sessionId as string;
  expect((created.body.value as { sessionId: string }).sessionId).toBe(sid);
  return { device, instrument, sid };
}

describe('UIA2 server emulation: long click (issue 13 §2)', () => {
  const find = async (device: VirtualDevice, sid: string, desc: string): Promise<string> => {
    const found = await call(device, 'POST', `/session/${sid}/element`, { strategy: 'accessibility id', selector: desc });
    return (found.body.value as Record<string, string>)[W3C] as string;
  };
  const status = (device: VirtualDevice) => device.nodes().find((n) => n.text.startsWith('Selected') || n.text.startsWith('Restored'))?.text ?? '';

  it('POST /appium/gestures/long_click held past the timeout is a long click; the row shows its context action', async () => {
    const { device, sid } = await serving();
    device.setScreen('notes_history');
    const id = await find(device, sid, 'Ideas\nA virtual device for tests');
    device.clearLog();
    const answer = await call(device, 'POST', `/session/${sid}/appium/gestures/long_click`, { origin: { ELEMENT: id, [W3C]: id }, duration: 1500 });
    expect(answer.status).toBe(200);
    expect(device.clicks().map((c) => [c.source, c.gesture, c.heldMs])).toEqual([['uia2-long-click', 'long-click', 1500]]);
    expect(device.log().filter((e) => e.kind === 'long-click')).toHaveLength(1);
    expect(status(device)).toBe('Selected: Ideas (Delete, Share)');
  });

  it('a press not held past the long-press timeout is a click, never a long click (the default hold is exactly the timeout)', async () => {
    const { device, sid } = await serving();
    device.setScreen('notes_history');
    const id = await find(device, sid, 'Ideas\nA virtual device for tests');
    device.clearLog();
    for (const body of [{ origin: { ELEMENT: id }, duration: 300 }, { origin: { ELEMENT: id } }, { origin: { ELEMENT: id }, duration: 400 }]) {
      expect((await call(device, 'POST', `/session/${sid}/appium/gestures/long_click`, body)).status).toBe(200);
    }
    expect(device.clicks().map((c) => c.gesture)).toEqual(['click', 'click', 'click']);
    expect(device.log().filter((e) => e.kind === 'long-click')).toEqual([]);
    expect(status(device)).toBe('');
    // A longer touch & hold delay (accessibility setting) makes 1 s a plain click too.
    device.system.settings.secure.set('long_press_timeout', '1500');
    expect((await call(device, 'POST', `/session/${sid}/appium/gestures/long_click`, { origin: { ELEMENT: id }, duration: 1000 })).status).toBe(200);
    expect(device.clicks().at(-1)?.gesture).toBe('click');
    expect((await call(device, 'POST', `/session/${sid}/appium/gestures/long_click`, { origin: { ELEMENT: id }, duration: -1 })).status).toBe(400);
    expect((await call(device, 'POST', `/session/${sid}/appium/gestures/long_click`, {})).status).toBe(400);
  });

  it('a W3C pointer held past the timeout long-clicks a long-clickable-only node; a long hold on a plain button clicks it', async () => {
    const { device, sid } = await serving();
    device.setScreen('notes_history');
    const hold = (x: number, y: number, ms: number) => ({
      actions: [{ type: 'pointer', id: 'f', parameters: { pointerType: 'touch' }, actions: [{ type: 'pointerMove', duration: 0, x, y }, { type: 'pointerDown', button: 0 }, { type: 'pause', duration: ms }, { type: 'pointerUp', button: 0 }] }],
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
    const count = async (selector: string) => ((await call(device, 'POST', `/session/${sid}/elements`, { strategy: '-android uiautomator', selector })).body.value as unknown[]).length;
    // Java reads a backslash before a non-letter as that character: \_ is _.
    expect(await count('new UiSelector().resourceIdMatches("android:id/switch\\_widget")')).toBe(1);
    expect(await count('new UiSelector().resourceIdMatches("android:id/switch_widget")')).toBe(1);
    expect(await count('new UiSelector().resourceIdMatches("android:id/switch.widget")')).toBe(1);
    expect(await count('new UiSelector().resourceIdMatches("android:id/switch\\.widget")')).toBe(0);
    expect(await count('new UiSelector().resourceIdMatches(".*")')).toBe(device.nodes().filter((n) => n.resourceId !== '').length);
    expect(await count('new UiSelector().resourceIdMatches("switch_widget")')).toBe(0);
    expect(await count('new UiSelector().textStartsWith("Wi").checked(true)')).toBe(0);
    expect(await count('new UiSelector().className("android.widget.Switch").checked(true).instance(0)')).toBe(1);
  });
});

describe('UIA2 server emulation', () => {
  it('answers the calls Appium makes at session start', async () => {
    const { device, sid } = await serving();
    expect((await call(device, 'GET', `/session/${sid}/appium/device/pixel_ratio`)).body.value).toBe(2.625);
    expect((await call(device, 'GET', `/session/${sid}/window/current/size`)).body.value).toEqual({ width: 1080, height: 2400 });
    expect((await call(device, 'GET', `/session/${sid}/appium/device/info`)).body.value).toMatchObject({ apiVersion: '34', realDisplaySize: '1080x2400', displayDensity: 420 });
    expect((await call(device, 'GET', '/sessions')).body.value).toEqual([{ id: sid, capabilities: { platformName: 'Android' } }]);
  });

  it('finds, reads, clicks, and marks elements stale after navigation', async () => {
    const { device, sid } = await serving();
    device.setScreen('settings_home');
    const found = await call(device, 'POST', `/session/${sid}/element`, { strategy: '-android uiautomator', selector: 'new UiSelector().textContains("Network")' });
    const id = (found.body.value as Record<string, string>)[W3C] as string;
    expect((await call(device, 'GET', `/session/${sid}/element/${id}/text`)).body.value).toBe('Network & internet');
    const again = await call(device, 'POST', `/session/${sid}/element`, { strategy: 'xpath', selector: "//*[@text='Network & internet']" });
    expect((again.body.value as Record<string, string>)[W3C]).toBe(id);
    device.clearLog();
    expect((await call(device, 'POST', `/session/${sid}/element/${id}/click`, {})).status).toBe(200);
    expect(device.clicks()).toHaveLength(1);
    expect(device.currentScreen().screenId).toBe('settings_network');
    const stale = await call(device, 'GET', `/session/${sid}/element/${id}/text`);
    expect(stale).toMatchObject({ status: 404, body: { value: { error: 'stale element reference' } } });
    const missing = await call(device, 'POST', `/session/${sid}/element`, { strategy: 'accessibility id', selector: 'Nope' });
    expect(missing).toEqual({ status: 404, body: { value: { error: 'no such element', message: 'An element could not be located on the page using the given search parameters.', stacktrace: '' } } });
    expect((await call(device, 'GET', `/session/${sid}/nope`)).body.value).toMatchObject({ error: 'unknown command' });
    expect((await call(device, 'GET', '/session/other/source')).body.value).toMatchObject({ error: 'invalid session id' });
  });

  it('UiScrollable scrolls a row into view', async () => {
    const { device, sid } = await serving();
    device.setScreen('all_apps');
    const r = await call(device, 'POST', `/session/${sid}/element`, {
      strategy: '-android uiautomator',
      selector: 'new UiScrollable(new UiSelector().scrollable(true)).scrollIntoView(new UiSelector().text("YouTube Music"))',
    });
    expect(r.status).toBe(200);
    expect(device.nodes().some((n) => n.text === 'YouTube Music')).toBe(true);
  });

  it('hangs the click endpoint on request', async () => {
    const { device, sid } = await serving();
    device.injectFault({ kind: 'hung', target: 'uia2', match: '/click' });
    device.setScreen('settings_home');
    const found = await call(device, 'POST', `/session/${sid}/element`, { strategy: 'xpath', selector: "//*[@text='Apps']" });
    const id = (found.body.value as Record<string, string>)[W3C] as string;
    const outcome = await Promise.race([call(device, 'POST', `/session/${sid}/element/${id}/click`, {}).then(() => 'answered'), new Promise((r) => setTimeout(() => r('hung'), 80))]);
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
});

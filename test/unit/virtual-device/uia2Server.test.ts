/** The UiAutomator2 HTTP emulation, reached through openTcp(6790) streams as the transport reaches it. */
import { afterEach, describe, expect, it } from 'vitest';
import { W3C, call, serving, stopServing } from './uia2Client.js';

afterEach(stopServing);

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

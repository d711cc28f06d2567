/**
 * Answers of the UiAutomator2 double whose shape real servers' recorded replies settled (the
 * conformance corpus, docs/internals/device-quirks.md "What real UiAutomator2 servers answered"). These hold
 * without the corpus, so a checkout without ../shared still guards them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, serving, stopServing } from './uia2Client.js';

afterEach(stopServing);

describe('UIA2 server emulation: answers shaped as the real server answers them', () => {
  it('GET /status carries the installed server build (version name and code)', async () => {
    const { device } = await serving();
    const status = (await call(device, 'GET', '/status')).body.value as {
      ready: boolean;
      build: { version: string; versionCode: number };
    };
    expect(status.ready).toBe(true);
    expect(status.build.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Number.isInteger(status.build.versionCode)).toBe(true);
  });

  it('POST /session echoes the capabilities as sent, with the new session id', async () => {
    const { device } = await serving();
    const capabilities = {
      firstMatch: [{ platformName: 'Android', 'appium:deviceName': 'x' }],
      alwaysMatch: { 'appium:noReset': true },
    };
    const created = await call(device, 'POST', '/session', { capabilities });
    expect(created.body.value).toEqual({ capabilities, sessionId: created.body.sessionId });
  });

  it('GET /session/:id is the last scroll data (none), system_bars the status bar only', async () => {
    const { device, sid } = await serving();
    expect((await call(device, 'GET', `/session/${sid}`)).body.value).toEqual({ lastScrollData: null });
    expect(
      Object.keys((await call(device, 'GET', `/session/${sid}/appium/device/system_bars`)).body.value as object),
    ).toEqual(['statusBar']);
  });

  it('POST /orientation: PORTRAIT and LANDSCAPE turn the display and answer the orientation reached, anything else is an invalid argument', async () => {
    const { device, sid } = await serving();
    expect(await call(device, 'POST', `/session/${sid}/orientation`, { orientation: 'PORTRAIT' })).toMatchObject({
      status: 200,
      body: { value: 'PORTRAIT' },
    });
    expect(await call(device, 'POST', `/session/${sid}/orientation`, { orientation: 'LANDSCAPE' })).toMatchObject({
      status: 200,
      body: { value: 'LANDSCAPE' },
    });
    expect(device.ui.displayRotation()).toBe(3);
    expect(await call(device, 'POST', `/session/${sid}/orientation`, { orientation: 'SIDEWAYS' })).toMatchObject({
      status: 400,
      body: { value: { error: 'invalid argument' } },
    });
  });

  it('a UiSelector statement may leave out its constructor', async () => {
    const { device, sid } = await serving();
    device.setScreen('settings_home');
    const count = async (selector: string) => {
      const reply = await call(device, 'POST', `/session/${sid}/elements`, {
        strategy: '-android uiautomator',
        selector,
      });
      expect(reply.status).toBe(200);
      return (reply.body.value as unknown[]).length;
    };
    const full = await count('new UiSelector().textContains("Network")');
    expect(full).toBeGreaterThan(0);
    expect(await count('textContains("Network")')).toBe(full);
    expect(await count('.textContains("Network")')).toBe(full);
    expect(await count('UiSelector().textContains("Network")')).toBe(full);
  });
});

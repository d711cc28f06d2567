/**
 * Captures are drawn off the device's own thread: on Android `screencap` is a process of its own and
 * does not hold up `dumpsys` (system_server) or the UiAutomator2 server, so the device answers them
 * while a capture is drawn. A capture still shows the screen of the moment it ran, an unchanged
 * screen is answered from the cache without drawing, and no capture thread outlives the devices.
 */
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { captureThreadCount, type CaptureThread } from '../../src/device/captureThread.js';
import { VirtualDevice } from '../../src/device/index.js';
import { ScreenCapture, type ScreenshotState } from '../../src/device/screenshot.js';
import { sh, shBytes } from './helpers.js';
import { call, serving, stopServing } from './uia2Client.js';

const opened: VirtualDevice[] = [];
const newDevice = (): VirtualDevice => {
  const d = VirtualDevice.withDefaultScenario({ instrumentationStartupMs: 5 });
  opened.push(d);
  return d;
};

afterEach(async () => {
  stopServing();
  await Promise.all(opened.splice(0).map((d) => d.close()));
});

/** What the device's own thread draws for `screen`, on a twin device (the control API does not touch the other's cache). */
function drawnInThisThread(screen: string): Buffer {
  const twin = VirtualDevice.withDefaultScenario();
  twin.setScreen(screen);
  return twin.screenshotPng();
}

describe('captures drawn off the device thread', () => {
  it('a shell command answers while a capture is drawn, and the capture shows the screen of the moment it ran', async () => {
    const d = newDevice();
    d.setScreen('settings_home');
    const finished: string[] = [];
    const shot = shBytes(d, 'screencap -p').then((png) => {
      finished.push('screencap');
      return png;
    });
    // One turn of the event loop: a capture drawn on the device's thread would be answered by now.
    await new Promise((resolve) => setImmediate(resolve));
    const window = await sh(d, 'dumpsys window');
    finished.push('dumpsys window');
    expect(window.code).toBe(0);
    expect(window.stdout).toContain('mCurrentFocus=Window{');
    // The screen changes while the capture is drawn: the capture is still the screen it ran on.
    d.setScreen('all_apps');
    const png = await shot;
    expect(finished).toEqual(['dumpsys window', 'screencap']);
    expect(png.equals(drawnInThisThread('settings_home'))).toBe(true);
    // The next capture shows the new screen.
    expect((await shBytes(d, 'screencap -p')).equals(drawnInThisThread('all_apps'))).toBe(true);
  });

  it('the UiAutomator2 server answers a page source while its screenshot is drawn', async () => {
    const { device, sid } = await serving();
    opened.push(device);
    const finished: string[] = [];
    const shot = call(device, 'GET', `/session/${sid}/screenshot`).then((reply) => {
      finished.push('screenshot');
      return reply;
    });
    const source = await call(device, 'GET', `/session/${sid}/source`);
    finished.push('source');
    expect(source.status).toBe(200);
    const reply = await shot;
    expect(reply.status).toBe(200);
    expect(finished).toEqual(['source', 'screenshot']);
    expect(Buffer.from(String(reply.body.value), 'base64').equals(drawnInThisThread('launcher'))).toBe(true);
  });

  it('raw screencap and a file target give what they gave before: the header and pixels, the PNG in the file', async () => {
    const d = newDevice();
    d.setScreen('settings_home');
    const expected = drawnInThisThread('settings_home');
    const raw = await shBytes(d, 'screencap');
    const decoded = PNG.sync.read(expected);
    expect([raw.readUInt32LE(0), raw.readUInt32LE(4), raw.readUInt32LE(8), raw.readUInt32LE(12)]).toEqual([
      1080, 2400, 1, 1,
    ]);
    expect(raw.subarray(16).equals(decoded.data)).toBe(true);
    expect((await sh(d, 'screencap -p /sdcard/shot.png')).code).toBe(0);
    expect(d.readFile('/sdcard/shot.png')?.equals(expected)).toBe(true);
  });

  it('an unchanged screen is answered from the cache without drawing; a second capture of a screen being drawn waits for that drawing', async () => {
    const d = VirtualDevice.withDefaultScenario();
    const states: ScreenshotState[] = [];
    const thread = {
      render: (state: ScreenshotState) => {
        states.push(state);
        return new Promise<Buffer>((resolve) => setTimeout(() => resolve(Buffer.from(`png ${states.length}`)), 20));
      },
      close: () => Promise.resolve(),
    } as unknown as CaptureThread;
    const capture = new ScreenCapture({ ui: d.ui, blank: () => false, locked: () => false }, thread);
    const [a, b] = await Promise.all([capture.capture(), capture.capture()]);
    expect(a.toString()).toBe('png 1');
    expect(b.toString()).toBe('png 1');
    expect((await capture.capture()).toString()).toBe('png 1');
    expect(states).toHaveLength(1);
    d.setScreen('settings_home');
    expect((await capture.capture()).toString()).toBe('png 2');
    expect(states[1]?.root.package).toBe('com.android.settings');
  });

  it('no capture thread outlives the devices: closing the last device that captured ends them, and a closed device captures again', async () => {
    const a = newDevice();
    const b = newDevice();
    await Promise.all([shBytes(a, 'screencap -p'), shBytes(b, 'screencap -p')]);
    expect(captureThreadCount()).toBeGreaterThan(0);
    await a.close();
    expect(captureThreadCount()).toBeGreaterThan(0);
    await b.close();
    expect(captureThreadCount()).toBe(0);
    a.setScreen('settings_home');
    expect((await shBytes(a, 'screencap -p')).equals(drawnInThisThread('settings_home'))).toBe(true);
    await a.close();
    expect(captureThreadCount()).toBe(0);
  });
});

/**
 * The UiAutomator2 server's gesture endpoints on the virtual device, driven through the real
 * Appium 3 + UiAutomator2 driver with webdriverio's `mobile: …Gesture` commands: what each answers
 * (as appium-uiautomator2-server's handlers do) and what it does to the screen (the list scrolls,
 * the click opens a page), read back from the device's own state and log. docs/internals/virtual-device.md.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/VirtualDevice.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { startAppium, type RunningAppium } from '../support/appium.js';
import { attachDeviceToAdb, type AttachedDevice } from '../support/deviceOnAdb.js';
import { openRawSession, type RawDriver } from '../support/rawSession.js';

const W3C = 'element-6066-11e4-a52e-4f735466cecf';
const LIST = 'com.android.settings:id/apps_list';

describeWithAdb('UiAutomator2 gesture endpoints through the real Appium', () => {
  let adb: PrivateAdbServer;
  let device: VirtualDevice;
  let attached: AttachedDevice;
  let appium: RunningAppium;
  let driver: RawDriver;

  const find = async (using: string, value: string): Promise<string> => {
    const ref = (await driver.findElement(using, value)) as Record<string, string | undefined>;
    const id = ref[W3C] ?? ref.ELEMENT;
    if (!id) throw new Error(`not an element reference: ${JSON.stringify(ref)}`);
    return id;
  };
  const since = (): number => device.logEntries().at(-1)?.seq ?? 0;
  const logSince = (seq: number, kind: string): string[] =>
    device
      .logEntries()
      .filter((e) => e.seq > seq && e.kind === kind)
      .map((e) => e.detail);
  /** The first row title the list shows now (its offset is internal; the rows are what a client sees). */
  const firstRow = (): string =>
    device
      .nodes()
      .filter((n) => n.text !== '' && n.bounds.top >= 400)
      .sort((a, b) => a.bounds.top - b.bounds.top)[0]?.text ?? '';
  const gesture = (name: string, args: Record<string, unknown>): Promise<unknown> =>
    driver.execute(`mobile: ${name}`, args);

  beforeAll(async () => {
    adb = await startAdbServer();
    device = VirtualDevice.withDefaultScenario();
    attached = await attachDeviceToAdb(device, adb);
    appium = await startAppium({ adbPort: adb.port });
    driver = await openRawSession({ appiumPort: appium.port, serial: attached.serial, adbPort: adb.port });
  }, 180_000);

  afterAll(async () => {
    await driver?.deleteSession().catch(() => undefined);
    await appium?.stop();
    await attached?.stop();
    await adb?.stop();
  }, 60_000);

  it('clickGesture on an element clicks its centre; an offset alone is a screen point', async () => {
    device.setScreen('settings_home');
    device.clearLog();
    await gesture('clickGesture', { elementId: await find('xpath', "//*[@text='Apps']") });
    expect(device.currentScreen().screenId).toBe('settings_apps');
    expect(device.clicks().map((c) => c.source)).toEqual(['uia2-click-gesture']);
    // Neither an element nor an offset: the handler's IllegalArgumentException, 400 invalid argument.
    await expect(gesture('clickGesture', {})).rejects.toThrow(
      /Click offset coordinates must be provided if element is not set/,
    );
  });

  it('doubleClickGesture taps twice at one point', async () => {
    device.setScreen('settings_home');
    device.clearLog();
    await gesture('doubleClickGesture', { x: 540, y: 1300 });
    const clicks = device.clicks();
    expect(clicks.map((c) => [c.source, c.x, c.y])).toEqual([
      ['uia2-double-click', 540, 1300],
      ['uia2-double-click', 540, 1300],
    ]);
  });

  it('scrollGesture scrolls the list, answers true while it has room and false at its end', async () => {
    device.setScreen('all_apps');
    const list = await find('id', LIST);
    const top = firstRow();
    expect(await gesture('scrollGesture', { elementId: list, direction: 'down', percent: 0.5 })).toBe(true);
    const moved = firstRow();
    expect(moved).not.toBe(top);
    // Up past the start: the first swipe finds the end, so false.
    expect(await gesture('scrollGesture', { elementId: list, direction: 'up', percent: 5 })).toBe(false);
    expect(firstRow()).toBe(top);
    // A direction the server does not know.
    await expect(gesture('scrollGesture', { elementId: list, direction: 'sideways', percent: 0.5 })).rejects.toThrow(
      /Scroll direction must be one of \[LEFT, RIGHT, UP, DOWN\]/,
    );
  });

  it('swipeGesture over an area moves the list; a percent above 1 is refused', async () => {
    device.setScreen('all_apps');
    const top = firstRow();
    const seq = since();
    await gesture('swipeGesture', { left: 100, top: 600, width: 880, height: 1200, direction: 'up', percent: 0.75 });
    expect(firstRow()).not.toBe(top);
    expect(logSince(seq, 'input').join('\n')).toMatch(
      /uia2 swipe swipe \(540,1800\)->\(540,900\) in \d+ ms over \S+: drag/,
    );
    await expect(
      gesture('swipeGesture', { left: 100, top: 600, width: 880, height: 1200, direction: 'up', percent: 1.5 }),
    ).rejects.toThrow(/Percent must be between 0.0f and 1.0f/);
  });

  it('flingGesture answers whether it can go on, and refuses a speed under the minimum fling velocity', async () => {
    device.setScreen('all_apps');
    const list = await find('id', LIST);
    const top = firstRow();
    const result = await gesture('flingGesture', { elementId: list, direction: 'down' });
    expect(typeof result).toBe('boolean');
    expect(firstRow()).not.toBe(top);
    // ViewConfiguration's 50 dp/s at 420 dpi: 131 px/s.
    await expect(gesture('flingGesture', { elementId: list, direction: 'down', speed: 100 })).rejects.toThrow(
      /Speed 100 is less than the minimum fling velocity 131/,
    );
  });

  it('dragGesture holds, then moves: the list follows the finger', async () => {
    device.setScreen('all_apps');
    const top = firstRow();
    const seq = since();
    await gesture('dragGesture', { startX: 540, startY: 1800, endX: 540, endY: 800 });
    expect(logSince(seq, 'input').join('\n')).toMatch(
      /uia2 drag \(540,1800\)->\(540,800\) at \d+ px\/s after a 600 ms hold/,
    );
    expect(firstRow()).not.toBe(top);
    await expect(gesture('dragGesture', { endX: 540, endY: 800 })).rejects.toThrow(
      /The starting point coordinates must be provided if element is not set/,
    );
  });

  it('pinchOpenGesture and pinchCloseGesture are performed and logged; nothing on the screen zooms', async () => {
    device.setScreen('all_apps');
    const list = await find('id', LIST);
    const seq = since();
    await gesture('pinchOpenGesture', { elementId: list, percent: 0.5 });
    await gesture('pinchCloseGesture', { left: 100, top: 600, width: 800, height: 800, percent: 0.5 });
    const log = logSince(seq, 'input').join('\n');
    expect(log).toMatch(/uia2 pinch open over \S+/);
    expect(log).toMatch(/uia2 pinch close over \S+: fingers \(105,1395\)->\(302,1198\)/);
    await expect(gesture('pinchOpenGesture', { percent: 0.5 })).rejects.toThrow(
      /The pinch area coordinates must be provided if element is not set/,
    );
  });
});

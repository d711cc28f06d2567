/**
 * The virtual device as real clients see it: a private adb server (the real Debian adb),
 * the ADB transport, and a real Appium 3 + UiAutomator2 driver driven through webdriverio
 * with the contract's capabilities only (plus appium:adbPort for the private adb server).
 */
import { PNG } from 'pngjs';
import { remote } from 'webdriverio';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/VirtualDevice.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { startAppium, type RunningAppium } from '../support/appium.js';
import { attachDeviceToAdb, type AttachedDevice } from '../support/deviceOnAdb.js';

type Browser = Awaited<ReturnType<typeof remote>>;
const W3C = 'element-6066-11e4-a52e-4f735466cecf';

function elementId(ref: unknown): string {
  const id = (ref as Record<string, string | undefined>)[W3C] ?? (ref as Record<string, string | undefined>).ELEMENT;
  if (!id) throw new Error(`not an element reference: ${JSON.stringify(ref)}`);
  return id;
}

function isBlank(png: Buffer): boolean {
  const { data } = PNG.sync.read(png);
  for (let i = 4; i < data.length; i += 4) {
    if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2]) return false;
  }
  return true;
}

describeWithAdb('virtual device under real adb + Appium 3 + UiAutomator2', () => {
  let adb: PrivateAdbServer;
  let device: VirtualDevice;
  let attached: AttachedDevice;
  let appium: RunningAppium;
  let driver: Browser | null = null;
  let sessionMs = 0;
  /** Commands the device did not know and UIA2 requests it refused: each is a fidelity gap. */
  const surprises: string[] = [];
  const shellCommands: string[] = [];

  const shell = async (...args: string[]): Promise<{ out: string; err: string; code: number }> => {
    const r = await adb.adb(['-s', attached.serial, 'shell', ...args], { timeoutMs: 20_000 });
    return { out: r.stdout.toString('utf8'), err: r.stderr, code: r.code };
  };
  const find = async (using: string, value: string): Promise<string> =>
    elementId(await (driver as Browser).findElement(using, value));
  const findAll = async (using: string, value: string): Promise<string[]> =>
    ((await (driver as Browser).findElements(using, value)) as unknown[]).map(elementId);

  beforeAll(async () => {
    adb = await startAdbServer();
    device = VirtualDevice.withDefaultScenario({
      onLog: (entry) => {
        if (entry.kind === 'unknown-command' || (entry.kind === 'uia2' && / -> [45]\d\d/.test(entry.detail)))
          surprises.push(`${entry.kind} ${entry.detail}`);
        if (entry.kind === 'shell') shellCommands.push(entry.detail);
      },
    });
    attached = await attachDeviceToAdb(device, adb);
    appium = await startAppium({ adbPort: adb.port, logLevel: 'debug' });
  }, 120_000);

  afterAll(async () => {
    if (driver) await driver.deleteSession().catch(() => undefined);
    await appium?.stop();
    await attached?.stop();
    await adb?.stop();
  }, 60_000);

  it('creates a session with the contract capabilities only', async () => {
    const started = Date.now();
    driver = await remote({
      hostname: '127.0.0.1',
      port: appium.port,
      path: '/',
      logLevel: 'warn',
      connectionRetryCount: 0,
      capabilities: {
        platformName: 'Android',
        'appium:automationName': 'UiAutomator2',
        'appium:udid': attached.serial,
        'appium:noReset': true,
        'appium:newCommandTimeout': 60,
        'appium:adbPort': adb.port,
      },
    });
    sessionMs = Date.now() - started;
    process.stderr.write(`[virtual-device-appium] session created in ${sessionMs} ms\n`);
    expect(device.instrumentationRunning()).toBe(true);
    expect(await appium.sessionIds()).toHaveLength(1);
    expect(device.uia2SessionCount()).toBe(1);
    // Android allows one UiAutomation: a dump fails while the instrumentation holds it.
    const dump = await shell('uiautomator', 'dump', '/dev/tty');
    expect(dump.out + dump.err).toContain('already registered');
    const ps = await shell('ps', '-A');
    expect(ps.out).toMatch(/\sio\.appium\.uiautomator2\.server\n/);
  });

  it('finds by every strategy on Settings', async () => {
    const start = await shell('am', 'start', '-W', '-n', 'com.android.settings/.Settings');
    expect(start.out).toContain('Status: ok');
    expect(device.currentScreen().screenId).toBe('settings_home');
    const byId = await find('id', 'com.android.settings:id/search_action_bar');
    expect(await find('id', 'search_action_bar')).toBe(byId);
    const byXpath = await find('xpath', "//*[@text='Apps']");
    expect(await (driver as Browser).getElementText(byXpath)).toBe('Apps');
    const byUiSelector = await find('-android uiautomator', 'new UiSelector().text("Network & internet")');
    expect(await (driver as Browser).getElementText(byUiSelector)).toBe('Network & internet');
    expect(await findAll('class name', 'androidx.recyclerview.widget.RecyclerView')).toHaveLength(1);
    expect(await (driver as Browser).getElementAttribute(byId, 'resource-id')).toBe(
      'com.android.settings:id/search_action_bar',
    );
    const rect = await (driver as Browser).getElementRect(byId);
    expect(rect).toEqual({ x: 42, y: 420, width: 996, height: 147 });
    await expect(find('xpath', "//*[@text='No such row']")).rejects.toThrow();
    expect(await findAll('xpath', "//*[@text='No such row']")).toEqual([]);
  });

  it('clicks exactly once inside the node and follows the transition; accessibility id and back', async () => {
    device.clearLog();
    const apps = await find('xpath', "//*[@text='Apps']");
    await (driver as Browser).elementClick(apps);
    const clicks = device.clicks();
    expect(clicks).toHaveLength(1);
    const click = clicks[0];
    expect(click?.element).not.toBeNull();
    const b = click?.element?.bounds;
    expect(b && click.x >= b.left && click.x < b.right && click.y >= b.top && click.y < b.bottom).toBe(true);
    expect(click?.target?.description).toContain('LinearLayout');
    expect(device.currentScreen().screenId).toBe('settings_apps');
    await expect((driver as Browser).getElementText(apps)).rejects.toThrow(/does not exist in DOM anymore/);
    expect(await find('xpath', "//*[@text='All apps']")).toBeTruthy();
    const up = await find('accessibility id', 'Navigate up');
    expect(up).toBeTruthy();
    await (driver as Browser).back();
    expect(device.currentScreen().screenId).toBe('settings_home');
  });

  it('page source, screenshots and a W3C swipe that scrolls the list', async () => {
    await shell('am', 'start', '-W', '-a', 'android.settings.APPLICATION_SETTINGS');
    await (driver as Browser).elementClick(await find('xpath', "//*[@text='All apps']"));
    expect(device.currentScreen().screenId).toBe('all_apps');
    const source = await (driver as Browser).getPageSource();
    expect(source).toMatch(/^<\?xml/);
    expect(source).toContain('<hierarchy index="0" class="hierarchy" rotation="0" width="1080" height="2400">');
    expect(source.match(/text="Clock"/g)).toHaveLength(2);
    expect(source).not.toContain('text="Phone"');
    const before = Buffer.from(await (driver as Browser).takeScreenshot(), 'base64');
    expect(isBlank(before)).toBe(false);
    await (driver as Browser)
      .action('pointer', { parameters: { pointerType: 'touch' } })
      .move({ x: 540, y: 1800 })
      .down()
      .move({ x: 540, y: 600, duration: 300 })
      .up()
      .perform();
    const after = await (driver as Browser).getPageSource();
    expect(after).toContain('text="Phone"');
    expect(after).not.toContain('text="Android Auto"');
    const shot = Buffer.from(await (driver as Browser).takeScreenshot(), 'base64');
    expect(shot.equals(before)).toBe(false);
    await (driver as Browser).back();
  });

  it('setValue types into the search field found by its hint; press_keycode BACK hides the IME', async () => {
    await shell('am', 'start', '-W', '-S', '-n', 'com.android.settings/.Settings');
    await (driver as Browser).elementClick(await find('id', 'com.android.settings:id/search_action_bar'));
    expect(device.currentScreen().screenId).toBe('settings_search');
    expect(device.imeVisible()).toBe(true);
    const dumpsys = await shell('dumpsys', 'window');
    expect(dumpsys.out).toMatch(/InsetsSource id=\S+ type=ime frame=\[0,1517\]\[1080,2400\] visible=true/);
    const field = await find('xpath', "//android.widget.EditText[contains(@hint, 'Search')]");
    await (driver as Browser).elementSendKeys(field, 'wi');
    expect(await (driver as Browser).getElementText(field)).toBe('wi');
    expect(await find('xpath', "//*[@text='Wi-Fi']")).toBeTruthy();
    await (driver as Browser).elementClear(field);
    // Emptied, the field reports its hint as its text, as TextView.getTextForAccessibility does.
    expect(await (driver as Browser).getElementText(field)).toBe('Search settings');
    await (driver as Browser).pressKeyCode(4);
    expect(device.imeVisible()).toBe(false);
  });

  it('deleteSession ends the instrumentation and frees UiAutomation', async () => {
    const started = Date.now();
    await (driver as Browser).deleteSession();
    driver = null;
    process.stderr.write(`[virtual-device-appium] session deleted in ${Date.now() - started} ms\n`);
    expect(device.instrumentationRunning()).toBe(false);
    expect((await shell('ps', '-A')).out).not.toContain('io.appium.uiautomator2.server');
    const dump = await shell('uiautomator', 'dump', '/dev/tty');
    expect(dump.out).toContain('UI hierchary dumped to: /dev/tty');
    expect(await appium.sessionIds()).toEqual([]);
    expect(sessionMs).toBeGreaterThan(0);
    process.stderr.write(`[virtual-device-appium] shell commands:\n  ${[...new Set(shellCommands)].join('\n  ')}\n`);
    // The only refusals are the ones this file provokes on purpose (missing row, stale element).
    expect(surprises.filter((s) => !s.includes('/element -> 404') && !s.includes('/text -> 404'))).toEqual([]);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SecureScreenError } from '../../../src/domain/evidence/secureScreen.js';
import type { Logger } from '../../../src/domain/ports.js';
import { buildCapabilities } from '../../../src/infrastructure/appium/capabilities.js';
import {
  WebdriverAutomationGateway,
  type DriverLike,
} from '../../../src/infrastructure/appium/WebdriverAutomationGateway.js';
import { FakeClock } from '../../support/FakeClock.js';
import { harnessError } from '../../support/harnessError.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';
import { silentLogger } from '../../support/fakes/silentLogger.js';

const W3C = 'element-6066-11e4-a52e-4f735466cecf';

let server: Server | null = null;
afterEach(async () => {
  if (server) await new Promise((resolve) => server?.close(resolve));
  server = null;
});

/** A tiny stand-in HTTP server on 127.0.0.1 (not Appium): answers each path with a canned reply. */
async function stub(routes: Record<string, { status?: number; body: string }>): Promise<string> {
  server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    res.writeHead(route?.status ?? (route ? 200 : 404), { 'content-type': 'application/json' });
    res.end(route?.body ?? '{}');
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function gatewayAt(url: string, extra: Partial<ConstructorParameters<typeof WebdriverAutomationGateway>[0]> = {}) {
  return new WebdriverAutomationGateway({
    url,
    udid: 'emulator-5554',
    connectTimeoutMs: 2_000,
    logger: silentLogger,
    ...extra,
  });
}

describe('status and session list over HTTP', () => {
  it('reads the version from value.build.version', async () => {
    const url = await stub({
      '/status': { body: JSON.stringify({ value: { ready: true, build: { version: '3.8.0' } } }) },
    });
    expect(await gatewayAt(url).status()).toEqual({ kind: 'appium', version: '3.8.0', ready: true });
  });

  it('recognises a Selenium Grid 4 hub by its /status and reports it instead of refusing', async () => {
    const grid = {
      value: {
        ready: true,
        message: 'Selenium Grid ready.',
        nodes: [
          {
            availability: 'UP',
            maxSessions: 1,
            version: '4.48.0 (revision 27f5213)',
            slots: [{ session: null, stereotype: { platformName: 'ANDROID' } }],
          },
        ],
      },
    };
    const url = await stub({ '/status': { body: JSON.stringify(grid) } });
    expect(await gatewayAt(url).status()).toEqual({
      kind: 'selenium-grid',
      version: null,
      ready: true,
      message: 'Selenium Grid ready.',
      gridVersion: '4.48.0',
      nodes: { total: 1, up: 1, available: 1 },
      sessions: 0,
    });
  });

  it('a body that is neither Appium nor a Grid names both in the remedy', async () => {
    const url = await stub({ '/status': { body: JSON.stringify({ value: { ready: true } }) } });
    const error = await harnessError(gatewayAt(url).status());
    expect(error.code).toBe('APPIUM_UNAVAILABLE');
    expect(error.message).toMatch(/Appium 3 server, or at a Selenium Grid 4 hub/);
  });

  it('connection refused → APPIUM_UNAVAILABLE with the remedy naming the URL', async () => {
    const url = await stub({});
    await new Promise((resolve) => server?.close(resolve));
    server = null;
    const error = await harnessError(gatewayAt(url).status());
    expect(error.code).toBe('APPIUM_UNAVAILABLE');
    expect(error.message).toContain(`Start Appium so it answers at ${url}`);
  });

  it.each([
    ['not JSON', { body: '<html>hello</html>' }],
    ['no build version', { body: JSON.stringify({ value: { ready: true } }) }],
    ['HTTP 500', { status: 500, body: '{}' }],
    ['HTTP 404', { status: 404, body: '{}' }],
  ])('a malformed /status (%s) → APPIUM_UNAVAILABLE', async (_label, reply) => {
    const url = await stub({ '/status': reply });
    expect((await harnessError(gatewayAt(url).status())).code).toBe('APPIUM_UNAVAILABLE');
  });

  it('lists session ids from /appium/sessions, falling back to /sessions', async () => {
    let url = await stub({
      '/appium/sessions': { body: JSON.stringify({ value: [{ id: 'a', capabilities: {} }, { id: 'b' }] }) },
    });
    expect(await gatewayAt(url).listSessionIds()).toEqual(['a', 'b']);
    await new Promise((resolve) => server?.close(resolve));
    url = await stub({ '/sessions': { body: JSON.stringify({ value: [{ id: 'c' }] }) } });
    expect(await gatewayAt(url).listSessionIds()).toEqual(['c']);
  });
});

describe('capabilities', () => {
  it('are exactly the contract five and skipUnlock, plus adbPort when given', () => {
    expect(buildCapabilities({ udid: 'emulator-5554', idleTimeoutMs: 120_000 })).toEqual({
      'appium:skipUnlock': true,
      platformName: 'Android',
      'appium:automationName': 'UiAutomator2',
      'appium:udid': 'emulator-5554',
      'appium:noReset': true,
      'appium:newCommandTimeout': 120,
    });
    expect(buildCapabilities({ udid: 'emulator-5554', idleTimeoutMs: 120_000, adbPort: 15037 })['appium:adbPort']).toBe(
      15037,
    );
  });

  it('newCommandTimeout is the idle timeout asked for, in whole seconds rounded up, never 0 (which Appium reads as never)', () => {
    const timeout = (idleTimeoutMs: number) =>
      buildCapabilities({ udid: 'emulator-5554', idleTimeoutMs })['appium:newCommandTimeout'];
    expect(timeout(210_000)).toBe(210);
    expect(timeout(32_500)).toBe(33);
    expect(timeout(0)).toBe(1);
  });

  it('extras cannot override the five or adbPort', () => {
    const caps = buildCapabilities({
      udid: 'emulator-5554',
      idleTimeoutMs: 120_000,
      extra: {
        platformName: 'iOS',
        'appium:udid': 'x',
        'appium:noReset': false,
        'appium:newCommandTimeout': 0,
        'appium:automationName': 'Espresso',
        'appium:adbPort': 1,
        'appium:systemPort': 8210,
      },
      adbPort: 15037,
    });
    expect(caps).toEqual({
      platformName: 'Android',
      'appium:automationName': 'UiAutomator2',
      'appium:udid': 'emulator-5554',
      'appium:noReset': true,
      'appium:newCommandTimeout': 120,
      'appium:adbPort': 15037,
      'appium:systemPort': 8210,
      'appium:skipUnlock': true,
    });
  });

  it('never unlocks the device unless the user asks Appium to', () => {
    expect(buildCapabilities({ udid: 'emulator-5554', idleTimeoutMs: 1_000 })['appium:skipUnlock']).toBe(true);
    const theirs = buildCapabilities({
      udid: 'emulator-5554',
      idleTimeoutMs: 1_000,
      extra: { 'appium:skipUnlock': false, 'appium:unlockType': 'pin' },
    });
    expect(theirs['appium:skipUnlock']).toBe(false);
  });
});

describe("capabilities: the server's wait for idle", () => {
  const idleWait = (extra?: Record<string, unknown>, waitForIdleTimeoutMs = 10_000) =>
    buildCapabilities({ udid: 'emulator-5554', idleTimeoutMs: 120_000, extra, waitForIdleTimeoutMs });

  it('the budget goes into appium:settings, which Appium applies to the UiAutomator2 server', () => {
    expect(idleWait()['appium:settings']).toEqual({ waitForIdleTimeout: 10_000 });
    expect(idleWait(undefined, 2_000)['appium:settings']).toEqual({ waitForIdleTimeout: 2_000 });
    // Without a budget nothing is added (the contract five stay exactly five).
    expect(buildCapabilities({ udid: 'emulator-5554', idleTimeoutMs: 120_000 })['appium:settings']).toBeUndefined();
  });

  it("a lower value of the user's is kept, a higher one is capped, other settings stay; the single form wins as in Appium", () => {
    expect(
      idleWait({ 'appium:settings': { waitForIdleTimeout: 300, ignoreUnimportantViews: true } })['appium:settings'],
    ).toEqual({ waitForIdleTimeout: 300, ignoreUnimportantViews: true });
    expect(idleWait({ 'appium:settings': { waitForIdleTimeout: 60_000 } })['appium:settings']).toEqual({
      waitForIdleTimeout: 10_000,
    });
    const single = idleWait({
      'appium:settings': { waitForIdleTimeout: 5_000 },
      'appium:settings[waitForIdleTimeout]': 0,
    });
    expect(single['appium:settings']).toEqual({ waitForIdleTimeout: 0 });
    expect(single).not.toHaveProperty(['appium:settings[waitForIdleTimeout]']);
    expect(idleWait({ 'appium:settings': { waitForIdleTimeout: 'soon' } })['appium:settings']).toEqual({
      waitForIdleTimeout: 10_000,
    });
    expect(idleWait({ 'appium:settings': { waitForIdleTimeout: -1 } })['appium:settings']).toEqual({
      waitForIdleTimeout: 10_000,
    });
  });

  it('openSession sends the budget it is given', async () => {
    let seen: Record<string, unknown> | null = null;
    const gateway = gatewayAt('http://127.0.0.1:4723', {
      remote: async (options) => {
        seen = options;
        return new FakeDriver();
      },
    });
    await gateway.openSession({ idleTimeoutMs: 120_000, waitForIdleTimeoutMs: 4_000 });
    expect((seen as unknown as { capabilities: Record<string, unknown> }).capabilities['appium:settings']).toEqual({
      waitForIdleTimeout: 4_000,
    });
  });
});

/** A scripted driver: records calls; `find` answers from a queue. */
class FakeDriver implements DriverLike {
  readonly sessionId = 'sess-1';
  readonly calls: unknown[][] = [];
  findAnswers: (() => unknown)[] = [];
  text = '';
  attributes: Record<string, string | null> = {};
  failWith: Record<string, unknown> = {};

  private record(name: string, ...args: unknown[]) {
    this.calls.push([name, ...args]);
    if (this.failWith[name]) throw this.failWith[name];
  }
  async findElement(using: string, value: string) {
    this.record('findElement', using, value);
    const next = this.findAnswers.length > 1 ? this.findAnswers.shift() : this.findAnswers[0];
    return next ? next() : null;
  }
  async findElements(using: string, value: string) {
    this.record('findElements', using, value);
    const next = this.findAnswers.length > 1 ? this.findAnswers.shift() : this.findAnswers[0];
    const found: unknown = next ? next() : null;
    return found === null ? [] : [found];
  }
  async getElementText(id: string) {
    this.record('getElementText', id);
    return this.text;
  }
  async getElementAttribute(id: string, name: string) {
    this.record('getElementAttribute', id, name);
    return this.attributes[name] ?? null;
  }
  async elementClick(id: string) {
    this.record('elementClick', id);
  }
  async executeScript(script: string, args: unknown[]) {
    this.record('executeScript', script, args);
    return null;
  }
  async elementClear(id: string) {
    this.record('elementClear', id);
  }
  async elementSendKeys(id: string, text: string) {
    this.record('elementSendKeys', id, text);
  }
  async performActions(actions: object[]) {
    this.record('performActions', actions);
  }
  async releaseActions() {
    this.record('releaseActions');
  }
  async getWindowRect() {
    this.record('getWindowRect');
    return { x: 0, y: 0, width: 1080, height: 2400 };
  }
  async back() {
    this.record('back');
  }
  async setOrientation(orientation: string) {
    this.record(`setOrientation ${orientation}`);
  }
  async getPageSource() {
    this.record('getPageSource');
    return '<hierarchy/>';
  }
  async takeScreenshot() {
    this.record('takeScreenshot');
    return Buffer.from('png!').toString('base64');
  }
  async deleteSession() {
    this.record('deleteSession');
  }
}

function wdError(name: string, message = name): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}

async function openWith(driver: FakeDriver, clock = new FakeClock(), logger: Logger = silentLogger) {
  let seen: Record<string, unknown> | null = null;
  const gateway = gatewayAt('http://127.0.0.1:4723', {
    clock,
    logger,
    adbPort: 15037,
    remote: async (options) => {
      seen = options;
      return driver;
    },
  });
  const session = await gateway.openSession({ idleTimeoutMs: 210_000 });
  return { session, options: seen as unknown as Record<string, unknown>, clock };
}

describe('openSession', () => {
  it("each session gets the systemPort allocated for it; the user's appium:systemPort wins", async () => {
    const ports = [41001, 41002];
    const seen: Record<string, unknown>[] = [];
    const make = (extraCapabilities: Record<string, unknown>) =>
      gatewayAt('http://127.0.0.1:4723', {
        extraCapabilities,
        systemPort: async () => ports.shift() ?? 0,
        remote: async (options) => {
          seen.push(options.capabilities as Record<string, unknown>);
          return new FakeDriver();
        },
      });
    const gateway = make({});
    await gateway.openSession({ idleTimeoutMs: 1_000 });
    await gateway.openSession({ idleTimeoutMs: 1_000 });
    await make({ 'appium:systemPort': 8210 }).openSession({ idleTimeoutMs: 1_000 });
    expect(seen.map((caps) => caps['appium:systemPort'])).toEqual([41001, 41002, 8210]);
    expect(ports).toEqual([]);
  });

  it('passes host, port, path, silent logging, no retries and the capabilities', async () => {
    const { session, options } = await openWith(new FakeDriver());
    expect(session.id).toBe('sess-1');
    expect(options).toMatchObject({
      protocol: 'http',
      hostname: '127.0.0.1',
      port: 4723,
      path: '/',
      logLevel: 'silent',
      connectionRetryCount: 0,
    });
    expect(options.capabilities).toEqual(
      buildCapabilities({ udid: 'emulator-5554', idleTimeoutMs: 210_000, adbPort: 15037 }),
    );
    expect((options.capabilities as Record<string, unknown>)['appium:newCommandTimeout']).toBe(210);
  });

  it('maps a refused connection to APPIUM_UNAVAILABLE and other failures to a sanitised APPIUM_UNAVAILABLE', async () => {
    const refused = Object.assign(new Error('Unable to connect to "http://127.0.0.1:4723/"'), { code: 'ECONNREFUSED' });
    const g1 = gatewayAt('http://127.0.0.1:4723', { remote: async () => Promise.reject(refused) });
    expect((await harnessError(g1.openSession({ idleTimeoutMs: 120_000 }))).message).toMatch(/Start Appium/);
    const g2 = gatewayAt('http://127.0.0.1:4723', {
      remote: async () =>
        Promise.reject(
          new Error('Could not find \'adb\' in ["/home/me/Android/Sdk/platform-tools/adb"]\n    at Foo (/x/y.js:1:1)'),
        ),
    });
    const error = await harnessError(g2.openSession({ idleTimeoutMs: 120_000 }));
    expect(error.code).toBe('APPIUM_UNAVAILABLE');
    expect(error.message).not.toContain('/home/me');
    expect(error.message).not.toContain('y.js');
  });
});

describe('AutomationSession', () => {
  it('findElement uses the protocol strategy directly and returns the element id', async () => {
    const driver = new FakeDriver();
    driver.findAnswers = [() => ({ [W3C]: 'el-7' })];
    const { session } = await openWith(driver);
    expect(await session.findElement({ using: 'accessibility id', value: 'Navigate up' }, 10_000)).toEqual({
      id: 'el-7',
    });
    expect(driver.calls).toEqual([['findElement', 'accessibility id', 'Navigate up']]);
  });

  it('findElement polls every 250 ms until found, using the clock', async () => {
    const driver = new FakeDriver();
    driver.findAnswers = [
      () => ({ error: 'no such element' }),
      () => {
        throw wdError('no such element');
      },
      () => ({ ELEMENT: 'el-9' }),
    ];
    const { session, clock } = await openWith(driver);
    const pending = session.findElement({ using: 'xpath', value: "//*[@text='Apps']" }, 10_000);
    await clock.advance(250);
    await clock.advance(250);
    expect(await pending).toEqual({ id: 'el-9' });
    expect(driver.calls).toHaveLength(3);
  });

  it('findElement gives null at the deadline', async () => {
    const driver = new FakeDriver();
    driver.findAnswers = [() => ({ error: 'no such element' })];
    const { session, clock } = await openWith(driver);
    const pending = session.findElement({ using: 'id', value: 'android:id/title' }, 1_000);
    await clock.advance(1_000);
    expect(await pending).toBeNull();
    expect(driver.calls.length).toBe(5);
  });

  it('elementLabel: text, then content-desc, then hint', async () => {
    const driver = new FakeDriver();
    const { session } = await openWith(driver);
    driver.text = 'Calendar';
    expect(await session.elementLabel({ id: 'e' })).toBe('Calendar');
    driver.text = '';
    driver.attributes = { 'content-desc': 'Navigate up' };
    expect(await session.elementLabel({ id: 'e' })).toBe('Navigate up');
    driver.attributes = { 'content-desc': null, hint: 'Search settings' };
    expect(await session.elementLabel({ id: 'e' })).toBe('Search settings');
  });

  it('elementLabel never reads out a password field: its content-desc or hint, not its text', async () => {
    const driver = new FakeDriver();
    const { session } = await openWith(driver);
    // A custom view that exposes the plain text to accessibility, the worst case.
    driver.text = 'hunter2-secret';
    driver.attributes = { password: 'true', hint: 'Password' };
    const before = driver.calls.length;
    expect(await session.elementLabel({ id: 'e' })).toBe('Password');
    // Its text is never even asked for (the driver's own log would carry it).
    expect(driver.calls.slice(before).map((c) => c[0])).not.toContain('getElementText');
    driver.attributes = { password: 'true', 'content-desc': null, hint: null };
    expect(await session.elementLabel({ id: 'e' })).toBe('');
    // Not a password field: its text is its label, as before.
    driver.attributes = { password: 'false', hint: 'Password' };
    expect(await session.elementLabel({ id: 'e' })).toBe('hunter2-secret');
  });

  it('typeText clears then sends the whole Unicode string at once', async () => {
    const driver = new FakeDriver();
    const { session } = await openWith(driver);
    expect(await session.typeText({ id: 'e' }, 'Café 東京 🚀')).toBe('typed');
    expect(driver.calls).toEqual([
      ['elementClear', 'e'],
      ['elementSendKeys', 'e', 'Café 東京 🚀'],
    ]);
  });

  it("typeText: UiAutomator2's 400 invalid element state is a refusal, not a missing element, and the text is cut from the log", async () => {
    const driver = new FakeDriver();
    const logger = new RecordingLogger();
    const { session } = await openWith(driver, new FakeClock(), logger);
    driver.failWith.elementSendKeys = wdError(
      'invalid element state',
      "Cannot set the element to 'hunter2'. Did you interact with the correct element?",
    );
    expect(await session.typeText({ id: 'e' }, 'hunter2')).toBe('refused');
    const refusal = logger.entries.find((e) => e.message === 'the element refused the text');
    expect(refusal?.level).toBe('warn');
    expect(JSON.stringify(logger.entries)).not.toContain('hunter2');
    // Other failures still map as before.
    driver.failWith.elementSendKeys = wdError('stale element reference');
    expect((await harnessError(session.typeText({ id: 'e' }, 'x'))).code).toBe('UI_ELEMENT_NOT_FOUND');
  });

  it("isFocused reads the element's focused attribute", async () => {
    const driver = new FakeDriver();
    const { session } = await openWith(driver);
    driver.attributes = { focused: 'false' };
    expect(await session.isFocused({ id: 'e' })).toBe(false);
    driver.attributes = { focused: 'true' };
    expect(await session.isFocused({ id: 'e' })).toBe(true);
    expect(driver.calls.at(-1)).toEqual(['getElementAttribute', 'e', 'focused']);
  });

  it('swipe is one W3C touch pointer action along the path, a hold, then a release', async () => {
    const driver = new FakeDriver();
    const { session } = await openWith(driver);
    await session.swipe({
      start: { x: 540, y: 1800 },
      moves: [
        { to: { x: 540.4, y: 611 }, durationMs: 400 },
        { to: { x: 540, y: 600 }, durationMs: 200 },
      ],
      holdMs: 100,
    });
    expect(driver.calls).toEqual([
      [
        'performActions',
        [
          {
            type: 'pointer',
            id: 'finger1',
            parameters: { pointerType: 'touch' },
            actions: [
              { type: 'pointerMove', duration: 0, origin: 'viewport', x: 540, y: 1800 },
              { type: 'pointerDown', button: 0 },
              { type: 'pause', duration: 50 },
              { type: 'pointerMove', duration: 400, origin: 'viewport', x: 540, y: 611 },
              { type: 'pointerMove', duration: 200, origin: 'viewport', x: 540, y: 600 },
              { type: 'pause', duration: 100 },
              { type: 'pointerUp', button: 0 },
            ],
          },
        ],
      ],
      ['releaseActions'],
    ]);
  });

  it("the server's 500 'waiting for the root AccessibilityNodeInfo' is UI_TREE_UNAVAILABLE with a hint, for page source and finds; other unknown errors stay INTERNAL_ERROR", async () => {
    // As Appium relays the UiAutomator2 server's UiAutomator2Exception (AXWindowHelpers.getActiveWindowRoot).
    const rootless = () =>
      wdError(
        'unknown error',
        'An unknown server-side error occurred while processing the command. Original error: Timed out after 10012ms waiting for the root AccessibilityNodeInfo in the active window. Make sure the active window is not constantly hogging the main UI thread (e.g. the application is being idle long enough), so the accessibility manager could do its work',
      );
    const driver = new FakeDriver();
    const { session, clock } = await openWith(driver);
    driver.failWith.getPageSource = rootless();
    const source = await harnessError(session.pageSource());
    expect(source.code).toBe('UI_TREE_UNAVAILABLE');
    expect(source.message).toMatch(
      /^The screen could not be read during the page source: the UiAutomator2 server waited for it to idle, then 10 s for the root of the active window, and got none/,
    );
    expect(source.message).toMatch(/Wait a few seconds and retry; if it keeps failing, pause the animation or video/);
    driver.failWith.findElement = rootless();
    const find = harnessError(session.findElement({ using: 'id', value: 'android:id/title' }, 10_000));
    await clock.advance(0);
    const found = await find;
    expect(found.code).toBe('UI_TREE_UNAVAILABLE');
    // Not retried as "not found yet": one find.
    expect(driver.calls.filter((c) => c[0] === 'findElement')).toHaveLength(1);
    driver.failWith.getPageSource = wdError(
      'unknown error',
      'An unknown server-side error occurred while processing the command. Original error: boom',
    );
    expect((await harnessError(session.pageSource())).code).toBe('INTERNAL_ERROR');
  });

  it('windowSize, back, pageSource, screenshot', async () => {
    const driver = new FakeDriver();
    const { session } = await openWith(driver);
    expect(await session.windowSize()).toEqual({ width: 1080, height: 2400 });
    await session.back();
    expect(await session.pageSource()).toBe('<hierarchy/>');
    expect((await session.screenshot()).toString()).toBe('png!');
  });

  it('close deletes the session once and swallows a failure, which is a warning', async () => {
    const driver = new FakeDriver();
    const logger = new RecordingLogger();
    const { session } = await openWith(driver, new FakeClock(), logger);
    driver.failWith.deleteSession = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4723'), {
      code: 'ECONNREFUSED',
    });
    await expect(session.close()).resolves.toBeUndefined();
    await session.close();
    expect(driver.calls.filter((c) => c[0] === 'deleteSession')).toHaveLength(1);
    expect(logger.entries.filter((e) => e.level === 'warn').map((e) => e.message)).toEqual([
      'Appium session close failed',
    ]);
  });

  // What webdriverio threw for a DELETE of a session the real Appium 3 had already ended (measured).
  it('a close of a session Appium already dropped (404 invalid session id) is expected: debug, not a warning', async () => {
    const driver = new FakeDriver();
    const logger = new RecordingLogger();
    const { session } = await openWith(driver, new FakeClock(), logger);
    driver.failWith.deleteSession = wdError(
      'invalid session id',
      'WebDriverError: A session is either terminated or not started when running "http://127.0.0.1:4723/session/sess-1" with method "DELETE"',
    );
    await expect(session.close()).resolves.toBeUndefined();
    expect(logger.entries.filter((e) => e.level === 'warn' || e.level === 'error')).toEqual([]);
    expect(logger.entries.find((e) => e.level === 'debug')?.message).toBe('Appium session was already gone at close');
  });

  it.each([
    [wdError('invalid session id'), 'APPIUM_UNAVAILABLE'],
    [
      Object.assign(new Error('Request failed with error code ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      'APPIUM_UNAVAILABLE',
    ],
    // The UiAutomator2 server died under the session (force-stopped by an overlapping session delete).
    [
      wdError(
        'unknown error',
        'An unknown server-side error occurred while processing the command. Original error: Could not proxy command to the remote server. Original error: socket hang up',
      ),
      'APPIUM_UNAVAILABLE',
    ],
    [
      wdError(
        'no such context',
        "'POST /actions' cannot be proxied to UiAutomator2 server because the instrumentation process is not running (probably crashed). Check the server log",
      ),
      'APPIUM_UNAVAILABLE',
    ],
    [wdError('stale element reference'), 'UI_ELEMENT_NOT_FOUND'],
    [wdError('element not interactable'), 'UI_ELEMENT_NOT_FOUND'],
    // The server could not perform the click (a RuntimeException in its handler): the action did not happen.
    [wdError('unknown error', 'An unknown server-side error occurred: /home/me/secret'), 'UI_ACTION_FAILED'],
  ])('maps a click failure %s to %s, without host paths', async (error, code) => {
    const driver = new FakeDriver();
    const { session } = await openWith(driver);
    driver.failWith.elementClick = error;
    const mapped = await harnessError(session.click({ id: 'e' }));
    expect(mapped.code).toBe(code);
    expect(mapped.message).not.toContain('/home/me');
    expect(mapped.cause).toBe(error);
  });

  it("a screenshot refused for a secure window (TakeScreenshotException's message) is the secure-screen error; another stays INTERNAL_ERROR", async () => {
    const driver = new FakeDriver();
    const { session } = await openWith(driver);
    driver.failWith.takeScreenshot = wdError(
      'unable to capture screen',
      "Failed to capture a screenshot. Does the current view have 'secure' flag set?",
    );
    const secure = await harnessError(session.screenshot());
    expect(secure).toBeInstanceOf(SecureScreenError);
    expect(secure.code).toBe('EVIDENCE_WRITE_FAILED');
    expect(secure.message).toMatch(/^The screen is secure: a window on it sets FLAG_SECURE/);
    driver.failWith.takeScreenshot = wdError('unable to capture screen', 'Cannot take a screenshot of display 3');
    expect((await harnessError(session.screenshot())).code).toBe('INTERNAL_ERROR');
  });

  it("long-clicks through the driver's mobile: longClickGesture with the element and the hold", async () => {
    const driver = new FakeDriver();
    const { session } = await openWith(driver);
    await session.longClick({ id: 'el-7' }, 1500);
    expect(driver.calls.filter((c) => c[0] === 'executeScript')).toEqual([
      ['executeScript', 'mobile: longClickGesture', [{ elementId: 'el-7', duration: 1500 }]],
    ]);
    expect(driver.calls.some((c) => c[0] === 'elementClick')).toBe(false);
    driver.failWith.executeScript = wdError('stale element reference');
    expect((await harnessError(session.longClick({ id: 'el-7' }, 1500))).code).toBe('UI_ELEMENT_NOT_FOUND');
  });
});

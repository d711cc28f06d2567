import type { AutomationEndpointStatus } from '../../domain/automationEndpoint.js';
import { HarnessError } from '../../domain/errors.js';
import { checkAppiumUrl, shownUrl } from '../../domain/guards.js';
import { DRIVER_DEVICE_COMMANDS } from '../../domain/ports.js';
import type { Secret } from '../../domain/secret.js';
import type {
  AutomationGateway,
  AutomationSession,
  Clock,
  DisplayOrientation,
  DriverDeviceCommand,
  DriverDeviceCommandArgs,
  ElementRef,
  Locator,
  Logger,
  SessionOptions,
  TypeOutcome,
} from '../../domain/ports.js';
import type { Point, SwipePath } from '../../domain/gestures/scrollGesture.js';
import { SystemClock } from '../clock/SystemClock.js';
import { parseEndpointStatus } from './endpointStatus.js';
import { gridCommandError, gridSessionError, isGridNodeLost } from './seleniumGridErrors.js';

/** The W3C element key; JSONWP's `ELEMENT` is accepted as well. */
const W3C_ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const FIND_INTERVAL_MS = 250;
/** Still after the pointer goes down, before anything else: a tap as a finger makes it. */
const DOWN_PAUSE_MS = 50;

/** The protocol methods this adapter uses: what webdriverio's Browser offers, and what a test fake must. */
export interface DriverLike {
  readonly sessionId: string;
  findElement(using: string, value: string): Promise<unknown>;
  getElementText(elementId: string): Promise<string>;
  getElementAttribute(elementId: string, name: string): Promise<string | null>;
  elementClick(elementId: string): Promise<unknown>;
  /** W3C execute/sync: how Appium's `mobile:` commands are called. */
  executeScript(script: string, args: unknown[]): Promise<unknown>;
  elementClear(elementId: string): Promise<unknown>;
  elementSendKeys(elementId: string, text: string): Promise<unknown>;
  performActions(actions: object[]): Promise<unknown>;
  releaseActions(): Promise<unknown>;
  getWindowRect(): Promise<{ width: number; height: number }>;
  back(): Promise<unknown>;
  setOrientation(orientation: string): Promise<unknown>;
  getPageSource(): Promise<string>;
  takeScreenshot(): Promise<string>;
  deleteSession(): Promise<unknown>;
}

export type RemoteFactory = (options: Record<string, unknown>) => Promise<DriverLike>;

export interface WebdriverAutomationGatewayOptions {
  /** Without userinfo (config.ts takes it out): this URL appears in messages. */
  readonly url: string;
  /** Sent as appium:udid; null in remote mode without ANDROID_UDID: the endpoint picks the device. */
  readonly udid: string | null;
  /** Remote mode (issue 15 §4): the Authorization header sent with every request; never logged. */
  readonly authorization?: Secret | null;
  readonly connectTimeoutMs: number;
  readonly extraCapabilities?: Record<string, unknown>;
  readonly adbPort?: number;
  /**
   * Issue 15: a free local port for each new session's `appium:systemPort` (the port Appium forwards
   * to the UiAutomator2 server on the device). Sessions on several devices at once each get their
   * own; a session that is still closing keeps its port without blocking the next one. Absent, or
   * an `appium:systemPort` in the extra capabilities (the user's choice wins): not allocated here.
   */
  readonly systemPort?: () => Promise<number>;
  readonly logger: Logger;
  /** Defaults to the system clock; unit tests pass a fake. */
  readonly clock?: Clock;
  /** Defaults to webdriverio's `remote`; unit tests pass a fake driver factory. */
  readonly remote?: RemoteFactory;
}

const CONTRACT_CAPABILITY_KEYS = [
  'platformName',
  'appium:automationName',
  'appium:udid',
  'appium:noReset',
  'appium:newCommandTimeout',
] as const;

export interface CapabilityInputs {
  /** null: no appium:udid (remote mode without ANDROID_UDID, the endpoint picks). */
  readonly udid: string | null;
  /** How long Appium keeps the session without a command (SessionOptions.idleTimeoutMs). */
  readonly idleTimeoutMs: number;
  readonly extra?: Record<string, unknown>;
  readonly adbPort?: number;
  /** The UiAutomator2 server's `waitForIdleTimeout` (SessionOptions.waitForIdleTimeoutMs); a lower one from `extra` is kept. */
  readonly waitForIdleTimeoutMs?: number;
  readonly systemPort?: number;
}

const SETTINGS_CAP = 'appium:settings';
const IDLE_SETTING_CAP = 'appium:settings[waitForIdleTimeout]';

function plainObject(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * Puts `waitForIdleTimeout` into `appium:settings`, which Appium applies to the UiAutomator2
 * server right after the session is created (POST /appium/settings). A smaller value the user
 * gave (`appium:settings` or `appium:settings[waitForIdleTimeout]`, the single form winning as in
 * Appium's pullSettings) is kept: less waiting on animated screens is their call; more would let
 * a screen whose root never comes run past the action ceiling (idleWaitBudget.ts).
 */
function withIdleWait(caps: Record<string, unknown>, budgetMs: number): void {
  const settings = plainObject(caps[SETTINGS_CAP]) ?? {};
  const asked = caps[IDLE_SETTING_CAP] ?? settings.waitForIdleTimeout;
  const usable = typeof asked === 'number' && Number.isFinite(asked) && asked >= 0;
  delete caps[IDLE_SETTING_CAP];
  caps[SETTINGS_CAP] = { ...settings, waitForIdleTimeout: Math.floor(usable ? Math.min(asked, budgetMs) : budgetMs) };
}

/**
 * CONTRACT §5 capabilities and `appium:skipUnlock: true` unless the user set it; extras are added
 * only where they do not touch the contract's five (or adbPort). newCommandTimeout is in whole seconds, rounded up so Appium never waits less than asked.
 */
export function buildCapabilities(inputs: CapabilityInputs): Record<string, unknown> {
  const { udid, extra = {}, adbPort, systemPort } = inputs;
  const caps: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(extra)) {
    if ((CONTRACT_CAPABILITY_KEYS as readonly string[]).includes(key)) continue;
    if (key === 'appium:adbPort' && adbPort !== undefined) continue;
    if (key === 'appium:systemPort' && systemPort !== undefined) continue;
    caps[key] = value;
  }
  // The harness never unlocks the device (issue 12, DEVICE_LOCKED): without this the driver's
  // post-session setup dismisses a swipe keyguard. A user who wants Appium to unlock sets
  // appium:skipUnlock false (with unlockType/unlockKey) in ANDROID_MCP_APPIUM_CAPS.
  if (!('appium:skipUnlock' in caps)) caps['appium:skipUnlock'] = true;
  Object.assign(caps, {
    platformName: 'Android',
    'appium:automationName': 'UiAutomator2',
    'appium:noReset': true,
    // Appium reads 0 as "never time out": at least one second, so an orphan is always dropped.
    'appium:newCommandTimeout': Math.max(1, Math.ceil(inputs.idleTimeoutMs / 1000)),
  });
  if (udid !== null) caps['appium:udid'] = udid;
  if (adbPort !== undefined) caps['appium:adbPort'] = adbPort;
  if (inputs.waitForIdleTimeoutMs !== undefined) withIdleWait(caps, inputs.waitForIdleTimeoutMs);
  if (systemPort !== undefined) caps['appium:systemPort'] = systemPort;
  return caps;
}

/** How messages name the device when none was asked for (remote mode without ANDROID_UDID). */
const UNNAMED_DEVICE = 'chosen by the endpoint';

/** The endpoint as a message shows it: no query (it may carry a token; userinfo is already gone). */
/** Removes host paths and stack frames from a foreign message before a client may see it. */
export function sanitizeMessage(message: string): string {
  const firstLines = message.split('\n').filter((l) => !/^\s+at\s/.test(l)).slice(0, 2).join(' ');
  return firstLines
    .replace(/[A-Za-z]:\\[^\s'"]+/g, '<path>')
    .replace(/(^|[\s'"(=[])\/(?!\/)[^\s'")\]]+/g, '$1<path>')
    .replace(/https?:\/\/[^\s'"]+/g, '<url>')
    .slice(0, 240)
    .trim();
}

function errorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** How Appium words a session whose UiAutomator2 server is gone (see WebdriverSession.map). */
const SESSION_GONE =
  /invalid session id|session is either terminated or not started|instrumentation process is not running|socket hang up/i;

/** The UiAutomator2 server's UiAutomator2Exception when getRootInActiveWindow() stayed null (Appium prefixes "Original error: "). */
const ROOT_TIMED_OUT = /waiting for the root AccessibilityNodeInfo/i;

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT', 'EHOSTUNREACH']);

export class WebdriverAutomationGateway implements AutomationGateway {
  private readonly url: string;
  private readonly clock: Clock;

  constructor(private readonly options: WebdriverAutomationGatewayOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.clock = options.clock ?? new SystemClock();
  }

  private unavailable(cause?: unknown): HarnessError {
    const port = URL.canParse(this.url) ? new URL(this.url).port || '80' : '4723';
    if (this.options.authorization !== undefined) {
      // Remote mode: the endpoint is a Grid or a farm, not an Appium the user starts here.
      return new HarnessError(
        'APPIUM_UNAVAILABLE',
        `The remote endpoint does not answer at ${shownUrl(this.url)}. Check APPIUM_URL, the network, and that the Grid or device farm is up, then retry.`,
        { cause },
      );
    }
    return new HarnessError(
      'APPIUM_UNAVAILABLE',
      `Appium does not answer at ${shownUrl(this.url)}. Start Appium so it answers at ${shownUrl(this.url)} (npx appium --address 127.0.0.1 --port ${port}, with the uiautomator2 driver installed), then retry.`,
      { cause },
    );
  }

  async status(): Promise<AutomationEndpointStatus> {
    const status = parseEndpointStatus(await this.getJson('/status'));
    if (status === null) {
      throw new HarnessError(
        'APPIUM_UNAVAILABLE',
        `The server at ${shownUrl(this.url)} is neither Appium (its status names no Appium build version) nor a Selenium Grid. Point APPIUM_URL at an Appium 3 server, or at a Selenium Grid 4 hub that relays to one.`,
      );
    }
    return status;
  }

  async listSessionIds(): Promise<string[]> {
    // Appium 2 only knows the deprecated /sessions.
    const body = (await this.getJson('/appium/sessions', { missingIsNull: true })) ?? (await this.getJson('/sessions'));
    const value = (body as { value?: unknown } | null)?.value;
    if (!Array.isArray(value)) throw new HarnessError('APPIUM_UNAVAILABLE', `Appium at ${shownUrl(this.url)} answered its session list in an unexpected shape.`);
    return value
      .map((entry) => (entry as { id?: unknown } | null)?.id)
      .filter((id): id is string => typeof id === 'string');
  }

  async openSession(options: SessionOptions): Promise<AutomationSession> {
    this.guardRemoteEndpoint();
    const target = new URL(this.url);
    const capabilities = buildCapabilities({
      udid: this.options.udid,
      idleTimeoutMs: options.idleTimeoutMs,
      extra: this.options.extraCapabilities,
      adbPort: this.options.adbPort,
      waitForIdleTimeoutMs: options.waitForIdleTimeoutMs,
      ...(this.options.systemPort && this.options.extraCapabilities?.['appium:systemPort'] === undefined
        ? { systemPort: await this.options.systemPort() }
        : {}),
    });
    const remote = this.options.remote ?? defaultRemote;
    let driver: DriverLike;
    try {
      driver = await remote({
        protocol: target.protocol === 'https:' ? 'https' : 'http',
        hostname: target.hostname,
        port: Number(target.port || (target.protocol === 'https:' ? 443 : 80)),
        path: target.pathname || '/',
        ...(target.search === '' ? {} : { queryParams: Object.fromEntries(target.searchParams) }),
        ...this.authHeaders(),
        logLevel: 'silent',
        connectionRetryCount: 0,
        connectionRetryTimeout: this.options.connectTimeoutMs,
        capabilities,
      });
    } catch (error) {
      this.options.logger.error('Appium session creation failed', { cause: String(error) });
      // A Selenium Grid hub in front of Appium: its queue timing out is the device taken.
      const grid = gridSessionError(error, this.options.udid ?? UNNAMED_DEVICE);
      if (grid) throw grid;
      if (CONNECTION_CODES.has(errorCode(error) ?? '') || /ECONNREFUSED|fetch failed|Failed to fetch|Unable to connect|compatible server running/i.test(String(error))) {
        throw this.unavailable(error);
      }
      throw new HarnessError(
        'APPIUM_UNAVAILABLE',
        `Appium could not create a UiAutomator2 session on ${this.options.udid ?? 'the device the endpoint picks'}: ${sanitizeMessage(error instanceof Error ? error.message : String(error))}. ${this.options.authorization !== undefined ? 'Check the capabilities (ANDROID_MCP_APPIUM_CAPS) and that the Grid or device farm has that device free, then retry.' : 'Check the Appium log, that the uiautomator2 driver is installed and that the device is listed by adb.'}`,
        { cause: error },
      );
    }
    this.options.logger.info('Appium session opened', {
      sessionId: driver.sessionId,
      newCommandTimeout: capabilities['appium:newCommandTimeout'],
      waitForIdleTimeout: plainObject(capabilities[SETTINGS_CAP])?.waitForIdleTimeout,
    });
    return new WebdriverSession(driver, this.options.udid ?? UNNAMED_DEVICE, this.clock, this.options.logger, (error) => this.unavailable(error));
  }

  /** webdriverio's `headers` option: the Authorization header, when remote mode has one. */
  private authHeaders(): { headers?: Record<string, string> } {
    const authorization = this.options.authorization;
    return authorization ? { headers: { Authorization: authorization.reveal() } } : {};
  }

  /**
   * Remote mode sends credentials with every request: the endpoint guard runs here too, at the
   * last step before the network, so no use case that forgot the per-call guard can send them
   * over plain http beyond this machine.
   */
  private guardRemoteEndpoint(): void {
    if (this.options.authorization !== undefined) checkAppiumUrl(this.url, true);
  }

  private async getJson(path: string, options: { missingIsNull?: boolean } = {}): Promise<unknown> {
    this.guardRemoteEndpoint();
    let response: Response;
    const target = new URL(this.url);
    try {
      response = await fetch(`${target.origin}${target.pathname.replace(/\/+$/, '')}${path}${target.search}`, {
        signal: AbortSignal.timeout(Math.min(this.options.connectTimeoutMs, 10_000)),
        ...this.authHeaders(),
      });
    } catch (error) {
      throw this.unavailable(error);
    }
    if (response.status === 401 || response.status === 403) {
      throw new HarnessError(
        'APPIUM_UNAVAILABLE',
        `The endpoint at ${shownUrl(this.url)} refused the credentials (HTTP ${response.status}). Check the user and key in APPIUM_URL (https://user:key@host/…) or ANDROID_MCP_REMOTE_AUTHORIZATION, then retry.`,
      );
    }
    if (response.status === 404 && options.missingIsNull) return null;
    if (!response.ok) throw this.unavailable(new Error(`HTTP ${response.status} from ${path}`));
    try {
      return await response.json();
    } catch (error) {
      throw new HarnessError('APPIUM_UNAVAILABLE', `The server at ${shownUrl(this.url)} did not answer ${path} with JSON; point APPIUM_URL at an Appium 3 server.`, { cause: error });
    }
  }
}

async function defaultRemote(options: Record<string, unknown>): Promise<DriverLike> {
  // webdriverio logs through loglevel, whose info goes to stdout, which belongs to MCP. Loggers
  // created at import time read WDIO_LOG_LEVEL, and remote() only sets it when unset: force it.
  process.env.WDIO_LOG_LEVEL = 'silent';
  const { remote } = await import('webdriverio');
  const browser = await remote(options as unknown as Parameters<typeof remote>[0]);
  return browser as unknown as DriverLike;
}

function elementId(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const id = record[W3C_ELEMENT] ?? record.ELEMENT;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

class WebdriverSession implements AutomationSession {
  readonly id: string;
  private closed = false;

  constructor(
    private readonly driver: DriverLike,
    private readonly udid: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly unavailable: (cause: unknown) => HarnessError,
  ) {
    this.id = driver.sessionId;
  }

  async findElement(locator: Locator, timeoutMs: number): Promise<ElementRef | null> {
    const deadline = this.clock.monotonicMs() + Math.max(0, timeoutMs);
    for (;;) {
      let found: unknown;
      try {
        found = await this.driver.findElement(locator.using, locator.value);
      } catch (error) {
        if (!isNoSuchElement(error)) throw this.map(error, 'find');
        found = null;
      }
      const id = elementId(found);
      if (id !== null) return { id };
      const remaining = deadline - this.clock.monotonicMs();
      if (remaining <= 0) return null;
      await this.clock.sleep(Math.min(FIND_INTERVAL_MS, remaining));
    }
  }

  async elementLabel(element: ElementRef): Promise<string> {
    // A password field's text is bullets on a stock view and the plain text on some custom ones:
    // either way it is never ours to repeat, so its label is its content-desc or hint.
    if ((await this.attribute(element, 'password')) !== 'true') {
      const text = await this.elementText(element);
      if (text.trim()) return text;
    }
    for (const attribute of ['content-desc', 'hint']) {
      const value = await this.attribute(element, attribute);
      if (value.trim() && value !== 'null') return value;
    }
    return '';
  }

  /** An attribute's value, '' when the driver has none (or does not know the attribute). */
  private async attribute(element: ElementRef, name: string): Promise<string> {
    try {
      const value = await this.driver.getElementAttribute(element.id, name);
      return typeof value === 'string' ? value : '';
    } catch (error) {
      if (isStale(error)) throw this.map(error, 'read label');
      // An attribute this driver version does not know is just absent.
      return '';
    }
  }

  async elementText(element: ElementRef): Promise<string> {
    try {
      const text = await this.driver.getElementText(element.id);
      return typeof text === 'string' ? text : '';
    } catch (error) {
      throw this.map(error, 'read text');
    }
  }

  async elementPlace(element: ElementRef): Promise<{ className: string; bounds: string; packageName: string }> {
    // Three independent reads, asked at once: their round trips overlap.
    const [className, bounds, packageName] = await Promise.all([this.attribute(element, 'class'), this.attribute(element, 'bounds'), this.attribute(element, 'package')]);
    return { className, bounds, packageName };
  }

  async isFocused(element: ElementRef): Promise<boolean> {
    const value = await this.call(() => this.driver.getElementAttribute(element.id, 'focused'), 'read focus');
    return value === 'true';
  }

  async click(element: ElementRef): Promise<void> {
    await this.call(() => this.driver.elementClick(element.id), 'click');
  }

  /**
   * appium-uiautomator2-driver's `mobile: longClickGesture` with the element: the server's
   * POST /appium/gestures/long_click holds a touch at the element's centre for `duration` ms
   * (GestureController.longClick; without a duration it holds exactly the long-press timeout).
   */
  async longClick(element: ElementRef, holdMs: number): Promise<void> {
    await this.call(
      () => this.driver.executeScript('mobile: longClickGesture', [{ elementId: element.id, duration: Math.round(holdMs) }]),
      'long press',
    );
  }

  async typeText(element: ElementRef, text: string): Promise<TypeOutcome> {
    // A clear the node refuses is silent (UiObject2.setText only logs); the set-text then answers.
    await this.call(() => this.driver.elementClear(element.id), 'clear');
    try {
      // UiAutomator2's setValue takes the whole string, Unicode included; no key-by-key typing.
      await this.driver.elementSendKeys(element.id, text);
      return 'typed';
    } catch (raw) {
      // Its errors quote the value ("Cannot set the element to '…'"): the text must reach no log.
      const error = withoutText(raw, text);
      if (!isInvalidElementState(error)) throw this.map(error, 'type');
      // SendKeysToElement: ACTION_SET_TEXT returned false. The element exists and said no.
      const message = String((error as { message?: unknown } | null)?.message ?? error);
      this.logger.warn('the element refused the text', { sessionId: this.id, cause: message.slice(0, 500) });
      return 'refused';
    }
  }

  async swipe(path: SwipePath): Promise<void> {
    await this.touch(path, 'swipe');
  }

  /** A press is a path without moves: down, still for the hold, up (the server's W3C tap). */
  async pressAt(point: Point, holdMs: number): Promise<void> {
    await this.touch({ start: point, moves: [], holdMs: Math.max(0, holdMs - DOWN_PAUSE_MS) }, holdMs > 0 ? 'long press' : 'tap');
  }

  /** One touch pointer through W3C actions: down at the start, a short pause, the moves, the hold, up. */
  private async touch(path: SwipePath, what: string): Promise<void> {
    const point = (p: { x: number; y: number }) => ({ x: Math.round(p.x), y: Math.round(p.y) });
    const duration = (ms: number) => Math.max(0, Math.round(ms));
    await this.call(
      () =>
        this.driver.performActions([
          {
            type: 'pointer',
            id: 'finger1',
            parameters: { pointerType: 'touch' },
            actions: [
              { type: 'pointerMove', duration: 0, origin: 'viewport', ...point(path.start) },
              { type: 'pointerDown', button: 0 },
              { type: 'pause', duration: DOWN_PAUSE_MS },
              ...path.moves.map((move) => ({ type: 'pointerMove', duration: duration(move.durationMs), origin: 'viewport', ...point(move.to) })),
              ...(path.holdMs > 0 ? [{ type: 'pause', duration: duration(path.holdMs) }] : []),
              { type: 'pointerUp', button: 0 },
            ],
          },
        ]),
      what,
    );
    await this.call(() => this.driver.releaseActions(), 'release actions');
  }

  async windowSize(): Promise<{ width: number; height: number }> {
    const rect = await this.call(() => this.driver.getWindowRect(), 'window size');
    return { width: rect.width, height: rect.height };
  }

  async back(): Promise<void> {
    await this.call(() => this.driver.back(), 'back');
  }

  /** appium-uiautomator2-driver's `mobile: pressKey` (its server's /appium/device/press_keycode). */
  async pressKey(keycode: number): Promise<void> {
    await this.call(() => this.driver.executeScript('mobile: pressKey', [{ keycode }]), 'press key');
  }

  /** appium-uiautomator2-driver's `mobile: openNotifications` (its server's /appium/device/open_notifications). */
  async openNotifications(): Promise<void> {
    await this.call(() => this.driver.executeScript('mobile: openNotifications', []), 'open notifications');
  }

  /** POST /session/:id/orientation, which the driver relays to the server's SetOrientation. */
  async setOrientation(orientation: DisplayOrientation): Promise<void> {
    await this.call(() => this.driver.setOrientation(orientation), 'set orientation');
  }

  async pageSource(): Promise<string> {
    return this.call(() => this.driver.getPageSource(), 'page source');
  }

  async screenshot(): Promise<Buffer> {
    const base64 = await this.call(() => this.driver.takeScreenshot(), 'screenshot');
    return Buffer.from(base64, 'base64');
  }

  /** One command of the closed list (DRIVER_DEVICE_COMMANDS), sent as W3C execute/sync. */
  async execute<C extends DriverDeviceCommand>(command: C, args: DriverDeviceCommandArgs[C]): Promise<unknown> {
    // The type closes the list at compile time; this closes it for a caller that cast around it.
    if (!DRIVER_DEVICE_COMMANDS.includes(command)) throw new HarnessError('INTERNAL_ERROR', 'A driver command outside the closed list was refused.');
    return this.call(() => this.driver.executeScript(command, [args]), command);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.driver.deleteSession();
      this.logger.info('Appium session closed', { sessionId: this.id });
    } catch (error) {
      // Appium already ended it (its newCommandTimeout fired, or the driver died and the flow was
      // voided): the delete answers 404 invalid session id. Nothing is left to close.
      // Behind a Selenium Grid whose node is gone the session went with it.
      if (isSessionAlreadyGone(error) || isGridNodeLost(error)) {
        this.logger.debug('Appium session was already gone at close', { sessionId: this.id });
        return;
      }
      // Closing is best effort: newCommandTimeout is the last net for a session we could not delete.
      this.logger.warn('Appium session close failed', { sessionId: this.id, cause: String(error) });
    }
  }

  private async call<T>(action: () => Promise<T>, what: string): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw this.map(error, what);
    }
  }

  private map(error: unknown, what: string): HarnessError {
    if (error instanceof HarnessError) return error;
    const name = (error as { name?: unknown } | null)?.name;
    const message = String((error as { message?: unknown } | null)?.message ?? error);
    this.logger.warn('driver call failed', { what, sessionId: this.id, name, cause: message.slice(0, 500) });
    // First: a Grid that lost the node answers in words (connection error, session not found)
    // that would otherwise read as an internal error or a plain ended session.
    const grid = gridCommandError(error, this.udid);
    if (grid) return grid;
    // The UiAutomator2 server under the session died mid-command (its instrumentation ended or was
    // force-stopped): Appium answers the request in flight with a proxy error ("socket hang up")
    // and the next ones with "the instrumentation process is not running". The session is gone.
    if (name === 'invalid session id' || SESSION_GONE.test(message)) {
      return new HarnessError(
        'APPIUM_UNAVAILABLE',
        'The Appium session ended unexpectedly (the driver or the device restarted). Open a new flow with ui_session_open, or retry the action.',
        { cause: error },
      );
    }
    if (CONNECTION_CODES.has(errorCode(error) ?? '') || /ECONNREFUSED|ECONNRESET|fetch failed/i.test(message)) {
      return this.unavailable(error);
    }
    // Appium answers the requests in flight this way when it is stopped (Ctrl-C, SIGTERM) before it exits.
    if (/process has received SIG[A-Z]+ signal/i.test(message)) return this.unavailable(error);
    // appium-uiautomator2-server (AXWindowHelpers): the window's root never came after the wait
    // for idle, HTTP 500 `unknown error`. The app keeps its main thread busy; the session is sound.
    if (ROOT_TIMED_OUT.test(message)) {
      return new HarnessError(
        'UI_TREE_UNAVAILABLE',
        `The screen could not be read during the ${what}: the UiAutomator2 server waited for it to idle, then 10 s for the root of the active window, and got none (the app keeps its main thread busy: an endless animation, a video, heavy work). Wait a few seconds and retry; if it keeps failing, pause the animation or video in the app, or bring it to a calmer screen.`,
        { cause: error },
      );
    }
    if (isStale(error) || isNoSuchElement(error)) {
      return new HarnessError('UI_ELEMENT_NOT_FOUND', `The element went away before the ${what}. Read the screen again with ui_get_tree and retry.`, { cause: error });
    }
    if (name === 'element not interactable' || name === 'invalid element state' || name === 'element click intercepted') {
      return new HarnessError('UI_ELEMENT_NOT_FOUND', `The element refused the ${what} (${String(name)}). Choose another target from ui_get_tree.`, { cause: error });
    }
    return new HarnessError('INTERNAL_ERROR', `The automation driver failed during the ${what}; the server log has the details.`, { cause: error });
  }
}

/** The typed text cut out of a driver error's message and stack (raw and JSON-escaped forms). */
export function withoutText(error: unknown, text: string): unknown {
  if (text.length === 0) return error;
  const forms = [...new Set([text, JSON.stringify(text).slice(1, -1)])].filter((form) => form.length > 0);
  const scrub = (value: unknown): unknown => {
    if (typeof value !== 'string') return value;
    let result = value;
    for (const form of forms) result = result.split(form).join('<typed text>');
    return result;
  };
  if (typeof error === 'string') return scrub(error);
  if (typeof error !== 'object' || error === null) return error;
  const record = error as { message?: unknown; stack?: unknown };
  try {
    record.message = scrub(record.message);
    record.stack = scrub(record.stack);
  } catch {
    // A frozen error: replace it by a plain one with the same name.
    const replaced = new Error(String(scrub(record.message)));
    replaced.name = String((error as { name?: unknown }).name ?? 'Error');
    return replaced;
  }
  return error;
}

/** What a delete of a session Appium no longer holds answers: HTTP 404 `invalid session id`. */
function isSessionAlreadyGone(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  const message = String((error as { message?: unknown } | null)?.message ?? error);
  return name === 'invalid session id' || /invalid session id|session is either terminated or not started/i.test(message);
}

function isInvalidElementState(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'invalid element state' || /invalid element state/i.test(String((error as { message?: unknown } | null)?.message ?? ''));
}

function isNoSuchElement(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'no such element' || /no such element/i.test(String((error as { message?: unknown } | null)?.message ?? ''));
}

function isStale(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'stale element reference' || /stale element reference/i.test(String((error as { message?: unknown } | null)?.message ?? ''));
}

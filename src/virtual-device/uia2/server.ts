/**
 * The UiAutomator2 server's HTTP API, as appium-uiautomator2-driver 8.x talks to it.
 * Reached only through `tcp:6790` streams while the instrumentation runs; it owns no port.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { DeviceLogKind } from '../contracts.js';
import type { DeviceClock } from '../device/clock.js';
import type { ScreenActivity } from '../device/faults.js';
import { center, formatBounds } from '../device/geometry.js';
import { serverBounds } from './bounds.js';
import type { Instrumentation } from '../device/instrumentation.js';
import { toPageSource } from '../device/serialize.js';
import type { SystemState } from '../device/system.js';
import type { TouchSample } from '../device/touch.js';
import type { DeviceUi } from '../device/ui.js';
import { flatten, type UiElement } from '../device/uiTree.js';
import { STATUS_BAR_HEIGHT } from '../scenario/model.js';
import { duplexPair } from './duplexPair.js';
import { InvalidSelectorError, locate } from './locate.js';

const W3C_ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
/** ActionsConstants.EVENT_INJECTION_DELAY_MS: the real server injects on a 20 ms grid. */
const INJECTION_STEP_MS = 20;

/** ActionsTokenizer.alignDuration: 0 stays 0, anything else rounds up to the 20 ms grid. */
function alignToInjectionStep(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0) return 0;
  return Math.ceil(ms / INJECTION_STEP_MS) * INJECTION_STEP_MS;
}

export interface Uia2Device {
  readonly ui: DeviceUi;
  readonly system: SystemState;
  readonly instrumentation: Instrumentation;
  readonly clock: DeviceClock;
  log(kind: DeviceLogKind, detail: string): void;
  screenshotPng(): Buffer;
  /** The display in its current rotation (Display.getRotation and getSize, as the server reads them). */
  display(): { rotation: 0 | 1 | 2 | 3; width: number; height: number };
  /** 'hang' never answers; a number delays the answer by that many ms. */
  requestFault(subject: string): 'hang' | number;
  /** Whether the screen idles and its active window's root can be read (issue 12: idle waits). */
  screenActivity(): ScreenActivity;
}

/** AXWindowHelpers: the active window's root is polled every 250 ms for 10 s (fixed, not a setting). */
const ROOT_RETRIEVAL_TIMEOUT_MS = 10_000;
const ROOT_RETRIEVAL_INTERVAL_MS = 250;

/** The server's settings as a new session starts (Settings.resetForNewSession). */
const DEFAULT_SETTINGS: Readonly<Record<string, unknown>> = Object.freeze({
  actionAcknowledgmentTimeout: 3000,
  allowInvisibleElements: false,
  ignoreUnimportantViews: false,
  elementResponseAttributes: '',
  enableMultiWindows: false,
  enableNotificationListener: true,
  keyInjectionDelay: 0,
  scrollAcknowledgmentTimeout: 200,
  shouldUseCompactResponses: true,
  // WaitForIdleTimeout.DEFAULT_VALUE: 10 s, in ms.
  waitForIdleTimeout: 10000,
  waitForSelectorTimeout: 10000,
  normalizeTagNames: false,
  shutdownOnPowerDisconnect: true,
  simpleBoundsCalculation: false,
  trackScrollEvents: true,
  wakeLockTimeout: 86400000,
  serverPort: 6790,
  mjpegServerPort: 7810,
  mjpegServerFramerate: 10,
  mjpegScalingFactor: 50,
  mjpegServerScreenshotQuality: 50,
  mjpegBilinearFiltering: false,
  useResourcesForOrientationDetection: false,
  enableTopmostWindowFromActivePackage: false,
  limitXPathContextScope: true,
});

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

const noSuchElement = (): HttpError => new HttpError(404, 'no such element', 'An element could not be located on the page using the given search parameters.');

interface Session {
  readonly id: string;
  readonly capabilities: Record<string, unknown>;
  readonly elements: Map<string, { generation: number; key: string }>;
  readonly idsByNode: Map<string, string>;
}

type Json = Record<string, unknown>;

export class Uia2Server {
  private readonly server = http.createServer((req, res) => void this.handle(req, res));
  private readonly connections = new Set<Duplex>();
  private session: Session | null = null;
  private settings: Json = { ...DEFAULT_SETTINGS };

  constructor(private readonly device: Uia2Device) {
    this.server.keepAliveTimeout = 0;
    device.instrumentation.onEnd(() => {
      this.session = null;
      for (const c of this.connections) c.destroy();
      this.connections.clear();
    });
  }

  /** A stream into port 6790, or null while nothing listens there. */
  open(): Duplex | null {
    if (!this.device.instrumentation.isServing()) return null;
    const [client, server] = duplexPair();
    this.connections.add(server);
    server.on('close', () => this.connections.delete(server));
    this.server.emit('connection', server);
    return client;
  }

  activeSessionCount(): number {
    return this.session ? 1 : 0;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').split('?')[0]?.replace(/^\/wd\/hub/, '').replace(/\/+$/, '') || '/';
    const subject = `${method} ${path}`;
    const fault = this.device.requestFault(subject);
    if (fault === 'hang') {
      this.device.log('fault', `uia2 ${subject}: hung (injected)`);
      return;
    }
    if (fault > 0) await this.device.clock.sleep(fault);
    let body: Json = {};
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      body = text ? (JSON.parse(text) as Json) : {};
    } catch {
      body = {};
    }
    let status = 200;
    let payload: unknown;
    try {
      // A gesture that holds the pointer (long_click) answers only once it is released.
      const value: unknown = await this.route(method, path, body);
      payload = { sessionId: this.session?.id ?? null, value: value === undefined ? null : value };
    } catch (e) {
      if (e instanceof HttpError) {
        status = e.status;
        payload = { value: { error: e.error, message: e.message, stacktrace: '' } };
      } else {
        status = 500;
        payload = { value: { error: 'unknown error', message: (e as Error).message, stacktrace: '' } };
      }
    }
    const json = JSON.stringify(payload);
    this.device.log('uia2', `${subject} -> ${status}${status >= 400 ? ` ${json.slice(0, 160)}` : ''}`);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  }

  private route(method: string, path: string, body: Json): unknown {
    if (method === 'GET' && path === '/status') return this.status();
    if (method === 'GET' && path === '/sessions') return this.session ? [{ id: this.session.id, capabilities: this.session.capabilities }] : [];
    if (method === 'POST' && path === '/session') return this.createSession(body);
    const m = /^\/session\/([^/]+)(\/.*)?$/.exec(path);
    if (!m || m[1] === undefined) throw new HttpError(404, 'unknown command', `The requested resource could not be found, or a request was received using an HTTP method that is not supported by the mapped resource: ${method} ${path}`);
    const session = this.session;
    if (!session || session.id !== m[1]) throw new HttpError(404, 'invalid session id', `A session is either terminated or not started (${m[1]})`);
    const rest = m[2] ?? '/';
    if (method === 'DELETE' && rest === '/') {
      this.session = null;
      // The real server stops its instrumentation right after answering.
      void this.device.clock.sleep(15).then(() => this.device.instrumentation.end('session-deleted'));
      return null;
    }
    return this.sessionCommand(session, method, rest, body);
  }

  /** Status: ready, the message, and (server 7.6.0+) the build the installed server APK declares. */
  private status(): Json {
    const apk = this.device.system.installed.get('io.appium.uiautomator2.server');
    return {
      ready: true,
      message: 'UiAutomator2 Server is ready to accept commands',
      build: { version: apk?.versionName ?? '1.0', versionCode: apk?.versionCode ?? 1 },
    };
  }

  /**
   * SetOrientation: ScreenRotation.ofOrientation (LANDSCAPE → ROTATION_270, PORTRAIT → ROTATION_0 with
   * useResourcesForOrientationDetection false), CustomUiDevice.setRotationSync (UiAutomation.setRotation,
   * then a poll of the display's rotation), and the orientation of the rotation reached as the value.
   */
  private setOrientation(body: Json): Promise<string> {
    const wanted = typeof body.orientation === 'string' ? body.orientation.toUpperCase() : String(body.orientation);
    if (wanted !== 'PORTRAIT' && wanted !== 'LANDSCAPE') {
      throw new HttpError(400, 'invalid argument', `Orientation value '${String(body.orientation)}' is not supported. Only 'LANDSCAPE' and 'PORTRAIT' values could be translated into a valid screen orientation`);
    }
    return this.waitForIdle('set orientation').then(() => {
      this.device.ui.setRotation(wanted === 'LANDSCAPE' ? 3 : 0, 'uia2 orientation');
      return wanted;
    });
  }

  private createSession(body: Json): unknown {
    const caps = body.capabilities as { firstMatch?: Json[]; alwaysMatch?: Json } | undefined;
    const capabilities: Json = { ...(caps?.alwaysMatch ?? {}), ...(caps?.firstMatch?.[0] ?? {}) };
    const id = randomUUID();
    // NewSession: Settings.resetForNewSession() before the session exists; Appium then applies `appium:settings`.
    this.settings = { ...DEFAULT_SETTINGS };
    this.session = { id, capabilities, elements: new Map(), idsByNode: new Map() };
    // NewSession answers with the request's own model: the capabilities as sent and the new id.
    return { capabilities: body.capabilities ?? null, sessionId: id };
  }

  private ref(session: Session, e: UiElement): Json {
    const nodeKey = `${this.device.ui.generation}:${e.key}`;
    let id = session.idsByNode.get(nodeKey);
    if (!id) {
      id = randomUUID();
      session.idsByNode.set(nodeKey, id);
      session.elements.set(id, { generation: this.device.ui.generation, key: e.key });
    }
    return { ELEMENT: id, [W3C_ELEMENT]: id };
  }

  private element(session: Session, id: string): UiElement {
    const known = session.elements.get(id);
    if (!known) throw new HttpError(404, 'no such element', `The element identified by '${id}' is unknown`);
    const stale = (): HttpError => new HttpError(404, 'stale element reference', `The element '${id}' does not exist in DOM anymore`);
    if (known.generation !== this.device.ui.generation) throw stale();
    const e = flatten(this.device.ui.tree()).find((n) => n.key === known.key);
    if (!e) throw stale();
    return e;
  }

  private find(session: Session, body: Json, contextId: string | null, multiple: boolean): unknown {
    const strategy = String(body.strategy ?? body.using ?? '');
    const selector = String(body.selector ?? body.value ?? '');
    const context = contextId ? this.element(session, contextId) : null;
    let found: UiElement[];
    try {
      found = locate(strategy, selector, {
        root: this.device.ui.tree(),
        context,
        currentPackage: this.device.ui.foreground().package,
        scroll: (el, delta) => this.device.ui.scrollBy(el.key, delta, 'uia2 UiScrollable'),
        refresh: () => this.device.ui.tree(),
      });
    } catch (e) {
      if (e instanceof InvalidSelectorError) throw new HttpError(400, 'invalid selector', e.message);
      throw e;
    }
    this.device.log('uia2', `find ${strategy}=${JSON.stringify(selector)} -> ${found.length} element(s)`);
    if (multiple) return found.map((e) => this.ref(session, e));
    const first = found[0];
    if (!first) throw noSuchElement();
    return this.ref(session, first);
  }

  private attribute(e: UiElement, name: string): string | null {
    const b = (v: boolean): string => (v ? 'true' : 'false');
    switch (name) {
      case 'text': return e.text;
      case 'content-desc': case 'contentDescription': case 'name': return e.contentDesc || null;
      case 'resource-id': case 'resourceId': return e.resourceId || null;
      case 'class': case 'className': return e.className;
      case 'package': return e.package;
      case 'hint': return e.hint || null;
      case 'showing-hint': case 'showingHintText': return b(e.showingHint);
      case 'bounds': return formatBounds(serverBounds(e));
      case 'index': return String(e.index);
      case 'checkable': return b(e.checkable);
      case 'checked': return b(e.checked);
      case 'clickable': return b(e.clickable);
      case 'enabled': return b(e.enabled);
      case 'focusable': return b(e.focusable);
      case 'focused': return b(e.focused);
      case 'long-clickable': case 'longClickable': return b(e.longClickable);
      case 'scrollable': return b(e.scrollable);
      case 'selected': return b(e.selected);
      case 'password': return b(e.password);
      case 'displayed': return 'true';
      default: return null;
    }
  }

  private sessionCommand(session: Session, method: string, rest: string, body: Json): unknown {
    const ui = this.device.ui;
    const key = `${method} ${rest}`;
    switch (key) {
      // GetSessionDetails: only the last accessibility scroll's data, which this double does not record.
      case 'GET /': return { lastScrollData: null };
      case 'GET /appium/device/pixel_ratio': return this.device.system.density() / 160;
      // GetSystemBars answers the status bar's height only (SystemBarsModel has no other field).
      case 'GET /appium/device/system_bars': return { statusBar: STATUS_BAR_HEIGHT };
      case 'GET /appium/device/display_density': return this.device.system.density();
      case 'GET /window/current/size': {
        const { width, height } = this.device.display();
        return { width, height };
      }
      case 'GET /window/rect': {
        const { width, height } = this.device.display();
        return { x: 0, y: 0, width, height };
      }
      case 'GET /appium/device/info': return this.deviceInfo();
      case 'GET /appium/device/current_package': return ui.foreground().package;
      case 'GET /appium/device/current_activity': return ui.foreground().activity;
      case 'GET /appium/device/is_keyboard_shown': return ui.imeVisible();
      case 'GET /appium/settings': return this.settings;
      case 'POST /appium/settings':
        return this.updateSettings(body);
      // GetOrientation / GetRotation from UiDevice.getDisplayRotation (useResourcesForOrientationDetection false).
      case 'GET /orientation': return this.device.display().rotation % 2 === 1 ? 'LANDSCAPE' : 'PORTRAIT';
      case 'POST /orientation': return this.setOrientation(body);
      case 'GET /rotation': return { x: 0, y: 0, z: this.device.display().rotation * 90 };
      case 'GET /alert/text': throw new HttpError(404, 'no such alert', 'An attempt was made to operate on a modal dialog when one was not open.');
      // ElementLocationHelpers.findElement(s) without a context: resetAccessibilityCache, then the roots.
      case 'POST /element': return this.idleThenRoot('find').then(() => this.find(session, body, null, false));
      case 'POST /elements': return this.idleThenRoot('find').then(() => this.find(session, body, null, true));
      case 'GET /element/active':
        return this.idleThenRoot('active element').then(() => {
          const focused = flatten(ui.tree()).find((e) => e.focused);
          if (!focused) throw noSuchElement();
          return this.ref(session, focused);
        });
      // Source: resetAccessibilityCache (waitForIdle), then the active window's root.
      case 'GET /source': return this.idleThenRoot('source').then(() => toPageSource(ui.tree(), this.device.display(), serverBounds));
      case 'GET /screenshot': return this.device.screenshotPng().toString('base64');
      case 'POST /actions': return this.actions(session, body);
      case 'POST /appium/gestures/long_click': return this.longClick(session, body);
      case 'DELETE /actions': return null;
      // UiDevice.pressBack waits for idle before the key (and not after it: row 10).
      case 'POST /back':
        return this.waitForIdle('back').then(() => {
          ui.back('uia2 back');
          return null;
        });
      // PressKeyCode: UiDevice.pressKeyCode (which waits for idle first) unless flags or a source are
      // given, then raw injectEventSync; LongPressKeyCode always injects directly, without a wait.
      case 'POST /appium/device/press_keycode':
        return (body.flags === undefined && body.source === undefined ? this.waitForIdle('press keycode') : Promise.resolve()).then(() => {
          this.pressKeycode(Number(body.keycode));
          return null;
        });
      case 'POST /appium/device/long_press_keycode':
        this.pressKeycode(Number(body.keycode));
        return null;
      // OpenNotification: UiDevice.openNotification (GLOBAL_ACTION_NOTIFICATIONS after a wait for
      // idle); false is answered as InvalidElementStateException, HTTP 400 invalid element state.
      case 'POST /appium/device/open_notifications':
        return this.waitForIdle('open notifications').then(() => {
          if (!ui.openNotificationShade('uia2 open_notifications')) throw new HttpError(400, 'invalid element state', 'Device failed to open notifications');
          return null;
        });
      case 'POST /appium/device/hide_keyboard':
      case 'POST /appium/commands/hide_keyboard':
        if (ui.imeVisible()) ui.back('uia2 hide_keyboard');
        return null;
      default:
        break;
    }
    const el = /^\/element\/([^/]+)(\/.*)$/.exec(rest);
    if (el && el[1] !== undefined && el[2] !== undefined) return this.elementCommand(session, method, el[1], el[2], body);
    throw new HttpError(404, 'unknown command', `The requested resource could not be found, or a request was received using an HTTP method that is not supported by the mapped resource: ${method} /session/:sessionId${rest}`);
  }

  private elementCommand(session: Session, method: string, id: string, sub: string, body: Json): unknown {
    if (method === 'POST' && sub === '/element') return this.find(session, body, id, false);
    if (method === 'POST' && sub === '/elements') return this.find(session, body, id, true);
    const e = this.element(session, id);
    const attr = /^\/attribute\/(.+)$/.exec(sub);
    if (method === 'GET' && attr && attr[1] !== undefined) return this.attribute(e, decodeURIComponent(attr[1]));
    const bounds = serverBounds(e);
    switch (`${method} ${sub}`) {
      case 'GET /text': return e.text;
      case 'GET /name': return e.className;
      case 'GET /rect': return { x: bounds.left, y: bounds.top, width: bounds.right - bounds.left, height: bounds.bottom - bounds.top };
      case 'GET /location': return { x: bounds.left, y: bounds.top };
      case 'GET /size': return { width: bounds.right - bounds.left, height: bounds.bottom - bounds.top };
      case 'GET /displayed': return true;
      case 'GET /enabled': return e.enabled;
      case 'GET /selected': return e.selected || e.checked;
      case 'GET /screenshot': return this.device.screenshotPng().toString('base64');
      case 'POST /click': {
        // AxNodeInfoHelper.click: the centre of the bounds the server reports (uia2/bounds.ts).
        const c = center(bounds);
        this.device.ui.tapAt(c.x, c.y, 'uia2-click', e);
        // Click.java: Device.waitForIdle() after the click.
        return this.waitForIdle('click').then(() => null);
      }
      case 'POST /clear':
        // UiObject2.clear is a set-text of "": a node that refuses it only logs a warning, and the answer is 200.
        this.device.ui.performSetText(e, '', 'uia2 clear');
        return null;
      case 'POST /value': {
        const text = typeof body.text === 'string' ? body.text : Array.isArray(body.value) ? (body.value as unknown[]).join('') : '';
        const replace = body.replace === true;
        const reason = `uia2 setValue${replace ? ' (replace)' : ''}`;
        // SendKeysToElement: ACTION_SET_TEXT (after its clear-before-append, which only a node that takes text reaches);
        // when the node says no, 400 invalid element state quoting the text.
        const value = replace || !this.device.ui.takesText(e) ? text : this.appended(session, id, e, text);
        if (!this.device.ui.performSetText(e, value, reason)) {
          throw new HttpError(400, 'invalid element state', `Cannot set the element to '${text}'. Did you interact with the correct element?`);
        }
        return null;
      }
      default:
        throw new HttpError(404, 'unknown command', `The requested resource could not be found: ${method} /element/:id${sub}`);
    }
  }

  /** UpdateSettings: known settings are applied one by one; a waitForIdleTimeout must be a number (a Long). */
  private updateSettings(body: Json): null {
    const updates = (body.settings as Json | undefined) ?? {};
    const idle = updates.waitForIdleTimeout;
    if (idle !== undefined && (typeof idle !== 'number' || !Number.isFinite(idle))) {
      throw new HttpError(400, 'invalid argument', `Invalid 'waitForIdleTimeout' setting value type. Got: ${typeof idle}. Expected: Long.`);
    }
    this.settings = { ...this.settings, ...updates, ...(typeof idle === 'number' ? { waitForIdleTimeout: Math.trunc(idle) } : {}) };
    return null;
  }

  /**
   * Device.waitForIdle: UiDevice.waitForIdle(waitForIdleTimeout), skipped when the setting is not
   * above 0. A screen that never idles costs the whole timeout, in the device's (real) time; the
   * TimeoutException is only logged ("Could not detect idle state."), so the command goes on.
   */
  private async waitForIdle(what: string): Promise<void> {
    const timeoutMs = Number(this.settings.waitForIdleTimeout);
    if (!(timeoutMs > 0) || this.device.screenActivity().idles) return;
    this.device.log('uia2', `${what}: waiting up to ${timeoutMs} ms for the device to idle`);
    await this.device.clock.sleep(timeoutMs);
    this.device.log('uia2', `${what}: could not detect idle state after ${timeoutMs} ms`);
  }

  /**
   * resetAccessibilityCache (the idle wait), then AXWindowHelpers.getActiveWindowRoot: the root is
   * polled every 250 ms for 10 s; without one, a UiAutomator2Exception, which the server answers
   * with HTTP 500 `unknown error` and this message.
   */
  private async idleThenRoot(what: string): Promise<void> {
    await this.waitForIdle(what);
    const start = this.device.clock.nowMs();
    while (this.device.clock.nowMs() - start < ROOT_RETRIEVAL_TIMEOUT_MS) {
      if (this.device.screenActivity().rootAvailable) return;
      await this.device.clock.sleep(ROOT_RETRIEVAL_INTERVAL_MS);
    }
    const elapsed = this.device.clock.nowMs() - start;
    this.device.log('uia2', `${what}: no root AccessibilityNodeInfo after ${elapsed} ms`);
    throw new HttpError(
      500,
      'unknown error',
      `Timed out after ${elapsed}ms waiting for the root AccessibilityNodeInfo in the active window. ` +
        'Make sure the active window is not constantly hogging the main UI thread (e.g. the application is being idle long enough), ' +
        'so the accessibility manager could do its work',
    );
  }

  /**
   * SendKeysToElement without `replace` (appium-uiautomator2-server): it appends to what
   * getText() reports, but first clears the field, and when the field still reports a text
   * after the clear, takes that for a hint and appends to nothing. So a hint is never kept, and
   * a password's bullets are kept when the field has no hint, as on a device.
   */
  private appended(session: Session, id: string, e: UiElement, text: string): string {
    if (e.text === '') return text;
    this.device.ui.setText(e.key, '', 'uia2 setValue: clear before append');
    return this.element(session, id).text === '' ? e.text + text : text;
  }

  /**
   * POST /appium/gestures/long_click, as appium-uiautomator2-server's LongClick gesture does it:
   * `origin` names a cached element (else `offset` is a screen point), `offset` is relative to the
   * element's top-left corner, and the touch is held for `duration` ms, by default exactly
   * ViewConfiguration.getLongPressTimeout() (GestureController.longClick). The device decides
   * from the hold whether it became a long click (DeviceUi.press).
   */
  private async longClick(session: Session, body: Json): Promise<null> {
    const origin = body.origin && typeof body.origin === 'object' ? (body.origin as Json) : null;
    const id = origin ? String(origin[W3C_ELEMENT] ?? origin.ELEMENT ?? '') : '';
    const offset = body.offset && typeof body.offset === 'object' ? (body.offset as Json) : null;
    const duration = body.duration === undefined || body.duration === null ? this.device.system.longPressTimeoutMs() : Number(body.duration);
    if (!Number.isFinite(duration) || duration < 0) throw new HttpError(400, 'invalid argument', 'Long click duration cannot be negative');
    const element = id ? this.element(session, id) : null;
    let point: { x: number; y: number };
    const bounds = element ? serverBounds(element) : null;
    if (bounds && offset) point = { x: bounds.left + Number(offset.x ?? 0), y: bounds.top + Number(offset.y ?? 0) };
    else if (bounds) point = center(bounds);
    else if (offset) point = { x: Number(offset.x ?? 0), y: Number(offset.y ?? 0) };
    else throw new HttpError(400, 'invalid argument', 'Long click offset coordinates must be provided if element is not set');
    // The server's thread is busy for the whole hold; the touch comes up at its end.
    await this.device.clock.sleep(duration);
    this.device.ui.press(Math.round(point.x), Math.round(point.y), duration, 'uia2-long-click', element && !offset ? element : null);
    return null;
  }

  private pressKeycode(code: number): void {
    if (this.device.ui.pressKey(code, 'uia2 press_keycode')) return;
    if (code >= 29 && code <= 54) this.device.ui.typeText(String.fromCharCode(97 + code - 29), 'uia2 press_keycode');
    else if (code >= 7 && code <= 16) this.device.ui.typeText(String(code - 7), 'uia2 press_keycode');
    else if (code === 62) this.device.ui.typeText(' ', 'uia2 press_keycode');
  }

  /**
   * W3C actions, timed as the real server's ActionsTokenizer injects them: durations rounded up to
   * 20 ms steps, a MOVE every 20 ms along a pointerMove (the first one repeating its start point),
   * nothing during a pause. A pointer that goes down and up near one point taps it; one that
   * travels is a stroke the screen drags (and maybe flings) with.
   */
  private actions(session: Session, body: Json): null {
    const sources = Array.isArray(body.actions) ? (body.actions as Json[]) : [];
    for (const source of sources) {
      const steps = Array.isArray(source.actions) ? (source.actions as Json[]) : [];
      if (source.type === 'key') {
        for (const step of steps) {
          if (step.type !== 'keyDown' || typeof step.value !== 'string') continue;
          const v = step.value;
          if (v === '\uE007' || v === '\uE006') this.device.ui.pressKey(66, 'uia2 actions');
          else if (v === '\uE003') this.device.ui.pressKey(67, 'uia2 actions');
          else if (v.codePointAt(0) !== undefined && (v.codePointAt(0) ?? 0) < 0xe000) this.device.ui.typeText(v, 'uia2 actions');
        }
        continue;
      }
      if (source.type === 'pointer') this.pointer(session, steps);
    }
    return null;
  }

  private pointer(session: Session, steps: readonly Json[]): void {
    let t = 0;
    let x = 0;
    let y = 0;
    let downAt = -1;
    let upAt = -1;
    let samples: TouchSample[] | null = null;
    let travelled = 0;
    for (const step of steps) {
      if (step.type === 'pause') {
        t += alignToInjectionStep(Number(step.duration ?? 0));
      } else if (step.type === 'pointerMove') {
        const target = this.moveTarget(session, step, x, y);
        const duration = alignToInjectionStep(Number(step.duration ?? 0));
        if (samples && duration >= INJECTION_STEP_MS) {
          const first = t === downAt || t === upAt ? t + INJECTION_STEP_MS : t;
          const count = Math.floor((t + duration - first) / INJECTION_STEP_MS);
          samples.push({ t: first, x: count <= 1 ? target.x : x, y: count <= 1 ? target.y : y });
          for (let k = 2; k <= count; k++) {
            samples.push({ t: first + (k - 1) * INJECTION_STEP_MS, x: x + ((target.x - x) * k) / count, y: y + ((target.y - y) * k) / count });
          }
        }
        t += duration;
        x = target.x;
        y = target.y;
        const origin = samples?.[0];
        if (origin) travelled = Math.max(travelled, Math.hypot(x - origin.x, y - origin.y));
      } else if (step.type === 'pointerDown') {
        samples = [{ t, x, y }];
        downAt = t;
        travelled = 0;
      } else if (step.type === 'pointerUp' && samples) {
        const origin = samples[0] as TouchSample;
        // Held in place: a click, or a long click once the hold passes the long-press timeout (DeviceUi.press).
        if (travelled < 20) this.device.ui.press(origin.x, origin.y, t - downAt, 'w3c-actions');
        else this.device.ui.drag({ samples, up: { t, x, y } }, 'uia2 actions');
        samples = null;
        upAt = t;
      }
    }
  }

  private moveTarget(session: Session, step: Json, x: number, y: number): { x: number; y: number } {
    const origin = step.origin;
    let nx = Number(step.x ?? 0);
    let ny = Number(step.y ?? 0);
    if (origin === 'pointer') {
      nx += x;
      ny += y;
    } else if (origin && typeof origin === 'object') {
      const id = String((origin as Json)[W3C_ELEMENT] ?? (origin as Json).ELEMENT ?? '');
      const c = center(serverBounds(this.element(session, id)));
      nx += c.x;
      ny += c.y;
    }
    return { x: Math.round(nx), y: Math.round(ny) };
  }

  private deviceInfo(): Json {
    const props = this.device.system.props;
    return {
      androidId: this.device.system.settings.secure.get('android_id') ?? '',
      apiVersion: props.get('ro.build.version.sdk') ?? '34',
      platformVersion: props.get('ro.build.version.release') ?? '14',
      manufacturer: props.get('ro.product.manufacturer') ?? 'Google',
      model: props.get('ro.product.model') ?? '',
      brand: props.get('ro.product.brand') ?? 'google',
      locale: 'en_US',
      timeZone: 'Etc/UTC',
      // DeviceInfoHelper: Display.getRealSize, which is adjusted to the current rotation.
      realDisplaySize: `${this.device.display().width}x${this.device.display().height}`,
      displayDensity: this.device.system.density(),
      carrierName: 'T-Mobile',
      networks: [],
      bluetooth: { state: 'OFF' },
    };
  }
}

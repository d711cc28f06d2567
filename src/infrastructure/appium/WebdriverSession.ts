/**
 * One UiAutomator2 session through WebDriver: finding elements, reading them, acting on them,
 * and the closed list of `mobile:` commands; every failure mapped by driverErrors.ts.
 */
import { HarnessError } from '../../domain/errors.js';
import type { SwipePath } from '../../domain/gestures/scrollGesture.js';
import type { Point } from '../../domain/tree/uiNode.js';
import { DRIVER_DEVICE_COMMANDS } from '../../domain/ports.js';
import type {
  AutomationSession,
  Clock,
  DisplayOrientation,
  DriverDeviceCommand,
  DriverDeviceCommandArgs,
  ElementRef,
  Locator,
  Logger,
  TypeOutcome,
} from '../../domain/ports.js';
import { withoutText } from '../../domain/sanitize.js';
import { isGridNodeLost } from '../remote/seleniumGridErrors.js';
import {
  isInvalidElementState,
  isNoSuchElement,
  isSessionAlreadyGone,
  isStale,
  mapDriverError,
} from './driverErrors.js';

/** The W3C element key; JSONWP's `ELEMENT` is accepted as well. */
const W3C_ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';
const FIND_INTERVAL_MS = 250;
/** Still after the pointer goes down, before anything else: a tap as a finger makes it. */
const DOWN_PAUSE_MS = 50;

/** The protocol methods this adapter uses: what webdriverio's Browser offers, and what a test fake must. */
export interface DriverLike {
  readonly sessionId: string;
  findElement(using: string, value: string): Promise<unknown>;
  findElements(using: string, value: string): Promise<unknown[]>;
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

function elementId(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const id = record[W3C_ELEMENT] ?? record.ELEMENT;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

export class WebdriverSession implements AutomationSession {
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
    const found = await this.poll(timeoutMs, async () => {
      try {
        const id = elementId(await this.driver.findElement(locator.using, locator.value));
        return id === null ? [] : [{ id }];
      } catch (error) {
        if (!isNoSuchElement(error)) throw this.map(error, 'find');
        return [];
      }
    });
    return found[0] ?? null;
  }

  findElements(locator: Locator, timeoutMs: number): Promise<readonly ElementRef[]> {
    return this.poll(timeoutMs, async () => {
      let found: unknown[];
      try {
        found = await this.driver.findElements(locator.using, locator.value);
      } catch (error) {
        // W3C answers an empty list; an older server may still say "no such element".
        if (!isNoSuchElement(error)) throw this.map(error, 'find');
        return [];
      }
      return (Array.isArray(found) ? found : [])
        .map(elementId)
        .filter((id): id is string => id !== null)
        .map((id) => ({ id }));
    });
  }

  /** Asks again every FIND_INTERVAL_MS until something is found or `timeoutMs` has passed. */
  private async poll(timeoutMs: number, look: () => Promise<ElementRef[]>): Promise<ElementRef[]> {
    const deadline = this.clock.monotonicMs() + Math.max(0, timeoutMs);
    for (;;) {
      const found = await look();
      if (found.length > 0) return found;
      const remaining = deadline - this.clock.monotonicMs();
      if (remaining <= 0) return [];
      await this.clock.sleep(Math.min(FIND_INTERVAL_MS, remaining));
    }
  }

  async elementLabel(element: ElementRef): Promise<string> {
    // A password field's text is bullets on a stock view and the plain text on some custom ones:
    // either way it is never ours to repeat, so its label is its content-desc or hint.
    // So the password flag is read first, and a password field's text is never asked for; the other
    // reads are independent and asked at once (two round trips, not up to four).
    const secret = (await this.attribute(element, 'password')) === 'true';
    const [text, description, hint] = await Promise.all([
      secret ? Promise.resolve('') : this.elementText(element),
      this.attribute(element, 'content-desc'),
      this.attribute(element, 'hint'),
    ]);
    if (text.trim()) return text;
    for (const value of [description, hint]) if (value.trim() && value !== 'null') return value;
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
    const [className, bounds, packageName] = await Promise.all([
      this.attribute(element, 'class'),
      this.attribute(element, 'bounds'),
      this.attribute(element, 'package'),
    ]);
    return { className, bounds, packageName };
  }

  async elementBounds(element: ElementRef): Promise<{ bounds: string; packageName: string }> {
    const [bounds, packageName] = await Promise.all([
      this.attribute(element, 'bounds'),
      this.attribute(element, 'package'),
    ]);
    return { bounds, packageName };
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
      () =>
        this.driver.executeScript('mobile: longClickGesture', [
          { elementId: element.id, duration: Math.round(holdMs) },
        ]),
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
    await this.touch(
      { start: point, moves: [], holdMs: Math.max(0, holdMs - DOWN_PAUSE_MS) },
      holdMs > 0 ? 'long press' : 'tap',
    );
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
              ...path.moves.map((move) => ({
                type: 'pointerMove',
                duration: duration(move.durationMs),
                origin: 'viewport',
                ...point(move.to),
              })),
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
    if (!DRIVER_DEVICE_COMMANDS.includes(command))
      throw new HarnessError('INTERNAL_ERROR', 'A driver command outside the closed list was refused.');
    return this.call(() => this.driver.executeScript(command, [args]), command);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.driver.deleteSession();
      this.logger.info('Appium session closed', { sessionId: this.id });
    } catch (error) {
      // Appium already ended it (its newCommandTimeout fired, or the driver died and the UI session was
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
    return mapDriverError(error, what, {
      udid: this.udid,
      sessionId: this.id,
      logger: this.logger,
      unavailable: this.unavailable,
    });
  }
}

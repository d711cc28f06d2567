import type { AutomationSession } from '../../domain/ports.js';

/**
 * `inner` unchanged except for its close, which runs `close` once: a session is closed by
 * whoever gets there first (the UI session, a timeout's cleanup, shutdown), and every later caller
 * waits on that same close instead of asking Appium again.
 */
export function withCloseOnce(inner: AutomationSession, close: () => Promise<void>): AutomationSession {
  let closing: Promise<void> | null = null;
  return {
    id: inner.id,
    findElement: (locator, timeoutMs) => inner.findElement(locator, timeoutMs),
    findElements: (locator, timeoutMs) => inner.findElements(locator, timeoutMs),
    elementLabel: (element) => inner.elementLabel(element),
    elementText: (element) => inner.elementText(element),
    elementPlace: (element) => inner.elementPlace(element),
    elementBounds: (element) => inner.elementBounds(element),
    isFocused: (element) => inner.isFocused(element),
    click: (element) => inner.click(element),
    longClick: (element, holdMs) => inner.longClick(element, holdMs),
    typeText: (element, text) => inner.typeText(element, text),
    swipe: (path) => inner.swipe(path),
    pressAt: (point, holdMs) => inner.pressAt(point, holdMs),
    windowSize: () => inner.windowSize(),
    back: () => inner.back(),
    pressKey: (keycode) => inner.pressKey(keycode),
    openNotifications: () => inner.openNotifications(),
    setOrientation: (orientation) => inner.setOrientation(orientation),
    pageSource: () => inner.pageSource(),
    screenshot: () => inner.screenshot(),
    execute: (command, args) => inner.execute(command, args),
    close: () => (closing ??= close()),
  };
}

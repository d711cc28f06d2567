/**
 * How a failed WebDriver call reads to the harness: the driver's (webdriverio's) and Appium's
 * words for a gone session, a dead connection, a stale or missing element, mapped to the typed
 * errors a client is answered. The Selenium Grid's own words are mapped first (../remote/seleniumGridErrors.ts).
 */
import { HarnessError, systemErrorCode } from '../../domain/errors.js';
import { SecureScreenError } from '../../domain/evidence/secureScreen.js';
import type { Logger } from '../../domain/ports.js';
import { gridCommandError } from '../remote/seleniumGridErrors.js';

/** How Appium words a session whose UiAutomator2 server is gone (see mapDriverError). */
const SESSION_GONE =
  /invalid session id|session is either terminated or not started|instrumentation process is not running|socket hang up/i;

/** The UiAutomator2 server's UiAutomator2Exception when getRootInActiveWindow() stayed null (Appium prefixes "Original error: "). */
const ROOT_TIMED_OUT = /waiting for the root AccessibilityNodeInfo/i;

/** The driver calls that act on the screen (WebdriverSession's `what`): a failure means the action did not happen. */
const ACTIONS: ReadonlySet<string> = new Set([
  'click',
  'clear',
  'type',
  'tap',
  'long press',
  'swipe',
  'back',
  'press key',
  'open notifications',
]);

/** ScreenshotHelper's TakeScreenshotException asks "Does the current view have 'secure' flag set?". */
const SECURE_FLAG = /'secure' flag/i;

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
]);

/** A failure to reach the endpoint at all (refused, reset, timed out): the endpoint is unavailable, not the call wrong. */
export function isConnectionFailure(error: unknown, message: string, words: RegExp): boolean {
  return CONNECTION_CODES.has(systemErrorCode(error) ?? '') || words.test(message);
}

export interface DriverErrorContext {
  readonly udid: string;
  readonly sessionId: string;
  readonly logger: Logger;
  /** The endpoint's APPIUM_UNAVAILABLE, worded for local Appium or for a remote endpoint. */
  readonly unavailable: (cause: unknown) => HarnessError;
}

/** The typed error for a failed call during `what` (a HarnessError passes through unchanged). */
export function mapDriverError(error: unknown, what: string, context: DriverErrorContext): HarnessError {
  if (error instanceof HarnessError) return error;
  const name = (error as { name?: unknown } | null)?.name;
  const message = String((error as { message?: unknown } | null)?.message ?? error);
  context.logger.warn('driver call failed', { what, sessionId: context.sessionId, name, cause: message.slice(0, 500) });
  // First: a Grid that lost the node answers in words (connection error, session not found)
  // that would otherwise read as an internal error or a plain ended session.
  const grid = gridCommandError(error, context.udid);
  if (grid) return grid;
  // The UiAutomator2 server under the session died mid-command (its instrumentation ended or was
  // force-stopped): Appium answers the request in flight with a proxy error ("socket hang up")
  // and the next ones with "the instrumentation process is not running". The session is gone.
  if (name === 'invalid session id' || SESSION_GONE.test(message)) {
    return new HarnessError(
      'APPIUM_UNAVAILABLE',
      'The Appium session ended unexpectedly (the driver or the device restarted). Open a new UI session with ui_session_open, or retry the action.',
      { cause: error },
    );
  }
  if (isConnectionFailure(error, message, /ECONNREFUSED|ECONNRESET|fetch failed/i)) {
    return context.unavailable(error);
  }
  // Appium answers the requests in flight this way when it is stopped (Ctrl-C, SIGTERM) before it exits.
  if (/process has received SIG[A-Z]+ signal/i.test(message)) return context.unavailable(error);
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
    return new HarnessError(
      'UI_ELEMENT_NOT_FOUND',
      `The element went away before the ${what}. Read the screen again with ui_get_tree and retry.`,
      { cause: error },
    );
  }
  if (name === 'element not interactable' || name === 'invalid element state' || name === 'element click intercepted') {
    return new HarnessError(
      'UI_ELEMENT_NOT_FOUND',
      `The element refused the ${what} (${String(name)}). Choose another target from ui_get_tree.`,
      { cause: error },
    );
  }
  // TakeScreenshotException's default message: UiAutomation got no bitmap, SurfaceFlinger refused a secure window.
  if (name === 'unable to capture screen' && SECURE_FLAG.test(message))
    return new SecureScreenError(null, { cause: error });
  // Any other failure the UiAutomator2 server answers as HTTP 500 `unknown error` (a RuntimeException in
  // its handler: an injection Android refused, a gesture that threw): the action did not happen, the
  // session is sound (docs/reference/contract.md, "Device errors").
  if (name === 'unknown error' && ACTIONS.has(what)) {
    return new HarnessError(
      'UI_ACTION_FAILED',
      `The device could not perform the ${what}: its UiAutomator2 server answered that the gesture failed (unknown error), so nothing was done. A system window (a permission dialog, a screen pin, another app's overlay) may be in front: read the screen with ui_get_tree, then retry or act on what is in front.`,
      { cause: error },
    );
  }
  return new HarnessError(
    'INTERNAL_ERROR',
    `The automation driver failed during the ${what}; the server log has the details.`,
    { cause: error },
  );
}

/** What a delete of a session Appium no longer holds answers: HTTP 404 `invalid session id`. */
export function isSessionAlreadyGone(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  const message = String((error as { message?: unknown } | null)?.message ?? error);
  return (
    name === 'invalid session id' || /invalid session id|session is either terminated or not started/i.test(message)
  );
}

export function isInvalidElementState(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return (
    name === 'invalid element state' ||
    /invalid element state/i.test(String((error as { message?: unknown } | null)?.message ?? ''))
  );
}

export function isNoSuchElement(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return (
    name === 'no such element' ||
    /no such element/i.test(String((error as { message?: unknown } | null)?.message ?? ''))
  );
}

export function isStale(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return (
    name === 'stale element reference' ||
    /stale element reference/i.test(String((error as { message?: unknown } | null)?.message ?? ''))
  );
}

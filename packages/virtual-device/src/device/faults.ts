/** Faults a test can inject to see how clients cope with a misbehaving device. */

export type FaultTarget = 'shell' | 'uia2' | 'all';

export type Fault =
  /** Delay every matching shell command / UIA2 request by `delayMs`. */
  | { readonly kind: 'slow'; readonly delayMs: number; readonly target?: FaultTarget; readonly match?: string }
  /** Matching shell commands / UIA2 requests never answer (e.g. `match: '/click'`). */
  | { readonly kind: 'hung'; readonly target?: FaultTarget; readonly match?: string }
  /** The transport drops its connection once (adb sees the device go away and come back). */
  | { readonly kind: 'drop-connection' }
  /** The device stops answering: `isOnline()` is false until the fault is cleared. */
  | { readonly kind: 'offline' }
  /** `uiautomator dump` prints XML that does not parse. */
  | { readonly kind: 'malformed-dump' }
  /** `uiautomator dump` prints a hierarchy with no nodes. */
  | { readonly kind: 'empty-dump' }
  /** The next `times` dumps fail with `ERROR: null root node returned by UiTestAutomationBridge.` */
  | { readonly kind: 'null-root'; readonly times: number }
  /**
   * A screen that never goes idle (a video, an endless animation) whose tree can still be read:
   * a dump waits its 10 s idle budget, then prints `ERROR: could not get idle state.`; the UIA2
   * server waits its `waitForIdleTimeout` before page source, finds and after clicks, then answers.
   */
  | { readonly kind: 'idle-state' }
  /**
   * The same, and the app keeps its main thread so busy that the active window's root
   * AccessibilityNodeInfo never comes: the UIA2 server waits for idle, then polls the root for
   * 10 s and answers HTTP 500 `unknown error` ("… waiting for the root AccessibilityNodeInfo …").
   */
  | { readonly kind: 'ui-busy' }
  /** Screenshots come back as one flat colour. */
  | { readonly kind: 'blank-screenshot' }
  /** `now`: the running UIA2 instrumentation crashes; `next-start`: the next `am instrument` crashes on start. */
  | { readonly kind: 'instrumentation-crash'; readonly when?: 'now' | 'next-start' }
  /**
   * The next `times` (default 1) UIA2 requests that match answer an error instead of acting: by
   * default HTTP 500 `unknown error` with the SecurityException Android throws when an injected
   * touch would reach another app's window (the click the server could not perform); `status`,
   * `error` and `message` replace it.
   */
  | {
      readonly kind: 'uia2-error';
      readonly match?: string;
      readonly times?: number;
      readonly status?: number;
      readonly error?: string;
      readonly message?: string;
    }
  /**
   * The UiAutomator2 server restarted under a live session (its process was killed and started
   * again): it serves, but knows no session, so every request for the old one answers 404
   * `invalid session id`.
   */
  | { readonly kind: 'uia2-session-lost' };

export type FaultKind = Fault['kind'];

/** What accessibility can get from the screen now (the idle-state and ui-busy faults). */
export interface ScreenActivity {
  /** False while something keeps sending accessibility events: UiAutomation.waitForIdle times out. */
  readonly idles: boolean;
  /** False while getRootInActiveWindow() answers null (the app's main thread does not answer). */
  readonly rootAvailable: boolean;
}

export function screenActivity(faults: readonly Fault[]): ScreenActivity {
  const busy = faults.some((f) => f.kind === 'ui-busy');
  return { idles: !busy && !faults.some((f) => f.kind === 'idle-state'), rootAvailable: !busy };
}

/** AppiumResponse for a RuntimeException: UiAutomator2Exception(Throwable), its message the cause's toString. */
export const INJECT_EVENTS_DENIED =
  'java.lang.SecurityException: Injecting input events requires the caller (or the source of the instrumentation, if any) to have the INJECT_EVENTS permission.';

export function faultApplies(
  fault: { target?: FaultTarget; match?: string },
  target: 'shell' | 'uia2',
  subject: string,
): boolean {
  const t = fault.target ?? 'all';
  if (t !== 'all' && t !== target) return false;
  return fault.match === undefined || subject.includes(fault.match);
}

export function describeFault(fault: Fault): string {
  return JSON.stringify(fault);
}

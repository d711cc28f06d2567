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
  /** Dumps fail with `ERROR: could not get idle state.` (a screen that never goes idle). */
  | { readonly kind: 'idle-state' }
  /** Screenshots come back as one flat colour. */
  | { readonly kind: 'blank-screenshot' }
  /** `now`: the running UIA2 instrumentation crashes; `next-start`: the next `am instrument` crashes on start. */
  | { readonly kind: 'instrumentation-crash'; readonly when?: 'now' | 'next-start' };

export type FaultKind = Fault['kind'];

export function faultApplies(fault: { target?: FaultTarget; match?: string }, target: 'shell' | 'uia2', subject: string): boolean {
  const t = fault.target ?? 'all';
  if (t !== 'all' && t !== target) return false;
  return fault.match === undefined || subject.includes(fault.match);
}

export function describeFault(fault: Fault): string {
  return JSON.stringify(fault);
}

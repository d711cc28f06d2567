/**
 * The faults a test has injected and what they mean for each request: whether the device answers
 * at all, how long a shell command or a UIA2 request is held, what a dump or a screenshot shows.
 */
import type { DeviceLogKind } from '../contracts.js';
import type { DeviceClock } from './clock.js';
import {
  INJECT_EVENTS_DENIED,
  describeFault,
  faultApplies,
  screenActivity,
  type Fault,
  type FaultKind,
  type ScreenActivity,
} from './faults.js';
import type { Instrumentation } from './instrumentation.js';

export class FaultInjector {
  private readonly active: Fault[] = [];
  /** Device clock time until which the transport sees the device go away (a dropped connection). */
  private blipUntil = 0;
  /** How many more requests each `uia2-error` fault answers. */
  private readonly errorsLeft = new Map<Fault, number>();
  /** The UIA2 server forgets its session (set by the device once the server exists). */
  sessionLost: (() => void) | null = null;

  constructor(
    private readonly clock: DeviceClock,
    private readonly instrumentation: Instrumentation,
    private readonly log: (kind: DeviceLogKind, detail: string) => void,
  ) {}

  inject(fault: Fault): void {
    this.log('fault', `inject ${describeFault(fault)}`);
    switch (fault.kind) {
      case 'drop-connection':
        // The transport polls isOnline(); a short blip makes it drop every connection once.
        this.blipUntil = this.clock.nowMs() + 300;
        return;
      case 'instrumentation-crash':
        if ((fault.when ?? 'now') === 'now') this.instrumentation.end('crash');
        else this.instrumentation.crashOnNextStart = true;
        return;
      case 'uia2-session-lost':
        this.sessionLost?.();
        return;
      case 'uia2-error':
        this.errorsLeft.set(fault, fault.times ?? 1);
        this.active.push(fault);
        return;
      default:
        this.active.push(fault);
    }
  }

  clear(): void {
    this.active.length = 0;
    this.errorsLeft.clear();
    this.blipUntil = 0;
    this.instrumentation.crashOnNextStart = false;
    this.log('fault', 'cleared');
  }

  list(): readonly Fault[] {
    return this.active;
  }

  has(kind: FaultKind): boolean {
    return this.active.some((f) => f.kind === kind);
  }

  /** False while the `offline` fault holds, or during the blip of a dropped connection. */
  online(): boolean {
    if (this.has('offline')) return false;
    return this.clock.nowMs() >= this.blipUntil;
  }

  /** 'hang': the request never answers; a number: it answers that many ms late (0: on time). */
  delayFor(target: 'shell' | 'uia2', subject: string): 'hang' | number {
    let delay = 0;
    for (const f of this.active) {
      if (f.kind === 'hung' && faultApplies(f, target, subject)) return 'hang';
      if (f.kind === 'slow' && faultApplies(f, target, subject)) delay = Math.max(delay, f.delayMs);
    }
    return delay;
  }

  /** The error a matching `uia2-error` fault answers for this request (it counts down), or null. */
  errorFor(subject: string): { status: number; error: string; message: string } | null {
    for (const f of this.active) {
      if (
        f.kind !== 'uia2-error' ||
        !faultApplies({ target: 'uia2', ...(f.match !== undefined ? { match: f.match } : {}) }, 'uia2', subject)
      )
        continue;
      const left = this.errorsLeft.get(f) ?? 0;
      if (left <= 0) continue;
      this.errorsLeft.set(f, left - 1);
      return { status: f.status ?? 500, error: f.error ?? 'unknown error', message: f.message ?? INJECT_EVENTS_DENIED };
    }
    return null;
  }

  /** Whether the screen idles and its root can be read now (the idle-state and ui-busy faults). */
  screenActivity(): ScreenActivity {
    return screenActivity(this.active);
  }

  /**
   * Uses up one of the `null-root` fault's failing dumps: how many remain after this one, or null
   * when this dump is not one of them.
   */
  takeNullRoot(): number | null {
    const nullRoot = this.active.find((f) => f.kind === 'null-root');
    if (!nullRoot || nullRoot.kind !== 'null-root' || nullRoot.times <= 0) return null;
    const remaining = nullRoot.times - 1;
    this.active.splice(this.active.indexOf(nullRoot), 1);
    if (remaining > 0) this.active.push({ kind: 'null-root', times: remaining });
    return remaining;
  }
}

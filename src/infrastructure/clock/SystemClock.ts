import type { Clock, TimerHandle } from '../../domain/ports.js';

/**
 * How far the fine clock may drift from `Date.now()` before it is re-anchored. `Date.now()` is
 * whole milliseconds, so normal disagreement is under 1 ms; a larger one means the wall clock
 * was stepped (NTP) or the machine slept (the monotonic clock stops during suspend on Linux).
 */
const MAX_DRIFT_MS = 5;

/**
 * The real clock. Timers stay referenced: a pending `sleep` must keep a CLI run alive,
 * so whoever schedules a long timer (the UI session's lease) is responsible for clearing it.
 */
export class SystemClock implements Clock {
  /** The Unix time of `performance.now() === 0`, in ms (fractional). */
  private originMs = performance.timeOrigin;

  now(): Date {
    return new Date();
  }

  /**
   * `Date.now()` has no sub-millisecond part; `performance.now()` does, but is monotonic rather
   * than wall time. Microseconds come from the fine clock, kept within a few ms of the wall clock.
   */
  epochMicros(): number {
    const wallMs = Date.now();
    const fine = performance.now();
    if (Math.abs(this.originMs + fine - wallMs) > MAX_DRIFT_MS) this.originMs = wallMs - fine;
    return Math.floor((this.originMs + fine) * 1000);
  }

  monotonicMs(): number {
    return performance.now();
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    return setTimeout(callback, Math.max(0, ms)) as unknown as TimerHandle;
  }

  clearTimeout(handle: TimerHandle): void {
    clearTimeout(handle as unknown as NodeJS.Timeout);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
  }
}

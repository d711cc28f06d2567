import type { Clock, TimerHandle } from '../../domain/ports.js';

/**
 * The real clock. Timers stay referenced: a pending `sleep` must keep a CLI run alive,
 * so whoever schedules a long timer (the flow lease) is responsible for clearing it.
 */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
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

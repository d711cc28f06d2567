import type { Clock, TimerHandle } from '../../src/domain/ports.js';

interface PendingTimer {
  readonly id: number;
  readonly due: number;
  readonly callback: () => void;
}

/** Lets promise chains that react to a fired timer run before the next one fires. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A clock that only moves when a test says so. Timers (and `sleep`) fire in due order during
 * `advance`, with pending promise reactions flushed between them, so code that sleeps in a loop
 * progresses exactly as far as the advanced time allows.
 */
export class FakeClock implements Clock {
  private mono = 0;
  private readonly wallStart: number;
  private nextId = 1;
  private timers: PendingTimer[] = [];

  constructor(start: Date = new Date('2026-11-30T17:12:03.482Z')) {
    this.wallStart = start.getTime();
  }

  now(): Date {
    return new Date(this.wallStart + this.mono);
  }

  /** Moves with `advance`, which takes fractions of a millisecond (`advance(0.001)` is 1 µs). */
  epochMicros(): number {
    return this.wallStart * 1000 + Math.round(this.mono * 1000);
  }

  monotonicMs(): number {
    return this.mono;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.push({ id, due: this.mono + Math.max(0, ms), callback });
    return id as unknown as TimerHandle;
  }

  clearTimeout(handle: TimerHandle): void {
    const id = handle as unknown as number;
    this.timers = this.timers.filter((t) => t.id !== id);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.setTimeout(resolve, ms);
    });
  }

  /** Number of timers (sleeps included) waiting to fire. */
  pendingTimers(): number {
    return this.timers.length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.mono + Math.max(0, ms);
    await settle();
    for (;;) {
      const next = this.timers.filter((t) => t.due <= target).sort((a, b) => a.due - b.due || a.id - b.id)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t.id !== next.id);
      this.mono = next.due;
      next.callback();
      await settle();
    }
    this.mono = target;
    await settle();
  }
}

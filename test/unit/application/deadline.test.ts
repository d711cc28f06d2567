import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../../src/application/time/deadline.js';
import { FakeClock } from '../../support/FakeClock.js';

describe('withDeadline', () => {
  it('answers OPERATION_TIMEOUT for a promise that never settles, without blocking the event loop', async () => {
    const clock = new FakeClock();
    const hung = new Promise<string>(() => undefined);
    const raced = withDeadline(clock, 5_000, hung, 'too slow').catch((error: unknown) => error);
    let ticked = false;
    setImmediate(() => (ticked = true));
    await clock.advance(4_999);
    expect(ticked).toBe(true);
    await clock.advance(1);
    expect(await raced).toMatchObject({ code: 'OPERATION_TIMEOUT', message: 'too slow' });
    expect(clock.pendingTimers()).toBe(0);
  });

  it('passes the value through and clears its timer', async () => {
    const clock = new FakeClock();
    await expect(withDeadline(clock, 1_000, Promise.resolve(3), 'x')).resolves.toBe(3);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('hands a late value to onLate', async () => {
    const clock = new FakeClock();
    let resolveLate!: (v: string) => void;
    const late: string[] = [];
    const raced = withDeadline(clock, 100, new Promise<string>((r) => (resolveLate = r)), 'late', (v) =>
      late.push(v),
    ).catch((error: unknown) => error);
    await clock.advance(100);
    expect(await raced).toMatchObject({ code: 'OPERATION_TIMEOUT' });
    resolveLate('session-9');
    await new Promise((r) => setImmediate(r));
    expect(late).toEqual(['session-9']);
  });
});

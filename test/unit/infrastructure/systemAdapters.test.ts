import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { SystemClock } from '../../../src/infrastructure/clock/SystemClock.js';
import { createLogger } from '../../../src/infrastructure/logging/logger.js';
import { CryptoRandom } from '../../../src/infrastructure/random/CryptoRandom.js';
import { FakeClock } from '../../support/FakeClock.js';

describe('CryptoRandom', () => {
  const random = new CryptoRandom();
  it('gives uuid v4 strings', () => {
    expect(random.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(random.uuid()).not.toBe(random.uuid());
  });
  it('gives operation ids of 12 lowercase Crockford base32 characters, 10,000 of them distinct', () => {
    const ids = Array.from({ length: 10_000 }, () => random.operationId());
    for (const id of ids) expect(id).toMatch(/^[0-9abcdefghjkmnpqrstvwxyz]{12}$/);
    expect(new Set(ids).size).toBe(10_000);
    // Every one of the 32 characters turns up, in every position: the bytes' low 5 bits all count.
    for (let at = 0; at < 12; at += 1) expect(new Set(ids.map((id) => id[at])).size).toBe(32);
  });
  it('gives URL-safe tokens of the asked length that match the session id shape', () => {
    const token = random.token(32);
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const seen = new Set(Array.from({ length: 200 }, () => random.token(24)));
    expect(seen.size).toBe(200);
  });
});

describe('SystemClock', () => {
  it('sleeps, runs and clears timers, and is monotonic', async () => {
    const clock = new SystemClock();
    const t0 = clock.monotonicMs();
    await clock.sleep(20);
    expect(clock.monotonicMs() - t0).toBeGreaterThanOrEqual(15);
    let fired = false;
    const handle = clock.setTimeout(() => (fired = true), 10);
    clock.clearTimeout(handle);
    await clock.sleep(30);
    expect(fired).toBe(false);
    // The real clock adapter itself: both read the same wall clock; 1 s only absorbs a pause of a loaded runner.
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1000);
  });

  it('gives whole microseconds of wall time, with a sub-millisecond part', () => {
    const clock = new SystemClock();
    const readings = Array.from({ length: 2000 }, () => {
      const before = Date.now();
      const micros = clock.epochMicros();
      return [micros, before, Date.now()] as const;
    });
    for (const [micros, before, after] of readings) {
      expect(Number.isSafeInteger(micros)).toBe(true);
      // Bracketed by two wall-clock reads (a busy machine may pause between them): within the
      // drift bound of that window, whole milliseconds on either side.
      expect(micros / 1000).toBeGreaterThanOrEqual(before - 6);
      expect(micros / 1000).toBeLessThanOrEqual(after + 6);
    }
    // Not just milliseconds times 1000: the last three digits vary.
    expect(new Set(readings.map(([micros]) => micros % 1000)).size).toBeGreaterThan(1);
  });

  it('follows the wall clock when it jumps (NTP step, or a machine that slept)', () => {
    const clock = new SystemClock();
    const realNow = Date.now.bind(Date);
    const spy = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 60_000);
    // Bracketed by two wall-clock reads, as above: a loaded runner may pause between them, never out of the window.
    try {
      const before = realNow() + 60_000;
      const micros = clock.epochMicros();
      const after = realNow() + 60_000;
      expect(micros / 1000).toBeGreaterThanOrEqual(before - 6);
      expect(micros / 1000).toBeLessThanOrEqual(after + 6);
    } finally {
      spy.mockRestore();
    }
    const before = Date.now();
    const micros = clock.epochMicros();
    const after = Date.now();
    expect(micros / 1000).toBeGreaterThanOrEqual(before - 6);
    expect(micros / 1000).toBeLessThanOrEqual(after + 6);
  });
});

describe('FakeClock', () => {
  it('fires timers in due order only when advanced, and moves both clocks', async () => {
    const clock = new FakeClock(new Date('2026-01-01T00:00:00Z'));
    const order: string[] = [];
    clock.setTimeout(() => order.push('b'), 200);
    clock.setTimeout(() => order.push('a'), 100);
    const cleared = clock.setTimeout(() => order.push('never'), 150);
    clock.clearTimeout(cleared);
    await clock.advance(99);
    expect(order).toEqual([]);
    await clock.advance(101);
    expect(order).toEqual(['a', 'b']);
    expect(clock.monotonicMs()).toBe(200);
    expect(clock.now().toISOString()).toBe('2026-01-01T00:00:00.200Z');
  });

  it('lets a loop of sleeps progress exactly as far as the advanced time', async () => {
    const clock = new FakeClock();
    let ticks = 0;
    void (async () => {
      for (;;) {
        await clock.sleep(100);
        ticks++;
      }
    })();
    await clock.advance(350);
    expect(ticks).toBe(3);
  });
});

describe('createLogger', () => {
  it('writes JSON lines with message and fields to the given destination, honouring the level', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const logger = createLogger({ level: 'info', destination: sink });
    logger.debug('hidden');
    logger.info('adb', { ms: 12 });
    logger.error('boom', { code: 'X' });
    await new Promise((resolve) => setImmediate(resolve));
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed.map((p) => p.msg)).toEqual(['adb', 'boom']);
    expect(parsed[0]).toMatchObject({ level: 30, msg: 'adb', ms: 12 });
    expect(parsed[1]).toMatchObject({ level: 50, code: 'X' });
  });
});

import { describe, expect, it } from 'vitest';
import {
  IDLE_WAIT_MARGIN_MS,
  SERVER_IDLE_WAIT_MS,
  SERVER_ROOT_WAIT_MS,
  serverIdleWaitMs,
} from '../../../src/application/time/idleWaitBudget.js';

describe("the UiAutomator2 server's wait for idle fits in one action ceiling", () => {
  it("keeps the server's 10 s under the default 90 s ceiling, shrinks it under a short one, never below 0", () => {
    expect(serverIdleWaitMs(90_000)).toBe(SERVER_IDLE_WAIT_MS);
    expect(serverIdleWaitMs(25_000)).toBe(10_000);
    expect(serverIdleWaitMs(20_000)).toBe(5_000);
    expect(serverIdleWaitMs(16_000)).toBe(1_000);
    expect(serverIdleWaitMs(15_000)).toBe(0);
    expect(serverIdleWaitMs(5_000)).toBe(0);
    expect(serverIdleWaitMs(Number.NaN)).toBe(0);
  });

  it('whenever the ceiling has room for the root wait and the margin, all three fit inside it', () => {
    for (const ceiling of [15_000, 16_500, 20_000, 24_999, 25_000, 90_000, 600_000]) {
      expect(serverIdleWaitMs(ceiling) + SERVER_ROOT_WAIT_MS + IDLE_WAIT_MARGIN_MS).toBeLessThanOrEqual(ceiling);
    }
  });
});

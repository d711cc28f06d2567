import { describe, expect, it } from 'vitest';
import { DeviceGate } from '../../../src/application/ownership/DeviceGate.js';
import { HarnessError } from '../../../src/domain/errors.js';
import { FakeClock } from '../../support/FakeClock.js';

describe('DeviceGate', () => {
  it('refuses a second owner at once with EMULATOR_BUSY naming the holder', async () => {
    const clock = new FakeClock();
    const gate = new DeviceGate(clock);
    let release!: () => void;
    const first = gate.run('ui_tap', 'op-1', () => new Promise<void>((resolve) => (release = resolve)));
    await clock.advance(3_000);
    let caught: unknown;
    try {
      gate.acquire('ui_get_tree', 'op-2');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(HarnessError);
    expect((caught as HarnessError).code).toBe('EMULATOR_BUSY');
    expect((caught as HarnessError).message).toContain('ui_tap');
    expect((caught as HarnessError).message).toContain('op-1');
    expect((caught as HarnessError).message).toContain('3 s');
    expect((caught as HarnessError).message).toMatch(/retry/i);
    release();
    await first;
    expect(gate.isHeld).toBe(false);
  });

  it('is free again after the body fails', async () => {
    const gate = new DeviceGate(new FakeClock());
    await expect(gate.run('x', 'op', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.isHeld).toBe(false);
    const release = gate.acquire('y', 'op2');
    expect(gate.isHeld).toBe(true);
    release();
  });

  it('a stale release cannot free a newer owner', () => {
    const gate = new DeviceGate(new FakeClock());
    const releaseFirst = gate.acquire('a', '1');
    releaseFirst();
    const releaseSecond = gate.acquire('b', '2');
    releaseFirst();
    expect(gate.isHeld).toBe(true);
    releaseSecond();
    expect(gate.isHeld).toBe(false);
  });
});

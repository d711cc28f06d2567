/** Full size: 10 server processes × 200 mixed calls on one virtual device. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeviceLogEntry } from '../../packages/virtual-device/src/contracts.js';
import { describeWithAdb } from '../support/adbServer.js';
import { runLockLoad } from '../support/lockLoad.js';
import { ensureBuilt } from '../support/rawServer.js';
import { startReliabilityStack, type ReliabilityStack } from '../support/reliabilityStack.js';

const SEED = Number(process.env.RELIABILITY_SEED ?? 20_261_130);
const PROCESSES = Number(process.env.SOAK_PROCESSES ?? 10);
const CALLS = Number(process.env.SOAK_CALLS ?? 200);

describeWithAdb('soak: one owner across processes', () => {
  let stack: ReliabilityStack;
  const entries: DeviceLogEntry[] = [];

  beforeAll(async () => {
    ensureBuilt();
    stack = await startReliabilityStack({ appium: true, device: { onLog: (entry) => entries.push(entry) } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it(`${PROCESSES} processes × ${CALLS} mixed calls (seed ${SEED})`, async () => {
    const report = await runLockLoad(stack, entries, {
      processes: PROCESSES,
      callsPerProcess: CALLS,
      seed: SEED,
      maxPauseMs: 800,
    });
    process.stderr.write(
      `[soak] lock load ${PROCESSES}x${CALLS}: ${JSON.stringify({ ...report, problems: report.problems.slice(0, 20) })}\n`,
    );
    expect(report.problems, `seed ${SEED}`).toEqual([]);
    expect(report.calls).toBeGreaterThanOrEqual(PROCESSES * CALLS);
    expect(report.ok).toBeGreaterThan(0);
    expect(report.busy).toBeGreaterThan(0);
  });
});

/**
 * In CI: 4 server processes × 30 mixed calls on one virtual device (the 10 × 200
 * run is `npm run soak`). See test/support/lockLoad.ts for what is proven and how the
 * device's log is attributed to processes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DeviceLogEntry } from '../../packages/virtual-device/src/contracts.js';
import { describeWithAdb } from '../support/adbServer.js';
import { runLockLoad } from '../support/lockLoad.js';
import { ensureBuilt } from '../support/rawServer.js';
import { startReliabilityStack, type ReliabilityStack } from '../support/reliabilityStack.js';

const SEED = Number(process.env.RELIABILITY_SEED ?? 20_261_130);

describeWithAdb('one owner across processes, under load', () => {
  let stack: ReliabilityStack;
  const entries: DeviceLogEntry[] = [];

  beforeAll(async () => {
    ensureBuilt();
    stack = await startReliabilityStack({ appium: true, device: { onLog: (entry) => entries.push(entry) } });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it(`4 processes × 30 mixed calls (seed ${SEED}): never two owners, every refusal EMULATOR_BUSY`, async () => {
    const report = await runLockLoad(stack, entries, {
      processes: 4,
      callsPerProcess: 30,
      seed: SEED,
      maxPauseMs: 250,
    });
    process.stderr.write(
      `[reliability] lock load 4x30: ${JSON.stringify({ ...report, problems: report.problems.length })}\n`,
    );
    expect(report.problems, `seed ${SEED}`).toEqual([]);
    expect(report.calls).toBeGreaterThanOrEqual(120);
    expect(report.ok).toBeGreaterThan(0);
    expect(report.busy).toBeGreaterThan(0);
    expect(report.busyNamingAnotherProcess).toBeGreaterThan(0);
    expect(report.windows).toBeGreaterThan(1);
    expect(report.deviceEntriesChecked).toBeGreaterThan(0);
  }, 600_000);

  it('negative control: the same checks catch two owners when the processes share no lock', async () => {
    const report = await runLockLoad(stack, entries, {
      processes: 3,
      callsPerProcess: 12,
      seed: SEED + 1,
      maxPauseMs: 5,
      isolateLocks: true,
    });
    process.stderr.write(
      `[reliability] lock load without a shared lock: ${report.problems.length} violations found, e.g. ${report.problems[0]?.slice(0, 160)}\n`,
    );
    expect(report.problems.some((p) => /windows overlap|outside|used inside/.test(p))).toBe(true);
  }, 600_000);
});

import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import { defaultTiming, DEFAULT_TIMING_SEED } from '../../packages/virtual-device/src/timing/costModel.js';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memory_gb: number;
  readonly os: string;
  readonly node: string;
  readonly date: string;
  /** 1, 5 and 15 minute load averages when the run started: a figure taken under load says so. */
  readonly load_avg: readonly number[];
  /** The virtual device's timing for this run (docs/internals/virtual-device.md, "Timing"). */
  readonly timing: string;
}

/** The load averages, rounded, for the report. */
export function loadNow(): number[] {
  return loadavg().map((l) => Math.round(l * 100) / 100);
}

export function describeMachine(): Machine {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memory_gb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${osType()} ${release()}`,
    node: process.version,
    date: new Date().toISOString(),
    load_avg: loadNow(),
    timing: `${defaultTiming()} (random draws from the fixed start ${DEFAULT_TIMING_SEED})`,
  };
}

/**
 * Time as a real device spends it. Under `real` timing every operation with a real cost (adb shell
 * commands that start a JVM or call a system service, the UiAutomator2 server's endpoints, a
 * hierarchy dump) waits a time drawn from its recorded median and tail (shellCosts.ts,
 * uia2Costs.ts), from a seeded source so runs repeat; under `fast` timing nothing waits, for suites
 * that do not measure time. The double must never be kinder than Android where time is measured.
 */
import type { DeviceClock } from '../device/clock.js';
import { drawMs, type Figure, type Scale } from './figure.js';
import { SeededNormal } from './random.js';
import { SHELL_COSTS, shellCharge, type ShellCost } from './shellCosts.js';
import { UIA2_COSTS, uia2Charge, type Uia2Cost } from './uia2Costs.js';

export type TimingMode = 'real' | 'fast';

export const TIMING_MODES: readonly TimingMode[] = ['real', 'fast'];

/** Names the timing for a whole test run (vitest.config.ts sets `fast`, with its reason). */
export const TIMING_ENV = 'ANDROID_MCP_VIRTUAL_DEVICE_TIMING';

/** The timing the environment asks for, or `real`: an unknown value never makes the double faster. */
export function defaultTiming(env: NodeJS.ProcessEnv = process.env): TimingMode {
  return env[TIMING_ENV] === 'fast' ? 'fast' : 'real';
}

/** The default seed: any fixed number; runs with one seed draw the same times in the same order. */
export const DEFAULT_TIMING_SEED = 40;

/** What the model reads of the device to size an operation. */
export interface CostProbe {
  /** Nodes in the window hierarchy a dump or page source serialises. */
  nodes(): number;
  /** Display megapixels, for captures. */
  megapixels(): number;
  /** Whether the package has an activity in the stack (a warm start) or not (a cold one). */
  packageRunning(pkg: string): boolean;
}

export type CostName = `shell.${ShellCost}` | `uia2.${Uia2Cost}`;

export class CostModel {
  private readonly normal: SeededNormal;
  private spentMs = 0;

  constructor(
    readonly mode: TimingMode,
    private readonly clock: DeviceClock,
    private readonly probe: CostProbe,
    seed = DEFAULT_TIMING_SEED,
  ) {
    this.normal = new SeededNormal(seed);
  }

  /** Total time this device has waited on its cost model (for the bench's timeline). */
  totalSpentMs(): number {
    return this.spentMs;
  }

  /** The wait one operation takes now (0 under `fast`); draws from the seeded source. */
  drawFor(name: CostName): number {
    if (this.mode === 'fast') return 0;
    const [family, key] = name.split('.') as ['shell' | 'uia2', string];
    const figure: Figure = family === 'shell' ? SHELL_COSTS[key as ShellCost] : UIA2_COSTS[key as Uia2Cost];
    return drawMs(figure, this.scaleFor(figure), this.normal.next());
  }

  /** Waits as long as the operation takes on a real device. */
  async spend(name: CostName, signal?: AbortSignal): Promise<void> {
    const ms = this.drawFor(name);
    if (ms <= 0) return;
    this.spentMs += ms;
    await this.clock.sleep(ms, signal);
  }

  /** One simple shell command, as the shell dispatches it (argv[0] is the command's name). */
  async spendShell(argv: readonly string[], signal?: AbortSignal): Promise<void> {
    if (this.mode === 'fast') return;
    const charge = shellCharge(argv);
    if (!charge) return;
    const cold =
      charge.cost === 'amStartWarm' &&
      (charge.startsPackage === undefined || !this.probe.packageRunning(charge.startsPackage));
    await this.spend(`shell.${cold ? 'amStartCold' : charge.cost}`, signal);
  }

  /** One request to the UiAutomator2 server (its path without the `/wd/hub` prefix). */
  async spendUia2(method: string, path: string, body: Record<string, unknown>): Promise<void> {
    if (this.mode === 'fast') return;
    const cost = uia2Charge(method, path, body);
    if (cost) await this.spend(`uia2.${cost}`);
  }

  private scaleFor(figure: Figure): Scale {
    return {
      ...(figure.perNodeMs !== undefined ? { nodes: this.probe.nodes() } : {}),
      ...(figure.referenceMegapixels !== undefined ? { megapixels: this.probe.megapixels() } : {}),
    };
  }
}

/** Counts a hierarchy's nodes (the root included). */
export function countNodes(root: { readonly children: readonly unknown[] }): number {
  let count = 1;
  for (const child of root.children) count += countNodes(child as { readonly children: readonly unknown[] });
  return count;
}

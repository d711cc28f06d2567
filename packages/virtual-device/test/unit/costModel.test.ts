import { describe, expect, it } from 'vitest';
import type { DeviceClock } from '../../src/device/clock.js';
import { VirtualDevice } from '../../src/device/VirtualDevice.js';
import { CostModel, defaultTiming, type CostProbe } from '../../src/timing/costModel.js';
import { drawMs } from '../../src/timing/figure.js';
import { SHELL_COSTS } from '../../src/timing/shellCosts.js';
import { UIA2_COSTS, uia2Charge } from '../../src/timing/uia2Costs.js';
import { drawnWhileCharged, drawsWhileCharged } from '../../src/device/deviceShell.js';
import { sh, shBytes } from './helpers.js';

/** A clock that records each wait and returns at once, so the model's waits are read, not waited. */
function recordingClock(): DeviceClock & { readonly waits: number[] } {
  const waits: number[] = [];
  return { waits, nowMs: () => 0, sleep: async (ms) => void waits.push(ms) };
}

const probe = (over: Partial<CostProbe> = {}): CostProbe => ({
  nodes: () => 100,
  megapixels: () => 2.07,
  packageRunning: () => false,
  ...over,
});

const nearestRank = (values: number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.ceil(q * values.length) - 1] as number;

describe('the virtual device cost model', () => {
  it('draws the recorded median and tail, the same waits for one seed and other waits for another', () => {
    const draws = (seed: number): number[] => {
      const model = new CostModel('real', recordingClock(), probe(), seed);
      return Array.from({ length: 2000 }, () => model.drawFor('shell.getprop'));
    };
    const first = draws(7);
    expect(draws(7)).toEqual(first);
    expect(draws(8)).not.toEqual(first);
    const { medianMs, p90Ms } = SHELL_COSTS.getprop;
    expect(Math.abs(nearestRank(first, 0.5) - medianMs) / medianMs).toBeLessThan(0.1);
    expect(Math.abs(nearestRank(first, 0.9) - p90Ms) / p90Ms).toBeLessThan(0.15);
  });

  it('sizes a dump by its nodes and a capture by its pixels', () => {
    const figure = SHELL_COSTS.uiautomatorDump;
    expect(drawMs(figure, { nodes: 500 }, 0) - drawMs(figure, { nodes: 10 }, 0)).toBe(
      Math.round(figure.medianMs + 500 * figure.perNodeMs) - Math.round(figure.medianMs + 10 * figure.perNodeMs),
    );
    const shot = UIA2_COSTS.screenshot;
    expect(drawMs(shot, { megapixels: 2 * shot.referenceMegapixels }, 0)).toBe(2 * shot.medianMs);
  });

  it('waits nothing under the fast timing', async () => {
    const clock = recordingClock();
    const model = new CostModel('fast', clock, probe());
    await model.spendShell(['uiautomator', 'dump']);
    await model.spendShell(['input', 'tap', '1', '2']);
    await model.spendUia2('POST', '/session/s1/element', { strategy: 'id', selector: 'x' });
    expect(clock.waits).toEqual([]);
    expect(model.drawFor('shell.uiautomatorDump')).toBe(0);
  });

  it('starts an app cold unless its package is already in the stack, and always cold with -S', async () => {
    const draws = async (running: boolean, argv: string[]): Promise<number> => {
      const clock = recordingClock();
      await new CostModel('real', clock, probe({ packageRunning: () => running }), 1).spendShell(argv);
      return clock.waits[0] as number;
    };
    // The first draw with timingSeed 1 on each figure: what a warm and a cold start must wait.
    const first = (name: 'shell.amStartWarm' | 'shell.amStartCold'): number =>
      new CostModel('real', recordingClock(), probe(), 1).drawFor(name);
    const start = ['am', 'start', '-W', '-n', 'com.example/.Main'];
    expect(await draws(true, start)).toBe(first('shell.amStartWarm'));
    const cold = await draws(false, start);
    expect(cold).toBe(first('shell.amStartCold'));
    expect(cold).not.toBe(first('shell.amStartWarm'));
    expect(await draws(true, ['am', 'start', '-S', '-n', 'com.example/.Main'])).toBe(cold);
  });

  it('names the figure of each UiAutomator2 request by route and strategy', () => {
    expect(uia2Charge('POST', '/session', {})).toBe('sessionCreate');
    expect(uia2Charge('POST', '/session/s1/element', { strategy: 'id' })).toBe('findById');
    expect(uia2Charge('POST', '/session/s1/elements', { strategy: '-android uiautomator' })).toBe('findByUiSelector');
    expect(uia2Charge('POST', '/session/s1/element', { strategy: 'accessibility id' })).toBe('findOther');
    expect(uia2Charge('POST', '/session/s1/element/e1/click', {})).toBe('click');
    expect(uia2Charge('POST', '/session/s1/element/e1/value', {})).toBe('setText');
    expect(uia2Charge('GET', '/session/s1/source', {})).toBe('source');
    expect(uia2Charge('GET', '/session/s1/screenshot', {})).toBe('screenshot');
    expect(uia2Charge('POST', '/session/s1/actions', {})).toBe('gesture');
    expect(uia2Charge('GET', '/status', {})).toBeNull();
    expect(uia2Charge('POST', '/session/s1/appium/settings', {})).toBeNull();
  });

  it('makes the device spend the time on its shell commands and dumps, by full path too', async () => {
    const clock = recordingClock();
    const d = VirtualDevice.withDefaultScenario({ clock, timing: 'real', timingSeed: 3 });
    await sh(d, '/system/bin/getprop ro.build.version.sdk');
    expect(clock.waits).toHaveLength(1);
    await sh(d, 'echo hi');
    expect(clock.waits).toHaveLength(1);
    await sh(d, 'uiautomator dump /sdcard/window_dump.xml');
    // A dump of the launcher's hierarchy: the per-node part alone is more than a node's worth.
    expect(clock.waits).toHaveLength(2);
    expect(clock.waits[1]).toBeGreaterThan(SHELL_COSTS.uiautomatorDump.perNodeMs * 10);
    expect(d.cost.totalSpentMs()).toBe((clock.waits[0] as number) + (clock.waits[1] as number));
  });

  it('reads the run-wide timing from the environment, and never lets an unknown value make it faster', () => {
    expect(defaultTiming({ ANDROID_MCP_VIRTUAL_DEVICE_TIMING: 'fast' })).toBe('fast');
    expect(defaultTiming({ ANDROID_MCP_VIRTUAL_DEVICE_TIMING: 'quick' })).toBe('real');
    expect(defaultTiming({})).toBe('real');
  });
});

describe('a capture under the real timing', () => {
  it('overlaps only a capture to stdout with its charged time', () => {
    expect(drawsWhileCharged(['screencap'])).toBe(true);
    expect(drawsWhileCharged(['screencap', '-p'])).toBe(true);
    expect(drawsWhileCharged(['screencap', '-d', '4619827259835644672'])).toBe(true);
    expect(drawsWhileCharged(['screencap', '/sdcard/shot.png'])).toBe(false);
    expect(drawsWhileCharged(['screencap', '-p', '/sdcard/shot.png'])).toBe(false);
    expect(drawsWhileCharged(['uiautomator', 'dump'])).toBe(false);
  });

  it('runs the command while the time runs, and writes nothing until the time has run', async () => {
    let release: () => void = () => undefined;
    const spent = new Promise<void>((resolve) => (release = resolve));
    const written: string[] = [];
    let ran = false;
    const io = {
      argv: ['screencap'],
      stdin: Buffer.alloc(0),
      out: (c: string | Buffer) => void written.push(`out:${String(c)}`),
      err: (c: string | Buffer) => void written.push(`err:${String(c)}`),
      signal: new AbortController().signal,
      env: new Map<string, string>(),
      commandLine: 'screencap',
    };
    const answer = drawnWhileCharged(
      () => spent,
      (inner) => {
        ran = true;
        inner.err('warning\n');
        inner.out('frame');
        return 0;
      },
      io,
    );
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toBe(true);
    expect(written).toEqual([]);
    release();
    expect(await answer).toBe(0);
    expect(written).toEqual(['err:warning\n', 'out:frame']);
  });

  it('charges a raw capture on the device and still answers its frame', async () => {
    const clock = recordingClock();
    const d = VirtualDevice.withDefaultScenario({ clock, timing: 'real', timingSeed: 3 });
    try {
      const raw = await shBytes(d, 'screencap');
      expect(clock.waits).toHaveLength(1);
      // The raw frame: a 16-byte header, then width × height RGBA pixels.
      expect(raw.length).toBe(16 + raw.readUInt32LE(0) * raw.readUInt32LE(4) * 4);
    } finally {
      await d.close();
    }
  });
});

/**
 * Replays on a drifted app, on the virtual device: a session on the folders app (test/support/
 * driftScenario.ts) exports to a flow; the same adb transport then serves the app drifted (a label
 * renamed, an id changed, a tie), and the flow CLI stops at the right step without --repair,
 * naming the best candidate, and passes with it, writing FILE.repaired.json and FILE.repair.json;
 * on the tie it repairs nothing and says why. The repaired flow then replays green as it is.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FlowReport } from '../../src/flow/runFlow.js';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { defaultScenario } from '../../packages/virtual-device/src/scenario/defaultScenario.js';
import { detectHelperVersions } from '../../packages/virtual-device/src/device/helperVersions.js';
import { describeWithAdb } from '../support/adbServer.js';
import { DRIFT_PACKAGE, withDriftingFolders, type DriftVariant } from '../support/driftScenario.js';
import { BUILT_SERVER, startHarness } from './support/harnessClient.js';
import { ON_EMULATOR, startStack, type E2eStack } from './support/stack.js';
import { SwitchableDevice } from './support/switchableDevice.js';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BUILT_SERVER, ...args],
      { env, cwd, timeout: 240_000, maxBuffer: 32 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
    );
  });
}

const device = (variant: DriftVariant): VirtualDevice =>
  new VirtualDevice(withDriftingFolders(defaultScenario(detectHelperVersions()), variant));

const describeHere = ON_EMULATOR ? (): void => undefined : describeWithAdb;

describeHere('flow --repair on a drifted app on the virtual device', () => {
  let stack: E2eStack;
  let switchable: SwitchableDevice;
  let work: string;
  let flowFile: string;
  const env = (): NodeJS.ProcessEnv => ({
    ...process.env,
    ...stack.harnessEnv({ ANDROID_MCP_ARTIFACTS_DIR: path.join(work, 'artifacts') }),
  });
  /** The app drifted: the next run finds this variant behind the same adb transport. */
  const serve = (variant: DriftVariant): void => switchable.switchTo(device(variant));

  beforeAll(async () => {
    switchable = new SwitchableDevice(device('base'));
    stack = await startStack({ label: 'flow-repair', services: switchable });
    work = mkdtempSync(path.join(os.tmpdir(), 'amh-repair-'));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('records a session on the app as it was and exports it', async () => {
    const harness = await startHarness(env() as Record<string, string>);
    try {
      const opened = await harness.call('app_open', { package_name: DRIFT_PACKAGE });
      expect(opened.envelope.error).toBeNull();
      const tree = await harness.call('ui_get_tree', {});
      const actions = tree.envelope.data.actions as Record<string, unknown>[];
      const ref = (text: string): string => String(actions.find((a) => a.text === text || a.label === text)?.ref);
      for (const [tool, args] of [
        ['ui_tap', { selector: { ref: ref('Drafts') } }],
        ['device_back', {}],
        ['ui_tap', { selector: { ref: ref('Compose') } }],
      ] as const) {
        const answer = await harness.call(tool, args);
        expect(answer.envelope.error).toBeNull();
      }
    } finally {
      await harness.close();
    }
    const traces = path.join(work, 'artifacts', 'traces');
    const [name] = readdirSync(traces);
    const exported = await run(['trace', 'export', path.join(traces, name ?? '')], env(), work);
    expect(exported.code).toBe(0);
    flowFile = exported.stdout.trim();
    const flow = JSON.parse(readFileSync(flowFile, 'utf8')) as { steps: { arguments: Record<string, unknown> }[] };
    expect(flow.steps.map((step) => step.arguments.selector ?? null)).toEqual([
      { text: 'Drafts' },
      null,
      { id: 'compose' },
    ]);
    serve('base');
    const replay = await run(['flow', flowFile], env(), work);
    expect(replay.stderr).toMatch(/: PASSED, 3\/3 steps/);
  }, 300_000);

  it('a renamed label: stops at step 1 naming the best candidate, passes with --repair and writes the repair', async () => {
    serve('renamed');
    const failed = await run(['flow', flowFile], env(), work);
    expect(failed.code).toBe(1);
    const report = JSON.parse(failed.stdout) as FlowReport;
    expect(report.first_error).toMatchObject({ step_index: 0, code: 'UI_ELEMENT_NOT_FOUND' });
    expect(report.first_error?.message).toMatch(
      /Best candidate now: \{"text":"Draft notes"\} scores 0\.\d\d: .*Run the flow again with --repair/,
    );

    serve('renamed');
    const repaired = await run(['flow', flowFile, '--repair'], env(), work);
    expect(repaired.stderr).toMatch(/: PASSED, 3\/3 steps/);
    expect(repaired.code).toBe(0);
    const base = flowFile.slice(0, -'.json'.length);
    const repairReport = JSON.parse(readFileSync(`${base}.repair.json`, 'utf8')) as {
      repairs: { step: number; old_selector: unknown; new_selector: unknown; score: number; evidence: string[] }[];
    };
    expect(repairReport.repairs).toEqual([
      expect.objectContaining({
        step: 1,
        old_selector: { text: 'Drafts' },
        new_selector: { text: 'Draft notes' },
        evidence: expect.arrayContaining([expect.stringMatching(/a label sharing a word/)]),
      }),
    ]);
    // The repaired flow runs as it is on the drifted app.
    serve('renamed');
    const again = await run(['flow', `${base}.repaired.json`], env(), work);
    expect(again.stderr).toMatch(/: PASSED, 3\/3 steps/);
    rmSync(`${base}.repaired.json`);
    rmSync(`${base}.repair.json`);
  }, 300_000);

  it('an id changed: stops at step 3 without --repair, passes with it', async () => {
    serve('id-changed');
    const failed = await run(['flow', flowFile], env(), work);
    expect(JSON.parse(failed.stdout).first_error).toMatchObject({ step_index: 2, code: 'UI_ELEMENT_NOT_FOUND' });
    serve('id-changed');
    const repaired = await run(['flow', flowFile, '--repair'], env(), work);
    expect(repaired.code).toBe(0);
    expect((JSON.parse(repaired.stdout) as FlowReport).repairs).toEqual([
      expect.objectContaining({ step: 3, old_selector: { id: 'compose' }, new_selector: { id: 'write' } }),
    ]);
    rmSync(flowFile.replace(/\.json$/, '.repaired.json'));
    rmSync(flowFile.replace(/\.json$/, '.repair.json'));
  }, 300_000);

  it('a tie: nothing is repaired nor pressed, and the refusal names both candidates', async () => {
    serve('tie');
    const refused = await run(['flow', flowFile, '--repair'], env(), work);
    expect(refused.code).toBe(1);
    const report = JSON.parse(refused.stdout) as FlowReport;
    expect(report.repairs).toBeUndefined();
    expect(report.first_error?.message).toMatch(
      /Not repaired: 2 candidates clear the repair threshold 0\.50 .*\{"text":"Old drafts"\}.*\{"text":"New drafts"\}/,
    );
    expect(report.calls.filter((call) => call.tool === 'ui_tap')).toHaveLength(1);
    expect(existsSync(flowFile.replace(/\.json$/, '.repaired.json'))).toBe(false);
  }, 300_000);
});

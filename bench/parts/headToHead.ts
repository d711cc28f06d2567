/**
 * Part 8: the head-to-head. This harness and mobile-mcp itself (its default robot and its legacy adb
 * robot) drive the same virtual device, through the same real adb server, under the device's
 * timing (`real` unless the environment asks otherwise; the report says which), on the three
 * reference flows (docs/flows), round by round, the order of the contenders rotating each round so
 * that all of them meet the same machine noise.
 *
 * Each round starts every contender's server afresh (spawn to the first tools/list answer: its cold
 * start), runs the three flows, reads its memory, and stops it. A step is what a model does with the
 * contender's tools: for this harness one call (the action answers the screen it left, `after`), no
 * UI session opened, as a model that never opens a flow would call it; for mobile-mcp its element
 * list, then the action (peers/mobileMcpRun.ts). The app launch before a flow is not counted for
 * either. Before mobile-mcp runs, the UiAutomator2 server this harness keeps is ended (on Android it
 * holds UiAutomation, so a dump beside it is refused); this harness then opens its session again
 * in its next round's first step, which that step's time includes.
 *
 * Per flow and contender: calls and tokens per step (means: every answer the model reads), the
 * step time's median over every step of every round (the first step of a round pays the session
 * start; the median is what a step costs in a flow), its mean, and the steps that failed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanEnv, closeServer, spawnServer } from '../lib/mcpClient.js';
import { loadTestSupport, startDeviceStack } from '../lib/deviceStack.js';
import { REPO_ROOT } from '../lib/paths.js';
import { mean, median, p90, round } from '../lib/stats.js';
import { measure } from '../lib/tokens.js';
import { createTimedAdb } from '../lib/timedAdb.js';
import { startTimedProxy } from '../lib/timedProxy.js';
import { PHASE_NAMES, phasesOf, type StepPhases } from '../lib/stepPhases.js';
import { mobileMcpStep, rssMb, startMobileMcp, type MobileMcpServer } from '../peers/mobileMcpRun.js';
import { STEP_FLOWS } from './stepLoops.js';

export const CONTENDERS = ['this harness', 'mobile-mcp (default robot)', 'mobile-mcp (legacy adb robot)'] as const;
export type Contender = (typeof CONTENDERS)[number];

export interface HeadToHeadRow {
  readonly flow: string;
  readonly contender: Contender;
  readonly rounds: number;
  readonly steps: number;
  readonly failed_steps: number;
  readonly calls_per_step: number;
  readonly tokens_per_step: number;
  readonly step_ms: { readonly median: number; readonly p90: number; readonly mean: number };
  readonly firstError?: string;
}

/** The targets of the head-to-head, per flow, against each of mobile-mcp's robots. */
export interface HeadToHeadRatio {
  readonly flow: string;
  readonly against: Contender;
  /** Median step time, ours over theirs (target ≤ 0.5). */
  readonly time: number;
  /** Tokens per step, ours over theirs (target ≤ 0.3). */
  readonly tokens: number;
  /** Our calls per step (target 1.0). */
  readonly calls: number;
}

export interface ContenderProcess {
  readonly contender: Contender;
  /** Spawn to the first tools/list answer, per round. */
  readonly cold_start_ms: { readonly median: number; readonly all: readonly number[] };
  /** Resident memory after the round's flows: the server alone, and with every descendant; medians over rounds. */
  readonly rss_mb: { readonly server: number; readonly tree: number };
}

export type HeadToHeadResult =
  | { readonly status: 'skipped'; readonly reason: string }
  | {
      readonly status: 'measured';
      readonly rounds: number;
      readonly timing: string;
      readonly rows: HeadToHeadRow[];
      readonly ratios: HeadToHeadRatio[];
      readonly processes: ContenderProcess[];
      /** Appium's resident memory at the end (this harness needs it; mobile-mcp does not). */
      readonly appium_rss_mb: number | null;
      /** Where this harness's step time goes, per flow (an extra round behind timed adb and Appium). */
      readonly timeline: StepTimeline[];
      readonly notes: string[];
    };

export interface HeadToHeadOptions {
  readonly rounds: number;
  readonly mobileMcpBin?: string;
  readonly timing: string;
  readonly log: (line: string) => void;
}

interface FlowStep {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
}
interface Flow {
  readonly file: string;
  readonly package_name: string;
  readonly steps: FlowStep[];
}
interface StepSample {
  readonly calls: number;
  readonly tokens: number;
  readonly ms: number;
  readonly error?: string;
}

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

function verdictOf(r: CallToolResult): string | undefined {
  try {
    const e = JSON.parse(textOf(r)) as { ok?: boolean; error?: { code: string; message: string } | null };
    return e.ok ? undefined : `${e.error?.code}: ${e.error?.message}`.slice(0, 200);
  } catch {
    return textOf(r).slice(0, 200);
  }
}

export async function runHeadToHead(options: HeadToHeadOptions): Promise<HeadToHeadResult> {
  const { log } = options;
  if (!options.mobileMcpBin) return { status: 'skipped', reason: 'mobile-mcp did not install, so there is no peer' };
  const support = await loadTestSupport().catch(() => null);
  if (!support) return { status: 'skipped', reason: 'test/support is absent, so there is no virtual device' };
  if (!support.locateAdb()) return { status: 'skipped', reason: 'adb is not installed (apt-get install -y adb)' };
  const flows: Flow[] = STEP_FLOWS.map((file) => ({
    file,
    ...(JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'flows', file), 'utf8')) as Omit<Flow, 'file'>),
  }));
  const cleanups: (() => Promise<unknown>)[] = [];
  const notes: string[] = [];
  try {
    const { adbServer, vd, appium } = await startDeviceStack(support, cleanups);
    const serial = vd.serial;
    // This harness sees the real adb as its SDK's platform-tools/adb (a link, no wrapper) and Appium directly.
    const sdk = mkdtempSync(join(tmpdir(), 'amh-bench-h2h-sdk-'));
    cleanups.push(async () => rmSync(sdk, { recursive: true, force: true }));
    mkdirSync(join(sdk, 'platform-tools'));
    symlinkSync(adbServer.adbPath, join(sdk, 'platform-tools', 'adb'));
    const ourEnv = cleanEnv({
      ANDROID_HOME: sdk,
      ANDROID_SDK_ROOT: sdk,
      ANDROID_ADB_SERVER_PORT: String(adbServer.port),
      ANDROID_UDID: serial,
      ANDROID_MCP_ALLOW_SERIALS: serial,
      APPIUM_URL: appium.url,
      ANDROID_MCP_LOG_LEVEL: 'warn',
    });
    const releaseUiAutomation = (): void => {
      vd.device.instrumentation.end('force-stop');
    };
    const reset = (): void => vd.device.setScreen('settings_home' as never);

    const samples = new Map<string, StepSample[]>();
    const failures = new Map<string, string>();
    const colds = new Map<Contender, number[]>();
    const rss = new Map<Contender, { server: number; tree: number }[]>();
    const keyOf = (flow: string, c: Contender): string => `${flow}\u0000${c}`;
    const record = (flow: string, c: Contender, s: StepSample): void => {
      samples.set(keyOf(flow, c), [...(samples.get(keyOf(flow, c)) ?? []), s]);
      if (s.error && !failures.has(keyOf(flow, c))) failures.set(keyOf(flow, c), s.error);
    };

    /** A measured round of this harness; or, with `timeline`, the extra round behind the timed adb and proxy. */
    const runOurs = async (timeline?: {
      readonly env: Record<string, string>;
      readonly onStep: (flow: string, from: number, to: number) => void;
    }): Promise<void> => {
      const cwd = mkdtempSync(join(tmpdir(), 'amh-bench-h2h-ours-'));
      const started = performance.now();
      const env = timeline?.env ?? ourEnv;
      const server = await spawnServer(process.execPath, [join(REPO_ROOT, 'dist', 'index.js')], env, cwd);
      try {
        await server.client.listTools();
        if (!timeline) colds.set('this harness', [...(colds.get('this harness') ?? []), performance.now() - started]);
        for (const flow of flows) {
          reset();
          await server.client.callTool({ name: 'app_open', arguments: { package_name: flow.package_name } });
          for (const step of flow.steps) {
            const from = performance.now();
            const epochFrom = performance.timeOrigin + from;
            const result = (await server.client.callTool({
              name: step.tool,
              arguments: step.arguments,
            })) as CallToolResult;
            const ms = performance.now() - from;
            if (timeline) {
              timeline.onStep(flow.file, epochFrom, epochFrom + ms);
              continue;
            }
            const error = verdictOf(result);
            record(flow.file, 'this harness', {
              calls: 1,
              tokens: measure(textOf(result)).tokens_o200k,
              ms,
              ...(error ? { error: `${step.tool}: ${error}` } : {}),
            });
          }
        }
        const mem = rssMb(server.transport.pid);
        if (mem && !timeline) rss.set('this harness', [...(rss.get('this harness') ?? []), mem]);
      } finally {
        await closeServer(server);
        rmSync(cwd, { recursive: true, force: true });
      }
    };

    const runPeer = async (contender: Contender, legacy: boolean): Promise<void> => {
      releaseUiAutomation();
      const own: (() => Promise<unknown>)[] = [];
      let peer: MobileMcpServer | undefined;
      try {
        peer = await startMobileMcp(options.mobileMcpBin as string, adbServer.adbPath, adbServer.port, legacy, own);
        colds.set(contender, [...(colds.get(contender) ?? []), peer.coldStartMs]);
        for (const flow of flows) {
          reset();
          await peer.spawned.client.callTool({
            name: 'mobile_launch_app',
            arguments: { device: serial, packageName: flow.package_name },
          });
          for (const step of flow.steps) {
            const s = await mobileMcpStep(peer, serial, step);
            record(flow.file, contender, {
              calls: s.calls,
              tokens: s.tokens,
              ms: s.ms,
              ...(s.error ? { error: s.error } : {}),
            });
          }
        }
        const mem = rssMb(peer.spawned.transport.pid);
        if (mem) rss.set(contender, [...(rss.get(contender) ?? []), mem]);
      } catch (err) {
        notes.push(`${contender}: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
      } finally {
        if (peer) await closeServer(peer.spawned);
        for (const c of own.reverse()) await c().catch(() => undefined);
      }
    };

    const order: [Contender, () => Promise<void>][] = [
      ['this harness', runOurs],
      ['mobile-mcp (default robot)', () => runPeer('mobile-mcp (default robot)', false)],
      ['mobile-mcp (legacy adb robot)', () => runPeer('mobile-mcp (legacy adb robot)', true)],
    ];
    for (let r = 0; r < options.rounds; r++) {
      const rotated = [...order.slice(r % order.length), ...order.slice(0, r % order.length)];
      for (const [name, runOne] of rotated) {
        log(`  part 8, round ${r + 1}/${options.rounds}: ${name}…`);
        await runOne();
      }
    }

    // Where our step's time goes: one more round of this harness, behind the timed adb wrapper and
    // the timed Appium proxy (each adb process pays one bash exec more there), counted in no ratio.
    log('  part 8, timeline round: this harness behind the timed adb and Appium proxy…');
    const timeline = await timelineRound(adbServer.adbPath, appium.url, ourEnv, (env, onStep) =>
      runOurs({ env, onStep }),
    ).catch((err: unknown) => {
      notes.push(`timeline round: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300));
      return [] as StepTimeline[];
    });

    const rows: HeadToHeadRow[] = [];
    for (const flow of flows)
      for (const contender of CONTENDERS) {
        const got = samples.get(keyOf(flow.file, contender)) ?? [];
        if (got.length === 0) continue;
        const ms = got.map((s) => s.ms);
        const firstError = failures.get(keyOf(flow.file, contender));
        rows.push({
          flow: flow.file,
          contender,
          rounds: got.length / flow.steps.length,
          steps: got.length,
          failed_steps: got.filter((s) => s.error).length,
          calls_per_step: round(mean(got.map((s) => s.calls)), 2),
          tokens_per_step: Math.round(mean(got.map((s) => s.tokens))),
          step_ms: { median: round(median(ms), 1), p90: round(p90(ms), 1), mean: round(mean(ms), 1) },
          ...(firstError ? { firstError } : {}),
        });
      }
    const ratios: HeadToHeadRatio[] = [];
    for (const flow of flows) {
      const ours = rows.find((r) => r.flow === flow.file && r.contender === 'this harness');
      if (!ours) continue;
      for (const against of CONTENDERS.slice(1)) {
        const theirs = rows.find((r) => r.flow === flow.file && r.contender === against);
        if (!theirs) continue;
        ratios.push({
          flow: flow.file,
          against,
          time: round(ours.step_ms.median / theirs.step_ms.median, 2),
          tokens: round(ours.tokens_per_step / theirs.tokens_per_step, 2),
          calls: ours.calls_per_step,
        });
      }
    }
    const processes: ContenderProcess[] = CONTENDERS.filter((c) => colds.has(c)).map((contender) => {
      const all = (colds.get(contender) ?? []).map((v) => Math.round(v));
      const mems = rss.get(contender) ?? [];
      return {
        contender,
        cold_start_ms: { median: median(all), all },
        rss_mb: {
          server: round(median(mems.map((m) => m.server)), 1),
          tree: round(median(mems.map((m) => m.tree)), 1),
        },
      };
    });
    const appiumMem = rssMb(appium.pid);
    return {
      status: 'measured',
      rounds: options.rounds,
      timing: options.timing,
      rows,
      ratios,
      processes,
      appium_rss_mb: appiumMem ? appiumMem.tree : null,
      timeline,
      notes,
    };
  } catch (err) {
    return {
      status: 'skipped',
      reason: `the head-to-head did not come up: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500),
    };
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  }
}

/** Per flow, the median of each phase over its steps (lib/stepPhases.ts), in ms. */
export interface StepTimeline {
  readonly flow: string;
  readonly steps: number;
  readonly median: Record<(typeof PHASE_NAMES)[number], number>;
}

/**
 * Runs `round` with this harness pointed at a timed adb (a wrapper in an SDK folder of its own) and
 * a timed proxy in front of Appium, and cuts each step into its phases.
 */
async function timelineRound(
  adbPath: string,
  appiumUrl: string,
  ourEnv: Record<string, string>,
  round: (env: Record<string, string>, onStep: (flow: string, from: number, to: number) => void) => Promise<void>,
): Promise<StepTimeline[]> {
  const timedAdb = createTimedAdb(adbPath);
  const proxy = await startTimedProxy(appiumUrl);
  const steps: { flow: string; from: number; to: number }[] = [];
  try {
    await round(
      {
        ...ourEnv,
        ANDROID_HOME: timedAdb.androidHome,
        ANDROID_SDK_ROOT: timedAdb.androidHome,
        APPIUM_URL: proxy.url,
      },
      (flow, from, to) => steps.push({ flow, from, to }),
    );
    const intervals = [...timedAdb.intervals(), ...proxy.intervals()];
    const byFlow = new Map<string, StepPhases[]>();
    // The round's first step opens the UiAutomator2 session (mobile-mcp's rounds ended it): left out,
    // it is what a session start costs, not what a step does.
    for (const step of steps.slice(1)) {
      byFlow.set(step.flow, [...(byFlow.get(step.flow) ?? []), phasesOf(intervals, step.from, step.to)]);
    }
    return [...byFlow].map(([flow, phases]) => ({
      flow,
      steps: phases.length,
      median: Object.fromEntries(
        PHASE_NAMES.map((name) => [name, Math.round(median(phases.map((p) => p[name])))]),
      ) as StepTimeline['median'],
    }));
  } finally {
    await proxy.close();
    rmSync(timedAdb.androidHome, { recursive: true, force: true });
  }
}

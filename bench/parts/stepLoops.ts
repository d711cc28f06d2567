/**
 * Part 7: what one step of a flow costs a model, in three loops on the same steps of the reference
 * flows (docs/flows), through the real adb and Appium on the virtual device:
 * (a) one call: the action answers the screen it left (`after`);
 * (b) act, then read: the action with `observe: false`, then `ui_get_tree`;
 * (c) mobile-mcp's loop: the action with `observe: false`, then its element list rebuilt
 *     (peers/mobileMcp.ts) from a real `adb exec-out uiautomator dump /dev/tty`;
 * and, when another build of the server is given (`--baseline`), (b₀) that build's act-then-read
 * loop: its action as it answered then (no `observe`), then its `ui_get_tree`, same screens.
 * Per step: calls, o200k tokens of every answer the model reads, wall time. (a), (b) and (b₀) run
 * inside a UI session as the flow runner does; (c) runs without one, since a dump while the
 * UiAutomator2 server holds UiAutomation is what real Android refuses. Before each loop the device is
 * put back on the Settings home in process (not timed), then `app_open` as the flow runner does.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { REPO_ROOT } from '../lib/paths.js';
import { median, p90, round } from '../lib/stats.js';
import { measure } from '../lib/tokens.js';
import { formatMobileMcpText, mobileMcpElements } from '../peers/mobileMcp.js';
import { mobileMcpStep, rssMb, type MobileMcpServer, type PeerStep } from '../peers/mobileMcpRun.js';
import type { Interval } from '../lib/timedAdb.js';
import { coveredMs } from '../lib/timedProxy.js';

export const STEP_FLOWS = ['example.json', 'login-form.json', 'search-list.json'] as const;
export type LoopName =
  | 'one call (after)'
  | 'act then ui_get_tree'
  | 'mobile-mcp (act, list elements)'
  | 'baseline build: act then ui_get_tree';
const ONE_CALL: LoopName = 'one call (after)';
const ACT_THEN_READ: LoopName = 'act then ui_get_tree';
const MOBILE_MCP: LoopName = 'mobile-mcp (act, list elements)';
const BASELINE: LoopName = 'baseline build: act then ui_get_tree';

/** mobile-mcp itself, as a model drives it (list, then act), with one of its robots. */
export type PeerLoopName = `mobile-mcp itself (${string})`;

export interface LoopFigures {
  readonly flow: string;
  readonly loop: LoopName | PeerLoopName;
  /** Per step, for the peer loops: each step's wall time, to take medians over rounds. */
  readonly step_ms?: readonly number[];
  readonly steps: number;
  readonly failed_steps: number;
  readonly calls_per_step: number;
  readonly tokens_per_step: number;
  readonly ms_per_step: number;
  readonly firstError?: string;
}

export interface StepLoopsResult {
  readonly rows: LoopFigures[];
  /**
   * Per flow: tokens per step of (a) over (b), and over (b₀) when a baseline build ran; the target
   * (at least 40 % fewer than the act-then-read loop) is ≤ 0.6.
   */
  readonly ratios: {
    flow: string;
    tokens_a_over_b: number;
    tokens_a_over_c: number;
    tokens_a_over_baseline?: number;
  }[];
  /** The other build whose act-then-read loop ran as (b₀): its commit, or the folder when it has none. */
  readonly baseline?: { readonly label: string };
  /**
   * Median wall time of `ui_tap` inside a UI session, in loop (a), (b), and (b₀) when a baseline build ran
   * (target ≤ 100 ms).
   */
  readonly ui_tap_in_flow_ms: { after: number; observe_false: number; calls: number; baseline?: number };
  /**
   * The in-flow `ui_tap` again, as a series with enough taps for a stable median: rounds of taps on
   * Settings' "Apps" row, each followed by Back, inside a UI session, this build (answering `after`)
   * and the baseline build interleaved round by round so that both meet the same machine noise.
   */
  readonly ui_tap_series_ms?: {
    readonly rounds: number;
    readonly taps_per_round: number;
    readonly after: { readonly median: number; readonly p90: number; readonly taps: number };
    readonly baseline?: { readonly median: number; readonly p90: number; readonly taps: number };
  };
  /**
   * Where an in-flow `ui_tap` spends its time, per loop: the median count and wall time of each kind
   * of adb process and Appium request inside the call, and the time covered by neither (the harness).
   */
  readonly ui_tap_profile?: { after: TapProfile; observe_false: TapProfile; baseline?: TapProfile };
  /** mobile-mcp itself: spawn to first tools/list, and memory after its loops (server and process tree). */
  readonly peers?: readonly {
    readonly name: PeerLoopName;
    readonly cold_start_ms: number;
    readonly rss_mb: { server: number; tree: number } | null;
  }[];
  readonly notes: string[];
}

export interface TapProfile {
  readonly taps: number;
  readonly total_ms: number;
  /** Time covered by no adb process and no Appium request. */
  readonly harness_ms: number;
  /** Per kind ("adb shell dumpsys window", "appium POST /element"): median count per tap and median ms per tap (summed). */
  readonly kinds: { readonly kind: string; readonly count: number; readonly ms: number }[];
}

interface FlowStep {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
}

export interface StepLoopsEnv {
  readonly client: Client;
  readonly adbPath: string;
  readonly adbPort: number;
  readonly serial: string;
  /** The device's own dump, used only when the adb dump prints no hierarchy. */
  readonly dumpXml: () => string;
  /** Puts the device back on the flows' first screen (the previous loop may have left it anywhere). */
  readonly reset: () => void;
  /** Every adb process and Appium request so far, with wall-clock (epoch ms) start and end, to profile a tap. */
  readonly intervals?: () => Interval[];
  /**
   * Another build of the server in the same environment (same device, adb and Appium): its
   * act-then-read loop runs as (b₀) after the other three, on the same screens.
   */
  readonly baseline?: { readonly client: Client; readonly label: string };
  /**
   * The tap series: its size (rounds × taps per round per build; 0 rounds: no series), and the
   * servers it runs on: the same builds started without the timing wrappers (the bash adb wrapper's
   * exec and the Appium proxy's hop land in every call), so that the figure is the tap's own.
   */
  readonly series?: {
    readonly rounds: number;
    readonly taps: number;
    readonly client: Client;
    readonly baseline?: Client;
  };
  /** mobile-mcp itself on the same device (its default and legacy robots), after this build's loops on each flow. */
  readonly peers?: readonly {
    readonly name: PeerLoopName;
    readonly server: MobileMcpServer;
    readonly device: string;
  }[];
  /**
   * Ends the UiAutomator2 server this build's kept session leaves running (as `am force-stop` of it
   * would): on Android it holds UiAutomation, so a peer's dump beside it is refused. Not timed.
   */
  readonly releaseUiAutomation?: () => void;
}

/** One loop: which server, whether the action is told `observe: false`, what the model reads after it. */
interface Loop {
  readonly name: LoopName;
  readonly client: Client;
  readonly observeFalse: boolean;
  readonly read: 'ui_get_tree' | 'mobile-mcp list' | null;
  readonly inSession: boolean;
}

/** The loops of one flow, in the order they run. */
export function loopsOf(current: Client, baseline?: Client): Loop[] {
  return [
    { name: ONE_CALL, client: current, observeFalse: false, read: null, inSession: true },
    { name: ACT_THEN_READ, client: current, observeFalse: true, read: 'ui_get_tree', inSession: true },
    { name: MOBILE_MCP, client: current, observeFalse: true, read: 'mobile-mcp list', inSession: false },
    // The baseline build answers its actions as it did then: it knows no `observe`.
    ...(baseline
      ? [{ name: BASELINE, client: baseline, observeFalse: false, read: 'ui_get_tree' as const, inSession: true }]
      : []),
  ];
}

/** What an adb argv or an Appium request is, without serials, ports, session and element ids. */
function kindOf(what: string): string {
  if (/^(GET|POST|DELETE) /.test(what)) {
    const [method, path = ''] = what.split(' ');
    return `appium ${method} ${path.replace(/^\/session\/[^/]+/, '').replace(/\/element\/[^/]+/, '/element/:id') || '/'}`;
  }
  const argv = what
    .split(' ')
    .filter((a, i, all) => !(a === '-P' || a === '-s' || all[i - 1] === '-P' || all[i - 1] === '-s'));
  return `adb ${argv.slice(0, argv[0] === 'shell' || argv[0] === 'exec-out' ? 3 : 1).join(' ')}`;
}

function profileOf(taps: readonly { from: number; to: number; inside: Interval[] }[]): TapProfile {
  const kinds = new Set(taps.flatMap((t) => t.inside.map((i) => kindOf(i.what))));
  return {
    taps: taps.length,
    total_ms: round(median(taps.map((t) => t.to - t.from)), 1),
    harness_ms: round(median(taps.map((t) => t.to - t.from - coveredMs(t.inside, t.from, t.to))), 1),
    kinds: [...kinds]
      .map((kind) => {
        const of = taps.map((t) => t.inside.filter((i) => kindOf(i.what) === kind));
        return {
          kind,
          count: median(of.map((list) => list.length)),
          ms: round(median(of.map((list) => coveredMs(list, 0, Number.POSITIVE_INFINITY))), 1),
        };
      })
      .sort((a, b) => b.ms - a.ms),
  };
}

const textOf = (r: CallToolResult): string => {
  const first = r.content[0];
  return first && first.type === 'text' ? first.text : '';
};
const okOf = (r: CallToolResult): { ok: boolean; error?: string } => {
  let e: { ok?: boolean; error?: { code: string; message: string } | null };
  try {
    e = JSON.parse(textOf(r)) as typeof e;
  } catch {
    return { ok: false, error: textOf(r).slice(0, 200) };
  }
  return e.ok ? { ok: true } : { ok: false, error: `${e.error?.code}: ${e.error?.message}`.slice(0, 200) };
};
const run = promisify(execFile);
/** A file to append every answer the model reads to, one JSON line each (to see where the tokens go). */
const ANSWERS_FILE = process.env.BENCH_STEP_ANSWERS;
const keep = (flow: string, loop: string, tool: string, text: string): void => {
  if (ANSWERS_FILE)
    appendFileSync(ANSWERS_FILE, `${JSON.stringify({ flow, loop, tool, tokens: measure(text).tokens_o200k, text })}\n`);
};

/**
 * A file to append every in-flow tap's timeline to, one JSON line each: the call's length and each adb
 * process and Appium request inside it, in start order, with its start and end relative to the call.
 */
const TIMELINE_FILE = process.env.BENCH_TAP_TIMELINE;
const keepTimeline = (flow: string, loop: string, tap: { from: number; to: number; inside: Interval[] }): void => {
  if (!TIMELINE_FILE) return;
  const at = (t: number): number => round(t - tap.from, 1);
  const spans = [...tap.inside]
    .sort((a, b) => a.start - b.start)
    .map((i) => ({ kind: kindOf(i.what), from: at(i.start), to: at(i.end) }));
  appendFileSync(TIMELINE_FILE, `${JSON.stringify({ flow, loop, ms: at(tap.to), spans })}\n`);
};

/** One flow driven by mobile-mcp itself: its app launch (not counted, as our app_open), then list-and-act per step. */
async function peerLoop(
  peer: NonNullable<StepLoopsEnv['peers']>[number],
  file: string,
  flow: { package_name: string; steps: FlowStep[] },
  reset: () => void,
  log: (line: string) => void,
): Promise<LoopFigures> {
  reset();
  await peer.server.spawned.client.callTool({
    name: 'mobile_launch_app',
    arguments: { device: peer.device, packageName: flow.package_name },
  });
  const steps: PeerStep[] = [];
  for (const step of flow.steps) steps.push(await mobileMcpStep(peer.server, peer.device, step));
  const n = flow.steps.length;
  const failed = steps.filter((s) => s.error !== undefined);
  const sum = (f: (s: (typeof steps)[number]) => number): number => steps.reduce((a, s) => a + f(s), 0);
  log(
    `  ${file} · ${peer.name}: ${round(sum((s) => s.calls) / n, 2)} calls, ${Math.round(sum((s) => s.tokens) / n)} tokens, ${Math.round(sum((s) => s.ms) / n)} ms per step${failed.length ? ` (${failed.length} failed)` : ''}`,
  );
  const firstError = failed[0]?.error;
  return {
    flow: file,
    loop: peer.name,
    steps: n,
    failed_steps: failed.length,
    calls_per_step: round(sum((s) => s.calls) / n, 2),
    tokens_per_step: Math.round(sum((s) => s.tokens) / n),
    ms_per_step: Math.round(sum((s) => s.ms) / n),
    step_ms: steps.map((s) => Math.round(s.ms)),
    ...(firstError ? { firstError: firstError.slice(0, 200) } : {}),
  };
}

export async function runStepLoops(env: StepLoopsEnv, log: (line: string) => void): Promise<StepLoopsResult> {
  const notes: string[] = [];
  const rows: LoopFigures[] = [];
  type Tap = { from: number; to: number; inside: Interval[] };
  const taps = new Map<LoopName, Tap[]>();
  let dumpFallbacks = 0;
  const call = async (
    client: Client,
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ result: CallToolResult; ms: number; from: number; to: number }> => {
    const from = performance.now();
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const to = performance.now();
    return { result, ms: to - from, from: performance.timeOrigin + from, to: performance.timeOrigin + to };
  };
  const adbDump = async (): Promise<string> => {
    const { stdout } = await run(
      env.adbPath,
      ['-P', String(env.adbPort), '-s', env.serial, 'exec-out', 'uiautomator', 'dump', '/dev/tty'],
      { maxBuffer: 32 << 20 },
    ).catch(() => ({ stdout: '' }));
    const end = stdout.lastIndexOf('</hierarchy>');
    if (end >= 0) return stdout.slice(0, end + '</hierarchy>'.length);
    dumpFallbacks++;
    return env.dumpXml();
  };
  const sessionOf = async (client: Client): Promise<string | undefined> => {
    const open = JSON.parse(textOf((await call(client, 'ui_session_open', {})).result)) as {
      data?: { session_id?: string };
    };
    return open.data?.session_id;
  };

  for (const file of STEP_FLOWS) {
    const flow = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'flows', file), 'utf8')) as {
      package_name: string;
      steps: FlowStep[];
    };
    for (const loop of loopsOf(env.client, env.baseline?.client)) {
      if (loop.client !== env.client) {
        // Loop (c) left the current server's warm session holding the device (and its lock, across
        // processes): a UI session opened and closed there closes it first (not timed, not counted).
        const release = await sessionOf(env.client);
        if (release) await call(env.client, 'ui_session_close', { session_id: release });
      }
      const sessionId = loop.inSession ? await sessionOf(loop.client) : undefined;
      if (loop.inSession && !sessionId)
        notes.push(`${file} · ${loop.name}: ui_session_open failed, so this loop ran without a UI session`);
      const inFlow = sessionId ? { session_id: sessionId } : {};
      env.reset();
      await call(loop.client, 'app_open', { package_name: flow.package_name, ...inFlow });
      let calls = 0;
      let tokens = 0;
      let ms = 0;
      let failed = 0;
      let firstError: string | undefined;
      for (const step of flow.steps) {
        const args = { ...step.arguments, ...inFlow, ...(loop.observeFalse ? { observe: false } : {}) };
        const act = await call(loop.client, step.tool, args);
        calls++;
        tokens += measure(textOf(act.result)).tokens_o200k;
        keep(file, loop.name, step.tool, textOf(act.result));
        ms += act.ms;
        const verdict = okOf(act.result);
        if (!verdict.ok) {
          failed++;
          firstError ??= `${step.tool}: ${verdict.error}`;
        }
        if (step.tool === 'ui_tap' && sessionId && verdict.ok) {
          const inside = (env.intervals?.() ?? []).filter((i) => i.end > act.from && i.start < act.to);
          const tap = { from: act.from, to: act.to, inside };
          taps.set(loop.name, [...(taps.get(loop.name) ?? []), tap]);
          keepTimeline(file, loop.name, tap);
        }
        if (loop.read === 'ui_get_tree') {
          const read = await call(loop.client, 'ui_get_tree', inFlow);
          calls++;
          tokens += measure(textOf(read.result)).tokens_o200k;
          keep(file, loop.name, 'ui_get_tree', textOf(read.result));
          ms += read.ms;
        } else if (loop.read === 'mobile-mcp list') {
          const from = performance.now();
          const list = formatMobileMcpText(mobileMcpElements(await adbDump()));
          ms += performance.now() - from;
          calls++;
          tokens += measure(list).tokens_o200k;
          keep(file, loop.name, 'mobile-mcp list', list);
        }
      }
      if (sessionId) await call(loop.client, 'ui_session_close', { session_id: sessionId });
      const n = flow.steps.length;
      rows.push({
        flow: file,
        loop: loop.name,
        steps: n,
        failed_steps: failed,
        calls_per_step: round(calls / n, 2),
        tokens_per_step: Math.round(tokens / n),
        ms_per_step: Math.round(ms / n),
        ...(firstError ? { firstError } : {}),
      });
      log(
        `  ${file} · ${loop.name}: ${round(calls / n, 2)} calls, ${Math.round(tokens / n)} tokens, ${Math.round(ms / n)} ms per step${failed ? ` (${failed} failed)` : ''}`,
      );
    }
    for (const peer of env.peers ?? []) {
      env.releaseUiAutomation?.();
      rows.push(await peerLoop(peer, file, flow, env.reset, log));
    }
  }
  if (dumpFallbacks > 0)
    notes.push(
      `${dumpFallbacks} adb dump(s) printed no hierarchy; the device's own dump was listed instead (its time is then not a real dump's)`,
    );
  const baseline = env.baseline;
  const ratios = STEP_FLOWS.map((flow) => {
    const t = (loop: LoopName): number =>
      rows.find((r) => r.flow === flow && r.loop === loop)?.tokens_per_step ?? Number.NaN;
    return {
      flow,
      tokens_a_over_b: round(t(ONE_CALL) / t(ACT_THEN_READ), 2),
      tokens_a_over_c: round(t(ONE_CALL) / t(MOBILE_MCP), 2),
      ...(baseline ? { tokens_a_over_baseline: round(t(ONE_CALL) / t(BASELINE), 2) } : {}),
    };
  });
  const series = env.series && env.series.rounds > 0 ? await tapSeries(env, env.series, call, sessionOf, notes) : null;
  const tapsOf = (loop: LoopName): Tap[] => taps.get(loop) ?? [];
  const medianMs = (loop: LoopName): number => round(median(tapsOf(loop).map((t) => t.to - t.from)), 1);
  return {
    rows,
    ratios,
    ...(baseline ? { baseline: { label: baseline.label } } : {}),
    ui_tap_in_flow_ms: {
      after: medianMs(ONE_CALL),
      observe_false: medianMs(ACT_THEN_READ),
      calls: tapsOf(ONE_CALL).length,
      ...(baseline ? { baseline: medianMs(BASELINE) } : {}),
    },
    ...(series ? { ui_tap_series_ms: series } : {}),
    ...(env.intervals
      ? {
          ui_tap_profile: {
            after: profileOf(tapsOf(ONE_CALL)),
            observe_false: profileOf(tapsOf(ACT_THEN_READ)),
            ...(baseline ? { baseline: profileOf(tapsOf(BASELINE)) } : {}),
          },
        }
      : {}),
    ...(env.peers && env.peers.length > 0
      ? {
          peers: env.peers.map((p) => ({
            name: p.name,
            cold_start_ms: Math.round(p.server.coldStartMs),
            rss_mb: rssMb(p.server.spawned.transport.pid),
          })),
        }
      : {}),
    notes,
  };
}

type SeriesFigures = NonNullable<StepLoopsResult['ui_tap_series_ms']>;

/** See StepLoopsResult.ui_tap_series_ms. A tap or Back that fails ends that round (and is noted). */
async function tapSeries(
  env: StepLoopsEnv,
  size: NonNullable<StepLoopsEnv['series']>,
  call: (
    client: Client,
    name: string,
    args: Record<string, unknown>,
  ) => Promise<{ result: CallToolResult; ms: number }>,
  sessionOf: (client: Client) => Promise<string | undefined>,
  notes: string[],
): Promise<SeriesFigures> {
  const builds = [
    { key: 'after' as const, client: size.client },
    ...(size.baseline ? [{ key: 'baseline' as const, client: size.baseline }] : []),
  ];
  const times = { after: [] as number[], baseline: [] as number[] };
  for (let r = 0; r < size.rounds; r++) {
    for (const build of builds) {
      env.reset();
      const sessionId = await sessionOf(build.client);
      if (!sessionId) {
        notes.push(`tap series, round ${r + 1} (${build.key}): ui_session_open failed`);
        continue;
      }
      const inFlow = { session_id: sessionId };
      await call(build.client, 'app_open', { package_name: 'com.android.settings', ...inFlow });
      for (let i = 0; i < size.taps; i++) {
        const tap = await call(build.client, 'ui_tap', { selector: { text: 'Apps' }, ...inFlow });
        const back = okOf(tap.result).ok ? await call(build.client, 'device_back', inFlow) : null;
        if (!okOf(tap.result).ok || !back || !okOf(back.result).ok) {
          notes.push(`tap series, round ${r + 1} (${build.key}): ${okOf((back ?? tap).result).error ?? 'failed'}`);
          break;
        }
        times[build.key].push(tap.ms);
      }
      await call(build.client, 'ui_session_close', inFlow);
    }
  }
  const figures = (ms: number[]) => ({ median: round(median(ms), 1), p90: round(p90(ms), 1), taps: ms.length });
  return {
    rounds: size.rounds,
    taps_per_round: size.taps,
    after: figures(times.after),
    ...(size.baseline ? { baseline: figures(times.baseline) } : {}),
  };
}

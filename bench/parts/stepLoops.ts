/**
 * Part 7: what one step of a flow costs a model, in three loops on the same steps of the reference
 * flows (docs/flows), through the real adb and Appium on the virtual device:
 * (a) one call: the action answers the screen it left (`after`);
 * (b) act, then read: the action with `observe: false`, then `ui_get_tree`;
 * (c) mobile-mcp's loop: the action with `observe: false`, then its element list rebuilt
 *     (peers/mobileMcp.ts) from a real `adb exec-out uiautomator dump /dev/tty`.
 * Per step: calls, o200k tokens of every answer the model reads, wall time. (a) and (b) run inside a
 * flow session as the flow runner does; (c) runs without one, since a dump while the UiAutomator2
 * server holds UiAutomation is what real Android refuses. Before each loop the device is put back on
 * the Settings home in process (not timed), then `app_open` as the flow runner does.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { REPO_ROOT } from '../lib/paths.js';
import { median, round } from '../lib/stats.js';
import { measure } from '../lib/tokens.js';
import { formatMobileMcpText, mobileMcpElements } from '../peers/mobileMcp.js';
import type { Interval } from '../lib/timedAdb.js';
import { coveredMs } from '../lib/timedProxy.js';

export const STEP_FLOWS = ['example.json', 'login-form.json', 'search-list.json'] as const;
export type LoopName = 'one call (after)' | 'act then ui_get_tree' | 'mobile-mcp (act, list elements)';

export interface LoopFigures {
  readonly flow: string;
  readonly loop: LoopName;
  readonly steps: number;
  readonly failed_steps: number;
  readonly calls_per_step: number;
  readonly tokens_per_step: number;
  readonly ms_per_step: number;
  readonly firstError?: string;
}

export interface StepLoopsResult {
  readonly rows: LoopFigures[];
  /** Per flow: tokens per step of (a) over (b); the target is ≤ 0.6. */
  readonly ratios: { flow: string; tokens_a_over_b: number; tokens_a_over_c: number }[];
  /** Median wall time of `ui_tap` inside a flow, in loop (a) and (b) (target ≤ 100 ms). */
  readonly ui_tap_in_flow_ms: { after: number; observe_false: number; calls: number };
  /**
   * Where an in-flow `ui_tap` spends its time, per loop: the median count and wall time of each kind
   * of adb process and Appium request inside the call, and the time covered by neither (the harness).
   */
  readonly ui_tap_profile?: { after: TapProfile; observe_false: TapProfile };
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

export async function runStepLoops(env: StepLoopsEnv, log: (line: string) => void): Promise<StepLoopsResult> {
  const notes: string[] = [];
  const rows: LoopFigures[] = [];
  const taps: { after: number[]; off: number[] } = { after: [], off: [] };
  const profiled: {
    after: { from: number; to: number; inside: Interval[] }[];
    off: { from: number; to: number; inside: Interval[] }[];
  } = { after: [], off: [] };
  let dumpFallbacks = 0;
  const call = async (
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ result: CallToolResult; ms: number; from: number; to: number }> => {
    const from = performance.now();
    const result = (await env.client.callTool({ name, arguments: args })) as CallToolResult;
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

  for (const file of STEP_FLOWS) {
    const flow = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'flows', file), 'utf8')) as {
      package_name: string;
      steps: FlowStep[];
    };
    for (const loop of ['one call (after)', 'act then ui_get_tree', 'mobile-mcp (act, list elements)'] as const) {
      let sessionId: string | undefined;
      if (loop !== 'mobile-mcp (act, list elements)') {
        const open = JSON.parse(textOf((await call('ui_session_open', {})).result)) as {
          data?: { session_id?: string };
        };
        sessionId = open.data?.session_id;
        if (!sessionId)
          notes.push(`${file} · ${loop}: ui_session_open failed, so this loop ran without a flow session`);
      }
      const inFlow = sessionId ? { session_id: sessionId } : {};
      env.reset();
      await call('app_open', { package_name: flow.package_name, ...inFlow });
      let calls = 0;
      let tokens = 0;
      let ms = 0;
      let failed = 0;
      let firstError: string | undefined;
      for (const step of flow.steps) {
        const args = { ...step.arguments, ...inFlow, ...(loop === 'one call (after)' ? {} : { observe: false }) };
        const act = await call(step.tool, args);
        calls++;
        tokens += measure(textOf(act.result)).tokens_o200k;
        keep(file, loop, step.tool, textOf(act.result));
        ms += act.ms;
        const verdict = okOf(act.result);
        if (!verdict.ok) {
          failed++;
          firstError ??= `${step.tool}: ${verdict.error}`;
        }
        if (step.tool === 'ui_tap' && sessionId && verdict.ok) {
          (loop === 'one call (after)' ? taps.after : taps.off).push(act.ms);
          const inside = (env.intervals?.() ?? []).filter((i) => i.end > act.from && i.start < act.to);
          (loop === 'one call (after)' ? profiled.after : profiled.off).push({ from: act.from, to: act.to, inside });
        }
        if (loop === 'act then ui_get_tree') {
          const read = await call('ui_get_tree', inFlow);
          calls++;
          tokens += measure(textOf(read.result)).tokens_o200k;
          keep(file, loop, 'ui_get_tree', textOf(read.result));
          ms += read.ms;
        } else if (loop === 'mobile-mcp (act, list elements)') {
          const from = performance.now();
          const list = formatMobileMcpText(mobileMcpElements(await adbDump()));
          ms += performance.now() - from;
          calls++;
          tokens += measure(list).tokens_o200k;
          keep(file, loop, 'mobile-mcp list', list);
        }
      }
      if (sessionId) await call('ui_session_close', { session_id: sessionId });
      const n = flow.steps.length;
      rows.push({
        flow: file,
        loop,
        steps: n,
        failed_steps: failed,
        calls_per_step: round(calls / n, 2),
        tokens_per_step: Math.round(tokens / n),
        ms_per_step: Math.round(ms / n),
        ...(firstError ? { firstError } : {}),
      });
      log(
        `  ${file} · ${loop}: ${round(calls / n, 2)} calls, ${Math.round(tokens / n)} tokens, ${Math.round(ms / n)} ms per step${failed ? ` (${failed} failed)` : ''}`,
      );
    }
  }
  if (dumpFallbacks > 0)
    notes.push(
      `${dumpFallbacks} adb dump(s) printed no hierarchy; the device's own dump was listed instead (its time is then not a real dump's)`,
    );
  const ratios = STEP_FLOWS.map((flow) => {
    const t = (loop: LoopName): number =>
      rows.find((r) => r.flow === flow && r.loop === loop)?.tokens_per_step ?? Number.NaN;
    return {
      flow,
      tokens_a_over_b: round(t('one call (after)') / t('act then ui_get_tree'), 2),
      tokens_a_over_c: round(t('one call (after)') / t('mobile-mcp (act, list elements)'), 2),
    };
  });
  return {
    rows,
    ratios,
    ui_tap_in_flow_ms: {
      after: round(median(taps.after), 1),
      observe_false: round(median(taps.off), 1),
      calls: taps.after.length,
    },
    ...(env.intervals
      ? { ui_tap_profile: { after: profileOf(profiled.after), observe_false: profileOf(profiled.off) } }
      : {}),
    notes,
  };
}

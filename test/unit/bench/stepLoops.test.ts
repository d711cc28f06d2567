/**
 * Bench part 7's loops, driven against fake MCP clients: which server each loop talks to, what each
 * action is sent, what the model is counted as reading, and the ratios against this build's
 * act-then-read loop and, with --baseline, against another build's.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { runStepLoops, STEP_FLOWS } from '../../../bench/parts/stepLoops.js';
import { stepSection } from '../../../bench/report/markdown.js';
import type { BenchResults } from '../../../bench/run.js';
import { sampleResults } from './sampleResults.js';

interface Seen {
  readonly server: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** A server that answers every call with an envelope whose text has `words[tool]` words (one o200k token each). */
function fakeServer(server: string, seen: Seen[], words: Record<string, number>): Client {
  let sessions = 0;
  return {
    callTool: async ({ name, arguments: args }: { name: string; arguments: Record<string, unknown> }) => {
      seen.push({ server, name, args });
      const data =
        name === 'ui_session_open'
          ? { session_id: `${server}-${++sessions}` }
          : { said: Array.from({ length: words[name] ?? 0 }, () => ' x').join('') };
      return { content: [{ type: 'text', text: JSON.stringify({ ok: true, data }) }] };
    },
  } as unknown as Client;
}

const DUMP =
  '<?xml version="1.0" encoding="UTF-8"?><hierarchy rotation="0"><node index="0" text="Apps" resource-id="" class="android.widget.TextView" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,200]" /></hierarchy>';

async function runWith(baseline: boolean) {
  const seen: Seen[] = [];
  const actions = { ui_tap: 300, ui_type_text: 300, ui_scroll: 300, device_back: 300, ui_get_tree: 400 };
  const env = {
    client: fakeServer('now', seen, actions),
    adbPath: '/nonexistent/adb',
    adbPort: 5037,
    serial: 'emulator-5554',
    dumpXml: () => DUMP,
    reset: () => undefined,
    ...(baseline
      ? {
          baseline: {
            client: fakeServer('then', seen, {
              ui_tap: 10,
              ui_type_text: 10,
              ui_scroll: 10,
              device_back: 10,
              ui_get_tree: 900,
            }),
            label: 'abc1234',
          },
        }
      : {}),
  };
  const result = await runStepLoops(env, () => undefined);
  return { seen, result };
}

describe('bench part 7: the step loops', () => {
  it('runs the baseline build’s act-then-read loop after the other three, as that build answered (no observe), in its own UI session', async () => {
    const { seen, result } = await runWith(true);
    expect(result.rows.map((r) => r.loop).slice(0, 4)).toEqual([
      'one call (after)',
      'act then ui_get_tree',
      'mobile-mcp (act, list elements)',
      'baseline build: act then ui_get_tree',
    ]);
    expect(result.rows).toHaveLength(STEP_FLOWS.length * 4);
    const then = seen.filter((s) => s.server === 'then');
    expect(then.some((s) => 'observe' in s.args)).toBe(false);
    // Every action and read of the baseline loop carries its UI session.
    for (const s of then.filter((x) => x.name !== 'ui_session_open'))
      expect(s.args.session_id, s.name).toMatch(/^then-/);
    // The current server's warm session (left by loop (c)) is closed before the other build acts:
    // a UI session opened and closed there, right before the baseline loop opens its own.
    const firstThen = seen.findIndex((s) => s.server === 'then');
    expect(seen.slice(firstThen - 2, firstThen).map((s) => `${s.server} ${s.name}`)).toEqual([
      'now ui_session_open',
      'now ui_session_close',
    ]);
    const baselineRow = result.rows.find((r) => r.loop === 'baseline build: act then ui_get_tree');
    expect(baselineRow?.calls_per_step).toBe(2);
    expect(result.baseline).toEqual({ label: 'abc1234' });
  });

  it('gives the one-call loop’s tokens over each act-then-read loop, per flow', async () => {
    const { result } = await runWith(true);
    const tokens = (loop: string, flow: string): number =>
      result.rows.find((r) => r.loop === loop && r.flow === flow)?.tokens_per_step ?? Number.NaN;
    for (const ratio of result.ratios) {
      const a = tokens('one call (after)', ratio.flow);
      expect(ratio.tokens_a_over_b).toBeCloseTo(a / tokens('act then ui_get_tree', ratio.flow), 2);
      expect(ratio.tokens_a_over_baseline).toBeCloseTo(
        a / tokens('baseline build: act then ui_get_tree', ratio.flow),
        2,
      );
      // Here the old build's read is the larger one, so the ratio against it is the smaller.
      expect(ratio.tokens_a_over_baseline).toBeLessThan(ratio.tokens_a_over_b);
    }
    expect(result.ui_tap_in_flow_ms.baseline).toBeGreaterThanOrEqual(0);
  });

  it('without a baseline runs the three loops only and reports no baseline figure', async () => {
    const { seen, result } = await runWith(false);
    expect(new Set(result.rows.map((r) => r.loop)).size).toBe(3);
    expect(result.baseline).toBeUndefined();
    expect(result.ratios.every((r) => r.tokens_a_over_baseline === undefined)).toBe(true);
    expect(result.ui_tap_in_flow_ms.baseline).toBeUndefined();
    expect(seen.every((s) => s.server === 'now')).toBe(true);
  });

  it('the report names the baseline build beside its ratio and its tap', async () => {
    const { result } = await runWith(true);
    const r = sampleResults() as unknown as { endToEnd: Record<string, unknown> };
    r.endToEnd.stepLoops = result;
    const md = stepSection(r as unknown as BenchResults);
    expect(md).toContain('tokens (a)/(b₀), build abc1234 (target ≤ 0.6)');
    expect(md).toContain('ms in the build at abc1234');
    expect(md).toContain('| baseline build: act then ui_get_tree |');
  });
});

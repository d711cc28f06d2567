/** Part 8 in bench/results/latest.md: the head-to-head with mobile-mcp, its targets and its tables. */
import type { HeadToHeadResult } from '../parts/headToHead.js';

type Row = (string | number)[];
type Measured = Extract<HeadToHeadResult, { status: 'measured' }>;

export interface HeadToHeadTarget {
  readonly name: string;
  readonly value: string;
  readonly met: boolean | null;
}

/** The point-3 targets, each judged on every flow against both of mobile-mcp's robots. */
export function headToHeadTargets(h: HeadToHeadResult): HeadToHeadTarget[] {
  if (h.status !== 'measured')
    return [{ name: '8. head-to-head with mobile-mcp', value: `skipped: ${h.reason}`, met: null }];
  const worst = (pick: (r: Measured['ratios'][number]) => number): number => Math.max(...h.ratios.map(pick));
  const span = (pick: (r: Measured['ratios'][number]) => number): string => {
    const values = h.ratios.map(pick);
    return `${Math.min(...values)}–${Math.max(...values)} (${h.ratios.length} flow × robot pairs)`;
  };
  const ours = h.processes.find((p) => p.contender === 'this harness');
  const peers = h.processes.filter((p) => p.contender !== 'this harness');
  const fastestPeerStart = Math.min(...peers.map((p) => p.cold_start_ms.median));
  return [
    {
      name: '8. time per step ≤ 0.5× mobile-mcp’s (median, each flow, each robot)',
      value: span((r) => r.time),
      met: worst((r) => r.time) <= 0.5,
    },
    {
      name: '8. tokens per step ≤ 0.3× mobile-mcp’s (each flow, each robot)',
      value: span((r) => r.tokens),
      met: worst((r) => r.tokens) <= 0.3,
    },
    { name: '8. 1.0 call per step', value: span((r) => r.calls), met: worst((r) => r.calls) <= 1 },
    {
      name: '8. cold start to the first tools/list ≤ mobile-mcp’s (medians)',
      value: ours ? `${ours.cold_start_ms.median} ms vs ${fastestPeerStart} ms` : 'not measured',
      met: ours ? ours.cold_start_ms.median <= fastestPeerStart : null,
    },
  ];
}

function table(head: string[], rows: Row[]): string {
  const line = (cells: (string | number)[]): string =>
    `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

export function headToHeadSection(h: HeadToHeadResult): string {
  if (h.status !== 'measured') return `Skipped: ${h.reason}\n`;
  return [
    `${h.rounds} rounds, the contenders' order rotating each round; every server started afresh each round. Device timing: ${h.timing}. A step: one call of this harness (its action answers \`after\`; no UI session opened), or mobile-mcp's element list then its action. Time per step: the median over every step of every round, beside its p90 and mean (the mean carries each round's first step, which for this harness opens the UiAutomator2 session).`,
    '',
    table(
      ['flow', 'contender', 'steps', 'failed', 'calls / step', 'tokens / step', 'ms / step (median)', 'p90', 'mean'],
      h.rows.map((r) => [
        r.flow,
        r.contender,
        r.steps,
        r.failed_steps,
        r.calls_per_step,
        r.tokens_per_step,
        r.step_ms.median,
        r.step_ms.p90,
        r.step_ms.mean,
      ]),
    ),
    '',
    "Ratios, this harness over each of mobile-mcp's robots (targets: time ≤ 0.5, tokens ≤ 0.3, 1.0 call per step):",
    '',
    table(
      ['flow', 'against', 'time', 'tokens', 'our calls / step'],
      h.ratios.map((r) => [r.flow, r.against, r.time, r.tokens, r.calls]),
    ),
    '',
    table(
      [
        'contender',
        'cold start to first tools/list, median ms',
        'each round',
        'RSS after the flows, server MB',
        'with its child processes MB',
      ],
      h.processes.map((p) => [
        p.contender,
        p.cold_start_ms.median,
        p.cold_start_ms.all.join(', '),
        p.rss_mb.server,
        p.rss_mb.tree,
      ]),
    ),
    '',
    `Appium (which this harness needs and mobile-mcp does not) held ${h.appium_rss_mb ?? 'an unknown'} MB at the end.`,
    ...timelineSection(h),
    ...h.rows.filter((r) => r.firstError).map((r) => `- ${r.flow} · ${r.contender}: first failure: ${r.firstError}`),
    ...h.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}

/**
 * Where this harness's step time goes: the medians of each phase (bench/lib/stepPhases.ts) over the
 * steps of one extra round run behind the timed adb wrapper and Appium proxy.
 */
function timelineSection(h: Measured): string[] {
  if (h.timeline.length === 0) return [];
  return [
    '',
    "**Where this harness's step time goes** (one more round, behind the timed adb wrapper and the timed Appium proxy, so counted in no ratio above; its first step, which opens the UiAutomator2 session, left out). Medians per flow, ms: *before* is the call up to the action (lock check, find, element reads), *action* the acting requests, *after* the action to the answer; inside *after*, the evidence capture (`screencap`), the read of `after` (page source) and the settle reads (`dumpsys window`, `power`) overlap, so they do not add up; *own* is the time in no adb process and no Appium request (the harness's work and its process starts).",
    '',
    table(
      ['flow', 'steps', 'step', 'before', 'action', 'after', '↳ capture', '↳ read', '↳ settle', 'own'],
      h.timeline.map((t) => [
        t.flow,
        t.steps,
        t.median.total,
        t.median.before,
        t.median.action,
        t.median.after,
        t.median.capture,
        t.median.read,
        t.median.settle,
        t.median.own,
      ]),
    ),
  ];
}

/**
 * The bench's chart module turns a run's results into a valid SVG, drawn by
 * vega-lite, with every headline row, its target and the peers named.
 */
import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { headlineRatios, renderChart } from '../../../bench/report/chart.js';
import type { BenchResults } from '../../../bench/run.js';
import { sampleResults } from './sampleResults.js';

describe('bench chart', () => {
  it('computes the headline ratios with their targets', () => {
    const rows = headlineRatios(sampleResults());
    const byFigure = new Map(rows.map((r) => [r.figure, r]));
    expect(byFigure.get('summary ÷ raw XML, bytes (median; target ≤ 5 %)')).toEqual(
      expect.objectContaining({ ratio: 0.06, target: 0.05, shown: '6 %' }),
    );
    expect(byFigure.get('ui_tap per action ÷ ui_tap in a flow (median; target ≤ 2)')?.ratio).toBeCloseTo(1_600 / 66);
    expect(byFigure.get('start-up ÷ mobile-mcp start-up (median)')?.ratio).toBeCloseTo(183 / 218);
    expect(rows.find((r) => r.figure.startsWith('worst harness overhead'))?.figure).toContain('screen_capture');
    expect(rows).toHaveLength(7);
  });

  it('renders a well-formed SVG naming every figure, the peers, the axis and the verdicts', async () => {
    const svg = await renderChart(sampleResults(), 'sample run');
    expect(svg).not.toBeNull();
    const errors: string[] = [];
    const doc = new DOMParser({ onError: (level, message) => errors.push(`${level}: ${message}`) }).parseFromString(
      String(svg),
      'image/svg+xml',
    );
    expect(errors).toEqual([]);
    expect(doc.documentElement?.nodeName).toBe('svg');
    const text = Array.from(doc.getElementsByTagName('text')).map((t) => t.textContent ?? '');
    for (const wanted of [
      'mobile-mcp element list',
      'appium-mcp generate_locators',
      'start-up ÷ mobile-mcp',
      'ui_tap per action',
      'ours ÷ reference (log scale; left of the target tick is better)',
      'met',
      'missed',
      '6 %',
    ]) {
      expect(
        text.some((t) => t.includes(wanted)),
        wanted,
      ).toBe(true);
    }
  });

  it('adds the per-step rows when the flow steps were measured: tokens of one call ÷ act then read per flow, and the in-flow tap with and without after', () => {
    const r = sampleResults() as unknown as { endToEnd: Record<string, unknown> };
    r.endToEnd.stepLoops = {
      rows: [],
      ratios: [{ flow: 'example.json', tokens_a_over_b: 0.83, tokens_a_over_c: 0.55 }],
      ui_tap_in_flow_ms: { after: 223, observe_false: 150, calls: 9 },
      notes: [],
    };
    const rows = headlineRatios(r as unknown as BenchResults);
    expect(rows.find((x) => x.figure.includes('one call ÷ act then read, example.json'))).toEqual(
      expect.objectContaining({ ratio: 0.83, target: 0.6 }),
    );
    expect(rows.find((x) => x.figure.startsWith('ui_tap in a flow, answering after'))).toEqual(
      expect.objectContaining({ ratio: 2.23, target: 1, shown: '223 ms' }),
    );
    expect(rows.find((x) => x.figure.startsWith('ui_tap in a flow, observe: false'))).toEqual(
      expect.objectContaining({ ratio: 1.5, target: 1, shown: '150 ms' }),
    );
    expect(rows).toHaveLength(10);
  });

  it('adds the baseline build’s rows when part 7 ran one (--baseline): tokens against its act-then-read loop per flow, and its in-flow tap', () => {
    const r = sampleResults() as unknown as { endToEnd: Record<string, unknown> };
    r.endToEnd.stepLoops = {
      rows: [],
      ratios: [{ flow: 'example.json', tokens_a_over_b: 0.7, tokens_a_over_c: 0.45, tokens_a_over_baseline: 0.52 }],
      baseline: { label: '67bdd25' },
      ui_tap_in_flow_ms: { after: 223, observe_false: 150, calls: 9, baseline: 190 },
      notes: [],
    };
    const rows = headlineRatios(r as unknown as BenchResults);
    expect(rows.find((x) => x.figure.includes('one call ÷ act then read of build 67bdd25, example.json'))).toEqual(
      expect.objectContaining({ ratio: 0.52, target: 0.6, shown: '0.52×' }),
    );
    expect(rows.find((x) => x.figure.startsWith('ui_tap in a flow, build 67bdd25'))).toEqual(
      expect.objectContaining({ ratio: 1.9, target: 1, shown: '190 ms' }),
    );
    expect(rows).toHaveLength(12);
  });

  it('draws nothing for a run that measured none of the figures', async () => {
    const none = {
      tokenEconomy: { status: 'skipped', reason: 'x' },
      catalogue: { status: 'skipped', reason: 'x' },
      endToEnd: { status: 'skipped', reason: 'x' },
    } as unknown as BenchResults;
    expect(await renderChart(none, '')).toBeNull();
  });
});

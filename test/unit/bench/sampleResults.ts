/** A bench run shaped like bench/results/latest.json, for the chart test (only what the chart reads is meaningful). */
import type { BenchResults } from '../../../bench/run.js';

const size = (tokens: number) => ({
  bytes: tokens * 4,
  chars: tokens * 4,
  tokens_o200k: tokens,
  tokens_cl100k: tokens,
});

function file(name: string, ours: number, raw: number, mobile: number, appium: number) {
  return {
    file: name,
    nodes: 10,
    raw: size(raw),
    ours: {
      text: size(ours),
      structured: size(ours),
      both: size(ours * 2),
      actions: 5,
      ambiguous: 0,
      texts: 3,
      truncated: false,
      percentOfRawBytes: Math.round((ours / raw) * 10_000) / 100,
    },
    mobileMcpJson: { ...size(mobile * 1.5), elements: 6 },
    mobileMcpText: { ...size(mobile), elements: 6 },
    mobileMcpEmptyMultiWindow: false,
    appiumMcp: { ...size(appium), elements: 8 },
  };
}

function latency(tool: string, total: number, overhead: number) {
  return {
    tool,
    calls: 10,
    failures: 0,
    total_ms: { median: total, p95: total },
    adb_ms: { median: 0 },
    appium_ms: { median: 0 },
    overhead_ms: { median: overhead, p95: overhead },
    overhead_percent: 0,
    target_met: true,
  };
}

export function sampleResults(): BenchResults {
  return {
    tokenEconomy: {
      status: 'measured',
      files: [
        file('dumps/a.xml', 600, 10_000, 1_000, 5_000),
        file('dumps/b.xml', 700, 9_000, 800, 4_000),
        file('dumps/c.xml', 500, 11_000, 900, 4_500),
      ],
      errors: [],
      aggregate: {},
    },
    catalogue: {
      spawns: 3,
      entries: [
        {
          label: 'android-mcp-harness',
          status: 'measured',
          tools: 12,
          catalogue: size(1_500),
          startup_ms: { median: 183, p90: 188, samples: [] },
        },
        {
          label: 'mobile-mcp',
          version: '1.0.4',
          status: 'measured',
          tools: 32,
          catalogue: size(6_000),
          startup_ms: { median: 218, p90: 228, samples: [] },
        },
      ],
    },
    endToEnd: {
      status: 'measured',
      iterations: 10,
      tools: [
        latency('ui_tap (no flow)', 1_600, 20),
        latency('ui_tap (flow)', 66, 14),
        latency('screen_capture', 36, 33),
      ],
      notes: [],
      memory: { status: 'skipped' },
    },
  } as unknown as BenchResults;
}

/** bench/results/latest.md: the figures of one run, targets first, then each part in detail. */
import type { BenchResults } from '../run.js';
import type { FileResult, TokenEconomyResult } from '../parts/tokenEconomy.js';
import type { CpuResult } from '../parts/cpuCost.js';
import type { CatalogueResult } from '../parts/catalogue.js';
import type { DeviceCaptureResult } from '../parts/deviceCapture.js';
import { median, round } from '../lib/stats.js';
import { headToHeadSection, headToHeadTargets } from './headToHeadSection.js';

type Row = (string | number)[];

function table(head: string[], rows: Row[]): string {
  const line = (cells: (string | number)[]): string =>
    `| ${cells.map((c) => String(c).replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

const yes = (ok: boolean | null | 'explained'): string =>
  ok === 'explained' ? '**missed, every drop explained**' : ok === null ? 'n/a' : ok ? '**met**' : '**missed**';
const short = (file: string): string =>
  file
    .replace(/^dumps\//, '')
    .replace(/^appium-source\//, 'appium:')
    .replace(/\.xml$/, '');

interface Target {
  name: string;
  value: string;
  met: boolean | null | 'explained';
}

function tokenTargets(te: TokenEconomyResult): Target[] {
  const files = te.files;
  const pct = median(files.map((f) => f.ours.percentOfRawBytes));
  const over = (pick: (f: FileResult) => number, skip: (f: FileResult) => boolean = () => false): FileResult[] =>
    files.filter((f) => !skip(f) && f.ours.text.tokens_o200k > pick(f));
  const overMobileText = over(
    (f) => f.mobileMcpText.tokens_o200k,
    (f) => f.mobileMcpEmptyMultiWindow,
  );
  const overMobileJson = over(
    (f) => f.mobileMcpJson.tokens_o200k,
    (f) => f.mobileMcpEmptyMultiWindow,
  );
  const overAppium = over((f) => f.appiumMcp.tokens_o200k);
  const lostM = files.reduce((s, f) => s + f.vsMobileMcp.lostActionable, 0);
  const lostA = files.reduce((s, f) => s + f.vsAppiumMcp.lostActionable, 0);
  const unexplained = files.reduce(
    (s, f) => s + (f.vsMobileMcp.notOffered['unexplained'] ?? 0) + (f.vsAppiumMcp.notOffered['unexplained'] ?? 0),
    0,
  );
  return [
    { name: '1. summary median ≤ 5 % of raw XML bytes (text block)', value: `${pct} %`, met: pct <= 5 },
    {
      name: '1. never more tokens than mobile-mcp text list (o200k, text block)',
      value: `${overMobileText.length} of ${files.length - files.filter((f) => f.mobileMcpEmptyMultiWindow).length} files over`,
      met: overMobileText.length === 0,
    },
    {
      name: '1. never more tokens than mobile-mcp JSON list',
      value: `${overMobileJson.length} files over`,
      met: overMobileJson.length === 0,
    },
    {
      name: '1. never more tokens than appium-mcp generate_locators',
      value: `${overAppium.length} files over`,
      met: overAppium.length === 0,
    },
    {
      name: '1. no actionable target lost (each drop explained)',
      value: `${lostM} (vs mobile-mcp) / ${lostA} (vs appium-mcp) actionable entries not offered, ${unexplained} unexplained`,
      met: unexplained === 0 && lostM + lostA === 0 ? true : unexplained === 0 ? 'explained' : false,
    },
  ];
}

function tokenSection(te: TokenEconomyResult, r: BenchResults): string {
  if (te.status !== 'measured') return `Skipped: ${te.reason}\n`;
  const files = te.files;
  const agg = te.aggregate ?? {};
  const aggRows: Row[] = Object.entries(agg).map(([k, v]) => [k, v.median, v.p90]);
  const perFile: Row[] = files.map((f) => [
    short(f.file),
    f.raw.bytes,
    f.raw.tokens_o200k,
    f.ours.text.bytes,
    f.ours.text.tokens_o200k,
    `${f.ours.percentOfRawBytes} %`,
    `${f.ours.actions}${f.ours.ambiguous ? ` (${f.ours.ambiguous} amb.)` : ''}${f.ours.truncated ? ' trunc.' : ''}`,
    f.mobileMcpEmptyMultiWindow ? `${f.mobileMcpText.tokens_o200k} (empty†)` : f.mobileMcpText.tokens_o200k,
    f.mobileMcpJson.tokens_o200k,
    f.mobileMcpJson.elements,
    f.appiumMcp.tokens_o200k,
    f.appiumMcp.elements,
    `${f.vsMobileMcp.lostActionable} / ${f.vsAppiumMcp.lostActionable}`,
  ]);
  const reasons = (pick: (f: FileResult) => FileResult['vsMobileMcp']): Row[] => {
    const total = new Map<string, number>();
    let listed = 0;
    let covered = 0;
    for (const f of files) {
      const c = pick(f);
      listed += c.listed;
      covered += c.covered;
      for (const [k, v] of Object.entries(c.notOffered)) total.set(k, (total.get(k) ?? 0) + (v ?? 0));
    }
    return [
      ['listed by the peer', listed],
      ['covered: we offer the same target', covered],
      ...[...total.entries()].sort((a, b) => b[1] - a[1]),
    ];
  };
  const examples = files.flatMap((f) => [
    ...f.vsMobileMcp.examples.map((e) => ({ f, peer: 'mobile-mcp', e })),
    ...f.vsAppiumMcp.examples.map((e) => ({ f, peer: 'appium-mcp', e })),
  ]);
  const multi = files.filter((f) => f.mobileMcpEmptyMultiWindow).map((f) => short(f.file));
  return [
    `${files.length} dumps (${te.errors.length} failed${te.errors.length ? `: ${te.errors.map((e) => `${e.file}: ${e.error}`).join('; ')}` : ''}). Tokens: o200k_base (gpt-tokenizer); cl100k figures are in latest.json.`,
    `Our figure is the **text block** (the minified JSON of the envelope). \`structuredContent\` is the same object, so a client that forwards both gives the model twice that (median ${agg['ours_both_tokens_o200k']?.median} tokens, p90 ${agg['ours_both_tokens_o200k']?.p90}).`,
    '',
    '### Medians and p90 over all dumps',
    table(['figure', 'median', 'p90'], aggRows),
    '',
    '### Per dump (bytes; tokens o200k)',
    table(
      [
        'dump',
        'raw B',
        'raw tok',
        'ours B',
        'ours tok',
        'ours/raw',
        'our actions',
        'mobile-mcp text tok',
        'mobile-mcp JSON tok',
        'mobile-mcp elems',
        'appium-mcp tok',
        'appium-mcp elems',
        'lost vs m / a',
      ],
      perFile,
    ),
    '',
    multi.length
      ? `† mobile-mcp returns an **empty list** on dumps with several top-level windows (${multi.join(', ')}): its walker is handed the array of windows and finds no \`node\` on it. These files are left out of the "never more tokens than mobile-mcp" target.`
      : '',
    '',
    `Rebuild fidelity: mobile-mcp rebuild vs the published package's own code on the same dumps: ${r.fidelity.status === 'checked' ? `${r.fidelity.identical}/${r.fidelity.files} byte-identical (JSON and text formats)${r.fidelity.mismatches.length ? `; differ: ${r.fidelity.mismatches.join(', ')}` : ''}` : `not checked (${r.fidelity.reason})`}.`,
    '',
    '### Entries a peer lists that we do not offer, by reason (all dumps)',
    '"Covered" means the peer entry\'s tap lands on a target we offer (same node, or its nearest actionable ancestor). Only the three "actionable, …" / "truncated" / "unexplained" reasons are lost targets.',
    '',
    '**vs mobile-mcp**',
    table(
      ['reason', 'entries'],
      reasons((f) => f.vsMobileMcp),
    ),
    '',
    '**vs appium-mcp**',
    table(
      ['reason', 'entries'],
      reasons((f) => f.vsAppiumMcp),
    ),
    '',
    examples.length ? '**Examples of lost actionable entries**' : '',
    ...examples
      .slice(0, 12)
      .map(({ f, peer, e }) => `- ${short(f.file)} (${peer}, ${e.reason}): \`${e.peerEntry.replace(/`/g, "'")}\``),
    '',
  ].join('\n');
}

function cpuSection(cpu: CpuResult): string {
  if (cpu.status !== 'measured') return `Skipped: ${cpu.reason}\n`;
  const rows: Row[] = [...cpu.files]
    .sort((a, b) => b.bytes - a.bytes)
    .map((f) => [
      short(f.file),
      f.bytes,
      f.nodes,
      f.parse_ms,
      f.summarise_ms,
      f.serialise_ms,
      f.total_ms,
      f.total_p90_ms,
    ]);
  return [
    `Median of ${cpu.runs} runs after ${cpu.warmup} warm-up runs, per dump, in one process. Fit: total ≈ ${cpu.fit?.intercept_ms} ms + ${cpu.fit?.ms_per_100kb} ms per 100 KB of XML.`,
    '',
    table(
      [
        'dump (largest first)',
        'bytes',
        'nodes',
        'parse ms',
        'summarise+audit ms',
        'serialise ms',
        'total ms',
        'total p90 ms',
      ],
      rows,
    ),
    '',
  ].join('\n');
}

function catalogueSection(cat: CatalogueResult, raw: BenchResults['ourCatalogueRaw']): string {
  const rows: Row[] = cat.entries.map((e) =>
    e.status === 'measured'
      ? [
          e.label,
          e.version ?? '',
          e.tools ?? '',
          e.catalogue?.chars ?? '',
          e.catalogue?.bytes ?? '',
          e.catalogue?.tokens_o200k ?? '',
          `${e.longestDescription?.tool} (${e.longestDescription?.chars})`,
          e.startup_ms?.median ?? '',
          e.startup_ms?.p90 ?? '',
          e.initialize_ms?.median ?? '',
        ]
      : [e.label, e.version ?? '', `not measured: ${e.reason}`, '', '', '', '', '', '', ''],
  );
  const out = [
    `Each server spawned ${cat.spawns} times over stdio (round-robin, one discarded warm-up spawn each), no device attached; the SDK's Client + StdioClientTransport. Start-up = spawn → tools/list answer.`,
    '',
    table(
      [
        'server',
        'version',
        'tools',
        'catalogue chars',
        'bytes',
        'tokens o200k',
        'longest description',
        'start-up median ms',
        'p90 ms',
        'initialize median ms',
      ],
      rows,
    ),
    '',
  ];
  if (raw) {
    const fields = new Map<string, number>();
    for (const t of raw.tools)
      for (const [k, v] of Object.entries(t)) fields.set(k, (fields.get(k) ?? 0) + JSON.stringify(v).length);
    out.push(
      "**Where our catalogue's characters go** (sum over the tools, JSON of each field)",
      '',
      table(
        ['field', 'chars'],
        [...fields.entries()].sort((a, b) => b[1] - a[1]),
      ),
      '',
    );
  }
  return out.join('\n');
}

function e2eSection(r: BenchResults): string {
  const e = r.endToEnd;
  if (e.status !== 'measured') return `Part 4 skipped: ${e.reason}\n`;
  const rows: Row[] = e.tools.map((t) => [
    t.tool,
    t.calls,
    t.failures,
    t.total_ms.median,
    t.total_ms.p95,
    t.adb_ms.median,
    t.appium_ms.median,
    t.overhead_ms.median,
    t.overhead_ms.p95,
    `${t.overhead_percent} %`,
    yes(t.target_met),
    t.firstError ?? '',
  ]);
  return [
    `${e.iterations} iterations of the sequence; medians and p95 per tool. adb = time inside adb processes (timed wrapper found through ANDROID_HOME); Appium = time inside HTTP requests to Appium (timed proxy at APPIUM_URL); overhead = total − union(adb, Appium).`,
    '',
    table(
      [
        'tool',
        'calls',
        'failed',
        'total median ms',
        'p95',
        'adb median',
        'Appium median',
        'overhead median',
        'overhead p95',
        'overhead %',
        'target',
        'first error',
      ],
      rows,
    ),
    '',
    e.flowSaving
      ? `ui_tap without a flow: ${e.flowSaving.without_ms} ms median; inside a flow: ${e.flowSaving.with_ms} ms (a flow saves ${round(e.flowSaving.without_ms - e.flowSaving.with_ms, 1)} ms per tap: no session create/delete).`
      : '',
    e.perAction
      ? `Per-action ui_tap (a series of taps without session_id, one device_back between two): first call ${e.perAction.first_ms} ms; later calls ${e.perAction.later_ms} ms median (${e.perAction.later_calls} calls); inside a flow ${e.perAction.flow_ms} ms; later / in-flow = **${e.perAction.ratio}x** (target ≤ 2x).`
      : '',
    e.uiGetTreeWire
      ? `ui_get_tree on the virtual device: text block ${e.uiGetTreeWire.text.bytes} B / ${e.uiGetTreeWire.text.tokens_o200k} tokens; text block == JSON of structuredContent: ${e.uiGetTreeWire.structuredEqualsText}.`
      : '',
    ...e.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}

/** Part 7's section of latest.md (exported for its test). */
export function stepSection(r: BenchResults): string {
  const s = r.endToEnd.status === 'measured' ? r.endToEnd.stepLoops : undefined;
  if (!s) return 'Part 7 not run (it needs the virtual device and --parts with 7).\n';
  const base = s.baseline?.label;
  const profile = s.ui_tap_profile;
  const profiles = profile
    ? [
        { name: 'after', of: profile.after },
        { name: 'observe: false', of: profile.observe_false },
        ...(profile.baseline && base ? [{ name: `build ${base}`, of: profile.baseline }] : []),
      ]
    : [];
  return [
    'Each reference flow (docs/flows) once per loop, o200k tokens of every answer the model reads; (c) lists elements as mobile-mcp 1.0.4 does from a real adb dump (the action itself is ours, with observe: false).' +
      (base
        ? ` (b₀) is the act-then-read loop of the server built at ${base} (--baseline), as it answered then, on the same device and screens.`
        : ''),
    '',
    table(
      ['flow', 'loop', 'steps', 'failed', 'calls/step', 'tokens/step', 'ms/step', 'first error'],
      s.rows.map((x) => [
        x.flow,
        x.loop,
        x.steps,
        x.failed_steps,
        x.calls_per_step,
        x.tokens_per_step,
        x.ms_per_step,
        x.firstError ?? '',
      ]),
    ),
    '',
    table(
      [
        'flow',
        'tokens (a)/(b) (target ≤ 0.6)',
        ...(base ? [`tokens (a)/(b₀), build ${base} (target ≤ 0.6)`] : []),
        'tokens (a)/(c)',
      ],
      s.ratios.map((x) => [
        x.flow,
        x.tokens_a_over_b,
        ...(base ? [x.tokens_a_over_baseline ?? ''] : []),
        x.tokens_a_over_c,
      ]),
    ),
    '',
    `ui_tap inside a flow: ${s.ui_tap_in_flow_ms.after} ms median answering after, ${s.ui_tap_in_flow_ms.observe_false} ms with observe: false` +
      (base && s.ui_tap_in_flow_ms.baseline !== undefined
        ? `, ${s.ui_tap_in_flow_ms.baseline} ms in the build at ${base}`
        : '') +
      ` (${s.ui_tap_in_flow_ms.calls} taps each; target ≤ 100 ms).`,
    ...(s.peers
      ? [
          '',
          'mobile-mcp itself on the same device (rows "mobile-mcp itself" above: per step, its element list, then its action on the element the step names; a private HOME each):',
          '',
          table(
            ['peer', 'spawn → first tools/list (ms)', 'RSS after its loops, server (MB)', 'with its process tree (MB)'],
            s.peers.map((p) => [p.name, p.cold_start_ms, p.rss_mb?.server ?? 'n/a', p.rss_mb?.tree ?? 'n/a']),
          ),
        ]
      : []),
    ...(s.ui_tap_series_ms
      ? [
          '',
          `ui_tap series inside a UI session (Settings → "Apps", then Back; ${s.ui_tap_series_ms.rounds} rounds × ${s.ui_tap_series_ms.taps_per_round} taps, builds interleaved by round): ` +
            `${s.ui_tap_series_ms.after.median} ms median answering after (p90 ${s.ui_tap_series_ms.after.p90} ms, ${s.ui_tap_series_ms.after.taps} taps)` +
            (base && s.ui_tap_series_ms.baseline
              ? `, ${s.ui_tap_series_ms.baseline.median} ms in the build at ${base} (p90 ${s.ui_tap_series_ms.baseline.p90} ms, ${s.ui_tap_series_ms.baseline.taps} taps)`
              : '') +
            '; target ≤ 100 ms.',
        ]
      : []),
    ...(profiles.length > 0
      ? [
          '',
          'Where an in-flow ui_tap spends its time (median per tap: how many of each adb process or Appium request, and the time they cover; they overlap, so the rows add up to more than the call):',
          '',
          table(
            ['kind', ...profiles.flatMap((p) => [`${p.name}: count`, `${p.name}: ms`])],
            [
              ['the call', ...profiles.flatMap((p) => [p.of.taps, p.of.total_ms])],
              ['covered by neither adb nor Appium (the harness)', ...profiles.flatMap((p) => ['', p.of.harness_ms])],
              ...[...new Set(profiles.flatMap((p) => p.of.kinds.map((k) => k.kind)))].map((kind) => [
                kind,
                ...profiles.flatMap((p) => {
                  const k = p.of.kinds.find((x) => x.kind === kind);
                  return [k?.count ?? 0, k?.ms ?? 0];
                }),
              ]),
            ],
          ),
        ]
      : []),
    ...s.notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
}

function captureSection(c: DeviceCaptureResult): string {
  if (c.status !== 'measured') return `Skipped: ${c.reason}\n`;
  return [
    `The virtual device's renderer in process (no device cache): ${c.width}x${c.height} PNG, ${c.runs} timed renders per screen after warm-up. The first screen's cold render includes loading the canvas library and the font.`,
    '',
    table(
      ['screen', 'cold ms', 'wall median ms', 'wall p90', 'wall min', 'CPU median ms', 'PNG bytes'],
      c.rows.map((row) => [
        row.screen,
        row.first_ms,
        row.wall_ms.median,
        row.wall_ms.p90,
        row.wall_ms.min,
        row.cpu_ms.median,
        row.png_bytes,
      ]),
    ),
    '',
  ].join('\n');
}

function memorySection(r: BenchResults): string {
  const m = r.endToEnd.memory;
  if (!m || m.status !== 'measured') {
    const why = m?.reason ?? (r.endToEnd.status === 'skipped' ? r.endToEnd.reason : 'not run');
    return `Skipped: ${why}\n`;
  }
  return [
    `Mode: ${m.mode}. ${m.calls} mixed calls (observers, screen captures and failing validation calls), RSS of the server process from /proc.`,
    '',
    table(
      ['calls made', 'RSS MB'],
      (m.rss_mb ?? []).map(([c, v]) => [c, v]),
    ),
    '',
    `After start ${m.after_start_mb} MB, after all calls ${m.after_all_mb} MB, growth across the second half ${m.growth_second_half_mb} MB.`,
    '',
  ].join('\n');
}

export function renderMarkdown(r: BenchResults): string {
  const targets: Target[] = [];
  if (r.tokenEconomy.status === 'measured') targets.push(...tokenTargets(r.tokenEconomy as TokenEconomyResult));
  if (r.cpu.status === 'measured' && (r.cpu as CpuResult).largest) {
    const l = (r.cpu as CpuResult).largest!;
    targets.push({
      name: '2. CPU on the largest fixture < 20 ms',
      value: `${l.total_ms} ms (${short(l.file)}, ${l.bytes} B)`,
      met: l.total_ms < 20,
    });
  }
  if ('entries' in r.catalogue) {
    const ours = r.catalogue.entries.find((e) => e.label === 'android-mcp-harness');
    if (ours?.status === 'measured') {
      targets.push({
        // In what a model pays: every parameter is described since, and tokens are the cost (chars were 6,500).
        name: '3. our catalogue ≤ 2,000 o200k tokens',
        value: `${ours.catalogue?.tokens_o200k} (${ours.catalogue?.chars} characters)`,
        met: (ours.catalogue?.tokens_o200k ?? Infinity) <= 2000,
      });
      for (const peer of r.catalogue.entries.filter((e) => e.label !== 'android-mcp-harness')) {
        targets.push({
          name: `3. our start-up faster than ${peer.label}`,
          value:
            peer.status === 'measured'
              ? `${ours.startup_ms?.median} ms vs ${peer.startup_ms?.median} ms`
              : `not measured: ${peer.reason}`,
          met:
            peer.status === 'measured' ? (ours.startup_ms?.median ?? Infinity) < (peer.startup_ms?.median ?? 0) : null,
        });
      }
    } else targets.push({ name: '3. our catalogue and start-up', value: `not measured: ${ours?.reason}`, met: null });
  }
  const e = r.endToEnd;
  if (e.status === 'measured') {
    const missed = e.tools.filter((t) => !t.target_met);
    targets.push({
      name: '4. overhead ≤ max(10 % of the call, 15 ms), every tool',
      value: missed.length
        ? `missed by ${missed.map((t) => `${t.tool} (${t.overhead_ms.median} ms of ${t.total_ms.median})`).join(', ')}`
        : 'all tools',
      met: missed.length === 0,
    });
  } else targets.push({ name: '4. end to end', value: `skipped: ${e.reason}`, met: null });
  const m = e.memory;
  if (m?.status === 'measured') {
    targets.push({
      name: `5. RSS ≤ 150 MB after ${m.calls} calls (${m.mode})`,
      value: `${m.after_all_mb} MB`,
      met: (m.after_all_mb ?? Infinity) <= 150,
    });
    targets.push({
      name: '5. no growth across the second half (≤ 2 MB of noise)',
      value: `${m.growth_second_half_mb} MB`,
      met: (m.growth_second_half_mb ?? Infinity) <= 2,
    });
  } else targets.push({ name: '5. memory', value: `skipped: ${m?.reason ?? 'not run'}`, met: null });
  const c = r.deviceCapture;
  if (c.status === 'measured') {
    const worst = Math.max(...c.rows.map((row) => row.wall_ms.median));
    targets.push({
      name: `6. virtual device capture (${c.width}x${c.height} PNG, real text) median < 100 ms, every screen`,
      value: `${worst} ms (slowest screen's median wall time)`,
      met: worst < 100,
    });
  } else targets.push({ name: '6. virtual device capture', value: `skipped: ${c.reason}`, met: null });
  targets.push(...headToHeadTargets(r.headToHead));

  const mc = r.machine;
  return [
    '# Benchmark results (latest run)',
    '',
    `Measured ${mc.date} on ${mc.cpu} × ${mc.cores} cores, ${mc.memory_gb} GB, ${mc.os}, Node ${mc.node}, commit ${r.commit}. Reproduce: \`npm run bench\` (see bench/README.md).`,
    `Machine load (1/5/15 min) ${mc.load_avg.join(' / ')} at the start, ${r.load_avg_end.join(' / ')} at the end: on ${mc.cores} cores, a load above ${mc.cores} means the times below include waiting for a core. Virtual device timing: ${mc.timing} (docs/internals/virtual-device.md, "Timing").`,
    `Build: ${r.build.ok ? 'ok' : `failed (${r.build.detail})`}. Peers: ${r.peers.map((p) => (p.installed ? `${p.pkg} ${p.version}` : `${p.pkg}: ${p.reason}`)).join('; ') || 'not installed in this run'}.`,
    '',
    '## Targets',
    table(
      ['target', 'value', 'verdict'],
      targets.map((t) => [t.name, t.value, yes(t.met)]),
    ),
    '',
    '## 1. Token economy',
    tokenSection(r.tokenEconomy as TokenEconomyResult, r),
    '## 2. Harness CPU cost',
    r.cpu.status === 'measured' ? cpuSection(r.cpu as CpuResult) : `Skipped: ${(r.cpu as { reason: string }).reason}\n`,
    '## 3. Catalogue and start-up',
    'entries' in r.catalogue ? catalogueSection(r.catalogue, r.ourCatalogueRaw) : `Skipped: ${r.catalogue.reason}\n`,
    '## 4. End to end on the virtual device',
    e2eSection(r),
    '## 7. Calls, tokens and time per flow step',
    stepSection(r),
    '## 5. Memory',
    memorySection(r),
    '## 6. Virtual device screen capture',
    captureSection(r.deviceCapture),
    '## 8. Head-to-head with mobile-mcp on the same device',
    headToHeadSection(r.headToHead),
  ].join('\n');
}

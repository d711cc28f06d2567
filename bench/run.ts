/**
 * `npm run bench`: every figure of bench/README.md in one run, written to bench/results/latest.{json,md}.
 * Benchmarks report; they never fail on timing. Exit code 0 unless the bench itself crashed.
 *
 * Flags: --parts=1,2,3,4,5,6,7,8 (default all) · --rounds=N (part 8, default 6)
 *        --spawns=N (part 3, default 7) · --calls=N (part 4, default 30)
 *        --no-build (use dist/ as it is) · --quick (fewer repetitions, for a smoke run)
 *        --write-docs (docs/internals/performance.md's bench block and chart become this run's)
 *        --baseline=<folder> (part 7: another checkout, built, whose act-then-read loop runs beside this build's)
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { loadDomain, type DomainApi } from './lib/domain.js';
import { describeMachine, loadNow } from './lib/machine.js';
import { REPO_ROOT, RESULTS_DIR } from './lib/paths.js';
import { installPeer, PEERS, peerPackageDir, type PeerInstall } from './lib/peerInstall.js';
import { checkMobileMcpFidelity, type FidelityResult } from './peers/fidelity.js';
import { runTokenEconomy, type TokenEconomyResult } from './parts/tokenEconomy.js';
import { runCpuCost, type CpuResult } from './parts/cpuCost.js';
import { ourServer, peerServer, runCatalogue, type CatalogueResult } from './parts/catalogue.js';
import { runEndToEnd, type EndToEndResult } from './parts/endToEnd.js';
import { runDeviceCapture, type DeviceCaptureResult } from './parts/deviceCapture.js';
import { runHeadToHead, type HeadToHeadResult } from './parts/headToHead.js';
import { renderMarkdown } from './report/markdown.js';
import { renderChart } from './report/chart.js';
import { withBenchBlock } from './report/performanceDoc.js';

const run = promisify(execFile);

function flag(name: string): string | undefined {
  const hit = process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (!hit) return undefined;
  return hit.includes('=') ? hit.slice(hit.indexOf('=') + 1) : 'true';
}

const log = (line: string): void => {
  process.stderr.write(`[bench] ${line}\n`);
};

export interface BenchResults {
  readonly machine: ReturnType<typeof describeMachine>;
  /** Load averages when the run ended, beside the machine's at its start. */
  readonly load_avg_end: readonly number[];
  readonly commit: string;
  readonly build: { ok: boolean; detail?: string };
  readonly peers: { label: string; pkg: string; version?: string; installed: boolean; reason?: string }[];
  readonly fidelity: FidelityResult;
  readonly tokenEconomy: TokenEconomyResult | { status: 'skipped'; reason: string };
  readonly cpu: CpuResult | { status: 'skipped'; reason: string };
  readonly catalogue: CatalogueResult | { status: 'skipped'; reason: string };
  readonly ourCatalogueRaw?: { tools: Record<string, unknown>[] };
  readonly endToEnd: EndToEndResult;
  readonly deviceCapture: DeviceCaptureResult;
  readonly headToHead: HeadToHeadResult;
}

async function build(): Promise<{ ok: boolean; detail?: string }> {
  if (flag('no-build')) return { ok: true, detail: 'skipped by --no-build' };
  try {
    await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], {
      cwd: REPO_ROOT,
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { ok: true };
  } catch (err) {
    const e = err as { stdout?: string; message?: string };
    return {
      ok: false,
      detail: (e.stdout || e.message || String(err))
        .split('\n')
        .filter((l) => l.includes('error'))
        .slice(0, 5)
        .join(' | '),
    };
  }
}

/** mobile-mcp's bin when it installed, for part 7's head-to-head. */
function mobileMcpBin(installs: readonly PeerInstall[]): { mobileMcpBin?: string } {
  const found = installs.find((i) => i.ok && i.spec.label === 'mobile-mcp');
  return found?.ok ? { mobileMcpBin: found.bin } : {};
}

async function main(): Promise<void> {
  const parts = new Set((flag('parts') ?? '1,2,3,4,5,6,7,8').split(',').map((p) => p.trim()));
  const quick = flag('quick') !== undefined;
  const machine = describeMachine();
  log(`machine: ${machine.cpu} × ${machine.cores}, ${machine.memory_gb} GB, Node ${machine.node}`);

  log('building dist/ (npm run build)…');
  const built = await build();
  if (!built.ok) log(`build failed: ${built.detail}`);

  let installs: PeerInstall[] = [];
  if (parts.has('1') || parts.has('3') || parts.has('7') || parts.has('8')) {
    log('installing the published peers into the scratch folder…');
    installs = await Promise.all(PEERS.map((p) => installPeer(p)));
    for (const i of installs)
      log(i.ok ? `peer ${i.spec.label} ${i.version}` : `peer ${i.spec.label}: not measured: ${i.reason}`);
  }
  const mobileInstall = installs.find((i): i is PeerInstall & { ok: true } => i.ok && i.spec.label === 'mobile-mcp');

  let domain: DomainApi | null = null;
  let domainError = '';
  try {
    domain = await loadDomain();
  } catch (err) {
    domainError = `the domain did not load: ${err instanceof Error ? err.message : String(err)}`;
  }

  let tokenEconomy: BenchResults['tokenEconomy'] = { status: 'skipped', reason: 'not requested' };
  let fidelity: FidelityResult = {
    status: 'not checked',
    reason: 'part 1 not requested',
    files: 0,
    identical: 0,
    mismatches: [],
  };
  if (parts.has('1')) {
    log('part 1: token economy…');
    tokenEconomy = domain ? runTokenEconomy(domain) : { status: 'skipped', reason: domainError };
    fidelity = checkMobileMcpFidelity(mobileInstall ? peerPackageDir(mobileInstall) : null);
    log(`  mobile-mcp rebuild fidelity: ${fidelity.status} ${fidelity.identical}/${fidelity.files}`);
  }

  let cpu: BenchResults['cpu'] = { status: 'skipped', reason: 'not requested' };
  if (parts.has('2')) {
    log('part 2: CPU cost…');
    cpu = domain ? runCpuCost(domain, quick ? 50 : 100, quick ? 10 : 20) : { status: 'skipped', reason: domainError };
  }

  let catalogue: BenchResults['catalogue'] = { status: 'skipped', reason: 'not requested' };
  let ourCatalogueRaw: BenchResults['ourCatalogueRaw'];
  if (parts.has('3')) {
    log('part 3: catalogue and start-up…');
    const servers = [ourServer(), ...installs.map(peerServer)];
    const spawns = Number(flag('spawns') ?? (quick ? 3 : 7));
    const result = await runCatalogue(servers, spawns);
    ourCatalogueRaw = result.ourRaw;
    catalogue = { spawns: result.spawns, entries: result.entries };
  }

  let endToEnd: EndToEndResult = { status: 'skipped', reason: 'not requested' };
  if (parts.has('4') || parts.has('5') || parts.has('7')) {
    log('parts 4–5, 7: end to end, memory, per flow step…');
    endToEnd = await runEndToEnd({
      built: built.ok || existsSync(join(REPO_ROOT, 'dist', 'index.js')),
      calls: Number(flag('calls') ?? (quick ? 10 : 30)),
      memoryCalls: quick ? 200 : 1000,
      parts,
      log,
      ...(flag('baseline') ? { baseline: resolve(String(flag('baseline'))) } : {}),
      tapSeries: quick ? { rounds: 3, taps: 10 } : { rounds: 5, taps: 12 },
      ...mobileMcpBin(installs),
    });
  }

  let deviceCapture: DeviceCaptureResult = {
    status: 'skipped',
    reason: 'not requested',
    runs: 0,
    width: 0,
    height: 0,
    rows: [],
  };
  if (parts.has('6')) {
    log('part 6: virtual device screen capture…');
    try {
      deviceCapture = runDeviceCapture(quick ? 10 : 20, quick ? 2 : 3);
    } catch (err) {
      deviceCapture = {
        status: 'skipped',
        reason: `the renderer failed: ${err instanceof Error ? err.message : String(err)}`,
        runs: 0,
        width: 0,
        height: 0,
        rows: [],
      };
    }
  }

  let headToHead: HeadToHeadResult = { status: 'skipped', reason: 'not requested' };
  if (parts.has('8')) {
    log('part 8: head-to-head with mobile-mcp on the same device…');
    headToHead = await runHeadToHead({
      rounds: Number(flag('rounds') ?? (quick ? 2 : 6)),
      timing: machine.timing,
      log,
      ...mobileMcpBin(installs),
    });
    if (headToHead.status === 'skipped') log(`  skipped: ${headToHead.reason}`);
    else
      for (const r of headToHead.ratios)
        log(`  ${r.flow} vs ${r.against}: time ${r.time}, tokens ${r.tokens}, calls ${r.calls}`);
  }

  const commit = await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT }).then(
    (r) => r.stdout.trim(),
    () => 'unknown',
  );
  const results: BenchResults = {
    machine,
    load_avg_end: loadNow(),
    commit,
    build: built,
    peers: installs.map((i) => ({
      label: i.spec.label,
      pkg: i.spec.pkg,
      installed: i.ok,
      ...(i.ok ? { version: i.version } : { reason: i.reason }),
    })),
    fidelity,
    tokenEconomy,
    cpu,
    catalogue,
    ...(ourCatalogueRaw ? { ourCatalogueRaw } : {}),
    endToEnd,
    deviceCapture,
    headToHead,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(results, null, 1)}\n`);
  writeFileSync(join(RESULTS_DIR, 'latest.md'), renderMarkdown(results));
  log(`wrote ${join('bench', 'results', 'latest.md')} and latest.json`);
  // The headline ratios as a picture (docs/internals/performance.md links the copy committed under docs/).
  const subtitle = `npm run bench${quick ? ' --quick' : ''}, parts ${[...parts].sort().join(',')}, ${machine.date.slice(0, 16).replace('T', ' ')} UTC, commit ${commit}; ${machine.cores} cores, load ${machine.load_avg[0]}, device timing ${machine.timing}, Node ${machine.node}`;
  let chartWritten = false;
  try {
    const svg = await renderChart(results, subtitle);
    if (svg) {
      writeFileSync(join(RESULTS_DIR, 'chart.svg'), svg);
      chartWritten = true;
      log(`wrote ${join('bench', 'results', 'chart.svg')}`);
    } else log('no chart: none of its figures was measured (parts 1, 3 or 4)');
  } catch (err) {
    log(`no chart: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (flag('write-docs')) {
    const page = join(REPO_ROOT, 'docs', 'internals', 'performance.md');
    writeFileSync(page, withBenchBlock(readFileSync(page, 'utf8'), renderMarkdown(results)));
    const chart = join(RESULTS_DIR, 'chart.svg');
    if (chartWritten) copyFileSync(chart, join(REPO_ROOT, 'docs', 'internals', 'performance-chart.svg'));
    log('wrote docs/internals/performance.md (its bench block) and performance-chart.svg');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`[bench] crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});

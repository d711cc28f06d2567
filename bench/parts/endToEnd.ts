/**
 * Parts 4 and 5: the built server over real stdio, driving the virtual device through the real adb
 * (a private adb server) and the real Appium. Latency per tool, split from outside the harness into
 * time inside adb processes (timed adb wrapper, lib/timedAdb.ts), time inside Appium requests (timed
 * proxy, lib/timedProxy.ts) and the rest: the harness's own overhead (stdio, validation, gate,
 * summary, evidence PNG checks and writes). Then memory over 1,000 mixed calls.
 */
import { nameOfEntry, selectorOfEntry, type WireActionEntry } from '../../src/application/screen/wireSummary.js';
import { execFile } from 'node:child_process';
import { readFileSync, mkdtempSync, existsSync, rmSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cleanEnv, closeServer, spawnServer, type Spawned } from '../lib/mcpClient.js';
import { loadTestSupport, startDeviceStack } from '../lib/deviceStack.js';
import { REPO_ROOT } from '../lib/paths.js';
import { median, p95, round } from '../lib/stats.js';
import { createTimedAdb } from '../lib/timedAdb.js';
import { coveredMs, startTimedProxy } from '../lib/timedProxy.js';
import { measure, type Size } from '../lib/tokens.js';
import { startMobileMcp } from '../peers/mobileMcpRun.js';
import { runStepLoops, type PeerLoopName, type StepLoopsResult } from './stepLoops.js';

export interface ToolLatency {
  readonly tool: string;
  readonly calls: number;
  readonly failures: number;
  readonly total_ms: { median: number; p95: number };
  readonly adb_ms: { median: number };
  readonly appium_ms: { median: number };
  readonly overhead_ms: { median: number; p95: number };
  /** Median overhead over median total, in percent. */
  readonly overhead_percent: number;
  /** CONTRACT target: overhead ≤ max(10 % of the call, 15 ms), judged on medians. */
  readonly target_met: boolean;
  readonly firstError?: string;
}

export interface MemoryResult {
  readonly status: 'measured' | 'skipped';
  readonly mode?: 'virtual device' | 'no device (every device call fails fast)';
  readonly reason?: string;
  readonly calls?: number;
  /** [calls made, RSS in MB] */
  readonly rss_mb?: [number, number][];
  readonly after_start_mb?: number;
  readonly after_all_mb?: number;
  readonly growth_second_half_mb?: number;
}

export type EndToEndResult =
  | { readonly status: 'skipped'; readonly reason: string; readonly memory?: MemoryResult }
  | {
      readonly status: 'measured';
      readonly iterations: number;
      readonly tools: ToolLatency[];
      readonly flowSaving?: { without_ms: number; with_ms: number };
      /**
       * Consecutive per-action ui_tap calls (no session_id, one device_back between two) against
       * ui_tap inside a flow. `first_ms` is the first call of the series (it opens the session);
       * `later_ms` the median of the later ones; `ratio` = later / in-flow median.
       */
      readonly perAction?: { first_ms: number; later_ms: number; later_calls: number; flow_ms: number; ratio: number };
      readonly uiGetTreeWire?: { text: Size; structuredEqualsText: boolean };
      /** Part 7: calls, tokens and time per flow step in three loops (parts/stepLoops.ts). */
      readonly stepLoops?: StepLoopsResult;
      readonly notes: string[];
      readonly memory: MemoryResult;
    };

export interface EndToEndOptions {
  readonly built: boolean;
  readonly calls: number;
  readonly memoryCalls: number;
  readonly parts: Set<string>;
  readonly log: (line: string) => void;
  /**
   * `--baseline=<folder>`: another checkout of the repository, built (its dist/index.js), whose
   * act-then-read loop part 7 runs beside this build's, in the same environment and on the same screens.
   */
  readonly baseline?: string;
  /** Part 7's tap series: rounds × taps per round per build. */
  readonly tapSeries?: { readonly rounds: number; readonly taps: number };
  /** mobile-mcp's installed bin: part 7 then runs it on the same device, with its default and its legacy robot. */
  readonly mobileMcpBin?: string;
}

const run = promisify(execFile);

/** An offered action as the summary sends it (docs/reference/summary.md): flat, absent fields have their default. */
type WireAction = WireActionEntry;
const nameOf = (a: WireAction): string => nameOfEntry(a);
const roleOf = (a: WireAction): string => a.role ?? 'button';

function envelopeOf(result: CallToolResult): {
  ok: boolean;
  data: Record<string, unknown>;
  error: { code: string; message: string } | null;
} {
  const sc = result.structuredContent as
    { ok: boolean; data: Record<string, unknown>; error: { code: string; message: string } | null } | undefined;
  if (sc) return sc;
  const first = result.content[0];
  return JSON.parse(first && first.type === 'text' ? first.text : '{}');
}

const rssMb = (pid: number | null | undefined): number => {
  if (!pid) return Number.NaN;
  const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)\s+kB/);
  return m ? round(Number(m[1]) / 1024, 1) : Number.NaN;
};

interface Sample {
  readonly label: string;
  readonly total: number;
  readonly adb: number;
  readonly appium: number;
  /** Union of adb and Appium time within the call (they may overlap). */
  readonly inside: number;
  readonly ok: boolean;
  readonly error?: string;
}

async function memoryRun(server: Spawned, calls: number, withDevice: boolean): Promise<MemoryResult> {
  const mix: [string, Record<string, unknown>][] = [
    ['emulator_get_status', {}],
    ['ui_get_tree', {}],
    // A capture (the device's frame, encoded here, written as evidence, a preview returned): the memory goal counts them.
    ['screen_capture', {}],
    ['app_list_installed', {}],
    ['ui_tap', { selector: {} }],
    ['app_open', { package_name: 'com.x; rm -rf /' }],
    ['ui_scroll', { direction: 'sideways' }],
    ['ui_get_tree', { session_id: 'not a session' }],
    ['ui_type_text', { selector: { text: 'x' }, text: 'line\nbreak' }],
  ];
  const rss: [number, number][] = [[0, rssMb(server.transport.pid)]];
  for (let i = 1; i <= calls; i++) {
    const [name, args] = mix[i % mix.length] as [string, Record<string, unknown>];
    await server.client.callTool({ name, arguments: args }).catch(() => undefined);
    if (i % 100 === 0) rss.push([i, rssMb(server.transport.pid)]);
  }
  const at = (n: number): number => rss.find(([c]) => c === n)?.[1] ?? Number.NaN;
  const half = Math.floor(calls / 200) * 100;
  return {
    status: 'measured',
    mode: withDevice ? 'virtual device' : 'no device (every device call fails fast)',
    calls,
    rss_mb: rss,
    after_start_mb: at(0),
    after_all_mb: at(calls),
    growth_second_half_mb: round(at(calls) - at(half), 1),
  };
}

async function memoryWithoutDevice(options: EndToEndOptions): Promise<MemoryResult> {
  const bin = join(REPO_ROOT, 'dist', 'index.js');
  if (!existsSync(bin)) return { status: 'skipped', reason: 'dist/index.js is missing' };
  const cwd = mkdtempSync(join(tmpdir(), 'amh-bench-mem-'));
  const server = await spawnServer(
    process.execPath,
    [bin],
    cleanEnv({
      ANDROID_ADB_SERVER_PORT: '5999',
      ANDROID_HOME: cwd,
      ANDROID_SDK_ROOT: cwd,
      PATH: '/nonexistent',
      APPIUM_URL: 'http://127.0.0.1:9',
    }),
    cwd,
  );
  try {
    return await memoryRun(server, options.memoryCalls, false);
  } finally {
    await closeServer(server);
    rmSync(cwd, { recursive: true, force: true });
  }
}

/**
 * The server of another build (`--baseline`), spawned over stdio in the same environment as this one
 * (the timed adb and Appium proxy, the device) with a working folder of its own; stopped with the rest.
 * Named by its commit when the folder is a git checkout.
 */
async function startBaseline(
  folder: string,
  env: Record<string, string>,
  cleanups: (() => Promise<unknown>)[],
  notes: string[],
): Promise<{ client: Spawned['client']; label: string } | undefined> {
  const bin = join(folder, 'dist', 'index.js');
  if (!existsSync(bin)) {
    notes.push(`--baseline: ${bin} is missing (build that checkout first), so no baseline loop ran`);
    return undefined;
  }
  const label = await run('git', ['rev-parse', '--short', 'HEAD'], { cwd: folder }).then(
    (r) => r.stdout.trim(),
    () => folder,
  );
  const cwd = mkdtempSync(join(tmpdir(), 'amh-bench-baseline-'));
  cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
  const server = await spawnServer(process.execPath, [bin], env, cwd);
  cleanups.push(() => closeServer(server));
  return { client: server.client, label };
}

/**
 * Part 7's tap series runs on servers of its own without the timing wrappers: an SDK root whose
 * platform-tools/adb is a symbolic link to the real adb (no bash in between) and Appium directly.
 */
async function plainServers(
  realAdb: string,
  extra: Record<string, string>,
  baselineFolder: string | undefined,
  cleanups: (() => Promise<unknown>)[],
  notes: string[],
): Promise<{ client: Spawned['client']; baseline?: Spawned['client'] }> {
  const root = mkdtempSync(join(tmpdir(), 'amh-bench-plain-sdk-'));
  cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'platform-tools'));
  symlinkSync(realAdb, join(root, 'platform-tools', 'adb'));
  const env = cleanEnv({ ...extra, ANDROID_HOME: root, ANDROID_SDK_ROOT: root });
  const cwd = mkdtempSync(join(tmpdir(), 'amh-bench-series-'));
  cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
  const server = await spawnServer(process.execPath, [join(REPO_ROOT, 'dist', 'index.js')], env, cwd);
  cleanups.push(() => closeServer(server));
  const baseline = baselineFolder ? await startBaseline(baselineFolder, env, cleanups, notes) : undefined;
  return { client: server.client, ...(baseline ? { baseline: baseline.client } : {}) };
}

const PER_ACTION_FIRST = 'ui_tap (no flow, first of a series)';
const PER_ACTION_LATER = 'ui_tap (no flow, later in the series)';

type Call = (label: string, name: string, args?: Record<string, unknown>) => Promise<Record<string, unknown> | null>;

/**
 * What a model that never opens a flow pays per tap. `settings_open_apps` first (it
 * navigates through adb and dumps, so no session of the harness is left from before), then
 * `ui_tap` on an app row and `device_back`, repeated, without session_id and without pause:
 * the first tap opens a session, the later ones find what the harness kept (or open their own).
 */
async function perActionSeries(call: Call, taps: number, notes: string[]): Promise<void> {
  await call('settings_open_apps', 'settings_open_apps');
  const tree = (await call('ui_get_tree', 'ui_get_tree')) as { actions?: WireAction[] } | null;
  const usable = (tree?.actions ?? []).filter(
    (a) => selectorOfEntry(a) !== null && !a.ambiguous && a.enabled !== false && !a.covered_by_keyboard,
  );
  const target = usable.find((a) => nameOf(a) === 'Calendar') ?? usable.find((a) => roleOf(a) === 'button');
  if (!target) {
    notes.push('no usable button on Settings → Apps: the per-action series was not measured');
    return;
  }
  for (let i = 0; i < taps; i++) {
    await call(i === 0 ? PER_ACTION_FIRST : PER_ACTION_LATER, 'ui_tap', { selector: selectorOfEntry(target) });
    await call('device_back (no flow, in the series)', 'device_back');
  }
}

export async function runEndToEnd(options: EndToEndOptions): Promise<EndToEndResult> {
  const { log } = options;
  if (!options.built) return { status: 'skipped', reason: 'the build failed, so there is no dist/index.js to run' };
  const support = await loadTestSupport().catch(() => null);
  if (!support) {
    const missing = 'test/support is absent, so there is no virtual device to drive';
    log(`  skipped: ${missing}; memory measured without a device instead`);
    return {
      status: 'skipped',
      reason: missing,
      memory: options.parts.has('5')
        ? await memoryWithoutDevice(options)
        : { status: 'skipped', reason: 'not requested' },
    };
  }
  if (!support.locateAdb())
    return {
      status: 'skipped',
      reason: 'adb is not installed (apt-get install -y adb)',
      memory: await memoryWithoutDevice(options),
    };

  // Everything started here is stopped by pid in `finally`, newest first: the server (stdin closed,
  // then killed if it lingers), the proxy, Appium, the virtual device and the private adb server.
  const cleanups: (() => Promise<unknown>)[] = [];
  const notes: string[] = [];
  try {
    const { adbServer, vd, appium } = await startDeviceStack(support, cleanups);
    const serial = vd.serial;
    cleanups.push(async () => {
      // No Appium session may outlive the run (the contract's no-orphan rule); say so if one did.
      const left = await appium.sessionIds().catch(() => []);
      if (left.length > 0) notes.push(`${left.length} Appium session(s) left after the run`);
    });
    const proxy = await startTimedProxy(appium.url);
    cleanups.push(() => proxy.close());
    const timedAdb = createTimedAdb(adbServer.adbPath);
    cleanups.push(async () => rmSync(timedAdb.androidHome, { recursive: true, force: true }));
    const cwd = mkdtempSync(join(tmpdir(), 'amh-bench-e2e-'));
    cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
    const env = cleanEnv({
      ANDROID_HOME: timedAdb.androidHome,
      ANDROID_SDK_ROOT: timedAdb.androidHome,
      ANDROID_ADB_SERVER_PORT: String(adbServer.port),
      ANDROID_UDID: serial,
      ANDROID_MCP_ALLOW_SERIALS: serial,
      APPIUM_URL: proxy.url,
      ANDROID_MCP_LOG_LEVEL: 'warn',
    });
    const server = await spawnServer(process.execPath, [join(REPO_ROOT, 'dist', 'index.js')], env, cwd);
    cleanups.push(() => closeServer(server));

    const samples: Sample[] = [];
    const call = async (
      label: string,
      name: string,
      args: Record<string, unknown> = {},
    ): Promise<Record<string, unknown> | null> => {
      const from = performance.timeOrigin + performance.now();
      const result = (await server.client.callTool({ name, arguments: args })) as CallToolResult;
      const to = performance.timeOrigin + performance.now();
      const adbIntervals = timedAdb.intervals();
      const appiumIntervals = proxy.intervals();
      const adb = coveredMs(adbIntervals, from, to);
      const appiumMs = coveredMs(appiumIntervals, from, to);
      const inside = coveredMs([...adbIntervals, ...appiumIntervals], from, to);
      const env_ = envelopeOf(result);
      samples.push({
        label,
        total: to - from,
        adb,
        appium: appiumMs,
        inside,
        ok: env_.ok,
        ...(env_.ok ? {} : { error: `${env_.error?.code}: ${env_.error?.message}`.slice(0, 200) }),
      });
      return env_.ok ? env_.data : null;
    };

    // The wire form of ui_get_tree, checked once: text block = JSON of structuredContent.
    const first = (await server.client.callTool({ name: 'ui_get_tree', arguments: {} })) as CallToolResult;
    const block = first.content[0];
    const text = block && block.type === 'text' ? block.text : '';
    const uiGetTreeWire = {
      text: measure(text),
      structuredEqualsText: text === JSON.stringify(first.structuredContent),
    };

    const iterations = options.parts.has('4') ? options.calls : 0;
    if (iterations > 0) await perActionSeries(call, iterations, notes);
    for (let i = 0; i < iterations; i++) {
      await call('emulator_get_status', 'emulator_get_status');
      await call('app_list_installed', 'app_list_installed');
      await call('ui_get_tree', 'ui_get_tree');
      await call('screen_capture', 'screen_capture');
      await call('app_open', 'app_open', { package_name: 'com.android.settings' });
      await call('settings_open_apps', 'settings_open_apps');
      const tree = (await call('ui_get_tree', 'ui_get_tree')) as { actions?: WireAction[] } | null;
      // By selector (what the part measured before refs): entries that have one.
      const usable = (tree?.actions ?? []).filter(
        (a) => selectorOfEntry(a) !== null && !a.ambiguous && a.enabled !== false && !a.covered_by_keyboard,
      );
      const target = usable.find((a) => nameOf(a) === 'Calendar') ?? usable.find((a) => roleOf(a) === 'button');
      if (target) {
        await call('ui_tap (no flow)', 'ui_tap', { selector: selectorOfEntry(target) });
        await call('device_back (no flow)', 'device_back');
      } else if (i === 0) notes.push('no usable button on Settings → Apps: ui_tap not measured');
      await call('ui_scroll (no flow)', 'ui_scroll', { direction: 'down' });
      await call('ui_scroll (no flow)', 'ui_scroll', { direction: 'up' });
      const session = (await call('ui_session_open', 'ui_session_open')) as { session_id?: string } | null;
      if (session?.session_id) {
        if (target) {
          await call('ui_tap (flow)', 'ui_tap', { selector: selectorOfEntry(target), session_id: session.session_id });
          await call('device_back (flow)', 'device_back', { session_id: session.session_id });
        }
        await call('ui_get_tree (flow)', 'ui_get_tree', { session_id: session.session_id });
        await call('ui_scroll (flow)', 'ui_scroll', { direction: 'down', session_id: session.session_id });
        await call('ui_scroll (flow)', 'ui_scroll', { direction: 'up', session_id: session.session_id });
        await call('ui_session_close', 'ui_session_close', { session_id: session.session_id });
      }
      const input = (tree?.actions ?? []).find(
        (a) => roleOf(a) === 'input' && selectorOfEntry(a) !== null && !a.ambiguous,
      );
      if (input)
        await call('ui_type_text (no flow)', 'ui_type_text', { selector: selectorOfEntry(input), text: 'cal' });
      else if (i === 0) notes.push('no input on Settings → Apps: ui_type_text not measured');
      if ((i + 1) % 5 === 0) log(`  e2e iteration ${i + 1}/${iterations}`);
    }

    const labels = [...new Set(samples.map((s) => s.label))];
    const tools: ToolLatency[] = labels.map((label) => {
      const got = samples.filter((s) => s.label === label);
      const totals = got.map((s) => s.total);
      const overhead = got.map((s) => Math.max(0, s.total - s.inside));
      const medTotal = median(totals);
      const medOver = median(overhead);
      const failures = got.filter((s) => !s.ok);
      return {
        tool: label,
        calls: got.length,
        failures: failures.length,
        total_ms: { median: round(medTotal, 1), p95: round(p95(totals), 1) },
        adb_ms: { median: round(median(got.map((s) => s.adb)), 1) },
        appium_ms: { median: round(median(got.map((s) => s.appium)), 1) },
        overhead_ms: { median: round(medOver, 1), p95: round(p95(overhead), 1) },
        overhead_percent: round((100 * medOver) / medTotal, 1),
        target_met: medOver <= Math.max(0.1 * medTotal, 15),
        ...(failures[0]?.error ? { firstError: failures[0].error } : {}),
      };
    });
    const tapNoFlow = tools.find((t) => t.tool === 'ui_tap (no flow)');
    const tapFlow = tools.find((t) => t.tool === 'ui_tap (flow)');
    const tapFirst = tools.find((t) => t.tool === PER_ACTION_FIRST);
    const tapLater = tools.find((t) => t.tool === PER_ACTION_LATER);
    const perAction =
      tapFirst && tapLater && tapFlow
        ? {
            first_ms: tapFirst.total_ms.median,
            later_ms: tapLater.total_ms.median,
            later_calls: tapLater.calls,
            flow_ms: tapFlow.total_ms.median,
            ratio: round(tapLater.total_ms.median / tapFlow.total_ms.median, 2),
          }
        : undefined;

    let stepLoops: StepLoopsResult | undefined;
    if (options.parts.has('7')) {
      const baseline = options.baseline ? await startBaseline(options.baseline, env, cleanups, notes) : undefined;
      log(`  part 7: calls, tokens and time per flow step${baseline ? ` (and the build at ${baseline.label})` : ''}…`);
      const series = options.tapSeries
        ? await plainServers(
            adbServer.adbPath,
            {
              ANDROID_ADB_SERVER_PORT: String(adbServer.port),
              ANDROID_UDID: serial,
              ANDROID_MCP_ALLOW_SERIALS: serial,
              APPIUM_URL: appium.url,
              ANDROID_MCP_LOG_LEVEL: 'warn',
            },
            options.baseline && baseline ? options.baseline : undefined,
            cleanups,
            notes,
          )
        : undefined;
      const peers = [];
      if (options.mobileMcpBin) {
        for (const legacy of [false, true]) {
          const name: PeerLoopName = `mobile-mcp itself (${legacy ? 'legacy adb robot' : 'default robot'})`;
          try {
            const peer = await startMobileMcp(
              options.mobileMcpBin,
              adbServer.adbPath,
              adbServer.port,
              legacy,
              cleanups,
            );
            cleanups.push(() => closeServer(peer.spawned));
            peers.push({ name, server: peer, device: serial });
          } catch (err) {
            notes.push(`${name} did not start: ${err instanceof Error ? err.message : String(err)}`);
          }
        }
      } else notes.push('mobile-mcp is not installed (parts 1, 3 or 7 install it), so it did not run in part 7');
      stepLoops = await runStepLoops(
        {
          ...(peers.length > 0
            ? { peers, releaseUiAutomation: () => vd.device.instrumentation.end('force-stop') }
            : {}),
          client: server.client,
          adbPath: adbServer.adbPath,
          adbPort: adbServer.port,
          serial,
          dumpXml: () => vd.device.dumpXml(),
          reset: () => vd.device.setScreen('settings_home'),
          intervals: () => [...timedAdb.intervals(), ...proxy.intervals()],
          ...(baseline ? { baseline } : {}),
          ...(options.tapSeries && series ? { series: { ...options.tapSeries, ...series } } : {}),
        },
        log,
      );
    }

    let memory: MemoryResult = { status: 'skipped', reason: 'not requested' };
    if (options.parts.has('5')) {
      // A fresh server: "after start" must mean after start, not after part 4's screenshots and sessions.
      await closeServer(server);
      const fresh = await spawnServer(process.execPath, [join(REPO_ROOT, 'dist', 'index.js')], env, cwd);
      cleanups.push(() => closeServer(fresh));
      log(`  memory: ${options.memoryCalls} mixed calls on a fresh server…`);
      memory = await memoryRun(fresh, options.memoryCalls, true);
    }
    return {
      status: 'measured',
      iterations,
      tools,
      ...(tapNoFlow && tapFlow
        ? { flowSaving: { without_ms: tapNoFlow.total_ms.median, with_ms: tapFlow.total_ms.median } }
        : {}),
      ...(perAction ? { perAction } : {}),
      uiGetTreeWire,
      ...(stepLoops ? { stepLoops } : {}),
      notes,
      memory,
    };
  } catch (err) {
    const reason =
      `the end-to-end environment did not come up: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500);
    log(`  skipped: ${reason}`);
    return {
      status: 'skipped',
      reason,
      memory: options.parts.has('5')
        ? await memoryWithoutDevice(options)
        : { status: 'skipped', reason: 'not requested' },
    };
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  }
}

/**
 * `node --import tsx bench/tools/stepTimeline.ts [--flows=example.json,…] [--rounds=N]`: where each step
 * of the reference flows spends its time in this harness, under the virtual device's timing (real unless
 * ANDROID_MCP_VIRTUAL_DEVICE_TIMING says otherwise). The server runs behind the bench's timed adb wrapper
 * and timed Appium proxy (lib/timedAdb.ts, lib/timedProxy.ts), so every adb process and every Appium
 * request it makes during a step is an interval; the tool prints each step's wall time beside those
 * intervals, as offsets from the call's start, and per flow the median share of each kind of work.
 *
 * It measures, it never fails on timing; nothing here ships.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadTestSupport, startDeviceStack } from '../lib/deviceStack.js';
import { cleanEnv, closeServer, spawnServer } from '../lib/mcpClient.js';
import { REPO_ROOT } from '../lib/paths.js';
import { median, round } from '../lib/stats.js';
import { createTimedAdb, type Interval } from '../lib/timedAdb.js';
import { startTimedProxy } from '../lib/timedProxy.js';

interface Flow {
  readonly package_name: string;
  readonly steps: { readonly tool: string; readonly arguments: Record<string, unknown> }[];
}

const arg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const FLOWS = (arg('flows') ?? 'example.json,login-form.json,search-list.json').split(',');
const ROUNDS = Math.max(1, Number(arg('rounds') ?? 1) || 1);
const nowEpochMs = (): number => performance.timeOrigin + performance.now();

/** A short name for an adb process or an Appium request: what kind of work it was. */
function kindOf(what: string): string {
  const shell = / shell (.*)$/.exec(what)?.[1];
  if (shell !== undefined) return `adb ${shell.split(' ').slice(0, 2).join(' ')}`.slice(0, 40);
  if (what.includes('exec-out')) return `adb ${what.slice(what.indexOf('exec-out')).split(' ').slice(0, 2).join(' ')}`;
  const http = /^(GET|POST|DELETE) \/session\/[^/]+\/?(.*)$/.exec(what);
  if (http) {
    const path = (http[2] ?? '').replace(/element\/[^/]+/, 'element/:id').replace(/\/[0-9a-f-]{36}/g, '/:id');
    return `uia2 ${http[1]} ${path || '(session)'}`;
  }
  return what.slice(0, 40);
}

async function main(): Promise<void> {
  const support = await loadTestSupport();
  if (!support) throw new Error('test/support is absent');
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const { adbServer, vd, appium } = await startDeviceStack(support, cleanups);
    const timedAdb = createTimedAdb(adbServer.adbPath);
    cleanups.push(async () => rmSync(timedAdb.androidHome, { recursive: true, force: true }));
    const proxy = await startTimedProxy(appium.url);
    cleanups.push(() => proxy.close());
    const env = cleanEnv({
      ANDROID_HOME: timedAdb.androidHome,
      ANDROID_SDK_ROOT: timedAdb.androidHome,
      ANDROID_ADB_SERVER_PORT: String(adbServer.port),
      ANDROID_UDID: vd.serial,
      ANDROID_MCP_ALLOW_SERIALS: vd.serial,
      APPIUM_URL: proxy.url,
      ANDROID_MCP_LOG_LEVEL: 'warn',
    });
    const cwd = mkdtempSync(join(tmpdir(), 'amh-bench-timeline-'));
    cleanups.push(async () => rmSync(cwd, { recursive: true, force: true }));
    const server = await spawnServer(process.execPath, [join(REPO_ROOT, 'dist', 'index.js')], env, cwd);
    cleanups.push(() => closeServer(server));
    await server.client.listTools();
    const shares = new Map<string, Map<string, number[]>>();
    for (let round_ = 0; round_ < ROUNDS; round_++)
      for (const file of FLOWS) {
        const flow = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'flows', file), 'utf8')) as Flow;
        vd.device.setScreen('settings_home' as never);
        await server.client.callTool({ name: 'app_open', arguments: { package_name: flow.package_name } });
        for (const step of flow.steps) {
          const from = nowEpochMs();
          const result = (await server.client.callTool({
            name: step.tool,
            arguments: step.arguments,
          })) as CallToolResult;
          const to = nowEpochMs();
          const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
          const ok = (JSON.parse(text) as { ok?: boolean }).ok === true;
          if (process.argv.includes('--answers')) process.stdout.write(`${text}\n`);
          const inside: Interval[] = [...timedAdb.intervals(), ...proxy.intervals()]
            .filter((i) => i.start >= from - 5 && i.end <= to + 5)
            .sort((a, b) => a.start - b.start);
          process.stdout.write(
            `\n${file} ${step.tool} ${JSON.stringify(step.arguments)} → ${ok ? 'ok' : 'FAILED'} ${round(to - from, 0)} ms\n`,
          );
          const perKind = new Map<string, number>();
          for (const i of inside) {
            const kind = kindOf(i.what);
            perKind.set(kind, (perKind.get(kind) ?? 0) + (i.end - i.start));
            process.stdout.write(
              `  ${String(round(i.start - from, 0)).padStart(6)} → ${String(round(i.end - from, 0)).padStart(6)}  ${kind}\n`,
            );
          }
          const byFlow = shares.get(file) ?? new Map<string, number[]>();
          for (const [kind, ms] of perKind) byFlow.set(kind, [...(byFlow.get(kind) ?? []), ms]);
          byFlow.set('(step)', [...(byFlow.get('(step)') ?? []), to - from]);
          shares.set(file, byFlow);
        }
      }
    for (const [file, byFlow] of shares) {
      process.stdout.write(`\n${file}: per kind, summed per step (median over the steps that had it; count)\n`);
      const rows = [...byFlow].sort((a, b) => median(b[1]) * b[1].length - median(a[1]) * a[1].length);
      for (const [kind, list] of rows)
        process.stdout.write(`  ${String(round(median(list), 0)).padStart(6)} ms ×${list.length}  ${kind}\n`);
    }
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`step timeline: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});

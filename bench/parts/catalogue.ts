/**
 * Part 3: the tool catalogue a model pays for on every conversation (bytes and tokens of the
 * tools/list result) and the time from spawn to the tools/list answer, for this server and the
 * published peers, in one run, spawned round-robin over stdio with no device attached.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { cleanEnv, spawnServer } from '../lib/mcpClient.js';
import type { PeerInstall } from '../lib/peerInstall.js';
import { REPO_ROOT } from '../lib/paths.js';
import { median, p90, round } from '../lib/stats.js';
import { measure, type Size } from '../lib/tokens.js';

export interface ServerUnderTest {
  readonly label: string;
  readonly version: string;
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

export interface CatalogueEntry {
  readonly label: string;
  readonly version?: string;
  readonly status: 'measured' | 'not measured';
  readonly reason?: string;
  readonly tools?: number;
  readonly catalogue?: Size;
  readonly longestDescription?: { tool: string; chars: number };
  readonly startup_ms?: { median: number; p90: number; samples: number[] };
  readonly initialize_ms?: { median: number };
}

export interface CatalogueResult {
  readonly spawns: number;
  readonly entries: CatalogueEntry[];
  /** This server's tools/list result as received, for the catalogue prototype. */
  readonly ourRaw?: { tools: Record<string, unknown>[] };
}

interface Sample {
  readonly total_ms: number;
  readonly init_ms: number;
  readonly rawResult: { tools: { name: string; description?: string }[] };
}

async function oneSpawn(s: ServerUnderTest): Promise<Sample> {
  const spawned = await spawnServer(s.command, s.args, s.env);
  let raw: unknown = null;
  const transport = spawned.transport;
  const forward = transport.onmessage;
  transport.onmessage = (msg: JSONRPCMessage) => {
    if ('result' in msg && msg.result && typeof msg.result === 'object' && 'tools' in msg.result) raw = msg.result;
    forward?.(msg);
  };
  try {
    await spawned.client.listTools();
    const total = performance.now() - spawned.started;
    if (raw === null) throw new Error('tools/list answered without a tools array');
    return { total_ms: total, init_ms: spawned.initialized_ms, rawResult: raw as Sample['rawResult'] };
  } catch (err) {
    throw new Error(
      `${err instanceof Error ? err.message : String(err)}; stderr: ${spawned.stderrTail().slice(-300)}`,
      {
        cause: err,
      },
    );
  } finally {
    await spawned.client.close().catch(() => undefined);
  }
}

export function ourServer(): ServerUnderTest | { label: string; reason: string } {
  const bin = join(REPO_ROOT, 'dist', 'index.js');
  if (!existsSync(bin))
    return { label: 'android-mcp-harness', reason: 'dist/index.js is missing (npm run build failed or has not run)' };
  return {
    label: 'android-mcp-harness',
    version: 'working tree',
    command: process.execPath,
    args: [bin],
    // A private, unused adb port: the server must start without touching any device.
    env: cleanEnv({ ANDROID_ADB_SERVER_PORT: '5999', ANDROID_MCP_LOG_LEVEL: 'warn' }),
  };
}

export function peerServer(install: PeerInstall): ServerUnderTest | { label: string; reason: string } {
  if (!install.ok) return { label: install.spec.label, reason: install.reason };
  return {
    label: install.spec.label,
    version: install.version,
    command: process.execPath,
    args: [install.bin],
    env: cleanEnv({ ANDROID_ADB_SERVER_PORT: '5999', ...(install.spec.env ?? {}) }),
  };
}

export async function runCatalogue(
  servers: (ServerUnderTest | { label: string; reason: string })[],
  spawns = 7,
): Promise<CatalogueResult> {
  const live = servers.filter((s): s is ServerUnderTest => 'command' in s);
  const samples = new Map<string, Sample[]>();
  const failures = new Map<string, string>();
  // Round-robin so a slow moment of the machine hits every server alike; one discarded warm-up spawn each
  // (the first spawn pays for cold file-system caches).
  for (let round_ = -1; round_ < spawns; round_++) {
    for (const s of live) {
      if (failures.has(s.label)) continue;
      try {
        const sample = await oneSpawn(s);
        if (round_ >= 0) samples.set(s.label, [...(samples.get(s.label) ?? []), sample]);
      } catch (err) {
        failures.set(
          s.label,
          `did not answer tools/list: ${err instanceof Error ? err.message : String(err)}`.slice(0, 400),
        );
      }
    }
  }
  const entries: CatalogueEntry[] = servers.map((s) => {
    if (!('command' in s)) return { label: s.label, status: 'not measured', reason: s.reason };
    const failure = failures.get(s.label);
    const got = samples.get(s.label) ?? [];
    if (failure || got.length === 0)
      return { label: s.label, version: s.version, status: 'not measured', reason: failure ?? 'no sample' };
    const result = (got[0] as Sample).rawResult;
    const longest = result.tools.reduce(
      (best, t) =>
        (t.description?.length ?? 0) > best.chars ? { tool: t.name, chars: t.description?.length ?? 0 } : best,
      { tool: '', chars: 0 },
    );
    const totals = got.map((g) => round(g.total_ms, 1));
    return {
      label: s.label,
      version: s.version,
      status: 'measured',
      tools: result.tools.length,
      catalogue: measure(JSON.stringify(result)),
      longestDescription: longest,
      startup_ms: { median: median(totals), p90: p90(totals), samples: totals },
      initialize_ms: { median: round(median(got.map((g) => g.init_ms)), 1) },
    };
  });
  const ours = samples.get('android-mcp-harness')?.[0]?.rawResult as unknown as
    { tools: Record<string, unknown>[] } | undefined;
  return { spawns, entries, ...(ours ? { ourRaw: ours } : {}) };
}

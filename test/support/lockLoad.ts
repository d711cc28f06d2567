/**
 * Load: N harness server processes, each an MCP client's own server over real
 * stdio, drive ONE virtual device with M mixed calls each (observers, captures, per-action
 * Appium actions, whole flows), with short random pauses. What is proven:
 *
 * - every call answers ok or EMULATOR_BUSY (a refusal is never anything else), and a refusal
 *   caused by another process names it (pid);
 * - the processes' ownership windows never overlap. A window is read from each process's own
 *   debug log (`device lock held` with holds 1 … `device lock released` with holds 0, wall-clock
 *   ms) — the lock adapter's own account, checked against two independent ones:
 *   - every adb call a process made (its tagged adb wrapper trace, start and end) lies inside
 *     one of ITS windows;
 *   - every device log entry (shell commands, UIA2 requests, clicks; device time mapped to wall
 *     clock) lies inside some window, and every request of one UIA2 session lies inside the
 *     windows of the process that created it: no entry of one process's operation falls in
 *     another's;
 * - operation ids are unique; every evidence file referenced exists and is a non-blank PNG;
 * - no Appium session and no lock file are left, and every process exits cleanly.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { PNG } from 'pngjs';
import type { DeviceLogEntry } from '../../packages/virtual-device/src/contracts.js';
import { REPO_ROOT } from './appium.js';
import { awaitExitOrKill } from './processes.js';
import { BUILT_BIN } from './rawServer.js';
import { sleepMs, type ReliabilityStack } from './reliabilityStack.js';
import type { WireEnvelope as Envelope } from './wireEnvelope.js';

export interface LoadOptions {
  readonly processes: number;
  readonly callsPerProcess: number;
  readonly seed: number;
  /** Longest random pause between two calls of one process. */
  readonly maxPauseMs?: number;
  /** Negative control: each process gets its own lock directory, so nothing is shared. */
  readonly isolateLocks?: boolean;
}

export interface LoadReport {
  readonly calls: number;
  readonly ok: number;
  readonly busy: number;
  readonly busyNamingAnotherProcess: number;
  readonly flows: number;
  readonly evidenceFiles: number;
  readonly windows: number;
  readonly adbCalls: number;
  readonly deviceEntriesChecked: number;
  readonly uia2Sessions: number;
  readonly durationMs: number;
  /** Every violation found; empty when the lock held. */
  readonly problems: string[];
}

interface Window {
  readonly tag: string;
  readonly start: number;
  end: number;
}

/** A tiny deterministic PRNG (mulberry32), so a run can be replayed from its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function startClient(
  env: Record<string, string>,
): Promise<{ client: Client; pid: number; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUILT_BIN],
    env,
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  const chunks: Buffer[] = [];
  const stream = transport.stderr;
  if (stream instanceof PassThrough) stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const client = new Client({ name: 'amh-load', version: '0.0.0' });
  await client.connect(transport);
  const pid = transport.pid ?? -1;
  return {
    client,
    pid,
    stderr: () => Buffer.concat(chunks).toString('utf8'),
    close: async () => {
      await client.close().catch(() => undefined);
      await awaitExitOrKill(pid, 8_000, 50);
    },
  };
}

function ownershipWindows(tag: string, stderr: string, problems: string[]): Window[] {
  const windows: Window[] = [];
  let open: Window | null = null;
  for (const line of stderr.split('\n')) {
    if (!line.includes('device lock')) continue;
    let entry: { msg?: string; holds?: number; at_ms?: number };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      continue;
    }
    if (entry.msg === 'device lock held' && entry.holds === 1 && !open) {
      open = { tag, start: entry.at_ms ?? 0, end: Number.POSITIVE_INFINITY };
      windows.push(open);
    } else if (entry.msg === 'device lock released' && entry.holds === 0) {
      if (!open) problems.push(`${tag}: a release without a hold at ${entry.at_ms}`);
      else open.end = entry.at_ms ?? 0;
      open = null;
    }
  }
  if (open) problems.push(`${tag}: a window never closed (from ${open.start})`);
  return windows;
}

function isBlankPng(bytes: Buffer): boolean {
  const { data } = PNG.sync.read(bytes);
  for (let i = 4; i < data.length; i += 4) {
    if (data[i] !== data[0] || data[i + 1] !== data[1] || data[i + 2] !== data[2] || data[i + 3] !== data[3])
      return false;
  }
  return true;
}

/** Runs the load; `entries` must be every device log entry since the start (collected through onLog). */
export async function runLockLoad(
  stack: ReliabilityStack,
  entries: readonly DeviceLogEntry[],
  options: LoadOptions,
): Promise<LoadReport> {
  const problems: string[] = [];
  const started = Date.now();
  // Device time → wall clock: a marker logged now has atMs = now - device start.
  const markAt = Date.now();
  stack.device.log('fault', 'load: clock marker');
  const marker = entries.at(-1);
  const offset = markAt - (marker?.atMs ?? 0);
  const fromIndex = entries.length;

  const clients = await Promise.all(
    Array.from({ length: options.processes }, (_, i) =>
      startClient(
        stack.harnessEnv(`p${i}`, {
          ANDROID_MCP_LOG_LEVEL: 'debug',
          ANDROID_MCP_ACTION_TIMEOUT: '30',
          ...(options.isolateLocks ? { ANDROID_MCP_LOCK_DIR: join(stack.lockDir, `isolated-p${i}`) } : {}),
        }),
      ),
    ),
  );
  const pids = clients.map((c) => c.pid);
  const envelopes: Envelope[] = [];
  /** When each process's emulator_get_status ran: it reads beside any owner, outside the windows (docs/reference/contract.md §7). */
  const besideCalls: { tag: string; start: number; end: number }[] = [];
  let flows = 0;
  const call = async (
    client: Client,
    tool: string,
    args: Record<string, unknown> = {},
    tag = '',
  ): Promise<Envelope> => {
    const start = Date.now();
    const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
      timeout: 120_000,
    })) as CallToolResult;
    if (tool === 'emulator_get_status') besideCalls.push({ tag, start, end: Date.now() });
    const envelope = result.structuredContent as unknown as Envelope;
    envelopes.push(envelope);
    return envelope;
  };

  await Promise.all(
    clients.map(async ({ client }, index) => {
      const random = prng(options.seed + index * 7919);
      let made = 0;
      while (made < options.callsPerProcess) {
        const roll = random();
        if (roll < 0.05) {
          // A whole flow: while it is open, every other process must be refused.
          const opened = await call(client, 'ui_session_open');
          made += 1;
          if (opened.ok) {
            flows += 1;
            const session_id = opened.data.session_id;
            await call(client, 'ui_scroll', { direction: 'down', session_id });
            await call(client, 'ui_get_tree', { session_id });
            await call(client, 'ui_scroll', { direction: 'up', session_id });
            await call(client, 'ui_session_close', { session_id });
            made += 4;
          }
        } else {
          const tool =
            roll < 0.4
              ? 'ui_get_tree'
              : roll < 0.58
                ? 'screen_capture'
                : roll < 0.68
                  ? 'app_list_installed'
                  : roll < 0.78
                    ? 'emulator_get_status'
                    : roll < 0.84
                      ? 'device_back'
                      : roll < 0.9
                        ? 'ui_scroll'
                        : roll < 0.95
                          ? 'settings_open_apps'
                          : 'app_open';
          const args =
            tool === 'ui_scroll'
              ? { direction: random() < 0.5 ? 'up' : 'down' }
              : tool === 'app_open'
                ? { package_name: 'com.android.settings' }
                : {};
          await call(client, tool, args, `p${index}`);
          made += 1;
        }
        await sleepMs(Math.floor(random() * (options.maxPauseMs ?? 60)));
      }
    }),
  );

  const stderrs = clients.map((c) => c.stderr());
  await Promise.all(clients.map((c) => c.close()));
  const durationMs = Date.now() - started;

  // 1. Outcomes: ok or EMULATOR_BUSY; a refusal by another process names a pid of ours.
  let busy = 0;
  let busyNamingAnotherProcess = 0;
  for (const envelope of envelopes) {
    if (envelope.ok) continue;
    if (envelope.error?.code !== 'EMULATOR_BUSY') {
      problems.push(`${envelope.tool}: ${envelope.error?.code} ${envelope.error?.message?.slice(0, 200)}`);
      continue;
    }
    busy += 1;
    const pid = /pid (\d+)/.exec(envelope.error.message)?.[1];
    if (pid !== undefined) {
      busyNamingAnotherProcess += 1;
      if (!pids.includes(Number(pid))) problems.push(`EMULATOR_BUSY names pid ${pid}, not one of the load's processes`);
    }
  }
  // 2. Unique operation ids.
  const ids = new Set(envelopes.map((e) => e.operation_id));
  if (ids.size !== envelopes.length) problems.push(`${envelopes.length - ids.size} duplicate operation ids`);
  // 3. Evidence: present, a PNG, not blank.
  const evidence = envelopes.flatMap((e) => (e.evidence ? [e.evidence.artifact_id] : []));
  for (const id of evidence) {
    const path = join(stack.artifactsDir, id);
    if (!existsSync(path)) problems.push(`evidence ${id} is missing`);
    else if (isBlankPng(readFileSync(path))) problems.push(`evidence ${id} is blank`);
  }
  // 4. Windows never overlap across processes.
  const windows = clients
    .flatMap((_, i) => ownershipWindows(`p${i}`, stderrs[i] ?? '', problems))
    .sort((a, b) => a.start - b.start);
  for (let i = 1; i < windows.length; i += 1) {
    const previous = windows[i - 1] as Window;
    const current = windows[i] as Window;
    if (current.start < previous.end && current.tag !== previous.tag)
      problems.push(
        `windows overlap: ${previous.tag} [${previous.start}, ${previous.end}] and ${current.tag} [${current.start}, ${current.end}]`,
      );
  }
  const inWindow = (t: number, tag?: string, slackMs = 0): boolean =>
    windows.some((w) => (tag === undefined || w.tag === tag) && t >= w.start - slackMs && t <= w.end + slackMs);
  // 5. Each process's adb calls lie in its own windows.
  const trace = stack.trace().filter((r) => /^p\d+$/.test(r.tag));
  for (const record of trace) {
    // The device's identity (one `getprop`, all properties, at a process's first call) and
    // the device list decide WHICH lock to take, so they are read before any: read-only, no UiAutomation.
    if (isIdentityRead(record.argv)) continue;
    // emulator_get_status's read-only reads run beside the owner, inside that process's status call.
    if (
      isBesideRead(record.argv.slice(2).join(' ')) &&
      besideCalls.some((c) => c.tag === record.tag && record.startMs >= c.start && record.endMs <= c.end)
    )
      continue;
    if (!inWindow(record.startMs, record.tag) || !inWindow(record.endMs, record.tag)) {
      problems.push(
        `${record.tag} ran adb ${record.argv.slice(2).join(' ')} outside its windows [${record.startMs}, ${record.endMs}]`,
      );
    }
  }
  // 6. The device's log: every command, request and tap in some window; each UIA2 session in its creator's.
  const owner = new Map<string, string>();
  let checked = 0;
  for (const entry of entries.slice(fromIndex)) {
    if (!['shell', 'uia2', 'click', 'input', 'unknown-command'].includes(entry.kind)) continue;
    if (entry.kind === 'shell' && /^(shell_v2|shell|exec): getprop$/.test(entry.detail)) continue;
    // The device's own notes about the instrumentation's end come after the DELETE has been answered.
    if (entry.detail.startsWith('am instrument: ') && entry.detail.includes('ended')) continue;
    const at = entry.atMs + offset;
    if (
      entry.kind === 'shell' &&
      isBesideRead(entry.detail.replace(/^(shell_v2|shell|exec): /, 'shell ')) &&
      besideCalls.some((c) => at >= c.start - 2 && at <= c.end + 2)
    )
      continue;
    checked += 1;
    const window = windows.find((w) => at >= w.start - 2 && at <= w.end + 2);
    if (!window) {
      problems.push(`device ${entry.kind} outside every window at ${at}: ${entry.detail.slice(0, 160)}`);
      continue;
    }
    const session = /\/session\/([0-9a-f-]{36})/.exec(entry.detail)?.[1];
    if (session) {
      const first = owner.get(session);
      if (first === undefined) owner.set(session, window.tag);
      else if (first !== window.tag)
        problems.push(
          `UIA2 session ${session} of ${first} used inside ${window.tag}'s window: ${entry.detail.slice(0, 120)}`,
        );
    }
  }
  // 7. Nothing left behind.
  const sessions = (await stack.appium?.sessionIds()) ?? [];
  if (sessions.length > 0) problems.push(`Appium holds ${sessions.length} session(s) after the load`);
  const locks = existsSync(stack.lockDir)
    ? readdirSync(stack.lockDir).filter((name) => !name.startsWith('isolated-'))
    : [];
  if (locks.length > 0) problems.push(`lock files left: ${locks.join(', ')}`);

  return {
    calls: envelopes.length,
    ok: envelopes.filter((e) => e.ok).length,
    busy,
    busyNamingAnotherProcess,
    flows,
    evidenceFiles: evidence.length,
    windows: windows.length,
    adbCalls: trace.length,
    deviceEntriesChecked: checked,
    uia2Sessions: owner.size,
    durationMs,
    problems,
  };
}

/** `adb -s X shell getprop` (no property: all of them) or `adb devices -l`: read before a lock is chosen. */
function isIdentityRead(argv: readonly string[]): boolean {
  const rest = (argv[0] === '-s' ? argv.slice(2) : argv).join(' ');
  return rest === 'shell getprop' || rest === 'devices -l';
}

/** What emulator_get_status reads beside another owner: no screen, no UiAutomation (docs/reference/contract.md §7). */
function isBesideRead(command: string): boolean {
  return /^(get-state|shell getprop [\w.]+|shell dumpsys (window|power))$/.test(command);
}

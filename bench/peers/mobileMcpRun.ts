/**
 * mobile-mcp itself, driving the bench's virtual device: spawned over stdio as a client would, with a
 * private HOME (its helper daemon otherwise keeps the adb port of whichever run started it) and an SDK
 * root whose platform-tools/adb is the real adb, on the bench's private adb server. One step of a
 * reference flow becomes what a model does with its tools: list the elements, then act on the one the
 * step names (by its ref with the default robot, by the centre of its rectangle with the legacy robot).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cleanEnv, spawnServer, type Spawned } from '../lib/mcpClient.js';
import { measure } from '../lib/tokens.js';

export interface MobileMcpServer {
  readonly spawned: Spawned;
  /** ms from spawn to the first tools/list answer. */
  readonly coldStartMs: number;
  readonly legacy: boolean;
}

export async function startMobileMcp(
  bin: string,
  realAdb: string,
  adbPort: number,
  legacy: boolean,
  cleanups: (() => Promise<unknown>)[],
): Promise<MobileMcpServer> {
  const home = mkdtempSync(join(tmpdir(), 'amh-bench-mobilemcp-home-'));
  cleanups.push(async () => rmSync(home, { recursive: true, force: true }));
  mkdirSync(join(home, 'sdk', 'platform-tools'), { recursive: true });
  symlinkSync(realAdb, join(home, 'sdk', 'platform-tools', 'adb'));
  const env = cleanEnv({
    HOME: home,
    ANDROID_HOME: join(home, 'sdk'),
    ANDROID_SDK_ROOT: join(home, 'sdk'),
    ANDROID_ADB_SERVER_PORT: String(adbPort),
    MOBILEMCP_DISABLE_TELEMETRY: '1',
    ...(legacy ? { MOBILEMCP_LEGACY_ROBOT: '1' } : {}),
  });
  const started = performance.now();
  const spawned = await spawnServer(process.execPath, [bin], env, home);
  await spawned.client.listTools();
  const coldStartMs = performance.now() - started;
  return { spawned, coldStartMs, legacy };
}

/** One listed element of mobile-mcp's text format: `@e5 TextView text="Apps" id="…" at=x,y size=WxH`. */
interface Listed {
  readonly ref?: string;
  readonly text?: string;
  readonly label?: string;
  readonly id?: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

function parseList(text: string): Listed[] {
  const out: Listed[] = [];
  for (const line of text.split('\n')) {
    const at = /at=(-?\d+),(-?\d+) size=(\d+)x(\d+)/.exec(line);
    if (!at) continue;
    const field = (name: string): string | undefined => {
      const m = new RegExp(`${name}=("(?:[^"\\\\]|\\\\.)*")`).exec(line);
      return m?.[1] ? (JSON.parse(m[1]) as string) : undefined;
    };
    const ref = /^(@e\d+)\s/.exec(line)?.[1];
    const [x, y, w, h] = at.slice(1).map(Number) as [number, number, number, number];
    const text = field('text');
    const label = field('label');
    const id = field('id');
    out.push({
      x,
      y,
      w,
      h,
      ...(ref ? { ref } : {}),
      ...(text ? { text } : {}),
      ...(label ? { label } : {}),
      ...(id ? { id } : {}),
    });
  }
  return out;
}

/** The listed element a flow's selector names, as a model reading the list would pick it. */
function pick(list: readonly Listed[], selector: Record<string, unknown>): Listed | undefined {
  const text = (selector.text ?? selector.desc ?? selector.input_hint) as string | undefined;
  const id = selector.id as string | undefined;
  return list.find(
    (e) =>
      (text !== undefined && (e.text === text || e.label === text)) ||
      (id !== undefined && e.id !== undefined && (e.id === id || e.id.endsWith(`:id/${id}`))),
  );
}

export interface PeerStep {
  readonly calls: number;
  readonly tokens: number;
  readonly ms: number;
  readonly error?: string;
}

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/**
 * One step of a reference flow (ui_tap, ui_scroll, device_back, ui_type_text) as mobile-mcp's loop:
 * list the screen, then act. Tokens are those of every answer the model reads.
 */
export async function mobileMcpStep(
  server: MobileMcpServer,
  device: string,
  step: { readonly tool: string; readonly arguments: Record<string, unknown> },
): Promise<PeerStep> {
  const client: Client = server.spawned.client;
  let calls = 0;
  let tokens = 0;
  const started = performance.now();
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const result = (await client.callTool({ name, arguments: { device, ...args } })) as CallToolResult;
    calls++;
    tokens += measure(textOf(result)).tokens_o200k;
    if (result.isError) throw new Error(`${name}: ${textOf(result).slice(0, 160)}`);
    return result;
  };
  const tapOn = async (list: Listed[], selector: Record<string, unknown>): Promise<void> => {
    const target = pick(list, selector);
    if (!target) throw new Error(`no listed element for ${JSON.stringify(selector)}`);
    await call(
      'mobile_click_on_screen_at_coordinates',
      !server.legacy && target.ref
        ? { ref: target.ref }
        : { x: Math.round(target.x + target.w / 2), y: Math.round(target.y + target.h / 2) },
    );
  };
  try {
    const list = parseList(textOf(await call('mobile_list_elements_on_screen', {})));
    const selector = (step.arguments.selector ?? {}) as Record<string, unknown>;
    switch (step.tool) {
      case 'ui_tap':
        await tapOn(list, selector);
        break;
      case 'ui_type_text':
        await tapOn(list, selector);
        await call('mobile_type_keys', { text: String(step.arguments.text ?? ''), submit: false });
        break;
      case 'ui_scroll': {
        // Content that scrolls down moves up under the finger.
        const swipe = { down: 'up', up: 'down', left: 'right', right: 'left' } as const;
        const direction = swipe[(step.arguments.direction as keyof typeof swipe) ?? 'down'];
        await call('mobile_swipe_on_screen', { direction });
        break;
      }
      case 'device_back':
        await call('mobile_press_button', { button: 'BACK' });
        break;
      default:
        throw new Error(`no mobile-mcp equivalent for ${step.tool}`);
    }
    return { calls, tokens, ms: performance.now() - started };
  } catch (err) {
    return { calls, tokens, ms: performance.now() - started, error: err instanceof Error ? err.message : String(err) };
  }
}

/** Resident memory in MB of a process, and of it with every descendant (Linux /proc; null elsewhere). */
export function rssMb(pid: number | null | undefined): { server: number; tree: number } | null {
  if (!pid) return null;
  const rssOf = (p: number): number => {
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1];
      return kb ? Number(kb) / 1024 : 0;
    } catch {
      return 0;
    }
  };
  let parents: Map<number, number[]>;
  try {
    parents = new Map();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
      } catch {
        // The process ended while the table was read.
      }
    }
  } catch {
    return null;
  }
  let tree = 0;
  const stack = [pid];
  while (stack.length > 0) {
    const p = stack.pop() as number;
    tree += rssOf(p);
    stack.push(...(parents.get(p) ?? []));
  }
  return { server: Math.round(rssOf(pid) * 10) / 10, tree: Math.round(tree * 10) / 10 };
}

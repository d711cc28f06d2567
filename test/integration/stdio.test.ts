/**
 * CONTRACT-STDIO-1, black box: the built bin over real stdio, with no adb and no device.
 * A real SDK Client sees exactly the twelve tools and a structured status; the raw stdout
 * bytes are nothing but JSON-RPC; the process exits on its own soon after stdin closes.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopChild } from '../support/processes.js';
import { DEFAULT_TOOL_NAMES } from '../support/defaultTools.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repoRoot, 'dist', 'index.js');

let scratch: string;
let emptyPath: string;

/** An environment in which adb cannot be found: an empty PATH and no SDK variables. */
function noAdbEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || ['PATH', 'ANDROID_HOME', 'ANDROID_SDK_ROOT', 'ANDROID_ADB_SERVER_PORT'].includes(key))
      continue;
    env[key] = value;
  }
  env.PATH = emptyPath;
  // A fixed (unreachable) Appium, so nothing is started or contacted on the default port.
  env.APPIUM_URL = 'http://127.0.0.1:9';
  env.ANDROID_MCP_ARTIFACTS_DIR = path.join(scratch, 'artifacts');
  env.ANDROID_MCP_LOG_LEVEL = 'debug';
  return env;
}

beforeAll(() => {
  if (!existsSync(bin)) {
    // `npm test` builds first; a direct vitest run builds here once.
    execFileSync(
      process.execPath,
      [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: repoRoot,
        stdio: 'inherit',
      },
    );
  }
  scratch = mkdtempSync(path.join(os.tmpdir(), 'harness-stdio-'));
  emptyPath = path.join(scratch, 'empty-bin');
  mkdirSync(emptyPath);
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('stdio server without a device', () => {
  it('a real client sees exactly the twelve tools and a structured EMULATOR_UNAVAILABLE status', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin],
      env: noAdbEnv(),
      cwd: scratch,
      stderr: 'pipe',
    });
    const stderrChunks: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderrChunks.push(chunk.toString('utf8')));
    const client = new Client({ name: 'stdio-black-box', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(DEFAULT_TOOL_NAMES);
      for (const tool of tools) {
        expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
        expect(tool.annotations, tool.name).toBeDefined();
        expect(tool.annotations?.openWorldHint).toBe(false);
        expect(typeof tool.annotations?.readOnlyHint).toBe('boolean');
        expect(tool.outputSchema?.type, tool.name).toBe('object');
        expect(tool.description?.length ?? 0).toBeGreaterThan(0);
      }

      const status = (await client.callTool({ name: 'emulator_get_status', arguments: {} })) as CallToolResult;
      expect(status.isError).toBe(true);
      const envelope = status.structuredContent as Record<string, unknown>;
      expect(envelope).toMatchObject({ ok: false, tool: 'emulator_get_status', data: {}, evidence: null });
      const error = envelope.error as { code: string; message: string };
      expect(error.code).toBe('EMULATOR_UNAVAILABLE');
      expect(error.message).toMatch(/adb was not found/);
      expect(error.message).toMatch(/ANDROID_HOME/);
      // 12 lowercase Crockford base32 characters: no i, l, o or u.
      expect(String(envelope.operation_id)).toMatch(/^[0-9abcdefghjkmnpqrstvwxyz]{12}$/);
      const text = status.content.find((c) => c.type === 'text');
      expect(JSON.parse(text && 'text' in text ? text.text : '{}')).toEqual(envelope);

      // Every device tool answers its typed error, never a crash.
      const tree = (await client.callTool({ name: 'ui_get_tree', arguments: {} })) as CallToolResult;
      expect((tree.structuredContent as { error: { code: string } }).error.code).toBe('EMULATOR_UNAVAILABLE');
      const tap = (await client.callTool({
        name: 'ui_tap',
        arguments: { selector: { text: 'OK' } },
      })) as CallToolResult;
      expect((tap.structuredContent as { error: { code: string } }).error.code).toMatch(
        /^(EMULATOR_UNAVAILABLE|APPIUM_UNAVAILABLE)$/,
      );
    } finally {
      await client.close();
    }
    expect(stderrChunks.join('')).toContain('adb was not found');
  });

  it('writes nothing but JSON-RPC on stdout and exits within 5 s of stdin closing', async () => {
    const child = spawn(process.execPath, [bin], { env: noAdbEnv(), cwd: scratch, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const requests = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'emulator_get_status', arguments: {} } },
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'screen_capture', arguments: {} } },
        {
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name: 'ui_tap', arguments: { selector: { text: '' } } },
        },
        { jsonrpc: '2.0', id: 6, method: 'resources/read', params: { uri: 'artifact://../../README.md' } },
        { jsonrpc: '2.0', id: 7, method: 'no/such/method' },
      ];
      for (const request of requests) child.stdin.write(`${JSON.stringify(request)}\n`);
      const answered = await waitFor(() => countLines(stdout) >= 7, 20_000);
      expect(answered, 'the server answered every request with an id').toBe(true);

      const started = Date.now();
      child.stdin.end();
      const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 5_000))]);
      const elapsed = Date.now() - started;
      expect(code, `exit after stdin closed (${elapsed} ms)`).toBe(0);
      // Real clock (a child process): it exits on stdin's end by itself; 5 s is the race's own bound above.
      expect(elapsed).toBeLessThan(5_000);

      const raw = Buffer.concat(stdout).toString('utf8');
      expect(raw.endsWith('\n')).toBe(true);
      const lines = raw.split('\n').filter((line) => line.length > 0);
      const ids = new Set<unknown>();
      for (const line of lines) {
        const message = JSON.parse(line) as Record<string, unknown>;
        expect(message.jsonrpc).toBe('2.0');
        expect('result' in message || 'error' in message || 'method' in message).toBe(true);
        ids.add(message.id);
      }
      expect([...ids].filter((id) => id !== undefined).sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
      const byId = new Map(
        lines.map((l) => JSON.parse(l) as { id?: number; result?: unknown; error?: unknown }).map((m) => [m.id, m]),
      );
      expect(
        (byId.get(5)?.result as { structuredContent: { error: { code: string } } }).structuredContent.error.code,
      ).toBe('INVALID_SELECTOR');
      expect(byId.get(6)?.error).toBeDefined();
      expect(byId.get(7)?.error).toBeDefined();
    } finally {
      await stopChild(child);
    }
  });

  it('speaks 2026-07-28 too: the v2 SDK client negotiates it (server/discover) and sees the same tools and envelopes', async () => {
    const transport = new StdioClientTransportV2({
      command: process.execPath,
      args: [bin],
      env: noAdbEnv(),
      cwd: scratch,
      stderr: 'pipe',
    });
    const client = new ClientV2({ name: 'stdio-modern', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    try {
      await client.connect(transport);
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(DEFAULT_TOOL_NAMES);
      const status = await client.callTool({ name: 'emulator_get_status', arguments: {} });
      expect((status.structuredContent as { error: { code: string } }).error.code).toBe('EMULATOR_UNAVAILABLE');
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 raw frames: no handshake, malformed lines still answered on the same connection', async () => {
    const child = spawn(process.execPath, [bin], { env: noAdbEnv(), cwd: scratch, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.resume();
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    try {
      const lines = [
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }),
        'not json',
        JSON.stringify({ jsonrpc: '1.0', id: 9, method: 'tools/list' }),
        JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } }),
        JSON.stringify({
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'emulator_get_status', arguments: {}, _meta: meta },
        }),
        JSON.stringify({
          jsonrpc: '2.0',
          id: 4,
          method: 'tools/call',
          params: { name: 'no_such_tool', arguments: {}, _meta: meta },
        }),
      ];
      for (const line of lines) child.stdin.write(`${line}\n`);
      expect(await waitFor(() => countLines(stdout) >= 6, 20_000), 'every line answered').toBe(true);
      const answers = Buffer.concat(stdout)
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map(
          (l) =>
            JSON.parse(l) as {
              id?: number;
              result?: Record<string, unknown>;
              error?: { code: number; message: string };
            },
        );
      const byId = new Map(answers.map((a) => [a.id, a]));
      expect(byId.get(1)?.result?.supportedVersions).toContain('2026-07-28');
      expect(byId.get(2)?.result?.resultType).toBe('complete');
      expect((byId.get(2)?.result?.tools as unknown[]).length).toBe(DEFAULT_TOOL_NAMES.length);
      expect((byId.get(3)?.result?.structuredContent as { error: { code: string } }).error.code).toBe(
        'EMULATOR_UNAVAILABLE',
      );
      expect(byId.get(4)?.error?.code).toBe(-32602);
      expect(byId.get(9)?.error?.code).toBe(-32600);
      expect(answers.filter((a) => a.id === undefined).map((a) => a.error?.code)).toEqual([-32700]);
    } finally {
      child.stdin.end();
      await stopChild(child);
    }
  });

  it('answers --version and refuses an unknown subcommand with usage on stderr and exit 2', () => {
    const version = execFileSync(process.execPath, [bin, '--version'], { env: noAdbEnv(), encoding: 'utf8' });
    expect(version.trim()).toMatch(/^\d+\.\d+\.\d+/);
    let status = 0;
    let stderr = '';
    try {
      execFileSync(process.execPath, [bin, 'frobnicate'], {
        env: noAdbEnv(),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      status = (error as { status: number }).status;
      stderr = String((error as { stderr: string }).stderr);
    }
    expect(status).toBe(2);
    expect(stderr).toContain('Usage');
  });
});

function countLines(chunks: Buffer[]): number {
  return Buffer.concat(chunks)
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0).length;
}

async function waitFor(predicate: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

/**
 * `android-mcp-harness cli <verb> …`: the command line for agents that live in a shell. Every verb
 * is one MCP tool call to one local server that the first call starts and that stops after an idle
 * time, so refs, diffs, the UI session and the one-owner rule hold across commands exactly as they
 * do over MCP; nothing is reachable here that MCP does not allow (verbs.ts maps verbs to tools).
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../config.js';
import { runKeeper } from './keeper.js';
import { renderEnvelope } from './render.js';
import { CliState, cliStateDir, processAlive, type ServerRecord } from './stateDir.js';
import { CLI_USAGE, CliUsageError, exitCodeFor, parseVerb, type CliCommand } from './verbs.js';

/** How long the first call waits for the server it started to answer. */
const START_WAIT_MS = 60_000;
const POLL_MS = 100;
const STOP_WAIT_MS = 12_000;

function stderr(line: string): void {
  process.stderr.write(`${line}\n`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function logTail(state: CliState): string {
  const log = state.read('server.log');
  return log ? log.trim().split('\n').slice(-5).join('\n') : '(no server log)';
}

/** The running server, or one started now (one starter at a time: the `starting` file is the lock). */
async function ensureServer(state: CliState, env: NodeJS.ProcessEnv): Promise<ServerRecord> {
  state.ensure();
  const deadline = Date.now() + START_WAIT_MS;
  let started = false;
  for (;;) {
    const record = state.server();
    if (record && processAlive(record.pid)) return record;
    if (!started) {
      let lock: number | null = null;
      try {
        lock = openSync(state.file('starting'), 'wx', 0o600);
      } catch {
        const holder = Number(state.read('starting'));
        // A starter that died left its lock: take it over.
        if (!Number.isInteger(holder) || holder <= 0 || !processAlive(holder)) state.remove('starting');
      }
      if (lock !== null) {
        closeSync(lock);
        state.remove('server.json');
        const keeper = spawn(
          process.execPath,
          [fileURLToPath(new URL('../index.js', import.meta.url)), 'cli', '--keeper'],
          {
            detached: true,
            stdio: 'ignore',
            env: { ...env, ANDROID_MCP_CLI_DIR: state.dir },
          },
        );
        keeper.unref();
        state.write('starting', String(keeper.pid ?? ''));
        started = true;
      }
    } else if (state.read('starting') !== null && !processAlive(Number(state.read('starting')))) {
      state.remove('starting');
      throw new Error(`the local server stopped while starting:\n${logTail(state)}`);
    }
    if (Date.now() > deadline)
      throw new Error(`the local server did not answer within ${START_WAIT_MS / 1000} s:\n${logTail(state)}`);
    await sleep(POLL_MS);
    if (started && state.server()) state.remove('starting');
  }
}

async function callTool(
  record: ServerRecord,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const client = new Client({ name: 'android-mcp-harness-cli', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(record.url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  try {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return result.structuredContent ?? null;
  } finally {
    await client.close().catch(() => undefined);
  }
}

async function stopServer(state: CliState): Promise<number> {
  const record = state.server();
  if (!record || !processAlive(record.pid)) {
    stderr('android-mcp-harness cli: no local server is running');
    return 0;
  }
  process.kill(record.pid, 'SIGTERM');
  const deadline = Date.now() + STOP_WAIT_MS;
  while (processAlive(record.pid) && Date.now() < deadline) await sleep(POLL_MS);
  stderr(
    processAlive(record.pid)
      ? 'android-mcp-harness cli: the server is still stopping'
      : 'android-mcp-harness cli: stopped',
  );
  return 0;
}

async function traceView(dir: string | null, env: NodeJS.ProcessEnv): Promise<number> {
  let folder = dir;
  if (folder === null) {
    const traces = path.join(loadConfig(env, () => undefined).artifactsDir, 'traces');
    let names: string[];
    try {
      names = readdirSync(traces, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort();
    } catch {
      names = [];
    }
    const newest = names.at(-1);
    if (!newest) {
      stderr(`android-mcp-harness cli: no trace under ${traces} yet: act first, or give DIR`);
      return 2;
    }
    folder = path.join(traces, newest);
  }
  return (await import('../trace/cli.js')).traceMain(['view', folder]);
}

async function runTool(
  command: Extract<CliCommand, { kind: 'tool' }>,
  state: CliState,
  env: NodeJS.ProcessEnv,
  json: boolean,
): Promise<number> {
  const record = await ensureServer(state, env);
  const token = state.read('token');
  if (token === null)
    throw new Error('the local server has no token file: run `android-mcp-harness cli stop` and try again');
  state.touch();
  const session = state.read('session');
  const args: Record<string, unknown> = { ...command.args };
  if (command.session === 'attach' && session) args.session_id = session;
  if (command.session === 'close') {
    if (!session) {
      stderr('android-mcp-harness cli: no UI session is open (session open starts one)');
      return 7;
    }
    args.session_id = session;
  }
  // A call in flight is use: a long action is never cut by the idle time.
  const inUse = setInterval(() => state.touch(), 1_000);
  let envelope: unknown;
  try {
    envelope = await callTool(record, token.trim(), command.tool, args);
  } finally {
    clearInterval(inUse);
    state.touch();
  }
  const ok = typeof envelope === 'object' && envelope !== null && (envelope as { ok?: unknown }).ok === true;
  const data = ok ? ((envelope as { data?: Record<string, unknown> }).data ?? {}) : {};
  if (command.session === 'open' && ok && typeof data.session_id === 'string') state.write('session', data.session_id);
  if (command.session === 'close') state.remove('session');
  const code = ok ? null : String((envelope as { error?: { code?: unknown } } | null)?.error?.code ?? 'INTERNAL_ERROR');
  // A session the server no longer has is forgotten here too, so the next verb acts without it.
  if (code === 'INVALID_UI_SESSION' && command.session === 'attach') state.remove('session');
  process.stdout.write(json ? `${JSON.stringify(envelope)}\n` : renderEnvelope(envelope)); // stdout-ok: the CLI's answer, not an MCP channel
  return exitCodeFor(code);
}

export async function cliMain(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const state = new CliState(cliStateDir(env));
  if (argv[0] === '--keeper') return runKeeper(state, env);
  const words = argv.filter((word) => word !== '--json');
  const json = words.length !== argv.length;
  let command: CliCommand;
  try {
    command = parseVerb(words);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    stderr(`android-mcp-harness cli: ${error.message}`);
    process.stderr.write(CLI_USAGE);
    return 2;
  }
  try {
    switch (command.kind) {
      case 'help':
        process.stdout.write(CLI_USAGE); // stdout-ok: the CLI's intended output
        return 0;
      case 'stop':
        return await stopServer(state);
      case 'trace-view':
        return await traceView(command.dir, env);
      case 'tool':
        return await runTool(command, state, env, json);
    }
  } catch (error) {
    stderr(`android-mcp-harness cli: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/**
 * The keeper of the agents' local server (`cli --keeper`, started detached by the first CLI call):
 * it starts `serve --http` on a free loopback port with a fresh bearer token, records where it
 * answers, and ends it after ANDROID_MCP_CLI_IDLE seconds without a call, on SIGTERM (`cli stop`),
 * or when it dies — removing the record, the token and the remembered UI session with it, so no
 * server outlives its use and no stale address is left behind.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CliState } from './stateDir.js';

/** Default idle time before the server is stopped. */
export const DEFAULT_IDLE_SECONDS = 600;
const CHECK_EVERY_MS = 1_000;
/** After SIGTERM the server closes its sessions and Appium (its own deadline is 5 s). */
const KILL_AFTER_MS = 8_000;
const URL_LINE = /serving MCP over Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/;

export function idleSeconds(env: NodeJS.ProcessEnv): number {
  const raw = env.ANDROID_MCP_CLI_IDLE;
  if (raw === undefined || raw === '') return DEFAULT_IDLE_SECONDS;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 1 && value <= 86_400 ? value : DEFAULT_IDLE_SECONDS;
}

export async function runKeeper(state: CliState, env: NodeJS.ProcessEnv): Promise<number> {
  state.ensure();
  const token = randomBytes(24).toString('base64url');
  state.write('token', token);
  state.touch();
  const log = openSync(state.file('server.log'), 'w', 0o600);
  const entry = fileURLToPath(new URL('../index.js', import.meta.url));
  const server = spawn(process.execPath, [entry, 'serve', '--http', '--port', '0'], {
    env: { ...env, ANDROID_MCP_HTTP_TOKEN: token },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let seen = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    writeSync(log, chunk);
    if (state.server() !== null) return;
    seen = (seen + chunk.toString('utf8')).slice(-4096);
    const url = URL_LINE.exec(seen)?.[1];
    if (!url) return;
    // The idle time counts from the moment the server answers, not from its start.
    state.touch();
    state.write('server.json', JSON.stringify({ pid: process.pid, url }));
  });

  const idleLimitMs = idleSeconds(env) * 1000;
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    server.kill('SIGTERM');
    setTimeout(() => server.kill('SIGKILL'), KILL_AFTER_MS).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  const timer = setInterval(() => {
    // Idle only once it answers: a slow start is not disuse.
    if (state.server() !== null && state.idleMs(Date.now()) > idleLimitMs) stop();
  }, CHECK_EVERY_MS);

  const code = await new Promise<number>((resolve) => server.once('exit', (status) => resolve(status ?? 0)));
  clearInterval(timer);
  for (const name of ['server.json', 'token', 'session', 'last-used'] as const) state.remove(name);
  closeSync(log);
  return stopping ? 0 : code || 1;
}

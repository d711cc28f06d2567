/**
 * The built server spawned with raw pipes (no SDK client): for tests that write arbitrary
 * bytes to its stdin and must see every byte it writes to stdout.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './appium.js';
import { trackChild } from './processes.js';

export const BUILT_BIN = join(REPO_ROOT, 'dist', 'index.js');

/** `npm test` builds first; a direct vitest run of one file builds here once. */
export function ensureBuilt(): void {
  if (existsSync(BUILT_BIN)) return;
  execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
}

export interface RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  /** Every byte written to stdout so far. */
  stdout(): Buffer;
  stderr(): string;
  /** Writes bytes, waiting for the pipe to drain. */
  write(bytes: Buffer | string): Promise<void>;
  alive(): boolean;
  /** Closes stdin and resolves with the exit code and how long the exit took; SIGKILL after `graceMs`. */
  end(graceMs?: number): Promise<{ code: number | null; signal: string | null; ms: number }>;
}

export function spawnRawServer(env: NodeJS.ProcessEnv): RawServer {
  ensureBuilt();
  const child = spawn(process.execPath, [BUILT_BIN], { cwd: REPO_ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  trackChild(child);
  if (child.pid === undefined) throw new Error('the server did not start');
  const out: Buffer[] = [];
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString('utf8')).slice(-2_000_000);
  });
  child.stdin.on('error', () => undefined);
  let exit: { code: number | null; signal: string | null } | null = null;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      resolve();
    }),
  );
  return {
    child,
    pid: child.pid,
    stdout: () => Buffer.concat(out),
    stderr: () => err,
    write: (bytes) =>
      new Promise<void>((resolve, reject) => {
        if (exit) {
          reject(new Error(`the server exited (${JSON.stringify(exit)})`));
          return;
        }
        if (child.stdin.write(bytes)) resolve();
        else child.stdin.once('drain', () => resolve());
      }),
    alive: () => exit === null,
    end: async (graceMs = 8_000) => {
      const started = Date.now();
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      const final = exit as unknown as { code: number | null; signal: string | null };
      return { ...final, ms: Date.now() - started };
    },
  };
}

/** The environment of a server that can reach nothing: a refused serial, an unreachable fixed Appium. */
export function isolatedEnv(scratch: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ANDROID_ADB_SERVER_PORT;
  return {
    ...env,
    ANDROID_UDID: 'refused-by-the-guard',
    APPIUM_URL: 'http://127.0.0.1:9',
    ANDROID_MCP_ARTIFACTS_DIR: join(scratch, 'artifacts'),
    ANDROID_MCP_LOCK_DIR: join(scratch, 'locks'),
    ANDROID_MCP_LOG_LEVEL: 'info',
    ...extra,
  };
}

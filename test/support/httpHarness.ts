/**
 * The built server in `serve --http` mode, started by a test and stopped by its pid.
 * Ready when it prints its URL on stderr; the watchdog ends it if the test process dies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BUILT_BIN } from './rawServer.js';
import { stopChild, trackChild } from './processes.js';

export interface HttpHarness {
  readonly child: ChildProcess;
  readonly pid: number;
  /** http://127.0.0.1:<port>/mcp */
  readonly url: string;
  stderr(): string;
  stop(): Promise<void>;
}

export async function startHttpHarness(
  env: Record<string, string>,
  args: readonly string[],
  readyWithinMs = 20_000,
): Promise<HttpHarness> {
  const child = spawn(process.execPath, [BUILT_BIN, 'serve', '--http', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdout?.resume();
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve --http did not start within ${readyWithinMs} ms:\n${stderr.slice(-2000)}`)),
      readyWithinMs,
    );
    const check = (): void => {
      const match = /serving MCP over Streamable HTTP at (\S+)/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve --http exited with ${code}:\n${stderr.slice(-2000)}`));
    });
  });
  if (child.pid === undefined) throw new Error('serve --http has no pid');
  return { child, pid: child.pid, url, stderr: () => stderr, stop: () => stopChild(child) };
}

/** Runs `serve --http …` expecting it to refuse to start; resolves with its exit code and stderr. */
export function runHttpHarnessToExit(
  env: Record<string, string>,
  args: readonly string[],
  withinMs = 20_000,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BUILT_BIN, 'serve', '--http', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopChild(child);
      reject(new Error(`serve --http kept running although it should have refused:\n${stderr.slice(-2000)}`));
    }, withinMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

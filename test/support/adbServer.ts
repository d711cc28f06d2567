/**
 * A private adb server per test file: the real Debian adb, on a free port of its own,
 * started in the foreground (`nodaemon`) so that its pid is ours to end. The machine's
 * shared server on 5037 is never touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, createWriteStream, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe } from 'vitest';
import { acceptsConnections } from '../../src/infrastructure/net/loopbackPorts.js';
import { freePort, waitForPort } from './ports.js';
import { stopChild, trackChild } from './processes.js';

export interface AdbResult {
  readonly stdout: Buffer;
  readonly stderr: string;
  /** Exit code; -1 when the command was killed (timeout or abort). */
  readonly code: number;
}

export interface AdbRunOptions {
  /** Kill the client after this long (default 30 s). */
  readonly timeoutMs?: number;
  /** Bytes written to the client's stdin, then stdin is closed. */
  readonly input?: Buffer | string;
  /** Kills the client when aborted (a client that "goes away"). */
  readonly signal?: AbortSignal;
}

export interface PrivateAdbServer {
  /** The server's port: pass it as `-P`, `ANDROID_ADB_SERVER_PORT` or Appium's `appium:adbPort`. */
  readonly port: number;
  readonly pid: number;
  /** process.env plus ANDROID_ADB_SERVER_PORT=<port>: give it to anything that runs adb. */
  readonly env: NodeJS.ProcessEnv;
  /** Absolute path of the adb binary in use. */
  readonly adbPath: string;
  /** The server's own log (stderr of `adb nodaemon server`). */
  readonly logFile: string;
  /** Runs `adb -P <port> <args…>` (never through a shell) and collects its output. */
  adb(args: readonly string[], options?: AdbRunOptions): Promise<AdbResult>;
  /** Ends the server by its pid. Idempotent. */
  stop(): Promise<void>;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The adb binary: $ANDROID_HOME/platform-tools/adb, $ANDROID_SDK_ROOT/…, then PATH. Null when absent. */
export function locateAdb(env: NodeJS.ProcessEnv = process.env): string | null {
  const candidates: string[] = [];
  for (const root of [env.ANDROID_HOME, env.ANDROID_SDK_ROOT]) {
    if (root) candidates.push(join(root, 'platform-tools', 'adb'));
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir) candidates.push(join(dir, 'adb'));
  }
  return candidates.find(isExecutable) ?? null;
}

const MISSING_ADB =
  'adb was not found (looked in $ANDROID_HOME/platform-tools, $ANDROID_SDK_ROOT/platform-tools and PATH). ' +
  'Install it with `apt-get install -y adb` (Debian/Ubuntu) or set ANDROID_HOME to an SDK root.';

/**
 * describe() for suites that need the real adb. Without adb: skipped with a message
 * in development, but a failing suite when process.env.CI is set (CI must run them).
 */
export function describeWithAdb(name: string, body: () => void): void {
  if (locateAdb()) {
    describe(name, body);
    return;
  }
  if (process.env.CI) {
    describe(name, () => {
      throw new Error(`${MISSING_ADB} CI must run this suite.`);
    });
    return;
  }
  process.stderr.write(`[skip] ${name}: ${MISSING_ADB}\n`);
  describe.skip(name, body);
}

export function runAdb(
  adbPath: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  options: AdbRunOptions = {},
): Promise<AdbResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(adbPath, [...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    const kill = (): void => {
      if (child.exitCode === null) child.kill('SIGKILL');
    };
    const timer = setTimeout(kill, options.timeoutMs ?? 30_000);
    options.signal?.addEventListener('abort', kill, { once: true });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      resolve({ stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr).toString('utf8'), code: code ?? -1 });
    });
    child.stdin.on('error', () => undefined);
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

export interface StartAdbServerOptions {
  /**
   * Let the server probe 127.0.0.1:5555–5585 for emulators, as the default server does
   * (a virtual device on 5555 then appears as emulator-5554). Off by default so that a
   * test's server does not pick up devices other people run on this machine.
   */
  readonly scanEmulatorPorts?: boolean;
}

/**
 * Starts a private adb server on a free port. Throws with install advice when adb is
 * missing (wrap the suite in describeWithAdb to skip instead). Always call stop().
 */
export async function startAdbServer(options: StartAdbServerOptions = {}): Promise<PrivateAdbServer> {
  const adbPath = locateAdb();
  if (!adbPath) throw new Error(MISSING_ADB);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, ANDROID_ADB_SERVER_PORT: String(port) };
  const serverEnv: NodeJS.ProcessEnv = { ...env };
  // The scan loop runs from 5555 up to this port: below 5555 it probes nothing.
  if (!options.scanEmulatorPorts) serverEnv.ADB_LOCAL_TRANSPORT_MAX_PORT = '5553';

  const logDir = mkdtempSync(join(tmpdir(), 'amh-adb-'));
  const logFile = join(logDir, `adb-server-${port}.log`);
  const log = createWriteStream(logFile);
  const child: ChildProcess = spawn(adbPath, ['-P', String(port), 'nodaemon', 'server'], {
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exitedEarly = new Promise<never>((_, reject) => {
    child.once('exit', (code) => reject(new Error(`adb server on port ${port} exited with ${code}; see ${logFile}`)));
  });
  exitedEarly.catch(() => undefined);

  const stop = async (): Promise<void> => {
    await stopChild(child);
    // A test that killed our server lets adb's client fork a new one on this port at the next
    // command (`adb disconnect` in cleanup does): not our child, so end it through the port.
    if (await acceptsConnections(port)) {
      await runAdb(adbPath, ['-P', String(port), 'kill-server'], env, { timeoutMs: 5_000 }).catch(() => undefined);
    }
    log.end();
  };
  try {
    await Promise.race([waitForPort(port, 10_000), exitedEarly]);
  } catch (error) {
    await stop();
    throw error;
  }
  if (child.pid === undefined) throw new Error('adb server has no pid');

  return {
    port,
    pid: child.pid,
    env,
    adbPath,
    logFile,
    adb: (args, runOptions) => runAdb(adbPath, ['-P', String(port), ...args], env, runOptions),
    stop,
  };
}

/**
 * A real Appium 3 server from the project's devDependencies (APPIUM_HOME = repo root, so
 * the uiautomator2 driver in node_modules is found), on 127.0.0.1 and a free port, bound to
 * a private adb server. Started as `node node_modules/appium/index.js` so the pid is the
 * server's own, and always ended by that pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { locateAdb } from './adbServer.js';
import { freePort } from './ports.js';
import { sleep, stopChild, trackChild } from './processes.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface StartAppiumOptions {
  /** Port of the private adb server Appium must use (ANDROID_ADB_SERVER_PORT; also pass `appium:adbPort`). */
  readonly adbPort: number;
  /** Appium's --log-level (default 'info'). */
  readonly logLevel?: 'info' | 'debug' | 'warn' | 'error';
  /** Directory for the log file (default: a fresh temporary directory). */
  readonly logDir?: string;
  /** How long to wait for GET /status (default 60 s). */
  readonly startTimeoutMs?: number;
}

export interface RunningAppium {
  /** Base URL, e.g. http://127.0.0.1:41234 (Appium 3 has no /wd/hub). */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  /** Appium's own log (--log). */
  readonly logFile: string;
  /** Ends Appium by its pid: SIGTERM, then SIGKILL after 5 s. Idempotent. */
  stop(): Promise<void>;
  /** Ids of the sessions Appium holds right now (to assert that a test left none behind). */
  sessionIds(): Promise<string[]>;
}

/**
 * An SDK root whose platform-tools/adb is the adb in use: ANDROID_HOME when it already has
 * adb, Debian's /usr/lib/android-sdk, or a temporary root with a symlink to adb on PATH.
 */
export function androidHomeForAppium(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.ANDROID_HOME;
  if (configured && existsSync(join(configured, 'platform-tools', 'adb'))) return configured;
  if (existsSync('/usr/lib/android-sdk/platform-tools/adb')) return '/usr/lib/android-sdk';
  const adb = locateAdb(env);
  if (!adb) throw new Error('adb was not found: install it (`apt-get install -y adb`) or set ANDROID_HOME.');
  const root = mkdtempSync(join(tmpdir(), 'amh-sdk-'));
  mkdirSync(join(root, 'platform-tools'));
  symlinkSync(adb, join(root, 'platform-tools', 'adb'));
  return root;
}

async function fetchJson(url: string, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: keep the text for the error message.
  }
  return { status: response.status, body };
}

export async function startAppium(options: StartAppiumOptions): Promise<RunningAppium> {
  const entry = join(REPO_ROOT, 'node_modules', 'appium', 'index.js');
  if (!existsSync(entry)) throw new Error(`Appium is not installed at ${entry}: run \`npm ci\` in ${REPO_ROOT}.`);
  const port = await freePort();
  const logDir = options.logDir ?? mkdtempSync(join(tmpdir(), 'amh-appium-'));
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `appium-${port}.log`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APPIUM_HOME: REPO_ROOT,
    ANDROID_HOME: androidHomeForAppium(),
    ANDROID_ADB_SERVER_PORT: String(options.adbPort),
  };
  const child: ChildProcess = spawn(
    process.execPath,
    [
      entry,
      '--address',
      '127.0.0.1',
      '--port',
      String(port),
      '--log-level',
      options.logLevel ?? 'info',
      '--log',
      logFile,
      // adb_shell for `mobile: shell`; session_discovery so tests can list leftover sessions.
      '--allow-insecure',
      'uiautomator2:adb_shell,*:session_discovery',
    ],
    { env, cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  trackChild(child);
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-4000);
  });
  if (child.pid === undefined) throw new Error('Appium did not start (no pid)');
  const pid = child.pid;
  const url = `http://127.0.0.1:${port}`;
  const stop = (): Promise<void> => stopChild(child, 5000);

  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Appium exited before it was ready (code ${child.exitCode}); log ${logFile}\n${stderrTail}`);
    }
    try {
      const status = await fetchJson(`${url}/status`, 1000);
      if (status.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Appium did not answer GET /status within the timeout; log ${logFile}\n${stderrTail}`);
    }
    await sleep(200);
  }

  return {
    url,
    port,
    pid,
    logFile,
    stop,
    sessionIds: async () => {
      const reply = await fetchJson(`${url}/appium/sessions`, 5000);
      const value = (reply.body as { value?: unknown }).value;
      if (reply.status !== 200 || !Array.isArray(value)) {
        throw new Error(`GET /appium/sessions answered ${reply.status}: ${JSON.stringify(reply.body)}`);
      }
      return value.map((session: { id?: string }) => String(session.id));
    },
  };
}

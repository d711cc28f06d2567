/**
 * Where the Appium server is. Either the user runs one (APPIUM_URL set: FixedAppiumEndpoint,
 * never start anything), or the harness runs its own (ManagedAppium): Appium 3 from the
 * harness's dependencies, on 127.0.0.1 and a free port, started at the first action that
 * needs it, reused afterwards, and stopped by pid when the harness goes.
 *
 * Orphans. A harness that exits normally (stdin closed, SIGINT, SIGTERM, an uncaught error)
 * calls stop() or, at the very least, killNow() from its 'exit' hook. A harness that is
 * SIGKILLed runs no code at all, so the Appium process watches its parent itself: it is
 * started through a few lines of bootstrap code (`node -e`, same process, so the pid we hold
 * is still the server's) that
 *   1. hold a pipe on stdin whose only writer is the harness: when the harness dies for any
 *      reason, the kernel closes that pipe and Appium reads end-of-file at once;
 *   2. poll process.ppid every second as a second net (a re-parented child sees a new ppid);
 * and on either sign send themselves SIGTERM, so Appium's own shutdown deletes its sessions,
 * with a hard exit 5 s later. No wrapper process, no pid file, nothing platform-specific.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HarnessError } from '../../domain/errors.js';
import type { Logger } from '../../domain/ports.js';
import { freeLoopbackPort } from '../net/loopbackPorts.js';
import { locateAppiumInstall, type AppiumInstall } from './appiumInstall.js';

/** The Appium server the harness talks to, resolved lazily. */
export interface AppiumEndpoint {
  /** True when the harness starts and owns the server. */
  readonly managed: boolean;
  /** The server's base URL; a managed endpoint starts Appium on the first call and waits until it answers. */
  url(): Promise<string>;
  /** Stops what the harness started (nothing for a fixed endpoint). Idempotent. */
  stop(): Promise<void>;
  /** Synchronous last resort for process 'exit' hooks: SIGKILL by pid, no waiting. */
  killNow(): void;
}

/** APPIUM_URL was set: use it as is (the loopback guard runs per call elsewhere), never start one. */
export class FixedAppiumEndpoint implements AppiumEndpoint {
  readonly managed = false;
  constructor(private readonly fixedUrl: string) {}
  url(): Promise<string> {
    return Promise.resolve(this.fixedUrl);
  }
  stop(): Promise<void> {
    return Promise.resolve();
  }
  killNow(): void {}
}

export type ProgressListener = (message: string) => void;

export interface ManagedAppiumOptions {
  /** The harness's package root (findPackageRoot()); Appium and the driver are found from there. */
  readonly packageRoot: string;
  readonly logger: Logger;
  /** Human-readable boot progress, forwarded to the MCP client as log notifications. */
  readonly onProgress?: ProgressListener;
  /**
   * ANDROID_HOME for Appium: appium-adb refuses to start without an SDK root even when adb is
   * on PATH. Use androidSdkRootFor(locateAdb(env)). Null leaves the inherited environment alone.
   */
  readonly androidSdkRoot?: string | null;
  /** Base environment for the child (defaults to process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** How long Appium may take to answer /status (default 60 s). */
  readonly startTimeoutMs?: number;
  /** How often a "still starting" progress message is sent (default 2 s). */
  readonly progressIntervalMs?: number;
  /** Grace between SIGTERM and SIGKILL on stop (default 5 s). */
  readonly stopGraceMs?: number;
  /** Appium's --log-level (default info; its console output goes to our logger at debug). */
  readonly appiumLogLevel?: string;
}

/** Bootstrap run with `node -e`: the watchdog, then Appium in the same process. */
const WATCHDOG_BOOTSTRAP = String.raw`
const [appiumMain, parentPidText, ...cliArgs] = process.argv.slice(1);
const parentPid = Number(parentPidText);
let leaving = false;
const leave = () => {
  if (leaving) return;
  leaving = true;
  setTimeout(() => process.exit(0), 5000).unref();
  try { process.kill(process.pid, 'SIGTERM'); } catch { process.exit(0); }
};
process.stdin.on('end', leave);
process.stdin.on('error', leave);
process.stdin.resume();
setInterval(() => { if (process.ppid !== parentPid) leave(); }, 1000).unref();
process.argv = [process.execPath, appiumMain, ...cliArgs];
require(appiumMain).main().catch((e) => { console.error(e && e.message ? e.message : String(e)); process.exit(1); });
`;

const OUTPUT_TAIL_LINES = 40;

/**
 * An SDK root Appium accepts for the adb the harness uses. The adb of an SDK
 * (`<root>/platform-tools/adb`, also Debian's /usr/bin/adb symlink) gives its root; any other
 * adb gets a tiny private root holding only `platform-tools/adb` → that binary, which
 * appium-adb accepts (returned with a cleanup function).
 */
export function androidSdkRootFor(adbPath: string): { root: string; cleanup: () => void } {
  const candidates = [adbPath];
  try {
    candidates.push(realpathSync(adbPath));
  } catch {
    // A dangling path is reported by the adb checks, not here.
  }
  for (const candidate of candidates) {
    const dir = path.dirname(candidate);
    if (path.basename(dir) === 'platform-tools') return { root: path.dirname(dir), cleanup: () => {} };
  }
  const root = mkdtempSync(path.join(os.tmpdir(), 'android-mcp-sdk-'));
  mkdirSync(path.join(root, 'platform-tools'));
  symlinkSync(candidates[candidates.length - 1] ?? adbPath, path.join(root, 'platform-tools', path.basename(adbPath)));
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<void>;
}

export class ManagedAppium implements AppiumEndpoint {
  readonly managed = true;
  readonly #options: ManagedAppiumOptions;
  readonly #outputTail: string[] = [];
  #starting: Promise<Running> | null = null;
  #running: Running | null = null;
  #stopped = false;

  constructor(options: ManagedAppiumOptions) {
    this.#options = options;
  }

  /** The pid of the Appium process, while one runs (for tests and the doctor). */
  get pid(): number | null {
    return this.#running?.child.pid ?? null;
  }

  async url(): Promise<string> {
    if (this.#stopped) {
      throw new HarnessError('APPIUM_UNAVAILABLE', 'The harness is shutting down; its Appium server has been stopped.');
    }
    if (this.#running && this.#running.child.exitCode === null && this.#running.child.signalCode === null) {
      return this.#running.url;
    }
    // One boot at a time: concurrent callers share it; a failed boot lets the next call retry.
    this.#starting ??= this.#boot().finally(() => {
      this.#starting = null;
    });
    const running = await this.#starting;
    return running.url;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    const starting = this.#starting;
    if (starting) await starting.catch(() => undefined);
    const running = this.#running;
    this.#running = null;
    if (!running) return;
    await terminate(running, this.#options.stopGraceMs ?? 5000);
    this.#options.logger.info('Managed Appium stopped', { pid: running.child.pid });
  }

  killNow(): void {
    this.#stopped = true;
    const pid = this.#running?.child.pid;
    if (pid !== undefined && this.#running?.child.exitCode === null) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }

  async #boot(): Promise<Running> {
    const install = locateAppiumInstall(this.#options.packageRoot);
    if ('missing' in install) {
      throw new HarnessError(
        'APPIUM_UNAVAILABLE',
        `The harness cannot start its own Appium: the package '${install.missing}' is not installed next to it. ` +
          'Reinstall the harness (npm ci in a checkout), or run Appium yourself and set APPIUM_URL (e.g. http://127.0.0.1:4723).',
      );
    }
    // A port found free can be taken before Appium binds it: try a second one before giving up.
    try {
      return await this.#bootOnce(install);
    } catch (error) {
      if (!(error instanceof PortTakenError) || this.#stopped) throw error;
      this.#options.logger.warn('Managed Appium lost its port to another process; trying another one');
      return await this.#bootOnce(install);
    }
  }

  async #bootOnce(install: AppiumInstall): Promise<Running> {
    const { logger } = this.#options;
    const startTimeoutMs = this.#options.startTimeoutMs ?? 60_000;
    const port = await freeLoopbackPort();
    const url = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = { ...(this.#options.env ?? process.env), APPIUM_HOME: install.appiumHome };
    if (this.#options.androidSdkRoot) env.ANDROID_HOME = this.#options.androidSdkRoot;
    const args = [
      '-e',
      WATCHDOG_BOOTSTRAP,
      install.appiumMain,
      String(process.pid),
      '--address',
      '127.0.0.1',
      '--port',
      String(port),
      '--log-level',
      this.#options.appiumLogLevel ?? 'info',
      '--log-no-colors',
      // Appium 3 serves GET /appium/sessions only with this; the harness uses it to prove that
      // it leaves no session behind. It only lists sessions, on a loopback port.
      '--allow-insecure',
      '*:session_discovery',
    ];
    this.#progress(
      `Starting the harness's own Appium ${install.appiumVersion} (UiAutomator2 driver ${install.driverVersion}) on ${url}; this takes a few seconds the first time.`,
    );
    const startedAt = Date.now();
    // stdin is the watchdog pipe (see the header); stdout and stderr must never reach our stdout.
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.once('error', (error) => logger.error('Managed Appium could not be spawned', { error: error.message }));
    this.#collect(child);
    logger.info('Managed Appium spawned', { pid: child.pid, port, appiumHome: install.appiumHome });

    const ticker = setInterval(() => {
      const seconds = Math.round((Date.now() - startedAt) / 1000);
      this.#progress(`Still waiting for Appium to answer at ${url} (${seconds} s)…`);
    }, this.#options.progressIntervalMs ?? 2000);
    ticker.unref();
    try {
      await waitUntilReady(url, child, startTimeoutMs, () => this.#stopped);
    } catch (error) {
      const tail = this.#outputTail.join('\n');
      await terminate({ child, url, exited }, 1000);
      if (/EADDRINUSE/.test(tail)) throw new PortTakenError();
      logger.error('Managed Appium did not start', { reason: (error as Error).message, output: tail });
      throw new HarnessError(
        'APPIUM_UNAVAILABLE',
        `The harness's own Appium did not start (${(error as Error).message}). ` +
          'Run `android-mcp-harness doctor` to see what is missing, or start Appium yourself and set APPIUM_URL.',
        { cause: error },
      );
    } finally {
      clearInterval(ticker);
    }
    const running: Running = { child, url, exited };
    this.#running = running;
    child.once('exit', (code, signal) => {
      if (this.#running === running) this.#running = null;
      if (!this.#stopped) logger.warn('Managed Appium exited; it will be started again when needed', { code, signal });
    });
    this.#progress(`Appium is ready at ${url} (started in ${((Date.now() - startedAt) / 1000).toFixed(1)} s).`);
    if (this.#stopped) {
      await terminate(running, 1000);
      throw new HarnessError('APPIUM_UNAVAILABLE', 'The harness is shutting down; its Appium server has been stopped.');
    }
    return running;
  }

  #collect(child: ChildProcess): void {
    const onData = (chunk: Buffer): void => {
      for (const line of chunk.toString('utf8').split(/\r?\n/)) {
        if (!line.trim()) continue;
        this.#outputTail.push(line);
        if (this.#outputTail.length > OUTPUT_TAIL_LINES) this.#outputTail.shift();
        this.#options.logger.debug('appium', { line });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    // The pipe may break when Appium dies first; that is not our error.
    child.stdin?.on('error', () => undefined);
  }

  #progress(message: string): void {
    this.#options.logger.info(message);
    try {
      this.#options.onProgress?.(message);
    } catch (error) {
      this.#options.logger.warn('Progress listener failed', { error: (error as Error).message });
    }
  }
}

class PortTakenError extends Error {
  constructor() {
    super('port taken');
  }
}

async function waitUntilReady(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  cancelled: () => boolean,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`it exited with ${child.exitCode ?? child.signalCode} before answering`);
    }
    if (cancelled()) throw new Error('the harness is shutting down');
    if (await answersStatus(url)) return;
    if (Date.now() > deadline) throw new Error(`no answer on /status within ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** True when GET /status answers 200 with Appium's JSON. */
export async function answersStatus(url: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return false;
    const body = (await response.json()) as { value?: unknown };
    return typeof body === 'object' && body !== null && typeof body.value === 'object' && body.value !== null;
  } catch {
    return false;
  }
}

async function terminate(running: Running, graceMs: number): Promise<void> {
  const { child } = running;
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const pid = child.pid;
  const signal = (name: NodeJS.Signals): void => {
    try {
      process.kill(pid, name);
    } catch {
      // Already gone.
    }
  };
  signal('SIGTERM');
  const timedOut = await Promise.race([
    running.exited.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
  ]);
  if (timedOut) {
    signal('SIGKILL');
    await running.exited;
  }
}

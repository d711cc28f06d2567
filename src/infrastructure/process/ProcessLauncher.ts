import { execFile, spawn, type ChildProcess, type ExecFileException } from 'node:child_process';
import type { Socket } from 'node:net';
import { LAUNCHER_CHILD_SOURCE } from './launcherChild.js';

/** Why a launched process did not end with exit code 0, as execFile reports it. */
export interface LaunchFailure {
  /** The exit code, or a system error's code (`ENOENT`, `ERR_CHILD_PROCESS_STDIO_MAXBUFFER`). */
  readonly code: string | number | null;
  readonly signal: string | null;
  /** True when the process was killed at its timeout. */
  readonly killed: boolean;
  readonly message: string;
}

export interface Launched {
  readonly error: LaunchFailure | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

export interface LaunchOptions {
  readonly timeoutMs: number;
  readonly maxBuffer: number;
  readonly env: NodeJS.ProcessEnv;
}

/** Runs an executable with its argument vector (never a shell) and answers how it ended. */
export interface ProcessLauncher {
  launch(file: string, args: readonly string[], options: LaunchOptions): Promise<Launched>;
}

/** The launcher process ended (or stopped answering) before the process it ran had answered. */
export class LauncherStoppedError extends Error {}

function failureOf(error: ExecFileException): LaunchFailure {
  return {
    code: error.code ?? null,
    signal: error.signal ?? null,
    killed: error.killed === true,
    message: error.message,
  };
}

/** execFile in this process. */
export const directLauncher: ProcessLauncher = {
  launch(file, args, options) {
    return new Promise((resolve) => {
      execFile(
        file,
        [...args],
        {
          encoding: 'buffer',
          timeout: options.timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: options.maxBuffer,
          env: options.env,
          windowsHide: true,
          shell: false,
        },
        (error, stdout, stderr) => {
          resolve({
            error: error ? failureOf(error) : null,
            stdout: Buffer.from(stdout ?? []),
            stderr: Buffer.from(stderr ?? []),
          });
        },
      );
    });
  },
};

/** Past a launch's own timeout (which the launcher process enforces), how long to wait for that process itself. */
const LAUNCHER_GUARD_MS = 5_000;

interface Waiting {
  readonly resolve: (launched: Launched) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

interface FrameHead {
  readonly id: number;
  readonly error: LaunchFailure | null;
  readonly out: number;
  readonly err: number;
}

/**
 * Starts processes from a small Node process of its own. Why: on Linux, Node starts a child with
 * fork(), which copies the parent's page tables on the event loop's thread, so its cost grows with
 * the parent's memory. The server holds webdriverio, the MCP SDK and zod (about 110–150 MB): each
 * `adb` cost 8–10 ms of blocked event loop, three or four per action, measured with a CPU profile of
 * a flow (docs/internals/performance-history.md). A launcher of about 45 MB forks in under 2 ms, and the server only
 * writes a line and reads a frame. The programs and their argument vectors are exactly those the
 * server would have run (src/infrastructure/process/launcherChild.ts); nothing passes a shell.
 *
 * The first process, and every process when the launcher cannot be started, is started directly,
 * as before (the launcher needs a Node start-up before it answers). When the launcher ends
 * while a process is running, that call fails with LauncherStoppedError (it is not known whether the
 * process ran) and the next call starts a new launcher.
 */
export class ChildProcessLauncher implements ProcessLauncher {
  #child: ChildProcess | null = null;
  #unavailable = false;
  #nextId = 1;
  readonly #waiting = new Map<number, Waiting>();
  #chunks: Buffer[] = [];
  #buffered = 0;
  #head: FrameHead | null = null;

  launch(file: string, args: readonly string[], options: LaunchOptions): Promise<Launched> {
    if (this.#child === null && !this.#unavailable) {
      // The launcher takes a Node start-up to answer: this first process is started directly meanwhile.
      this.#started();
      return directLauncher.launch(file, args, options);
    }
    const child = this.#unavailable ? null : this.#started();
    if (child === null) return directLauncher.launch(file, args, options);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // The process's own timeout is enforced in the launcher: no answer past it means the launcher is stuck.
        this.#stop(child, new LauncherStoppedError('The process launcher stopped answering.'));
      }, options.timeoutMs + LAUNCHER_GUARD_MS);
      timer.unref();
      this.#waiting.set(id, { resolve, reject, timer });
      if (this.#waiting.size === 1) this.#hold(child, true);
      const request = { id, file, args, timeoutMs: options.timeoutMs, maxBuffer: options.maxBuffer, env: options.env };
      child.stdin?.write(`${JSON.stringify(request)}\n`);
    });
  }

  /** The launcher process's pid while it runs (for the log and tests). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Ends the launcher process (it also ends by itself when this process exits). */
  close(): void {
    if (this.#child) this.#stop(this.#child, new LauncherStoppedError('The process launcher was closed.'));
  }

  #started(): ChildProcess | null {
    if (this.#child) return this.#child;
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, ['-e', LAUNCHER_CHILD_SOURCE], {
        stdio: ['pipe', 'pipe', 'ignore'],
        windowsHide: true,
        env: process.env,
      });
    } catch {
      this.#unavailable = true;
      return null;
    }
    if (child.pid === undefined) {
      // spawn reports a failure to start asynchronously; without a pid nothing will answer.
      child.once('error', () => undefined);
      this.#unavailable = true;
      return null;
    }
    this.#child = child;
    this.#chunks = [];
    this.#buffered = 0;
    this.#head = null;
    child.once('error', () => this.#stop(child, new LauncherStoppedError('The process launcher failed.')));
    child.once('exit', () => this.#stop(child, new LauncherStoppedError('The process launcher ended.')));
    child.stdin?.on('error', () => this.#stop(child, new LauncherStoppedError('The process launcher ended.')));
    child.stdout?.on('data', (chunk: Buffer) => this.#read(chunk));
    this.#hold(child, false);
    return child;
  }

  /** The launcher keeps this process alive only while a launch waits for its answer. */
  #hold(child: ChildProcess, hold: boolean): void {
    const pipes = [child.stdout, child.stdin] as unknown as (Socket | null)[];
    for (const pipe of pipes) {
      if (hold) pipe?.ref();
      else pipe?.unref();
    }
    if (hold) child.ref();
    else child.unref();
  }

  #stop(child: ChildProcess, error: Error): void {
    if (this.#child !== child) return;
    this.#child = null;
    for (const waiting of this.#waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    this.#waiting.clear();
    child.stdin?.destroy();
    child.stdout?.destroy();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  #read(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    for (;;) {
      if (this.#head === null) {
        if (this.#buffered < 4) return;
        const length = this.#peek(4).readUInt32BE(0);
        if (this.#buffered < 4 + length) return;
        this.#take(4);
        this.#head = JSON.parse(this.#take(length).toString('utf8')) as FrameHead;
      }
      const head: FrameHead = this.#head;
      if (this.#buffered < head.out + head.err) return;
      const stdout = this.#take(head.out);
      const stderr = this.#take(head.err);
      this.#head = null;
      const waiting = this.#waiting.get(head.id);
      if (!waiting) continue;
      this.#waiting.delete(head.id);
      clearTimeout(waiting.timer);
      if (this.#waiting.size === 0 && this.#child) this.#hold(this.#child, false);
      waiting.resolve({ error: head.error, stdout, stderr });
    }
  }

  #peek(n: number): Buffer {
    const first = this.#chunks[0] as Buffer;
    if (first.length >= n) return first.subarray(0, n);
    return Buffer.concat(this.#chunks).subarray(0, n);
  }

  /** The next n bytes; one copy per frame part at most. */
  #take(n: number): Buffer {
    if (n === 0) return Buffer.alloc(0);
    const first = this.#chunks[0] as Buffer;
    let taken: Buffer;
    if (first.length >= n) {
      taken = Buffer.from(first.subarray(0, n));
      if (first.length === n) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(n);
    } else {
      const all = Buffer.concat(this.#chunks);
      taken = all.subarray(0, n);
      this.#chunks = all.length > n ? [all.subarray(n)] : [];
    }
    this.#buffered -= n;
    return taken;
  }
}

/** One launcher for the whole server: every adb call shares it. */
export const sharedLauncher = new ChildProcessLauncher();

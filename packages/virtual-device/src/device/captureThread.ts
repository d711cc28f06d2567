/**
 * Draws the device's captures in threads of their own, so that a capture does not hold up what else
 * the device serves meanwhile (`dumpsys`, the UiAutomator2 server, other shells): on Android
 * `screencap` is a process of its own and SurfaceFlinger composes the buffer, neither of them
 * system_server or the server's app process (docs/internals/device-quirks.md, "What a capture holds up").
 *
 * The threads are the process's, shared by its devices: a capture takes one that is free and starts
 * one when all are drawing, so no capture waits behind another (each device has its own
 * SurfaceFlinger), and a process that makes many devices in turn (the fixture sweeps) pays a thread's
 * start-up once, not per device. A thread holds the process open only while it draws; it ends when
 * every device that captured has been closed, or after a while with nothing to draw.
 */
import { Worker } from 'node:worker_threads';
import type { CaptureReply, CaptureRequest } from './captureWorker.js';
import type { ScreenshotState } from './screenshot.js';
import { rememberRawFrame } from './rawFrames.js';

/** How long a thread with nothing to draw is kept for the next capture. */
export const CAPTURE_THREAD_IDLE_MS = 30_000;

interface Job {
  readonly id: number;
  readonly resolve: (png: Buffer) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  readonly worker: Worker;
  job: Job | null;
  idle: NodeJS.Timeout | null;
}

/**
 * The worker's entry next to this module. Built JavaScript (dist/) loads it as it is; from the
 * TypeScript sources (vitest, `node --import tsx`) Node cannot load a `.ts` file by itself, so the
 * thread imports it through tsx's API (tsx is a development dependency: only the sources need it).
 */
function spawn(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./captureWorker.js', here));
  const entry = new URL('./captureWorker.ts', here).href;
  const api = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)}));`;
  return new Worker(code, { eval: true });
}

class CapturePool {
  private readonly slots = new Set<Slot>();
  /** The devices that captured and have not been closed since. */
  private readonly holders = new Set<object>();
  private nextId = 1;

  render(holder: object, state: ScreenshotState): Promise<Buffer> {
    this.holders.add(holder);
    const slot = [...this.slots].find((s) => s.job === null) ?? this.start();
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    const id = this.nextId++;
    return new Promise<Buffer>((resolve, reject) => {
      slot.job = { id, resolve, reject };
      // A capture being drawn keeps the process alive, as the stream waiting for it would.
      slot.worker.ref();
      const request: CaptureRequest = { id, state };
      // Copied now (structured clone): what is drawn is the screen of this moment.
      slot.worker.postMessage(request);
    });
  }

  async release(holder: object): Promise<void> {
    this.holders.delete(holder);
    if (this.holders.size > 0) return;
    const slots = [...this.slots];
    for (const slot of slots) this.drop(slot, new Error('the virtual device stopped before the capture was drawn'));
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  threads(): number {
    return this.slots.size;
  }

  private start(): Slot {
    const worker = spawn();
    worker.unref();
    const slot: Slot = { worker, job: null, idle: null };
    worker.on('message', (reply: CaptureReply) => this.answered(slot, reply));
    worker.on('error', (error: Error) => this.drop(slot, new Error(`the capture thread failed: ${error.message}`)));
    worker.on('exit', (code) => this.drop(slot, new Error(`the capture thread stopped (exit code ${code})`)));
    this.slots.add(slot);
    return slot;
  }

  private answered(slot: Slot, reply: CaptureReply): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    slot.job = null;
    slot.worker.unref();
    slot.idle = setTimeout(() => {
      this.drop(slot, null);
      void slot.worker.terminate();
    }, CAPTURE_THREAD_IDLE_MS);
    slot.idle.unref();
    if ('error' in reply) job.reject(new Error(reply.error));
    else {
      const png = Buffer.from(reply.png.buffer, reply.png.byteOffset, reply.png.byteLength);
      if (reply.rgba) rememberRawFrame(png, reply.rgba, reply.width, reply.height);
      job.resolve(png);
    }
  }

  /** Forgets a thread (ended, failed or being ended); a capture it was drawing fails with `error`. */
  private drop(slot: Slot, error: Error | null): void {
    if (!this.slots.delete(slot)) return;
    if (slot.idle) clearTimeout(slot.idle);
    const job = slot.job;
    slot.job = null;
    if (job && error) job.reject(error);
  }
}

const pool = new CapturePool();

/** One device's way into the capture threads. */
export class CaptureThread {
  /** Draws `state` in a capture thread. The state is copied when this is called. */
  render(state: ScreenshotState): Promise<Buffer> {
    return pool.render(this, state);
  }

  /** This device is put away: the threads end once no other device that captured is still open. */
  close(): Promise<void> {
    return pool.release(this);
  }
}

/** How many capture threads this process runs now (for tests: none outlives the devices). */
export function captureThreadCount(): number {
  return pool.threads();
}

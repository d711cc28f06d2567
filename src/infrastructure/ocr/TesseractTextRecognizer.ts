/**
 * OCR with tesseract.js (WebAssembly, no native build) and the English LSTM model of
 * `@tesseract.js-data/eng`, both optional dependencies. Nothing happens at start-up: the worker
 * process (ocrWorker.ts) starts on the first screen whose tree leaves something unexposed, reads
 * the model from node_modules (never a download, no cache written), and is ended once idle, so a
 * server that saw one game screen does not keep the model's memory. Figures:
 * docs/internals/performance-history.md, "Visual refs".
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger, TextRecognition, TextRecognizer } from '../../domain/ports.js';
import type { Rect } from '../../domain/tree/uiNode.js';
import type { OcrRequest, OcrResponse } from './ocrMessages.js';

/** The worker is ended after this long without a read: the next screen soon after reuses it. */
export const OCR_IDLE_MS = 60_000;

/**
 * A read that has not answered by then is given up and the worker ended: a wedged engine must not
 * hold ui_get_tree (and the device's lock) for ever. Real-clock on purpose: the worker is another
 * process and runs on real time; 30 s is ten times the slowest read measured on a loaded 2-core
 * machine (docs/internals/performance-history.md, "Visual refs").
 */
export const OCR_READ_LIMIT_MS = 30_000;

/** What a user installs to get visual refs (said in the summary when they are missing). */
export const OCR_REMEDY =
  'The screen shows content the accessibility tree does not expose, but no OCR engine is installed to read it: ' +
  'install the optional packages beside the server (npm install tesseract.js@7.0.0 @tesseract.js-data/eng@1.0.0) and restart it.';

/** The model's folder inside `@tesseract.js-data/eng`: the integer-quantised "best" LSTM. */
const MODEL_DIR = '4.0.0_best_int';

/** The worker's script beside this file: built JavaScript, or the TypeScript source under tsx (bench, scripts). */
function workerScript(): string {
  const js = fileURLToPath(new URL('./ocrWorker.js', import.meta.url));
  return existsSync(js) ? js : fileURLToPath(new URL('./ocrWorker.ts', import.meta.url));
}

/** The model's folder, or null when either optional package is missing. */
function modelFolder(): string | null {
  try {
    const require = createRequire(import.meta.url);
    require.resolve('tesseract.js');
    return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), MODEL_DIR);
  } catch {
    return null;
  }
}

export class TesseractTextRecognizer implements TextRecognizer {
  private child: ChildProcess | null = null;
  private serial = 0;
  private readonly pending = new Map<number, (response: OcrResponse) => void>();
  private idle: NodeJS.Timeout | null = null;
  /** The worker's largest resident memory seen (bench). */
  peakWorkerRssBytes = 0;

  constructor(private readonly logger: Logger) {}

  async read(png: Buffer, regions: readonly Rect[]): Promise<TextRecognition> {
    const folder = modelFolder();
    if (folder === null) return { kind: 'unavailable', remedy: OCR_REMEDY };
    if (this.idle) clearTimeout(this.idle);
    const child = this.child ?? this.start(folder);
    const id = ++this.serial;
    // Held open while a read waits (a script that only reads a screen must not exit under it), let go after.
    child.channel?.ref();
    const response = await new Promise<OcrResponse>((resolve) => {
      const limit = setTimeout(() => {
        this.pending.delete(id);
        resolve({ id, lines: [], error: `no answer within ${OCR_READ_LIMIT_MS / 1000} s (the worker was ended)` });
        this.close();
      }, OCR_READ_LIMIT_MS);
      this.pending.set(id, (answer) => {
        clearTimeout(limit);
        resolve(answer);
      });
      const request: OcrRequest = { id, png, regions };
      child.send(request);
    });
    if (this.pending.size === 0) child.channel?.unref();
    this.idle = setTimeout(() => this.close(), OCR_IDLE_MS);
    // The idle timer never keeps the server alive.
    this.idle.unref();
    if (response.peakRssBytes) this.peakWorkerRssBytes = Math.max(this.peakWorkerRssBytes, response.peakRssBytes);
    if (response.error !== undefined) throw new Error(`OCR failed: ${response.error}`);
    return { kind: 'read', lines: response.lines };
  }

  /** Ends the worker now (idle, shutdown, tests); a later read starts a new one. */
  close(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null) child.kill();
  }

  private start(folder: string): ChildProcess {
    const child = fork(workerScript(), [folder], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    // Whatever the engine prints is the server's log (stderr), never its stdout.
    const log = (chunk: Buffer): void =>
      this.logger.debug('OCR worker output', { text: chunk.toString('utf8').trim() });
    child.stdout?.on('data', log);
    child.stderr?.on('data', log);
    child.on('message', (response: OcrResponse) => {
      const resolve = this.pending.get(response.id);
      this.pending.delete(response.id);
      resolve?.(response);
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      // A read still waiting gets an error instead of hanging.
      for (const [id, resolve] of this.pending)
        resolve({ id, lines: [], error: `the OCR worker ended (${signal ?? code})` });
      this.pending.clear();
    });
    // The worker never keeps the server alive by itself.
    child.unref();
    child.channel?.unref();
    this.child = child;
    return child;
  }
}

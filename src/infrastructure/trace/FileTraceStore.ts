/**
 * Traces on disk (docs/reference/contract.md, "Traces"): `<artifacts>/traces/<name>/trace.jsonl`, one JSON
 * object a line, each appended with one synchronous write, so a crash loses at most the line being
 * written and a reader never sees half of an earlier one. The evidence a line names is hard-linked
 * into the folder (`evidence/<artifact id>`): the same bytes on disk, not a copy, and the trace
 * keeps its pictures when the evidence directory is tidied. Where a link cannot be made (another
 * file system, a file system without links) the line's artifact id still names the file in the
 * evidence directory.
 *
 * Bounded: opening a trace removes the oldest folders beyond `keep` and beyond `maxBytes` in all;
 * a trace that reaches `maxBytes` by itself writes one last line saying so and stops growing.
 */
import { appendFileSync, linkSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TraceKind, TraceSink, TraceStore } from '../../application/trace/TraceRecorder.js';
import type { Clock, Logger } from '../../domain/ports.js';

export const TRACES_FOLDER = 'traces';
export const TRACE_FILE = 'trace.jsonl';
export const TRACE_EVIDENCE_FOLDER = 'evidence';
/**
 * The evidence ids the harness issues (docs/reference/contract.md, "Evidence and the `artifact://`
 * resource"): bare names, checked before any link.
 */
const ARTIFACT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.png$/;

export interface FileTraceStoreOptions {
  /** The evidence directory (absolute); traces go to its `traces/` folder. */
  readonly artifactsDir: string;
  readonly keep: number;
  readonly maxBytes: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Applied to each line before it is written (remote mode's credentials). */
  readonly scrub?: (text: string) => string;
}

/** `20261207-004512-123-stdio-4242-1` (UTC): the time first, so that name order is time order. */
export function traceFolderName(at: Date, kind: TraceKind, suffix: string): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}-${kind}-${suffix}`;
}

export class FileTraceStore implements TraceStore {
  private opened = 0;

  constructor(private readonly options: FileTraceStoreOptions) {}

  get root(): string {
    return path.join(this.options.artifactsDir, TRACES_FOLDER);
  }

  open(kind: TraceKind, name?: string | null): TraceSink | null {
    const folderName = name ?? this.nameFor(kind);
    const dir = path.join(this.root, folderName);
    try {
      mkdirSync(dir, { recursive: true });
      this.prune(folderName);
      this.options.logger.info('trace: every call of this run is recorded', {
        trace: `${TRACES_FOLDER}/${folderName}`,
      });
    } catch (error) {
      this.options.logger.warn('trace: the trace folder could not be created; this run is not traced', {
        code: (error as NodeJS.ErrnoException).code,
      });
      return null;
    }
    return new FileTraceSink(folderName, dir, this.options);
  }

  private nameFor(kind: TraceKind): string {
    this.opened += 1;
    return traceFolderName(this.options.clock.now(), kind, `${process.pid}-${this.opened}`);
  }

  /** Oldest first out: beyond `keep` folders, then beyond `maxBytes` in all; never the one just opened. */
  private prune(current: string): void {
    const folders = readdirSync(this.root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== current)
      .map((entry) => entry.name)
      .sort();
    const sizes = new Map(folders.map((folder) => [folder, folderBytes(path.join(this.root, folder))]));
    let total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
    let count = folders.length + 1;
    for (const folder of folders) {
      if (count <= this.options.keep && total <= this.options.maxBytes) break;
      rmSync(path.join(this.root, folder), { recursive: true, force: true });
      count -= 1;
      total -= sizes.get(folder) ?? 0;
    }
  }
}

class FileTraceSink implements TraceSink {
  private bytes = 0;
  private full = false;
  private readonly file: string;

  constructor(
    readonly name: string,
    private readonly dir: string,
    private readonly options: FileTraceStoreOptions,
  ) {
    this.file = path.join(dir, TRACE_FILE);
  }

  append(line: Readonly<Record<string, unknown>>): void {
    if (this.full) return;
    let text = `${JSON.stringify(line)}\n`;
    if (this.options.scrub) text = this.options.scrub(text);
    if (this.bytes + Buffer.byteLength(text) > this.options.maxBytes) {
      this.full = true;
      text = `${JSON.stringify({ type: 'stopped', at: this.options.clock.now().toISOString(), reason: `the trace reached its bound of ${this.options.maxBytes} bytes (ANDROID_MCP_TRACE_MAX_MB)` })}\n`;
    }
    try {
      appendFileSync(this.file, text, { encoding: 'utf8', mode: 0o600 });
      this.bytes += Buffer.byteLength(text);
    } catch (error) {
      this.options.logger.warn('trace: a line could not be written', { code: (error as NodeJS.ErrnoException).code });
    }
  }

  keepEvidence(artifactId: string): void {
    if (!ARTIFACT_ID.test(artifactId)) return;
    const target = path.join(this.dir, TRACE_EVIDENCE_FOLDER, artifactId);
    try {
      mkdirSync(path.dirname(target), { recursive: true });
      linkSync(path.join(this.options.artifactsDir, artifactId), target);
    } catch (error) {
      // Already linked (the same evidence named twice), or no link possible: the id still names it.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        this.options.logger.debug('trace: evidence not linked into the trace', {
          code: (error as NodeJS.ErrnoException).code,
        });
      }
    }
  }
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    try {
      total += statSync(path.join(entry.parentPath, entry.name)).size;
    } catch {
      // Removed meanwhile: nothing to count.
    }
  }
  return total;
}

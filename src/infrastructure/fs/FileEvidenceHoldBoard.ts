import { randomBytes } from 'node:crypto';
import { rmSync, rmdirSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isArtifactId } from '../../domain/evidenceName.js';
import type { EvidenceHoldBoard } from '../../domain/ports.js';
import { systemProcessProbe, type ProcessProbe } from '../lock/FileDeviceLock.js';

/** The board's folder inside the evidence directory (hidden, and no evidence id: never listed as evidence). */
export const HOLD_BOARD_FOLDER = '.holds';

/**
 * `<pid>-<token>.json`: the pid says whether the writer may still live, the token tells two boards
 * of one process apart. `.tmp` is an entry being written (left behind only by a process killed then).
 */
const ENTRY_NAME = /^([1-9][0-9]{0,9})-[A-Za-z0-9_-]{8,64}\.json(\.tmp)?$/;

const ENTRY = z.object({ pid: z.number().int().positive(), start: z.string().nullable(), held: z.array(z.string()) });

/** Entries to remove when the process exits, however many boards it made (one exit listener). */
const entriesToRemoveAtExit = new Set<string>();
let exitHookInstalled = false;

function removeAtExit(file: string): void {
  entriesToRemoveAtExit.add(file);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const entry of entriesToRemoveAtExit) {
      rmSync(entry, { force: true });
      // The folder too, when no other process has an entry in it.
      try {
        rmdirSync(path.dirname(entry));
      } catch {
        // Not empty, or already gone.
      }
    }
  });
}

/**
 * The hold board as one small JSON file per process in `<evidence dir>/.holds/`, written whole and
 * renamed into place (a reader never sees half of one), removed when it holds nothing and at exit.
 * A process that ended without removing its entry (killed) is known to be gone by its pid and the
 * start time recorded beside it (a reused pid is another process), and the next reader removes the
 * entry: its holds end with it.
 */
export class FileEvidenceHoldBoard implements EvidenceHoldBoard {
  private readonly folder: string;
  private readonly entry: string;
  /** This process's start time, written beside its pid. */
  private readonly start: string | null;

  constructor(
    evidenceDir: string,
    private readonly pid: number = process.pid,
    private readonly probe: ProcessProbe = systemProcessProbe,
  ) {
    this.folder = path.join(path.resolve(evidenceDir), HOLD_BOARD_FOLDER);
    this.entry = path.join(this.folder, `${pid}-${randomBytes(9).toString('base64url')}.json`);
    this.start = probe.startTime(pid);
  }

  async publish(names: readonly string[]): Promise<void> {
    if (names.length === 0) {
      await fs.rm(this.entry, { force: true });
      // The folder too when no other process has an entry: the evidence directory holds only evidence.
      await fs.rmdir(this.folder).catch(() => undefined);
      return;
    }
    const temporary = `${this.entry}.tmp`;
    const text = JSON.stringify({ pid: this.pid, start: this.start, held: names });
    try {
      await fs.writeFile(temporary, text, { mode: 0o644 });
    } catch (error) {
      // The folder is made on the first need only: one system call less on every other write.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await fs.mkdir(this.folder, { recursive: true });
      await fs.writeFile(temporary, text, { mode: 0o644 });
    }
    await fs.rename(temporary, this.entry);
    removeAtExit(this.entry);
  }

  async heldByOthers(): Promise<ReadonlySet<string>> {
    let names: string[];
    try {
      names = await fs.readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
      throw error;
    }
    const held = new Set<string>();
    for (const name of names) {
      const match = ENTRY_NAME.exec(name);
      const file = path.join(this.folder, name);
      if (!match || file === this.entry || file === `${this.entry}.tmp`) continue;
      const pid = Number(match[1]);
      if (!this.probe.isAlive(pid)) {
        await fs.rm(file, { force: true });
        continue;
      }
      if (match[2] !== undefined) continue;
      const entry = await readEntry(file);
      if (entry === null) continue;
      const start = this.probe.startTime(pid);
      if (entry.start !== null && start !== null && entry.start !== start) {
        // The pid lives again as another process: the writer is gone.
        await fs.rm(file, { force: true });
        continue;
      }
      for (const id of entry.held) if (isArtifactId(id)) held.add(id);
    }
    return held;
  }
}

/** An entry as written; null when it went meanwhile or is not one. */
async function readEntry(file: string): Promise<z.infer<typeof ENTRY> | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = ENTRY.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

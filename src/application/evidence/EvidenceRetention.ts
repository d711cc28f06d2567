import { isBounded, planPrune, type RetentionBound, type StoredEvidence } from '../../domain/evidence/retention.js';
import type { Clock, EvidenceDirectory, EvidenceHoldBoard, Logger } from '../../domain/ports.js';
import type { EvidenceHolds } from './EvidenceHolds.js';

/**
 * How often the directory is listed again, to count the files other processes wrote (or a person
 * removed). In between, the index is kept from this process's own writes and removals, so an
 * action costs no listing.
 */
export const RESYNC_INTERVAL_MS = 60_000;

/**
 * The most files one write removes. A directory far over the bound (evidence from before the bound
 * existed, or a bound just lowered) shrinks over a few writes instead of one action paying for all.
 */
export const MAX_REMOVALS_PER_WRITE = 1_000;

/**
 * Applies the retention bound after every evidence write: the oldest files go first until the
 * directory fits, except what this process or another live one holds (EvidenceHolds, the hold
 * board). Never fails the action that wrote: a failure is logged on stderr, and the action answers.
 */
export class EvidenceRetention {
  /** The directory's evidence files, oldest first (names sort by capture time); null until listed. */
  private index: StoredEvidence[] | null = null;
  private totalBytes = 0;
  private listedAtMs = 0;
  /** One pass at a time: two passes would plan on the same index and remove past the bound. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly directory: EvidenceDirectory,
    private readonly holds: EvidenceHolds,
    private readonly board: EvidenceHoldBoard | null,
    readonly bound: RetentionBound,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly resyncIntervalMs: number = RESYNC_INTERVAL_MS,
  ) {}

  /**
   * Holds `name` for the running call before its file is created (EvidenceHolds.claim), bound or
   * not: another process sharing the directory may have one.
   */
  claim(name: string): Promise<void> {
    return this.holds.claim(name);
  }

  release(name: string): void {
    this.holds.release(name);
  }

  /**
   * After `name` (`bytes` long) was written: removes the oldest files past the bound, never `name`
   * itself, and returns the names removed. Never throws.
   */
  async admitted(name: string, bytes: number): Promise<readonly string[]> {
    if (!isBounded(this.bound)) return [];
    const pass = this.queue.then(() => this.apply(name, bytes));
    this.queue = pass.catch(() => undefined);
    try {
      return await pass;
    } catch (error) {
      // The index may no longer be the directory's: list it again next time.
      this.index = null;
      this.logger.warn('the evidence retention bound could not be applied; the action went on', {
        cause: String(error),
      });
      return [];
    }
  }

  private async apply(name: string, bytes: number): Promise<readonly string[]> {
    const index = await this.current();
    this.insert(index, { name, bytes });
    const own = this.holds.held();
    const keep = (other: ReadonlySet<string>) => (candidate: string) =>
      candidate === name || own.has(candidate) || other.has(candidate);
    let doomed = planPrune(index, this.totalBytes, this.bound, keep(new Set()));
    if (doomed.length === 0) return [];
    // Only when something would go: what the other processes hold (one small read per process).
    if (this.board) doomed = planPrune(index, this.totalBytes, this.bound, keep(await this.board.heldByOthers()));
    const removed: string[] = [];
    for (const doomedName of doomed.slice(0, MAX_REMOVALS_PER_WRITE)) {
      try {
        await this.directory.remove(doomedName);
      } catch (error) {
        this.logger.warn('an evidence file past the retention bound could not be removed', {
          artifact: doomedName,
          cause: String(error),
        });
        continue;
      }
      // Gone, by us or already by another process: either way no longer in the directory.
      this.drop(index, doomedName);
      removed.push(doomedName);
    }
    if (removed.length > 0) this.logger.debug('evidence past the retention bound removed', { count: removed.length });
    // Sessions that ended since the last write hold nothing now: say so on the board.
    await this.holds.publish();
    return removed;
  }

  /** The index, listed again when it was never listed or is older than the resync interval. */
  private async current(): Promise<StoredEvidence[]> {
    const now = this.clock.monotonicMs();
    if (this.index !== null && now - this.listedAtMs < this.resyncIntervalMs) return this.index;
    const listed = [...(await this.directory.list())].sort((a, b) => compareNames(a.name, b.name));
    this.index = listed;
    this.totalBytes = listed.reduce((sum, file) => sum + file.bytes, 0);
    this.listedAtMs = now;
    return listed;
  }

  private insert(index: StoredEvidence[], file: StoredEvidence): void {
    const at = position(index, file.name);
    if (index[at]?.name === file.name) return;
    index.splice(at, 0, file);
    this.totalBytes += file.bytes;
  }

  private drop(index: StoredEvidence[], name: string): void {
    const at = position(index, name);
    const file = index[at];
    if (file?.name !== name) return;
    index.splice(at, 1);
    this.totalBytes -= file.bytes;
  }
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first place in `index` (sorted by name) whose name is not before `name`. */
function position(index: readonly StoredEvidence[], name: string): number {
  let low = 0;
  let high = index.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareNames(index[middle]!.name, name) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

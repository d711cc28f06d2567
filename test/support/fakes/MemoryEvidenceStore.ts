import type { StoredEvidence } from '../../../src/domain/evidence/retention.js';
import type { EvidenceDirectory, EvidenceStore } from '../../../src/domain/ports.js';

/**
 * Evidence in a Map that really enforces exclusive creation: the existence check and
 * the insert happen in one turn, after a macrotask, so concurrent writers interleave
 * exactly where a file system would let them race.
 */
export class MemoryEvidenceStore implements EvidenceStore, EvidenceDirectory {
  readonly files = new Map<string, Buffer>();
  readonly reads: string[] = [];
  eexistCount = 0;
  failWith: NodeJS.ErrnoException | null = null;

  async createExclusive(name: string, bytes: Buffer): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.failWith) throw this.failWith;
    if (this.files.has(name)) {
      this.eexistCount += 1;
      throw Object.assign(new Error(`EEXIST: file already exists, open '${name}'`), { code: 'EEXIST' });
    }
    this.files.set(name, bytes);
  }

  read(name: string): Promise<Buffer | null> {
    this.reads.push(name);
    return Promise.resolve(this.files.get(name) ?? null);
  }

  /** How many times the directory was listed (the retention bound lists it rarely). */
  listings = 0;
  removeFailure: NodeJS.ErrnoException | null = null;

  list(): Promise<StoredEvidence[]> {
    this.listings += 1;
    return Promise.resolve([...this.files].map(([name, bytes]) => ({ name, bytes: bytes.length })));
  }

  remove(name: string): Promise<boolean> {
    if (this.removeFailure) return Promise.reject(this.removeFailure);
    return Promise.resolve(this.files.delete(name));
  }
}

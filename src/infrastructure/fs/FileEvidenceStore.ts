import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isArtifactId } from '../../domain/evidenceName.js';
import type { StoredEvidence } from '../../domain/evidence/retention.js';
import type { EvidenceDirectory, EvidenceStore } from '../../domain/ports.js';

/**
 * Evidence files in one directory. Names are bare file names: anything that could name
 * another place (separators, `..`, NUL, a symlink pointing out) is refused before any read.
 */
export class FileEvidenceStore implements EvidenceStore, EvidenceDirectory {
  private readonly dir: string;
  private ready: Promise<void> | null = null;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  async createExclusive(name: string, bytes: Buffer): Promise<void> {
    const target = this.resolveInside(name);
    if (target === null) throw Object.assign(new Error('evidence name must be a bare file name'), { code: 'EINVAL' });
    await this.ensureDir();
    // 'wx' fails with EEXIST instead of overwriting: two captures can never share a file.
    const handle = await fs.open(target, 'wx', 0o644);
    try {
      await handle.writeFile(bytes);
    } catch (error) {
      await handle.close().catch(() => undefined);
      await fs.unlink(target).catch(() => undefined);
      throw error;
    }
    await handle.close();
  }

  async read(name: string): Promise<Buffer | null> {
    const target = this.resolveInside(name);
    if (target === null) return null;
    try {
      const [realDir, realTarget] = await Promise.all([fs.realpath(this.dir), fs.realpath(target)]);
      if (path.dirname(realTarget) !== realDir) return null;
      const stat = await fs.stat(realTarget);
      if (!stat.isFile()) return null;
      return await fs.readFile(realTarget);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async list(): Promise<StoredEvidence[]> {
    let entries;
    try {
      entries = await fs.readdir(this.dir, { withFileTypes: true });
    } catch (error) {
      if (isNotFound(error)) return [];
      throw error;
    }
    // Only regular files named as evidence ids: a symlink, a folder or any other file is never counted, never removed.
    const names = entries.filter((entry) => entry.isFile() && isArtifactId(entry.name)).map((entry) => entry.name);
    const sizes = await Promise.all(
      names.map(async (name): Promise<StoredEvidence | null> => {
        try {
          return { name, bytes: (await fs.lstat(path.join(this.dir, name))).size };
        } catch (error) {
          // Removed meanwhile (another process's bound).
          if (isNotFound(error)) return null;
          throw error;
        }
      }),
    );
    return sizes.filter((file): file is StoredEvidence => file !== null);
  }

  async remove(name: string): Promise<boolean> {
    const target = isArtifactId(name) ? this.resolveInside(name) : null;
    if (target === null)
      throw Object.assign(new Error('only an evidence id names a file to remove'), { code: 'EINVAL' });
    try {
      await fs.unlink(target);
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** The absolute path of a bare name directly inside the directory, or null. */
  private resolveInside(name: string): string | null {
    if (typeof name !== 'string' || name.length === 0 || name.length > 255) return null;
    if (name === '.' || name === '..' || name.includes('..')) return null;
    if (/[/\\\0:]/.test(name)) return null;
    const target = path.resolve(this.dir, name);
    return path.dirname(target) === this.dir ? target : null;
  }

  private ensureDir(): Promise<void> {
    // Memoised, but a failure (e.g. a read-only disk) is retried on the next write.
    this.ready ??= fs.mkdir(this.dir, { recursive: true }).then(
      () => undefined,
      (error: unknown) => {
        this.ready = null;
        throw blockedDirectory(error) ?? error;
      },
    );
    return this.ready;
  }
}

/**
 * mkdir's EEXIST (the directory's own path is a file) or ENOTDIR (a file where a parent should be),
 * as one ENOTDIR naming mkdir's code: EEXIST from the store means "that evidence name is taken"
 * and the writer would try the next name, a thousand times, for a cause no name can fix.
 */
function blockedDirectory(error: unknown): Error | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== 'EEXIST' && code !== 'ENOTDIR') return null;
  return Object.assign(new Error(`a file stands where the evidence directory should be (mkdir: ${code})`), {
    code: 'ENOTDIR',
  });
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

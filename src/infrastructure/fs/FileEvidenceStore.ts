import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { EvidenceStore } from '../../domain/ports.js';

/**
 * Evidence files in one directory. Names are bare file names: anything that could name
 * another place (separators, `..`, NUL, a symlink pointing out) is refused before any read.
 */
export class FileEvidenceStore implements EvidenceStore {
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
        throw error;
      },
    );
    return this.ready;
  }
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

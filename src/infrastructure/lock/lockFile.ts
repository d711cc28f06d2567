/**
 * The lock file on disk: read it, create it exclusively, replace it atomically, remove it. A record
 * is never written in place, so a reader never sees half of one: it goes to a private temporary
 * file first, then is hard-linked (create) or renamed (replace) to the lock name.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { HarnessError, systemErrorCode } from '../../domain/errors.js';
import type { Logger } from '../../domain/ports.js';
import { parseRecord, type LockRecord, type Reading } from './lockRecord.js';

export class LockFile {
  private directoryReady = false;

  constructor(
    /** `<directory>/<name>.lock`. */
    readonly path: string,
    private readonly directory: string,
    /** This process's pid, in the temporary files' names. */
    private readonly pid: number,
    private readonly now: () => number,
    private readonly logger: Logger,
  ) {}

  /** Creates the marker file `path` exclusively; one older than `staleAfterMs` is removed and tried again, once. */
  createMutex(path: string, staleAfterMs: number): boolean {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      try {
        closeSync(openSync(path, 'wx', 0o600));
        return true;
      } catch (error) {
        if (systemErrorCode(error) !== 'EEXIST') throw this.unusable(error);
      }
      try {
        if (this.now() - statSync(path).mtimeMs <= staleAfterMs) return false;
        this.unlinkQuietly(path);
      } catch {
        // Gone already: the next attempt creates it.
      }
    }
    return false;
  }

  /** Writes `record` to a private file and links it to the lock name: exclusive and never half-written. */
  createExclusive(record: LockRecord): boolean {
    const temporary = this.writeTemporary(record);
    try {
      linkSync(temporary, this.path);
      return true;
    } catch (error) {
      if (systemErrorCode(error) === 'EEXIST') return false;
      throw this.unusable(error);
    } finally {
      this.unlinkQuietly(temporary);
    }
  }

  /** Replaces the record with `record` (atomic rename over it); false, with a warning, when that fails. */
  replace(record: LockRecord): boolean {
    const temporary = this.writeTemporary(record);
    try {
      renameSync(temporary, this.path);
      return true;
    } catch (error) {
      this.unlinkQuietly(temporary);
      this.logger.warn('could not update the device lock record', { cause: String(error) });
      return false;
    }
  }

  private writeTemporary(record: LockRecord): string {
    const temporary = `${this.path}.${this.pid}.${randomBytes(6).toString('hex')}.tmp`;
    for (let attempt = 0; ; attempt += 1) {
      try {
        writeFileSync(temporary, `${JSON.stringify(record)}\n`, { flag: 'wx', mode: 0o600 });
        return temporary;
      } catch (error) {
        // The last process to exit removes the empty directory (removeWhenEmpty): make it again, once.
        if (systemErrorCode(error) !== 'ENOENT' || attempt > 0) throw this.unusable(error);
        this.directoryReady = false;
        this.ensureDirectory();
      }
    }
  }

  read(): Reading {
    let text: string;
    let mtimeMs: number;
    try {
      mtimeMs = statSync(this.path).mtimeMs;
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if (systemErrorCode(error) === 'ENOENT') return { kind: 'absent' };
      throw this.unusable(error);
    }
    const record = parseRecord(text);
    return record ? { kind: 'record', record } : { kind: 'corrupt', ageMs: this.now() - mtimeMs };
  }

  ensureDirectory(): void {
    if (this.directoryReady) return;
    try {
      mkdirSync(this.directory, { recursive: true, mode: 0o700 });
      const stat = lstatSync(this.directory);
      // In a shared /tmp someone else could have planted the directory or a symlink to steer our files.
      const uid = typeof process.getuid === 'function' ? process.getuid() : null;
      if (!stat.isDirectory() || (uid !== null && stat.uid !== uid)) {
        throw Object.assign(new Error('lock directory is not a directory owned by this user'), { code: 'ENOTOWNED' });
      }
    } catch (error) {
      throw this.unusable(error);
    }
    this.directoryReady = true;
  }

  private unusable(error: unknown): HarnessError {
    if (error instanceof HarnessError) return error;
    const code = systemErrorCode(error) ?? 'error';
    this.logger.error('the device lock directory is unusable', { directory: this.directory, cause: String(error) });
    return new HarnessError(
      'EMULATOR_UNAVAILABLE',
      `The cross-process device lock could not be used (${code}). Make the lock directory writable by this user ` +
        '(or set ANDROID_MCP_LOCK_DIR to a directory you own), then retry.',
      { cause: error },
    );
  }

  unlinkQuietly(path: string): void {
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
  }
}

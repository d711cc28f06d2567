import type { EvidenceRef } from '../../domain/envelope.js';
import { HarnessError, systemErrorCode } from '../../domain/errors.js';
import { formatEvidenceName, isArtifactId } from '../../domain/evidenceName.js';
import type { Clock, EvidenceStore, ImageTools, Logger, PngInfo } from '../../domain/ports.js';
import type { RetentionBound } from '../../domain/evidence/retention.js';
import type { EvidenceRetention } from './EvidenceRetention.js';

/** A written evidence file and the size of the picture in it. */
export interface WrittenEvidence {
  readonly ref: EvidenceRef;
  readonly width: number;
  readonly height: number;
}

/**
 * Names tried before giving up. A clash only happens with a file this process did not write
 * (another process sharing the directory, or a file left from before a clock step back), and
 * each retry moves 1 µs past it. Two writers that capture at the same instant walk the same
 * stamps in step, so one capture can meet as many clashes as the other writer has files in that
 * run of microseconds (seen: 50 in a row with two writers of 50 concurrent captures). A failed
 * exclusive open is cheap and a second holds a million names, so the bound is generous.
 */
const MAX_NAME_ATTEMPTS = 1_000;
/** How many recent artifacts resources/list offers. */
const RECENT_LIMIT = 50;

export const BLANK_CAPTURE_MESSAGE =
  "The screen capture was blank (every pixel the same): the emulator's graphics stack may be broken. " +
  'Start the emulator with -gpu swiftshader_indirect (or -gpu host), make sure the screen is on, then retry.';

/**
 * Writes evidence PNGs: names stamped with the capture's microsecond, so their
 * order is the order of the captures, unique even for captures in the same microsecond, created
 * exclusively (never overwriting), and only pictures that show something, since a broken
 * graphics stack answers with a uniform image.
 */
export class EvidenceWriter {
  private readonly recent: string[] = [];
  /** The last stamp issued (µs since the epoch): the next one is always later. */
  private lastStamp = -1;

  constructor(
    private readonly store: EvidenceStore,
    private readonly images: ImageTools,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** The retention bound and the holds; null: every file is kept (unit tests of naming). */
    private readonly retention: EvidenceRetention | null = null,
  ) {}

  async write(label: string, png: Buffer): Promise<WrittenEvidence> {
    return this.save(
      label,
      png,
      this.assertShowsSomething(() => this.images.inspect(png)),
    );
  }

  /**
   * write(), plus a preview of the capture for the client (screen_capture): the blank check and
   * the preview come from one decode of the PNG.
   */
  async writeWithPreview(
    label: string,
    png: Buffer,
    maxSide: number,
    maxBytes: number,
  ): Promise<WrittenEvidence & { preview: Buffer }> {
    let preview: Buffer | undefined;
    const info = this.assertShowsSomething(() => {
      const both = this.images.preview(png, maxSide, maxBytes);
      preview = both.image;
      return both.info;
    });
    const written = await this.save(label, png, info);
    return { ...written, preview: preview as Buffer };
  }

  private async save(label: string, png: Buffer, { width, height }: PngInfo): Promise<WrittenEvidence> {
    for (let attempt = 0; attempt < MAX_NAME_ATTEMPTS; attempt += 1) {
      const name = formatEvidenceName(this.nextStamp(), label);
      await this.retention?.claim(name);
      try {
        await this.store.createExclusive(name, png);
      } catch (error) {
        this.retention?.release(name);
        // Someone else holds that name; the next stamp is already past it.
        if (systemErrorCode(error) === 'EEXIST') continue;
        throw writeFailure(error);
      }
      this.remember(name);
      if (this.retention) this.forget(await this.retention.admitted(name, png.length));
      return { ref: { artifact_id: name }, width, height };
    }
    throw new HarnessError(
      'EVIDENCE_WRITE_FAILED',
      'No free evidence name was found after many attempts: another process may be writing into the same evidence directory. ' +
        'Give each server its own ANDROID_MCP_ARTIFACTS_DIR, then retry.',
    );
  }

  /**
   * The capture time in µs, moved 1 µs past the previous stamp when it is not later: taken
   * synchronously, so concurrent captures get distinct stamps in the order they were asked
   * for, and a clock stepped back never makes a name sort before an earlier one.
   */
  private nextStamp(): number {
    this.lastStamp = Math.max(this.clock.epochMicros(), this.lastStamp + 1);
    return this.lastStamp;
  }

  /** The bytes of an issued artifact, or null for anything that is not exactly an issued id. */
  async read(artifactId: string): Promise<Buffer | null> {
    if (!isArtifactId(artifactId)) return null;
    try {
      return await this.store.read(artifactId);
    } catch (error) {
      this.logger.warn('reading an artifact failed', { artifact: artifactId, cause: String(error) });
      return null;
    }
  }

  /** The retention bound in force (null: every file is kept). */
  retentionBound(): RetentionBound | null {
    return this.retention?.bound ?? null;
  }

  /** Artifacts written by this process, newest first. */
  recentIds(): readonly string[] {
    return [...this.recent].reverse();
  }

  private assertShowsSomething(decode: () => PngInfo): PngInfo {
    let info: PngInfo;
    try {
      info = decode();
    } catch (error) {
      throw new HarnessError(
        'EVIDENCE_WRITE_FAILED',
        'The screen capture is not a PNG image: the device answered something else. Check the emulator with emulator_get_status, then retry.',
        { cause: error },
      );
    }
    if (info.uniform) throw new HarnessError('EVIDENCE_WRITE_FAILED', BLANK_CAPTURE_MESSAGE);
    return info;
  }

  private remember(name: string): void {
    this.recent.push(name);
    if (this.recent.length > RECENT_LIMIT) this.recent.shift();
  }

  /** resources/list offers only what is still there. */
  private forget(removed: readonly string[]): void {
    for (const name of removed) {
      const at = this.recent.indexOf(name);
      if (at >= 0) this.recent.splice(at, 1);
    }
  }
}

function writeFailure(error: unknown): HarnessError {
  if (error instanceof HarnessError) return error;
  const code = systemErrorCode(error);
  const remedy =
    code === 'ENOSPC'
      ? 'the disk is full: free some space'
      : code === 'ENOTDIR'
        ? 'a file stands where the directory (or one of its parents) should be, so it cannot be made (mkdir answered EEXIST or ENOTDIR): move that file away, or point ANDROID_MCP_ARTIFACTS_DIR at a directory'
        : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
          ? 'the directory is not writable: fix its permissions'
          : 'check that the directory exists and is writable';
  return new HarnessError(
    'EVIDENCE_WRITE_FAILED',
    `The evidence file could not be written to the evidence directory (ANDROID_MCP_ARTIFACTS_DIR, default artifacts/)${code ? ` (${code})` : ''}: ${remedy}, then retry.`,
    { cause: error },
  );
}

/**
 * Reading the PNGs that screencap produces without a general decoder: 8-bit grey, grey+alpha,
 * RGB or RGBA, not interlaced. Their raw bytes are what a viewer sees (no palette, no 16-bit
 * samples), so "every pixel equal" is "every pixel's bytes equal", and a preview can be averaged
 * straight from the bytes. Anything else is left to pngjs by the caller (these return null).
 */
import { constants, crc32, inflateSync } from 'node:zlib';

/** An 8-bit, non-interlaced, palette-free PNG whose chunks all passed their CRC. */
export interface PlainPng {
  readonly width: number;
  readonly height: number;
  /** Samples (bytes) per pixel: 1 grey, 2 grey+alpha, 3 RGB, 4 RGBA. */
  readonly channels: number;
  /** The image data: every IDAT chunk's bytes, joined (one zlib stream). */
  readonly zlib: Buffer;
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Samples per pixel of the 8-bit colour types whose raw bytes are what a viewer sees, by colour type. */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/**
 * The header and image data of a plain PNG, every chunk CRC checked and IEND present (so a capture
 * cut short is never taken for a whole one); null for anything else.
 */
export function readPlainPng(png: Buffer): PlainPng | null {
  if (png.length < 8 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  let header: { width: number; height: number; channels: number } | null = null;
  const idat: Buffer[] = [];
  let ended = false;
  for (let at = 8; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > png.length) return null;
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (crc32(png.subarray(at + 4, at + 8 + length)) !== png.readUInt32BE(at + 8 + length)) return null;
    if (type === 'IHDR') {
      const channels = CHANNELS[data[9] as number];
      if (
        length !== 13 ||
        data[8] !== 8 ||
        channels === undefined ||
        data[10] !== 0 ||
        data[11] !== 0 ||
        data[12] !== 0
      )
        return null;
      header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), channels };
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') {
      ended = true;
      break;
    }
    at = end;
  }
  if (!ended || !header || header.width === 0 || header.height === 0 || idat.length === 0) return null;
  return { ...header, zlib: idat.length === 1 ? (idat[0] as Buffer) : Buffer.concat(idat) };
}

/** Bytes of one scanline without its filter byte. */
export function strideOf(png: PlainPng): number {
  return png.width * png.channels;
}

/**
 * Every scanline (filter byte + row), zlib's checksum verified; null when the stream is damaged
 * or holds fewer rows than the header promises.
 */
export function inflateScanlines(png: PlainPng): Buffer | null {
  const expected = png.height * (strideOf(png) + 1);
  let raw: Buffer;
  try {
    // One output buffer of the exact size (+1 to see the stream end): no chunks to join, half the
    // memory churn per capture (and fewer garbage collections in a long session).
    raw = inflateSync(png.zlib, { chunkSize: Math.max(64, expected + 1) });
  } catch {
    return null;
  }
  if (raw.length < expected) return null;
  for (let y = 0; y < png.height; y++) if ((raw[y * (strideOf(png) + 1)] as number) > 4) return null;
  return raw;
}

/**
 * The scanlines the first `inputBytes` of the stream hold (the last one may be partial: callers
 * count whole rows). For an early answer only: the stream's end and checksum are not reached.
 * Null when even that prefix is damaged.
 */
export function inflatePrefix(png: PlainPng, inputBytes: number): Buffer | null {
  try {
    return inflateSync(png.zlib.subarray(0, inputBytes), {
      finishFlush: constants.Z_SYNC_FLUSH,
      chunkSize: 256 * 1024,
    });
  } catch {
    return null;
  }
}

/**
 * Called for each un-filtered row, top to bottom; return false to stop. `row` is a buffer reused
 * for later rows: read it inside the call only. `repeat` is true when the row is byte-identical to
 * the previous one (an Up-filtered row of zeros, what encoders write for a repeated row): `row`
 * is then the very same buffer as for the previous call, unchanged, so work done on it can be reused.
 */
export type RowVisitor = (row: Uint8Array, y: number, repeat: boolean) => boolean;

/**
 * Un-filters the first `rows` scanlines of `raw` (PNG filter types 0–4) one row at a time into two
 * reused row buffers, so no full-size pixel buffer is ever allocated. Returns how many rows were
 * visited, or -1 at a filter byte that is not 0–4.
 */
export function scanRows(raw: Buffer, stride: number, bpp: number, rows: number, visit: RowVisitor): number {
  let previous = new Uint8Array(stride); // the row above the first one is zeros
  let current = new Uint8Array(stride);
  // Up filter on whole 32-bit words: a byte-wise add without carries between the bytes.
  const aligned = (stride & 3) === 0;
  let previousWords = aligned ? new Int32Array(previous.buffer) : null;
  let currentWords = aligned ? new Int32Array(current.buffer) : null;
  const words = stride >> 2;
  const zeros = Buffer.alloc(stride);
  for (let y = 0; y < rows; y++) {
    const s = y * (stride + 1) + 1;
    const filter = raw[s - 1] as number;
    if (filter === 2 && y > 0 && raw.compare(zeros, 0, stride, s, s + stride) === 0) {
      if (!visit(previous, y, true)) return y + 1;
      continue;
    }
    switch (filter) {
      case 0:
        current.set(raw.subarray(s, s + stride));
        break;
      case 1:
        unfilterSub(raw, s, current, stride, bpp);
        break;
      case 2:
        if (currentWords && previousWords) {
          current.set(raw.subarray(s, s + stride));
          for (let j = 0; j < words; j++) {
            const a = currentWords[j] as number;
            const b = previousWords[j] as number;
            currentWords[j] = ((a & 0x7f7f7f7f) + (b & 0x7f7f7f7f)) ^ ((a ^ b) & 0x80808080);
          }
        } else {
          for (let i = 0; i < stride; i++) current[i] = ((raw[s + i] as number) + (previous[i] as number)) & 0xff;
        }
        break;
      case 3:
        unfilterAverage(raw, s, current, previous, stride, bpp);
        break;
      case 4:
        unfilterPaeth(raw, s, current, previous, stride, bpp);
        break;
      default:
        return -1;
    }
    if (!visit(current, y, false)) return y + 1;
    const row = previous;
    previous = current;
    current = row;
    const rowWords = previousWords;
    previousWords = currentWords;
    currentWords = rowWords;
  }
  return rows;
}

function unfilterSub(raw: Buffer, s: number, current: Uint8Array, stride: number, bpp: number): void {
  for (let i = 0; i < bpp; i++) current[i] = raw[s + i] as number;
  for (let i = bpp; i < stride; i++) current[i] = ((raw[s + i] as number) + (current[i - bpp] as number)) & 0xff;
}

function unfilterAverage(
  raw: Buffer,
  s: number,
  current: Uint8Array,
  previous: Uint8Array,
  stride: number,
  bpp: number,
): void {
  for (let i = 0; i < bpp; i++) current[i] = ((raw[s + i] as number) + ((previous[i] as number) >> 1)) & 0xff;
  for (let i = bpp; i < stride; i++) {
    current[i] = ((raw[s + i] as number) + (((current[i - bpp] as number) + (previous[i] as number)) >> 1)) & 0xff;
  }
}

function unfilterPaeth(
  raw: Buffer,
  s: number,
  current: Uint8Array,
  previous: Uint8Array,
  stride: number,
  bpp: number,
): void {
  // With no left neighbour Paeth predicts the byte above.
  for (let i = 0; i < bpp; i++) current[i] = ((raw[s + i] as number) + (previous[i] as number)) & 0xff;
  for (let i = bpp; i < stride; i++) {
    const left = current[i - bpp] as number;
    const up = previous[i] as number;
    const upLeft = previous[i - bpp] as number;
    // p = left + up - upLeft: |p - left| = |up - upLeft|, |p - up| = |left - upLeft|, |p - upLeft| = |sum of both|.
    const dUp = up - upLeft;
    const dLeft = left - upLeft;
    const pa = Math.abs(dUp);
    const pb = Math.abs(dLeft);
    const pc = Math.abs(dUp + dLeft);
    current[i] = ((raw[s + i] as number) + (pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft)) & 0xff;
  }
}

/** Whether every pixel seen so far had the same bytes; fed row by row (a RowVisitor's arguments). */
export class UniformTracker {
  private first: Uint8Array | null = null;
  uniform = true;

  constructor(private readonly bpp: number) {}

  /** Returns whether the image is still uniform. */
  accept(row: Uint8Array, repeat: boolean): boolean {
    if (!this.uniform || repeat) return this.uniform;
    if (this.first === null) {
      // Every pixel equals its left neighbour ⟺ the row shifted by one pixel equals itself.
      this.uniform = Buffer.compare(row.subarray(this.bpp), row.subarray(0, row.length - this.bpp)) === 0;
      this.first = Uint8Array.from(row);
    } else {
      this.uniform = Buffer.compare(row, this.first) === 0;
    }
    return this.uniform;
  }
}

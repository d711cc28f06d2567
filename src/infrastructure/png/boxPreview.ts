/**
 * The preview of a capture: an integer-factor box average straight from the scanlines, then a
 * PNG written with zlib. Integer factors keep it one streaming pass: each preview pixel is the
 * mean of a k×k block of whole source pixels (partial blocks at the right and bottom edges are the
 * mean of what is there), so text and thin lines fade instead of vanishing, and a 1080×2400 capture
 * becomes 540×1200 in a few milliseconds, without a full-size decoded copy.
 */
import { crc32, deflateSync } from 'node:zlib';
import { PNG_SIGNATURE, scanRows, UniformTracker } from './plainPng.js';

/** 8-bit pixels, row-major, `channels` samples each (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA). */
export interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly channels: number;
  readonly data: Uint8Array;
}

export interface Shrunk {
  readonly image: Pixels;
  /** Whether every source pixel had the same bytes (computed on the way, for the blank check). */
  readonly uniform: boolean;
}

/**
 * Averages k×k blocks of the image whose scanlines (filter byte + row) are in `raw`. Returns null
 * at a filter byte that is not 0–4. Screenshots repeat rows a lot (flat backgrounds, bars): a
 * repeated source row reuses the previous row's column sums, and a block whose rows all equal the
 * previous block's repeats its output row.
 */
export function boxShrink(raw: Buffer, width: number, height: number, channels: number, factor: number): Shrunk | null {
  const k = Math.max(1, Math.floor(factor));
  const stride = width * channels;
  const outWidth = Math.ceil(width / k);
  const outHeight = Math.ceil(height / k);
  const outStride = outWidth * channels;
  const data = new Uint8Array(outStride * outHeight);
  const rowSums = new Uint32Array(outStride); // the latest distinct source row, summed over each block's columns
  const blockSums = new Uint32Array(outStride); // the rows of the current block added up, as far as flushed
  const columns = new Uint32Array(outWidth); // source columns per block (the last may be narrower)
  for (let x = 0; x < outWidth; x++) columns[x] = Math.min(k, width - x * k);
  const tracker = new UniformTracker(channels);
  let pending = 0; // rows of this block equal to the one in rowSums, not yet added to blockSums
  let flushed = false; // whether blockSums holds anything for this block
  let lastFresh = -1; // the last row that differed from the row above it

  const visited = scanRows(raw, stride, channels, height, (row, y, repeat) => {
    tracker.accept(row, repeat);
    const blockTop = y - (y % k);
    if (!repeat) {
      if (pending > 0) {
        addMultiple(blockSums, rowSums, pending);
        flushed = true;
      }
      sumColumns(row, rowSums, width, channels, k);
      pending = 0;
      lastFresh = y;
    }
    pending += 1;
    if (y - blockTop + 1 < k && y !== height - 1) return true;

    const outRow = blockTop / k;
    const offset = outRow * outStride;
    if (outRow > 0 && lastFresh <= blockTop - k) {
      // This block's rows and the previous block's are all the same row.
      data.copyWithin(offset, offset - outStride, offset);
    } else if (!flushed) {
      writeAverages(data, offset, rowSums, columns, channels, 1);
    } else {
      addMultiple(blockSums, rowSums, pending);
      writeAverages(data, offset, blockSums, columns, channels, y - blockTop + 1);
      blockSums.fill(0);
    }
    pending = 0;
    flushed = false;
    return true;
  });
  if (visited < 0) return null;
  return { image: { width: outWidth, height: outHeight, channels, data }, uniform: tracker.uniform };
}

function addMultiple(into: Uint32Array, sums: Uint32Array, times: number): void {
  if (times === 1) for (let j = 0; j < into.length; j++) into[j] = (into[j] as number) + (sums[j] as number);
  else for (let j = 0; j < into.length; j++) into[j] = (into[j] as number) + (sums[j] as number) * times;
}

/** Each output sample: the block's sum over its pixel count, rounded half up. */
function writeAverages(
  data: Uint8Array,
  offset: number,
  sums: Uint32Array,
  columns: Uint32Array,
  channels: number,
  rows: number,
): void {
  const fullCount = (columns[0] as number) * rows;
  const shift = Math.log2(fullCount);
  const full = (columns[columns.length - 1] === columns[0] ? columns.length : columns.length - 1) * channels;
  if (Number.isInteger(shift)) {
    const half = fullCount >> 1;
    for (let j = 0; j < full; j++) data[offset + j] = ((sums[j] as number) + half) >>> shift;
  } else {
    for (let j = 0; j < full; j++)
      data[offset + j] = Math.floor(((sums[j] as number) * 2 + fullCount) / (2 * fullCount));
  }
  const count = (columns[columns.length - 1] as number) * rows;
  for (let j = full; j < sums.length; j++)
    data[offset + j] = Math.floor(((sums[j] as number) * 2 + count) / (2 * count));
}

/** Sums each block's columns of one source row, per channel. */
function sumColumns(row: Uint8Array, sums: Uint32Array, width: number, channels: number, k: number): void {
  if (k === 1) {
    sums.set(row);
    return;
  }
  const fullBlocks = Math.floor(width / k);
  const step = k * channels;
  if (k === 2) {
    for (let x = 0; x < fullBlocks; x++) {
      const i = x * step;
      const j = x * channels;
      for (let c = 0; c < channels; c++) sums[j + c] = (row[i + c] as number) + (row[i + channels + c] as number);
    }
  } else {
    for (let x = 0; x < fullBlocks; x++) {
      const i = x * step;
      const j = x * channels;
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let d = i + c; d < i + step; d += channels) sum += row[d] as number;
        sums[j + c] = sum;
      }
    }
  }
  if (fullBlocks * k < width) {
    // A narrower last block.
    const i = fullBlocks * step;
    const j = fullBlocks * channels;
    for (let c = 0; c < channels; c++) {
      let sum = 0;
      for (let d = i + c; d < row.length; d += channels) sum += row[d] as number;
      sums[j + c] = sum;
    }
  }
}

export interface EncodeOptions {
  /** 'none' is the fastest; 'paeth' compresses photographs and gradients better. */
  readonly filter: 'none' | 'paeth';
  /** zlib level 1–9. */
  readonly level: number;
}

/**
 * A PNG of `image`. An alpha channel that is fully opaque everywhere is left out (RGBA → RGB,
 * grey+alpha → grey): a quarter fewer bytes to compress, the same picture.
 */
export function encodePng(image: Pixels, options: EncodeOptions): Buffer {
  const { width, height, channels, data } = image;
  const hasAlpha = channels === 2 || channels === 4;
  const keep = hasAlpha && isOpaque(data, channels) ? channels - 1 : channels;
  const stride = width * keep;
  const scanlines = Buffer.allocUnsafe(height * (stride + 1));
  const row = keep === channels ? null : new Uint8Array(stride);
  let previous: Uint8Array = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const source = data.subarray(y * width * channels, (y + 1) * width * channels);
    let current: Uint8Array = source;
    if (row) {
      for (let x = 0, i = 0, o = 0; x < width; x++, i += channels)
        for (let c = 0; c < keep; c++) row[o++] = source[i + c] as number;
      current = row;
    }
    const at = y * (stride + 1);
    if (options.filter === 'none') {
      scanlines[at] = 0;
      scanlines.set(current, at + 1);
    } else {
      scanlines[at] = 4;
      paethFilter(current, previous, keep, scanlines, at + 1);
      if (current === row) previous.set(current);
      else previous = current;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = COLOUR_TYPE[keep] as number;
  const compressed = deflateSync(scanlines, { level: options.level });
  // Written once into the final buffer: signature, IHDR, IDAT, IEND.
  const out = Buffer.allocUnsafe(PNG_SIGNATURE.length + 3 * 12 + header.length + compressed.length);
  let at = PNG_SIGNATURE.copy(out, 0);
  at = writeChunk(out, at, 'IHDR', header);
  at = writeChunk(out, at, 'IDAT', compressed);
  writeChunk(out, at, 'IEND', Buffer.alloc(0));
  return out;
}

const COLOUR_TYPE: Readonly<Record<number, number>> = { 1: 0, 2: 4, 3: 2, 4: 6 };

function isOpaque(data: Uint8Array, channels: number): boolean {
  for (let i = channels - 1; i < data.length; i += channels) if (data[i] !== 0xff) return false;
  return true;
}

function paethFilter(row: Uint8Array, previous: Uint8Array, bpp: number, out: Buffer, at: number): void {
  for (let i = 0; i < row.length; i++) {
    const a = i >= bpp ? (row[i - bpp] as number) : 0;
    const b = previous[i] as number;
    const c = i >= bpp ? (previous[i - bpp] as number) : 0;
    const pa = b > c ? b - c : c - b;
    const pb = a > c ? a - c : c - a;
    const pc = a + b > c + c ? a + b - c - c : c + c - a - b;
    const predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    out[at + i] = ((row[i] as number) - predicted) & 0xff;
  }
}

/** Writes one chunk (length, type, data, CRC of type and data) at `at`; returns where the next one starts. */
function writeChunk(out: Buffer, at: number, type: string, data: Buffer): number {
  out.writeUInt32BE(data.length, at);
  out.write(type, at + 4, 'latin1');
  data.copy(out, at + 8);
  out.writeUInt32BE(crc32(out.subarray(at + 4, at + 8 + data.length)), at + 8 + data.length);
  return at + 12 + data.length;
}

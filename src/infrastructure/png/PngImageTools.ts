import { createRequire } from 'node:module';
import { crc32, inflateSync } from 'node:zlib';
import type { PNG as PngClass } from 'pngjs';
import type { ImageTools, PngInfo } from '../../domain/ports.js';

type PngModule = { PNG: typeof PngClass };
let pngModule: PngModule | undefined;

/**
 * pngjs is loaded on the first image, not at start-up: the server must answer tools/list fast
 * (issue 6, start-up target) and many sessions never capture. pngjs is CommonJS, so a synchronous
 * require keeps this adapter's API synchronous.
 */
function pngjs(): PngModule {
  pngModule ??= createRequire(import.meta.url)('pngjs') as PngModule;
  return pngModule;
}

/**
 * PNG inspection and scaling with pngjs, which decodes every colour type (0, 2, 3, 4, 6), bit
 * depth (1–16) and Adam7 interlacing into 8-bit RGBA; so "uniform" compares what a viewer sees.
 */
export class PngImageTools implements ImageTools {
  inspect(png: Buffer): PngInfo {
    // Every action's evidence passes here: the common screenshot formats take the fast path.
    const fast = inspectPlainPng(png);
    if (fast) return fast;
    const image = pngjs().PNG.sync.read(png);
    return { width: image.width, height: image.height, uniform: isUniform(image.data) };
  }

  downscale(png: Buffer, maxSide: number, maxBytes: number): Buffer {
    if (!(maxSide >= 1) || !(maxBytes >= 1)) throw new RangeError('maxSide and maxBytes must be positive');
    const source = pngjs().PNG.sync.read(png);
    const longSide = Math.max(source.width, source.height);
    let scale = Math.min(1, maxSide / longSide);
    if (scale === 1 && png.length < maxBytes) return png;
    // Each round shrinks by the square root of the byte excess (bytes grow with area), at least 20 %.
    for (let round = 0; round < 12; round++) {
      const width = Math.max(1, Math.floor(source.width * scale));
      const height = Math.max(1, Math.floor(source.height * scale));
      const encoded = encode(width === source.width && height === source.height ? source : resizeArea(source, width, height));
      if (encoded.length < maxBytes || (width === 1 && height === 1)) return encoded;
      scale *= Math.min(0.8, Math.sqrt(maxBytes / encoded.length) * 0.95);
    }
    throw new Error('could not bring the image under the byte limit');
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Bytes per pixel of the 8-bit colour types whose raw bytes are what a viewer sees (no palette). */
const PLAIN_BYTES_PER_PIXEL: Readonly<Record<number, number>> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/**
 * The fast path of `inspect` for what screencap produces: 8-bit grey, grey+alpha, RGB or RGBA,
 * not interlaced. Chunk CRCs are checked, the image data is inflated with zlib (which checks its
 * own checksum) and un-filtered row by row, stopping at the first pixel that differs from the
 * first one: a real screen differs within a few rows, so a 1080x2400 capture takes a few
 * milliseconds instead of a full pngjs decode (~50 ms). Same answer as pngjs: for these types
 * equal bytes mean equal colours. Anything else (palette, 16-bit, interlaced, truncated): null,
 * and pngjs decides.
 */
function inspectPlainPng(png: Buffer): PngInfo | null {
  if (png.length < 8 || !png.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  let header: { width: number; height: number; bpp: number } | null = null;
  const idat: Buffer[] = [];
  for (let at = 8; at + 12 <= png.length; ) {
    const length = png.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > png.length) return null;
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    if (crc32(png.subarray(at + 4, at + 8 + length)) !== png.readUInt32BE(at + 8 + length)) return null;
    if (type === 'IHDR') {
      const bpp = PLAIN_BYTES_PER_PIXEL[data[9] as number];
      if (length !== 13 || data[8] !== 8 || bpp === undefined || data[10] !== 0 || data[11] !== 0 || data[12] !== 0) return null;
      header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), bpp };
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at = end;
  }
  if (!header || header.width === 0 || header.height === 0 || idat.length === 0) return null;
  const { width, height, bpp } = header;
  let raw: Buffer;
  try {
    raw = inflateSync(Buffer.concat(idat));
  } catch {
    return null;
  }
  const stride = width * bpp;
  if (raw.length < height * (stride + 1)) return null;
  for (let y = 0; y < height; y++) if ((raw[y * (stride + 1)] as number) > 4) return null;

  let previous = new Uint8Array(stride);
  let current = new Uint8Array(stride);
  const first = new Uint8Array(bpp);
  for (let y = 0; y < height; y++) {
    const rowStart = y * (stride + 1) + 1;
    const filter = raw[rowStart - 1] as number;
    for (let i = 0; i < stride; i++) {
      const x = raw[rowStart + i] as number;
      const left = i >= bpp ? (current[i - bpp] as number) : 0;
      const up = previous[i] as number;
      const upLeft = i >= bpp ? (previous[i - bpp] as number) : 0;
      let value: number;
      switch (filter) {
        case 0: value = x; break;
        case 1: value = x + left; break;
        case 2: value = x + up; break;
        case 3: value = x + ((left + up) >> 1); break;
        default: value = x + paeth(left, up, upLeft);
      }
      current[i] = value & 0xff;
    }
    if (y === 0) first.set(current.subarray(0, bpp));
    for (let i = 0; i < stride; i++) {
      if (current[i] !== first[i % bpp]) return { width, height, uniform: false };
    }
    [previous, current] = [current, previous];
  }
  return { width, height, uniform: true };
}

function paeth(left: number, up: number, upLeft: number): number {
  const p = left + up - upLeft;
  const pa = Math.abs(p - left);
  const pb = Math.abs(p - up);
  const pc = Math.abs(p - upLeft);
  if (pa <= pb && pa <= pc) return left;
  return pb <= pc ? up : upLeft;
}

function isUniform(rgba: Buffer): boolean {
  if (rgba.length < 8) return true;
  const first = rgba.readUInt32LE(0);
  for (let i = 4; i + 4 <= rgba.length; i += 4) {
    if (rgba.readUInt32LE(i) !== first) return false;
  }
  return true;
}

function encode(image: { width: number; height: number; data: Buffer }): Buffer {
  const out = new (pngjs().PNG)({ width: image.width, height: image.height });
  image.data.copy(out.data, 0, 0, image.width * image.height * 4);
  // Paeth on every row instead of pngjs's adaptive choice (all five filters tried per row):
  // about a third of the encoding time for screenshots, at nearly the same size.
  return pngjs().PNG.sync.write(out, { colorType: 6, deflateLevel: 6, filterType: 4 });
}

/**
 * Area-average (box) resampling: each target pixel is the coverage-weighted mean of the source
 * pixels under it, so text and thin lines fade instead of vanishing as in nearest-neighbour.
 * Separable: rows first into a float buffer, then columns.
 */
function resizeArea(src: { width: number; height: number; data: Buffer }, width: number, height: number): { width: number; height: number; data: Buffer } {
  const horizontal = weights(src.width, width);
  const vertical = weights(src.height, height);
  const rows = new Float32Array(width * src.height * 4);
  for (let y = 0; y < src.height; y++) {
    const rowIn = y * src.width * 4;
    const rowOut = y * width * 4;
    for (let x = 0; x < width; x++) {
      const { start, w } = horizontal[x] as Span;
      let r = 0, g = 0, b = 0, a = 0;
      for (let k = 0; k < w.length; k++) {
        const weight = w[k] as number;
        const i = rowIn + (start + k) * 4;
        r += (src.data[i] as number) * weight;
        g += (src.data[i + 1] as number) * weight;
        b += (src.data[i + 2] as number) * weight;
        a += (src.data[i + 3] as number) * weight;
      }
      const o = rowOut + x * 4;
      rows[o] = r; rows[o + 1] = g; rows[o + 2] = b; rows[o + 3] = a;
    }
  }
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const { start, w } = vertical[y] as Span;
    for (let x = 0; x < width; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (let k = 0; k < w.length; k++) {
        const weight = w[k] as number;
        const i = ((start + k) * width + x) * 4;
        r += (rows[i] as number) * weight;
        g += (rows[i + 1] as number) * weight;
        b += (rows[i + 2] as number) * weight;
        a += (rows[i + 3] as number) * weight;
      }
      const o = (y * width + x) * 4;
      data[o] = Math.round(r); data[o + 1] = Math.round(g); data[o + 2] = Math.round(b); data[o + 3] = Math.round(a);
    }
  }
  return { width, height, data };
}

interface Span {
  readonly start: number;
  readonly w: Float32Array;
}

/** For each target index, the first source index it covers and the normalised coverage of each. */
function weights(sourceSize: number, targetSize: number): Span[] {
  const ratio = sourceSize / targetSize;
  const spans: Span[] = [];
  for (let t = 0; t < targetSize; t++) {
    const from = t * ratio;
    const to = Math.min(sourceSize, (t + 1) * ratio);
    const start = Math.floor(from);
    const end = Math.min(sourceSize, Math.ceil(to));
    const w = new Float32Array(end - start);
    for (let s = start; s < end; s++) w[s - start] = (Math.min(to, s + 1) - Math.max(from, s)) / ratio;
    spans.push({ start, w });
  }
  return spans;
}

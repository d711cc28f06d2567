import { createRequire } from 'node:module';
import type { PNG as PngClass } from 'pngjs';
import type { ImageTools, PngInfo, PngPreview } from '../../domain/ports.js';
import { boxShrink, encodePng, type EncodeOptions, type Pixels } from './boxPreview.js';
import {
  inflatePrefix,
  inflateScanlines,
  readPlainPng,
  scanRows,
  strideOf,
  UniformTracker,
  type PlainPng,
} from './plainPng.js';

type PngModule = { PNG: typeof PngClass };
let pngModule: PngModule | undefined;

/**
 * pngjs is loaded on the first image that needs it, not at start-up: the server must answer
 * tools/list fast at start-up, and screencap's own formats never need it. pngjs is
 * CommonJS, so a synchronous require keeps this adapter's API synchronous.
 */
function pngjs(): PngModule {
  pngModule ??= createRequire(import.meta.url)('pngjs') as PngModule;
  return pngModule;
}

/** Compressed bytes inflated before the whole stream, in turn, to find a differing pixel early. */
const INSPECT_PREFIXES = [4 * 1024, 64 * 1024];
/** Tried in turn at each preview size: fast first, smaller second. */
const ENCODINGS: readonly EncodeOptions[] = [
  { filter: 'none', level: 1 },
  { filter: 'paeth', level: 6 },
];

/**
 * PNG inspection and previews. What screencap produces (8-bit grey, grey+alpha, RGB or RGBA, not
 * interlaced) is read directly from its scanlines (plainPng.ts); everything else (palette, 1–16-bit
 * samples, Adam7) through pngjs, which decodes every colour type into 8-bit RGBA. Either way
 * "uniform" compares what a viewer sees.
 */
export class PngImageTools implements ImageTools {
  inspect(png: Buffer): PngInfo {
    // Every action's evidence passes here: the common screenshot formats take the fast path.
    const plain = readPlainPng(png);
    const fast = plain ? inspectPlain(plain) : null;
    if (fast) return fast;
    const image = pngjs().PNG.sync.read(png);
    return { width: image.width, height: image.height, uniform: isUniformRgba(image.data) };
  }

  downscale(png: Buffer, maxSide: number, maxBytes: number): Buffer {
    return this.preview(png, maxSide, maxBytes).image;
  }

  preview(png: Buffer, maxSide: number, maxBytes: number): PngPreview {
    if (!(maxSide >= 1) || !(maxBytes >= 1)) throw new RangeError('maxSide and maxBytes must be positive');
    const source = decodeScanlines(png);
    const { width, height } = source;
    let factor = Math.ceil(Math.max(width, height) / maxSide);
    // The first pass also answers the blank check, so a capture is decoded once for both.
    let shrunk = shrink(source, factor);
    const info: PngInfo = { width, height, uniform: shrunk.uniform };
    if (factor === 1 && png.length < maxBytes) return { info, image: png };
    for (let round = 0; round < 12; round++) {
      let size = Infinity;
      for (const encoding of ENCODINGS) {
        const encoded = encodePng(shrunk.image, encoding);
        if (encoded.length < maxBytes) return { info, image: encoded };
        size = Math.min(size, encoded.length);
      }
      if (shrunk.image.width === 1 && shrunk.image.height === 1) break;
      // Bytes grow with area: shrink by the square root of the excess, at least one step.
      factor = Math.max(factor + 1, Math.ceil(factor * Math.sqrt(size / maxBytes) * 1.05));
      shrunk = shrink(source, factor);
    }
    throw new Error('could not bring the image under the byte limit');
  }
}

/** Whether `plain` is uniform, or null when its data is damaged (pngjs then decides, and refuses). */
function inspectPlain(plain: PlainPng): PngInfo | null {
  const { width, height, channels } = plain;
  const stride = strideOf(plain);
  // A real screen differs within its first rows: inflating a prefix answers without the rest.
  // Every chunk's CRC was checked and IEND is there, so the unread rest is what the device sent.
  for (const inputBytes of INSPECT_PREFIXES) {
    if (inputBytes >= plain.zlib.length) break;
    const partial = inflatePrefix(plain, inputBytes);
    if (partial === null) return null;
    const tracker = new UniformTracker(channels);
    const rows = Math.min(height, Math.floor(partial.length / (stride + 1)));
    if (scanRows(partial, stride, channels, rows, (row, _y, repeat) => tracker.accept(row, repeat)) < 0) return null;
    if (!tracker.uniform) return { width, height, uniform: false };
  }
  const raw = inflateScanlines(plain);
  if (raw === null) return null;
  const tracker = new UniformTracker(channels);
  if (scanRows(raw, stride, channels, height, (row, _y, repeat) => tracker.accept(row, repeat)) < 0) return null;
  return { width, height, uniform: tracker.uniform };
}

/** Scanlines (filter byte + row) of any PNG: straight from the stream when plain, else through pngjs (as RGBA, unfiltered). */
interface Scanlines {
  readonly width: number;
  readonly height: number;
  readonly channels: number;
  readonly raw: Buffer;
}

function decodeScanlines(png: Buffer): Scanlines {
  const plain = readPlainPng(png);
  const raw = plain ? inflateScanlines(plain) : null;
  if (plain && raw) return { width: plain.width, height: plain.height, channels: plain.channels, raw };
  const image = pngjs().PNG.sync.read(png);
  const stride = image.width * 4;
  const lines = Buffer.alloc(image.height * (stride + 1)); // filter byte 0 (None) on every row
  for (let y = 0; y < image.height; y++) image.data.copy(lines, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return { width: image.width, height: image.height, channels: 4, raw: lines };
}

function shrink(source: Scanlines, factor: number): { image: Pixels; uniform: boolean } {
  const shrunk = boxShrink(source.raw, source.width, source.height, source.channels, factor);
  // inflateScanlines checked every filter byte, and pngjs's rows carry None.
  if (shrunk === null) throw new Error('the image data has an invalid filter type');
  return shrunk;
}

function isUniformRgba(rgba: Buffer): boolean {
  if (rgba.length < 8) return true;
  const first = rgba.readUInt32LE(0);
  for (let i = 4; i + 4 <= rgba.length; i += 4) {
    if (rgba.readUInt32LE(i) !== first) return false;
  }
  return true;
}

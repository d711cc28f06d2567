import { createRequire } from 'node:module';
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
  return pngjs().PNG.sync.write(out, { colorType: 6, deflateLevel: 6 });
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

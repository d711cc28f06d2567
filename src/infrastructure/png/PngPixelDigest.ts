import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { PNG as PngClass } from 'pngjs';
import type { PixelDigest } from '../../domain/ports.js';
import type { Rect } from '../../domain/tree/uiNode.js';

type PngModule = { PNG: typeof PngClass };
let pngModule: PngModule | undefined;

/** pngjs on first use: only a visual ref's read and tap decode a whole screenshot. */
function pngjs(): PngModule {
  pngModule ??= createRequire(import.meta.url)('pngjs') as PngModule;
  return pngModule;
}

/**
 * The SHA-256 of the RGBA pixels inside a box (clipped to the image), with the box's size: a
 * visual ref acts only while the pixels OCR read are still there, exactly (docs/reference/summary.md,
 * "Visual refs"). Exact on purpose: a changed pixel under a drawn button is a changed button.
 */
export class PngPixelDigest implements PixelDigest {
  digest(png: Buffer, box: Rect): string {
    const image = pngjs().PNG.sync.read(png);
    const left = Math.max(0, Math.floor(box.left));
    const top = Math.max(0, Math.floor(box.top));
    const right = Math.min(image.width, Math.ceil(box.right));
    const bottom = Math.min(image.height, Math.ceil(box.bottom));
    const hash = createHash('sha256').update(`${left},${top},${right},${bottom};`);
    for (let y = top; y < bottom; y++) {
      const start = (y * image.width + left) * 4;
      hash.update(image.data.subarray(start, start + Math.max(0, right - left) * 4));
    }
    return hash.digest('hex').slice(0, 32);
  }
}

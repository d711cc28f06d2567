/**
 * What `screencap` without `-p` writes (AOSP frameworks/base/cmds/screencap/screencap.cpp): width,
 * height, pixel format (1 = RGBA_8888) and colour space (1 = sRGB, Android 9+) as little-endian
 * uint32, then the rows. A device sends its buffer as it is; the double keeps the pixels its capture
 * thread drew beside the PNG it encoded from them, so a raw capture costs no decode here, and
 * decodes only a PNG that came without them (a blank panel's, a served real screenshot).
 */
import { PNG } from 'pngjs';

const frames = new WeakMap<Buffer, Buffer>();

function header(width: number, height: number): Buffer {
  const h = Buffer.alloc(16);
  h.writeUInt32LE(width, 0);
  h.writeUInt32LE(height, 4);
  h.writeUInt32LE(1, 8);
  h.writeUInt32LE(1, 12);
  return h;
}

/** Keeps the pixels `png` was encoded from, for as long as that PNG is kept. */
export function rememberRawFrame(png: Buffer, rgba: Uint8Array, width: number, height: number): void {
  frames.set(png, Buffer.concat([header(width, height), rgba]));
}

/** The raw frame of a capture, decoded from its PNG once when its pixels were not kept. */
export function rawFrameOf(png: Buffer): Buffer {
  let raw = frames.get(png);
  if (!raw) {
    const decoded = PNG.sync.read(png);
    raw = Buffer.concat([header(decoded.width, decoded.height), decoded.data]);
    frames.set(png, raw);
  }
  return raw;
}

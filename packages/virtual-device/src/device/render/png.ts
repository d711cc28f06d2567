/**
 * RGBA pixels to PNG, written straight with zlib: skia's own PNG encoder and pngjs's filter pass
 * each take longer than the whole rest of a capture (80+ ms for 1080x2400), while rows stored with
 * filter 0 and deflated at level 1 take about 15 ms and compress a flat UI well. The harness has a
 * twin of this for its previews (src/infrastructure/png/boxPreview.ts); the device is a separate
 * room and imports nothing of the harness.
 */
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** 8-bit RGBA, not interlaced (colour type 6), as `screencap -p` writes. */
export function encodeRgbaPng(rgba: Uint8Array, width: number, height: number): Buffer {
  const stride = width * 4;
  if (rgba.length < stride * height)
    throw new RangeError(`expected ${stride * height} bytes of RGBA, got ${rgba.length}`);
  const source = Buffer.from(rgba.buffer, rgba.byteOffset, rgba.length);
  const rows = Buffer.allocUnsafe((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    rows[at] = 0;
    source.copy(rows, at + 1, y * stride, (y + 1) * stride);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG's width and height, from its IHDR chunk (always the first, right after the 8-byte signature). */
export function pngSize(png: Buffer): { width: number; height: number } {
  const signature = '89504e470d0a1a0a';
  if (png.length < 24 || png.subarray(0, 8).toString('hex') !== signature || png.toString('latin1', 12, 16) !== 'IHDR')
    throw new Error('the screenshot is not a PNG file');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * `screencap` without `-p`: the frame as SurfaceFlinger gave it, unencoded. AOSP's
 * frameworks/base/cmds/screencap/screencap.cpp writes width, height and pixel format as
 * little-endian uint32 (and, since Android 9, a fourth for the colour space), then `height` rows
 * of `width × bytesPerPixel(format)` bytes. Encoding the PNG on the device (`-p`) costs it about two
 * seconds at 1080×1920 (github.com/Genymobile/scrcpy/issues/112); the raw frame costs a quarter
 * of a second there and a few tens of milliseconds to encode here, so evidence takes the raw path
 * and falls back to `-p` for anything this reader does not know.
 */
import type { Pixels } from './boxPreview.js';

/** android/hardware PixelFormat values screencap reports, with their bytes per pixel. */
const FORMATS: Readonly<Record<number, { readonly bpp: number; readonly name: string }>> = {
  1: { bpp: 4, name: 'RGBA_8888' },
  2: { bpp: 4, name: 'RGBX_8888' },
  3: { bpp: 3, name: 'RGB_888' },
  4: { bpp: 2, name: 'RGB_565' },
  5: { bpp: 4, name: 'BGRA_8888' },
};

/** Larger than any phone, tablet or TV panel: a header past it is not a header. */
const MAX_SIDE = 16_384;
/** A multi-display warning is a few hundred bytes of text; the frame starts after it. */
const MAX_TEXT_BEFORE = 4_096;

/**
 * The frame's pixels, or null when `output` is not one whole raw frame (a PNG, an error message,
 * a format this reader does not convert). The length must match exactly, so text before the
 * frame (the multi-display warning on stderr, merged by `exec-out`) is skipped only at a line end
 * where what follows is exactly one frame.
 */
export function readRawScreencap(output: Buffer): Pixels | null {
  const direct = frameAt(output, 0);
  if (direct) return direct;
  const limit = Math.min(output.length, MAX_TEXT_BEFORE);
  for (let at = output.indexOf(0x0a); at >= 0 && at < limit; at = output.indexOf(0x0a, at + 1)) {
    const frame = frameAt(output, at + 1);
    if (frame) return frame;
  }
  return null;
}

function frameAt(output: Buffer, start: number): Pixels | null {
  if (output.length - start < 12) return null;
  const width = output.readUInt32LE(start);
  const height = output.readUInt32LE(start + 4);
  const format = FORMATS[output.readUInt32LE(start + 8)];
  if (!format || width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) return null;
  const body = width * height * format.bpp;
  // 16 bytes of header since Android 9 (the colour space), 12 before.
  for (const header of [16, 12]) {
    if (output.length - start === header + body)
      return toRgba(output.subarray(start + header), width, height, output.readUInt32LE(start + 8));
  }
  return null;
}

/** RGBA or RGB samples in PNG order; RGBX's padding byte becomes opaque alpha. */
function toRgba(data: Buffer, width: number, height: number, format: number): Pixels {
  const n = width * height;
  switch (format) {
    case 1:
      return { width, height, channels: 4, data };
    case 3:
      return { width, height, channels: 3, data };
    case 2: {
      const out = Buffer.from(data);
      for (let i = 3; i < out.length; i += 4) out[i] = 0xff;
      return { width, height, channels: 4, data: out };
    }
    case 5: {
      const out = Buffer.allocUnsafe(data.length);
      for (let i = 0; i < data.length; i += 4) {
        out[i] = data[i + 2] as number;
        out[i + 1] = data[i + 1] as number;
        out[i + 2] = data[i] as number;
        out[i + 3] = data[i + 3] as number;
      }
      return { width, height, channels: 4, data: out };
    }
    default: {
      // RGB_565, little-endian: rrrrrggg gggbbbbb, widened to 8 bits per sample.
      const out = Buffer.allocUnsafe(n * 3);
      for (let p = 0, o = 0; p < n; p++, o += 3) {
        const v = data.readUInt16LE(p * 2);
        const r = (v >> 11) & 0x1f;
        const g = (v >> 5) & 0x3f;
        const b = v & 0x1f;
        out[o] = (r << 3) | (r >> 2);
        out[o + 1] = (g << 2) | (g >> 4);
        out[o + 2] = (b << 3) | (b >> 2);
      }
      return { width, height, channels: 3, data: out };
    }
  }
}

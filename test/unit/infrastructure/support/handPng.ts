import { deflateSync } from 'node:zlib';

/** A PNG encoder for tests: every colour type, bit depth and Adam7, which pngjs cannot all write. */
export type ColorType = 0 | 2 | 3 | 4 | 6;
export interface HandPngSpec {
  readonly width: number;
  readonly height: number;
  readonly colorType: ColorType;
  readonly bitDepth: 1 | 2 | 4 | 8 | 16;
  readonly interlace: boolean;
  /** Samples of one pixel in the PNG's own terms (gray / rgb / index / gray+alpha / rgba). */
  readonly pixel: (x: number, y: number) => readonly number[];
  /** RGB triples for colour type 3. */
  readonly palette?: readonly (readonly [number, number, number])[];
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export const SAMPLES: Record<ColorType, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

function scanlines(spec: HandPngSpec, xs: number[], ys: number[]): Buffer {
  const samples = SAMPLES[spec.colorType];
  const rows: Buffer[] = [];
  for (const y of ys) {
    const bits: number[] = [];
    const bytes: number[] = [];
    for (const x of xs) {
      for (const value of spec.pixel(x, y).slice(0, samples)) {
        if (spec.bitDepth === 16) bytes.push((value >> 8) & 0xff, value & 0xff);
        else if (spec.bitDepth === 8) bytes.push(value & 0xff);
        else bits.push(value);
      }
    }
    if (spec.bitDepth < 8) {
      const perByte = 8 / spec.bitDepth;
      for (let i = 0; i < bits.length; i += perByte) {
        let byte = 0;
        for (let j = 0; j < perByte; j++)
          byte |= ((bits[i + j] ?? 0) & ((1 << spec.bitDepth) - 1)) << (8 - spec.bitDepth * (j + 1));
        bytes.push(byte);
      }
    }
    rows.push(Buffer.from([0, ...bytes]));
  }
  return Buffer.concat(rows);
}

const range = (start: number, end: number, step: number): number[] => {
  const out: number[] = [];
  for (let i = start; i < end; i += step) out.push(i);
  return out;
};

export function handPng(spec: HandPngSpec): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(spec.width, 0);
  ihdr.writeUInt32BE(spec.height, 4);
  ihdr[8] = spec.bitDepth;
  ihdr[9] = spec.colorType;
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = spec.interlace ? 1 : 0;
  const raw = spec.interlace
    ? Buffer.concat(
        ADAM7.map(([x0, y0, dx, dy]) => {
          const xs = range(x0, spec.width, dx);
          const ys = range(y0, spec.height, dy);
          return xs.length && ys.length ? scanlines(spec, xs, ys) : Buffer.alloc(0);
        }),
      )
    : scanlines(spec, range(0, spec.width, 1), range(0, spec.height, 1));
  const parts = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr)];
  if (spec.palette) parts.push(chunk('PLTE', Buffer.from(spec.palette.flat())));
  parts.push(chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

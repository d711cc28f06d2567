import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { PngImageTools } from '../../../src/infrastructure/png/PngImageTools.js';
import { handPng, SAMPLES, type ColorType } from './support/handPng.js';

const tools = new PngImageTools();

const COMBINATIONS: [ColorType, 1 | 2 | 4 | 8 | 16][] = [
  [0, 1],
  [0, 2],
  [0, 4],
  [0, 8],
  [0, 16],
  [2, 8],
  [2, 16],
  [3, 1],
  [3, 2],
  [3, 4],
  [3, 8],
  [4, 8],
  [4, 16],
  [6, 8],
  [6, 16],
];

const PALETTE = [
  [10, 20, 30],
  [200, 100, 50],
] as const;

/** A value per sample that differs from `base` in the sample that matters for the type. */
function samplesFor(colorType: ColorType, bitDepth: number, variant: 'base' | 'colour' | 'alpha'): number[] {
  const max = 2 ** bitDepth - 1;
  if (colorType === 3) return [variant === 'base' ? 0 : 1];
  const base = Array.from({ length: SAMPLES[colorType] }, () => (bitDepth === 1 ? 0 : Math.floor(max / 3)));
  if (colorType === 4 || colorType === 6) base[base.length - 1] = max; // opaque
  if (variant === 'colour') base[0] = max;
  if (variant === 'alpha') base[base.length - 1] = 0;
  return base;
}

describe('PngImageTools.inspect: blank detection for every colour type, bit depth and interlacing', () => {
  for (const [colorType, bitDepth] of COMBINATIONS) {
    for (const interlace of [false, true]) {
      const label = `type ${colorType}, ${bitDepth}-bit, ${interlace ? 'Adam7' : 'not interlaced'}`;
      const spec = {
        width: 11,
        height: 9,
        colorType,
        bitDepth,
        interlace,
        palette: colorType === 3 ? PALETTE : undefined,
      };

      it(`${label}: all pixels equal → uniform`, () => {
        const png = handPng({ ...spec, pixel: () => samplesFor(colorType, bitDepth, 'base') });
        expect(tools.inspect(png)).toEqual({ width: 11, height: 9, uniform: true });
      });

      it(`${label}: one different pixel → not uniform`, () => {
        // (5,7) lies in the last Adam7 pass, (10,8) is the final pixel: both catch decoders that stop early.
        for (const [dx, dy] of [
          [5, 7],
          [10, 8],
          [0, 0],
        ] as const) {
          const png = handPng({
            ...spec,
            pixel: (x, y) => samplesFor(colorType, bitDepth, x === dx && y === dy ? 'colour' : 'base'),
          });
          expect(tools.inspect(png).uniform).toBe(false);
        }
      });

      it(`${label}: preview() answers the blank check from its one decode, like inspect()`, () => {
        const uniform = handPng({ ...spec, pixel: () => samplesFor(colorType, bitDepth, 'base') });
        const lastDiffers = handPng({
          ...spec,
          pixel: (x, y) => samplesFor(colorType, bitDepth, x === 10 && y === 8 ? 'colour' : 'base'),
        });
        expect(tools.preview(uniform, 4, 1_000_000).info).toEqual({ width: 11, height: 9, uniform: true });
        expect(tools.preview(lastDiffers, 4, 1_000_000).info).toEqual({ width: 11, height: 9, uniform: false });
      });

      if (colorType === 4 || colorType === 6) {
        it(`${label}: a difference only in alpha → not uniform`, () => {
          const png = handPng({
            ...spec,
            pixel: (x, y) => samplesFor(colorType, bitDepth, x === 3 && y === 3 ? 'alpha' : 'base'),
          });
          expect(tools.inspect(png).uniform).toBe(false);
        });
      }
    }
  }

  it('the hand encoder puts pixels where they belong (Adam7, 2-bit palette)', () => {
    const png = handPng({
      width: 11,
      height: 9,
      colorType: 3,
      bitDepth: 2,
      interlace: true,
      palette: PALETTE,
      pixel: (x, y) => [x === 5 && y === 7 ? 1 : 0],
    });
    const decoded = PNG.sync.read(png);
    for (let y = 0; y < 9; y++) {
      for (let x = 0; x < 11; x++) {
        const o = (y * 11 + x) * 4;
        const expected = x === 5 && y === 7 ? PALETTE[1] : PALETTE[0];
        expect([decoded.data[o], decoded.data[o + 1], decoded.data[o + 2]]).toEqual([...expected]);
      }
    }
  });

  it('a 1x1 image is uniform', () => {
    expect(
      tools.inspect(
        handPng({ width: 1, height: 1, colorType: 2, bitDepth: 8, interlace: false, pixel: () => [1, 2, 3] }),
      ).uniform,
    ).toBe(true);
  });

  it('throws on bytes that are not a PNG', () => {
    expect(() => tools.inspect(Buffer.from('not a png'))).toThrow();
  });
});

function noisyPng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  let seed = 12345;
  for (let i = 0; i < png.data.length; i++) {
    // Math.imul: a plain product would exceed 2^53 and lose the low bits, making the "noise" periodic.
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    png.data[i] = i % 4 === 3 ? 255 : seed >>> 24;
  }
  return PNG.sync.write(png);
}

function gradientPng(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      png.data[o] = x % 256;
      png.data[o + 1] = y % 256;
      png.data[o + 2] = (x + y) % 256;
      png.data[o + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

describe('PngImageTools.downscale', () => {
  it('brings a 1080x2400 screenshot to ≤ 1568 px on the long side and < 1 MB, keeping the aspect ratio', () => {
    // How long it takes is a figure of the bench (bench/tools/speedFigures.ts), not a check here.
    const source = gradientPng(1080, 2400);
    const out = tools.downscale(source, 1568, 1_000_000);
    const info = tools.inspect(out);
    expect(Math.max(info.width, info.height)).toBeLessThanOrEqual(1568);
    // The smallest integer factor that fits (2): each preview pixel averages a 2x2 block.
    expect([info.width, info.height]).toEqual([540, 1200]);
    expect(out.length).toBeLessThan(1_000_000);
  });

  it('averages each block of the integer factor, and the edge blocks over the pixels they have', () => {
    // 5x3 grey ramp, factor 2 (maxSide 3): blocks of 2x2, the last column and the last row narrower.
    const png = new PNG({ width: 5, height: 3 });
    for (let i = 0; i < 15; i++) {
      png.data.fill(i * 10, i * 4, i * 4 + 3);
      png.data[i * 4 + 3] = 255;
    }
    const out = PNG.sync.read(tools.downscale(PNG.sync.write(png), 3, 1_000_000));
    expect([out.width, out.height]).toEqual([3, 2]);
    const grey = [...Array(6).keys()].map((i) => out.data[i * 4]);
    // (0+10+50+60)/4=30, (20+30+70+80)/4=50, (40+90)/2=65, (100+110)/2=105, (120+130)/2=125, 140
    expect(grey).toEqual([30, 50, 65, 105, 125, 140]);
  });

  it('leaves out an alpha channel that is opaque everywhere, keeps one that is not', () => {
    const colourType = (png: Buffer): number => png[25] as number; // IHDR's colour type byte
    expect(colourType(tools.downscale(gradientPng(800, 1600), 400, 1_000_000))).toBe(2);
    const translucent = new PNG({ width: 40, height: 40 });
    translucent.data.fill(100);
    translucent.data[3] = 0;
    expect(colourType(tools.downscale(PNG.sync.write(translucent), 20, 1_000_000))).toBe(6);
  });

  it('shrinks further when the byte limit is not met at maxSide (noise does not compress)', () => {
    const source = noisyPng(1000, 1000);
    expect(source.length).toBeGreaterThan(1_000_000);
    const out = tools.downscale(source, 1568, 300_000);
    expect(out.length).toBeLessThan(300_000);
    const info = tools.inspect(out);
    expect(info.width).toBeLessThan(1000);
    expect(info.width).toBe(info.height);
  });

  it('returns the input untouched when it already fits', () => {
    const source = gradientPng(100, 50);
    expect(tools.downscale(source, 1568, 1_000_000)).toBe(source);
  });

  it('averages areas: a 2x2 checkerboard becomes its mean colour', () => {
    const png = new PNG({ width: 2, height: 2 });
    [0, 255, 255, 0].forEach((v, i) => {
      png.data.fill(v, i * 4, i * 4 + 3);
      png.data[i * 4 + 3] = 255;
    });
    const out = PNG.sync.read(tools.downscale(PNG.sync.write(png), 1, 1_000_000));
    expect([out.width, out.height]).toEqual([1, 1]);
    expect([...out.data]).toEqual([128, 128, 128, 255]);
  });

  it('keeps non-uniform content non-uniform after scaling', () => {
    expect(tools.inspect(tools.downscale(gradientPng(800, 1600), 400, 1_000_000)).uniform).toBe(false);
  });
});

describe('PngImageTools.inspect: the fast path (8-bit grey, grey+alpha, RGB, RGBA) agrees with a full decode', () => {
  /** An RGBA image of `w`×`h`, filled by `rgba`, encoded by pngjs as `colorType` with one filter for every row. */
  function encoded(
    w: number,
    h: number,
    colorType: 0 | 2 | 4 | 6,
    filterType: number,
    rgba: (x: number, y: number) => number[],
  ): Buffer {
    const image = new PNG({ width: w, height: h });
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) image.data.set(rgba(x, y), (y * w + x) * 4);
    return PNG.sync.write(image, { colorType, filterType, inputColorType: 6, inputHasAlpha: true });
  }
  const fullDecode = (png: Buffer): boolean => {
    const data = PNG.sync.read(png).data;
    return data.every((v, i) => v === data[i % 4]);
  };

  for (const colorType of [0, 2, 4, 6] as const) {
    for (const filterType of [0, 1, 2, 3, 4]) {
      it(`type ${colorType}, filter ${filterType}: uniform, last pixel different, and noise`, () => {
        const grey = (v: number): number[] => [v, v, v, 255];
        const cases = [
          encoded(13, 7, colorType, filterType, () => grey(90)),
          encoded(13, 7, colorType, filterType, (x, y) => grey(x === 12 && y === 6 ? 91 : 90)),
          encoded(13, 7, colorType, filterType, (x, y) => [
            (x * 37 + y * 11) % 256,
            (x * 5 + y * 71) % 256,
            (x * y * 13) % 256,
            colorType >= 4 ? (x + y * 29) % 256 : 255,
          ]),
        ];
        expect(cases.map((png) => tools.inspect(png).uniform)).toEqual(cases.map(fullDecode));
        expect(cases.map((png) => tools.inspect(png).uniform)).toEqual([true, false, false]);
      });
    }
  }

  it('a large capture: a difference early, only in the last pixel, or nowhere (the early prefix and the whole stream agree)', () => {
    const grey = (v: number): number[] => [v, v, v, 255];
    const big = (differs: (x: number, y: number) => boolean): Buffer =>
      encoded(1080, 2400, 6, 2, (x, y) => (differs(x, y) ? grey(91) : grey(90)));
    expect(tools.inspect(big((x, y) => x === 500 && y === 3)).uniform).toBe(false);
    expect(tools.inspect(big((x, y) => x === 1079 && y === 2399)).uniform).toBe(false);
    expect(tools.inspect(big(() => false)).uniform).toBe(true);
  });

  it('a capture cut short (no IEND) is left to the full decoder, which refuses it', () => {
    const png = encoded(64, 64, 2, 1, (x, y) => [x * 4, y * 4, 0, 255]);
    expect(() => tools.inspect(png.subarray(0, png.length - 12))).toThrow();
  });

  it('a damaged chunk (CRC mismatch) is left to the full decoder, which refuses it', () => {
    const png = encoded(8, 8, 6, 0, () => [1, 2, 3, 255]);
    const damaged = Buffer.from(png);
    damaged[damaged.length - 20] = (damaged[damaged.length - 20] as number) ^ 0xff; // inside IDAT
    expect(() => tools.inspect(damaged)).toThrow();
  });
});

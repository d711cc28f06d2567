import { PNG } from 'pngjs';

/** A real RGBA PNG; `uniform` paints every pixel the same (what a broken GPU stack returns). */
export function makePng(width: number, height: number, uniform = false): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i += 1) {
    const o = i * 4;
    png.data[o] = uniform ? 10 : (i * 7) % 256;
    png.data[o + 1] = uniform ? 20 : (i * 13) % 256;
    png.data[o + 2] = uniform ? 30 : (i * 29) % 256;
    png.data[o + 3] = 255;
  }
  return PNG.sync.write(png);
}

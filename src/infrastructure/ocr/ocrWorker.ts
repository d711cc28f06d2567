/**
 * The OCR worker process (TesseractTextRecognizer starts it): reads the screenshot regions it is
 * sent over IPC with tesseract.js and answers the lines. A process of its own so that the model's
 * memory leaves with it when it is ended idle, and so that whatever the WebAssembly engine prints
 * lands on this process's stdout, which the server reads and logs, never on the server's stdout
 * (MCP's channel). Argument: the folder holding eng.traineddata.gz.
 */
import { PNG } from 'pngjs';
import type { OcrRequest, OcrResponse } from './ocrMessages.js';
import type { OcrLine } from '../../domain/visual/visualEntries.js';

interface TesseractBox {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}
interface TesseractWord {
  readonly text: string;
  readonly confidence: number;
  readonly bbox: TesseractBox;
}
interface TesseractLine {
  readonly text: string;
  readonly confidence: number;
  readonly bbox: TesseractBox;
  readonly words?: readonly TesseractWord[];
}
interface TesseractWorker {
  recognize(
    image: Buffer,
    options: Record<string, never>,
    output: { blocks: true; text: false },
  ): Promise<{
    data: { blocks: readonly { paragraphs: readonly { lines: readonly TesseractLine[] }[] }[] | null };
  }>;
}
interface TesseractModule {
  createWorker(
    langs: string,
    oem: number,
    options: { langPath: string; cacheMethod: 'none'; gzip: true; logger: () => void },
  ): Promise<TesseractWorker>;
}

const langPath = process.argv[2] ?? '';
/** The white frame around a cut region (see answer). */
const FRAME_PX = 40;
let worker: Promise<TesseractWorker> | null = null;

async function answer(request: OcrRequest): Promise<OcrResponse> {
  const tesseract = (await import('tesseract.js')) as unknown as TesseractModule;
  // The legacy engine is left out (oem 1: LSTM only), and so is the cache: nothing is written anywhere.
  worker ??= tesseract.createWorker('eng', 1, { langPath, cacheMethod: 'none', gzip: true, logger: () => undefined });
  const engine = await worker;
  const image = PNG.sync.read(Buffer.from(request.png));
  const lines: OcrLine[] = [];
  for (const r of request.regions) {
    // Each region is cut out and read alone, inside a white frame, in grey made of each pixel's
    // darkest channel. Measured on the virtual device's game screens (white text on blue buttons
    // over a dark surface): tesseract.js 7's `rectangle` option and a bare cut read nothing (one
    // global threshold split the dark backdrop from the buttons, text and all); the framed cut read
    // the menu but not the level screen, whose buttons cover less of it; in darkest-channel grey a
    // saturated button is as dark as the backdrop and only the light text stands out: both read whole.
    const left = Math.max(0, Math.floor(r.left));
    const top = Math.max(0, Math.floor(r.top));
    const width = Math.min(image.width, Math.ceil(r.right)) - left;
    const height = Math.min(image.height, Math.ceil(r.bottom)) - top;
    if (width <= 0 || height <= 0) continue;
    const cut = new PNG({ width: width + 2 * FRAME_PX, height: height + 2 * FRAME_PX });
    cut.data.fill(255);
    PNG.bitblt(image, cut, left, top, width, height, FRAME_PX, FRAME_PX);
    darkestChannel(cut.data);
    lightenFilledShapes(cut);
    const result = await engine.recognize(PNG.sync.write(cut), {}, { blocks: true, text: false });
    const dx = left - FRAME_PX;
    const dy = top - FRAME_PX;
    for (const block of result.data.blocks ?? [])
      for (const paragraph of block.paragraphs)
        for (const line of paragraph.lines)
          for (const part of splitAtGaps(line))
            lines.push({
              text: part.text,
              confidence: part.confidence / 100,
              bounds: {
                left: dx + part.bbox.x0,
                top: dy + part.bbox.y0,
                right: dx + part.bbox.x1,
                bottom: dy + part.bbox.y1,
              },
            });
  }
  return { id: request.id, lines, peakRssBytes: process.memoryUsage().rss };
}

/** A gap between two words wider than this many times the line's height parts two texts, not two words. */
const PART_GAP = 2;

/**
 * A line tesseract joined across a wide gap, parted there: two buttons side by side ("Subscribe"
 * and "Share" on the virtual device's article) are two texts, each with its own box, so a tap on
 * one lands on it and not between the two. Words are a space apart (a third of the height or so).
 */
function splitAtGaps(line: TesseractLine): TesseractLine[] {
  const words = line.words ?? [];
  if (words.length < 2) return [line];
  const gap = PART_GAP * (line.bbox.y1 - line.bbox.y0);
  const runs: TesseractWord[][] = [[words[0]!]];
  for (let i = 1; i < words.length; i++) {
    if (words[i]!.bbox.x0 - words[i - 1]!.bbox.x1 > gap) runs.push([]);
    runs[runs.length - 1]!.push(words[i]!);
  }
  const trimmed = runs.map(trimUnsure).filter((run) => run.length > 0);
  if (trimmed.length === 1 && trimmed[0]!.length === words.length) return [line];
  return trimmed.map((run) => ({
    text: run.map((w) => w.text).join(' '),
    // The mean of its words', as tesseract's own line confidence is.
    confidence: run.reduce((sum, w) => sum + w.confidence, 0) / run.length,
    bbox: {
      x0: Math.min(...run.map((w) => w.bbox.x0)),
      y0: Math.min(...run.map((w) => w.bbox.y0)),
      x1: Math.max(...run.map((w) => w.bbox.x1)),
      y1: Math.max(...run.map((w) => w.bbox.y1)),
    },
  }));
}

/** A word at either end of a line read with less confidence than this (of 100) is left out... */
const EDGE_WORD_CONFIDENCE = 80;
/** ...and one of a single character below this: a lone mark is where strays are read, as for the two-character floor of an entry. */
const EDGE_CHARACTER_CONFIDENCE = 90;

/**
 * A line without the unsure words at its ends: on the real screenshots, the wrong part of a line
 * read beside a picture was a stray mark at its end read as a letter or digit ("200 4" for the
 * card's "200", the "4" at 0.80 beside words at 0.95), each with a confidence of its own below the line's words. Words inside a line
 * stay: leaving them out would join two words that are not side by side.
 */
function trimUnsure(run: readonly TesseractWord[]): TesseractWord[] {
  let from = 0;
  let to = run.length;
  const unsure = (word: TesseractWord): boolean =>
    word.confidence < ([...word.text.trim()].length === 1 ? EDGE_CHARACTER_CONFIDENCE : EDGE_WORD_CONFIDENCE);
  while (from < to && unsure(run[from]!)) from += 1;
  while (to > from && unsure(run[to - 1]!)) to -= 1;
  return run.slice(from, to);
}

/** Darker than this (of 255) counts as ink or fill when shapes are looked for. */
const DARK = 128;
/** A filled shape is at least this large on both sides (a button, a backdrop), not a letter's stroke nor an underline. */
const SHAPE_MIN_PX = 48;
/** ...and this full of dark within its box: a text line's ink fills far less of its own box. */
const SHAPE_FILL = 0.6;

/**
 * Light text on a dark fill becomes dark text on light: each filled dark shape (a page's button, a
 * game's backdrop) is inverted with whatever it encloses (its text), and nothing else is. Measured
 * on the virtual device's WebView article (white "Subscribe" on a blue button on a white page):
 * tesseract's one threshold read the page's body text and none of the buttons; with the buttons
 * turned dark-on-light it reads both, and the game's dark menus still read whole (its backdrop is
 * one such shape). Shapes are 4-connected dark pixels (of the darkest-channel grey).
 */
function lightenFilledShapes(png: PNG): void {
  const { width: w, height: h, data } = png;
  const label = new Int32Array(w * h);
  const stack = new Int32Array(w * h);
  // Shapes are found in the image as it came, never in one already inverted: the text a shape
  // encloses, dark once inverted, must not be taken for a shape and turned back.
  const darkAtFirst = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) darkAtFirst[i] = data[i * 4]! < DARK ? 1 : 0;
  const dark = (i: number): boolean => darkAtFirst[i] === 1;
  let shape = 0;
  for (let start = 0; start < w * h; start++) {
    if (label[start] !== 0 || !dark(start)) continue;
    shape += 1;
    let top = 0;
    stack[top++] = start;
    label[start] = shape;
    let count = 0;
    let left = w,
      right = -1,
      up = h,
      down = -1;
    while (top > 0) {
      const i = stack[--top]!;
      count += 1;
      const x = i % w;
      const y = (i - x) / w;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < up) up = y;
      if (y > down) down = y;
      for (const n of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1])
        if (n >= 0 && label[n] === 0 && dark(n)) {
          label[n] = shape;
          stack[top++] = n;
        }
    }
    const bw = right - left + 1;
    const bh = down - up + 1;
    if (bw >= SHAPE_MIN_PX && bh >= SHAPE_MIN_PX && count >= SHAPE_FILL * bw * bh)
      invertShape(data, w, label, shape, { left, top: up, width: bw, height: bh });
  }
}

/** Inverts the shape's pixels and those it encloses (not reachable from its box's edge around it). */
function invertShape(
  data: Buffer,
  w: number,
  label: Int32Array,
  shape: number,
  box: { left: number; top: number; width: number; height: number },
): void {
  const outside = new Uint8Array(box.width * box.height);
  const stack: number[] = [];
  const at = (x: number, y: number): number => (box.top + y) * w + box.left + x;
  const seed = (x: number, y: number): void => {
    const j = y * box.width + x;
    if (outside[j] === 0 && label[at(x, y)] !== shape) {
      outside[j] = 1;
      stack.push(j);
    }
  };
  for (let x = 0; x < box.width; x++) {
    seed(x, 0);
    seed(x, box.height - 1);
  }
  for (let y = 0; y < box.height; y++) {
    seed(0, y);
    seed(box.width - 1, y);
  }
  while (stack.length > 0) {
    const j = stack.pop()!;
    const x = j % box.width;
    const y = (j - x) / box.width;
    if (x > 0) seed(x - 1, y);
    if (x < box.width - 1) seed(x + 1, y);
    if (y > 0) seed(x, y - 1);
    if (y < box.height - 1) seed(x, y + 1);
  }
  for (let y = 0; y < box.height; y++)
    for (let x = 0; x < box.width; x++) {
      if (outside[y * box.width + x] === 1) continue;
      const p = at(x, y) * 4;
      data[p] = 255 - data[p]!;
      data[p + 1] = 255 - data[p + 1]!;
      data[p + 2] = 255 - data[p + 2]!;
    }
}

/** Every pixel becomes the grey of its darkest channel (alpha kept): see answer. */
function darkestChannel(rgba: Buffer): void {
  for (let i = 0; i + 3 < rgba.length; i += 4) {
    const m = Math.min(rgba[i]!, rgba[i + 1]!, rgba[i + 2]!);
    rgba[i] = m;
    rgba[i + 1] = m;
    rgba[i + 2] = m;
  }
}

process.on('message', (message: OcrRequest) => {
  answer(message).then(
    (response) => process.send?.(response),
    (error: unknown) =>
      process.send?.({ id: message.id, lines: [], error: error instanceof Error ? error.message : String(error) }),
  );
});
// The server went away: nothing is left to answer.
process.on('disconnect', () => process.exit(0));

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

interface TesseractLine {
  readonly text: string;
  readonly confidence: number;
  readonly bbox: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number };
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
    const result = await engine.recognize(PNG.sync.write(cut), {}, { blocks: true, text: false });
    const dx = left - FRAME_PX;
    const dy = top - FRAME_PX;
    for (const block of result.data.blocks ?? [])
      for (const paragraph of block.paragraphs)
        for (const line of paragraph.lines)
          lines.push({
            text: line.text,
            confidence: line.confidence / 100,
            bounds: {
              left: dx + line.bbox.x0,
              top: dy + line.bbox.y0,
              right: dx + line.bbox.x1,
              bottom: dy + line.bbox.y1,
            },
          });
  }
  return { id: request.id, lines, peakRssBytes: process.memoryUsage().rss };
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

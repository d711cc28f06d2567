import type { TextRecognition, TextRecognizer } from '../../../src/domain/ports.js';
import type { Rect } from '../../../src/domain/tree/uiNode.js';

/**
 * OCR as a test says: `answer` is what every read returns (no line by default), and `asked` records
 * the regions of each read, so a test can say OCR was never asked.
 */
export class FakeTextRecognizer implements TextRecognizer {
  answer: TextRecognition = { kind: 'read', lines: [] };
  readonly asked: (readonly Rect[])[] = [];
  closed = 0;

  read(_png: Buffer, regions: readonly Rect[]): Promise<TextRecognition> {
    this.asked.push(regions);
    return Promise.resolve(this.answer);
  }

  close(): void {
    this.closed += 1;
  }
}

/**
 * Visual entries for a reading (docs/reference/summary.md, "Visual refs"): when the tree leaves
 * part of the screen unexposed, one screenshot is taken and OCR reads those parts only. When the
 * tree covers everything, nothing is captured and the recognizer is never asked: the common screen
 * pays nothing.
 */
import type { DeviceGateway, Logger, PixelDigest, TextRecognizer } from '../../domain/ports.js';
import { unexposedRegions } from '../../domain/visual/unexposed.js';
import { visualEntries } from '../../domain/visual/visualEntries.js';
import type { ScreenReading, VisualReading } from './ScreenReader.js';

/** What the summary says when the engine is there but failed on this screen. */
export const OCR_FAILED =
  'The screen shows content the accessibility tree does not expose, but reading it from the pixels failed this time: call ui_get_tree again to retry.';

export class VisualReader {
  constructor(
    private readonly recognizer: TextRecognizer,
    private readonly pixels: PixelDigest,
    private readonly logger: Logger,
  ) {}

  /** The reading with its visual entries; the same reading when nothing is unexposed. */
  async withVisual(device: DeviceGateway, reading: ScreenReading): Promise<ScreenReading> {
    const visual = await this.read(device, reading);
    return visual ? { ...reading, visual } : reading;
  }

  private async read(device: DeviceGateway, reading: ScreenReading): Promise<VisualReading | null> {
    const regions = unexposedRegions(reading.tree, reading.summary.screen);
    if (regions.length === 0) return null;
    // adb's screencap, session or not: it does not touch UiAutomation.
    const png = await device.screencap();
    let recognition;
    try {
      recognition = await this.recognizer.read(
        png,
        regions.map((r) => r.bounds),
      );
    } catch (error) {
      // The tree's own summary still answers: a failed OCR costs the visual entries, not the read.
      this.logger.warn('OCR failed; the summary goes without visual entries', { cause: String(error) });
      return { kind: 'unavailable', remedy: OCR_FAILED };
    }
    if (recognition.kind === 'unavailable') return recognition;
    const entries = visualEntries(recognition.lines, regions, reading.tree).map((entry) => ({
      ...entry,
      digest: this.pixels.digest(png, entry.bounds),
    }));
    this.logger.debug('visual entries read', {
      regions: regions.map((r) => r.reason),
      lines: recognition.lines.length,
      offered: entries.length,
    });
    return { kind: 'read', entries };
  }

  /** The digest of the pixels under `box` now: a visual ref acts only while it is unchanged. */
  async digestNow(device: DeviceGateway, box: Parameters<PixelDigest['digest']>[1]): Promise<string> {
    return this.pixels.digest(await device.screencap(), box);
  }
}

/** Which OCR lines become visual entries (docs/reference/summary.md, "Visual refs"). */
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../../src/domain/tree/dump.js';
import type { UnexposedRegion } from '../../../../src/domain/visual/unexposed.js';
import {
  MAX_VISUAL_ENTRIES,
  MIN_OCR_CONFIDENCE,
  visualEntries,
  type OcrLine,
} from '../../../../src/domain/visual/visualEntries.js';
import { screen, uiautomatorDump } from '../dumpBuilder.js';

const surface: UnexposedRegion = { bounds: { left: 0, top: 63, right: 1080, bottom: 2274 }, reason: 'surface' };
const tree = parseDump(
  uiautomatorDump([
    screen([
      { cls: 'android.widget.TextView', text: 'Star Runner settings', bounds: '[0,2274][1080,2400]' },
      { cls: 'android.view.SurfaceView', bounds: '[0,63][1080,2274]' },
    ]),
  ]),
);
const line = (text: string, top: number, confidence = 0.95, left = 400): OcrLine => ({
  text,
  confidence,
  bounds: { left, top, right: left + 200, bottom: top + 50 },
});

describe('visualEntries', () => {
  it('keeps confident lines inside an unexposed region, in reading order, trimmed', () => {
    expect(visualEntries([line('QUIT\n', 1500), line(' PLAY ', 900)], [surface], tree)).toEqual([
      { text: 'PLAY', bounds: { left: 400, top: 900, right: 600, bottom: 950 }, confidence: 0.95 },
      { text: 'QUIT', bounds: { left: 400, top: 1500, right: 600, bottom: 1550 }, confidence: 0.95 },
    ]);
  });

  it('drops a line below the confidence floor, one with fewer than two letters or digits, one outside every region', () => {
    expect(MIN_OCR_CONFIDENCE).toBe(0.8);
    expect(
      visualEntries(
        [line('PLAY', 900, 0.79), line('| ', 1000), line('-A-', 1100), line('OPTIONS', 2300)],
        [surface],
        tree,
      ),
    ).toEqual([]);
    expect(visualEntries([line('PLAY', 900, 0.8)], [surface], tree)).toHaveLength(1);
  });

  it('drops what the tree already names, however OCR spaced or cased it', () => {
    expect(visualEntries([line('STAR RUNNER', 500), line('Settings', 700)], [surface], tree)).toEqual([]);
  });

  it('drops a repeat of the same line at the same place, and caps the list', () => {
    expect(visualEntries([line('PLAY', 900), line('PLAY', 900)], [surface], tree)).toHaveLength(1);
    const many = Array.from({ length: 30 }, (_, i) => line(`Item ${i}`, 100 + i * 60));
    expect(visualEntries(many, [surface], tree)).toHaveLength(MAX_VISUAL_ENTRIES);
  });

  it('cuts a box that overhangs its region to the region', () => {
    const over: OcrLine = { text: 'SCORE', confidence: 0.9, bounds: { left: 900, top: 40, right: 1200, bottom: 120 } };
    expect(visualEntries([over], [surface], tree)[0]?.bounds).toEqual({ left: 900, top: 63, right: 1080, bottom: 120 });
  });
});

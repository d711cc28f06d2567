/**
 * Which lines read from the screen's pixels become visual entries of the summary
 * (docs/reference/summary.md, "Visual refs"): only lines inside a region the tree leaves unexposed,
 * read with enough confidence, with at least two letters or digits, and not already named by the
 * tree. Pure: the OCR adapter reads, this decides.
 */
import { cutCodePoints, isVisible, ownLabel } from '../tree/nodeFacts.js';
import type { Rect, UiTree } from '../tree/uiNode.js';
import { MAX_NAME_CODE_POINTS } from '../summary/selectorChoice.js';
import { intersection, type UnexposedRegion } from './unexposed.js';

/** One line of text OCR read, in screen pixels; confidence from 0 to 1. */
export interface OcrLine {
  readonly text: string;
  readonly bounds: Rect;
  readonly confidence: number;
}

/** A line offered to the model, before it gets its ref. */
export interface VisualEntry {
  readonly text: string;
  readonly bounds: Rect;
  /** Rounded to two decimals: the model compares, it does not need more. */
  readonly confidence: number;
}

/**
 * Below this confidence a line is more often wrong than right: on real screenshots tesseract's lines
 * at 0.8 and above were right 8 times in 10, those below almost never (docs/internals/performance-history.md).
 */
export const MIN_OCR_CONFIDENCE = 0.8;
/** Visual entries per summary: a drawn menu has a handful; more would crowd out the tree's own. */
export const MAX_VISUAL_ENTRIES = 20;

export function visualEntries(
  lines: readonly OcrLine[],
  regions: readonly UnexposedRegion[],
  tree: UiTree,
): VisualEntry[] {
  const named = namedTexts(tree);
  const out: VisualEntry[] = [];
  const seen = new Set<string>();
  for (const line of lines) {
    const text = line.text.replace(/\s+/g, ' ').trim();
    const key = normalise(text);
    if (key.length < 2 || line.confidence < MIN_OCR_CONFIDENCE) continue;
    const region = regions.find((r) => containsCentre(r.bounds, line.bounds));
    const bounds = region ? intersection(line.bounds, region.bounds) : null;
    if (!bounds) continue;
    if (named.some((label) => label.includes(key))) continue;
    const place = `${key}@${bounds.left},${bounds.top}`;
    if (seen.has(place)) continue;
    seen.add(place);
    out.push({
      text: cutCodePoints(text, MAX_NAME_CODE_POINTS),
      bounds,
      confidence: Math.round(line.confidence * 100) / 100,
    });
  }
  out.sort((a, b) => a.bounds.top - b.bounds.top || a.bounds.left - b.bounds.left);
  return out.slice(0, MAX_VISUAL_ENTRIES);
}

/** The tree's labels, normalised as OCR lines are, for "already named" checks. */
function namedTexts(tree: UiTree): string[] {
  const out: string[] = [];
  for (const node of tree.nodes) {
    if (!isVisible(node)) continue;
    const label = normalise(ownLabel(node));
    if (label !== '') out.push(label);
  }
  return out;
}

/** NFKC, lower case, letters and digits only: OCR's spacing and punctuation are not evidence. */
export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

function containsCentre(region: Rect, box: Rect): boolean {
  const x = (box.left + box.right) / 2;
  const y = (box.top + box.bottom) / 2;
  return x >= region.left && x < region.right && y >= region.top && y < region.bottom;
}

/**
 * ui_get_tree's parts (docs/reference/contract.md, "Behaviour per tool": `within`, `mode: "text"`) and the diff of a screen with
 * itself, measured against the whole summary on every real dump in ../shared/fixtures. Prints the
 * ratios (docs/internals/performance-history.md quotes them); asserts only what must hold on every screen: a part is
 * never larger than the whole (text mode once its whole strings are cut as the summary cuts them),
 * every string the summary cut is read whole in text mode, every entry of a container is an entry
 * of the whole (same ref), and a screen diffed with itself is empty.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { wireBytesOfJson } from '../../../src/domain/summary/answerBudget.js';
import { diffSummaries, isSameScreen } from '../../../src/domain/summary/screenDiff.js';
import { screenTexts, summaryWithin } from '../../../src/domain/summary/screenParts.js';
import { MAX_NAME_CODE_POINTS, summariseScreenDetailed } from '../../../src/domain/summary/summary.js';
import { cutCodePoints } from '../../../src/domain/tree/nodeFacts.js';
import { visibleScrollables } from '../../../src/domain/summary/scrollables.js';
import { parseDump } from '../../../src/domain/tree/dump.js';
import type { ScreenContext } from '../../../src/domain/tree/screen.js';
import { withoutBounds } from '../../../src/application/screen/wireSummary.js';

const fixturesRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures');
const present = existsSync(join(fixturesRoot, 'dumps'));
const files = present
  ? ['dumps', 'appium-source'].flatMap((dir) => {
      const full = join(fixturesRoot, dir);
      return existsSync(full)
        ? readdirSync(full)
            .filter((f) => f.endsWith('.xml'))
            .sort()
            .map((f) => join(full, f))
        : [];
    })
  : [];
const context: ScreenContext = {
  density: 420,
  window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: null },
};

if (!present)
  console.warn(`screen parts measurement skipped: ${fixturesRoot} is absent (clone ../shared next to the repository)`);

const bytes = (value: unknown): number => wireBytesOfJson(JSON.stringify(value));
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

describe.skipIf(!present)('ui_get_tree parts against the whole summary (../shared/fixtures)', () => {
  it('within the largest list and mode "text" are no larger than the whole, text mode reads every cut string whole; a screen diffed with itself is empty', () => {
    const textRatios: number[] = [];
    const withinRatios: number[] = [];
    let serial = 0;
    for (const file of files) {
      const tree = parseDump(readFileSync(file, 'utf8'));
      const { summary, plans } = summariseScreenDetailed(tree, context);
      // Refs as the registry gives them (unique per entry), so the parts can be compared by ref.
      const withRefs = {
        ...summary,
        actions: summary.actions.map((e) => ({ ref: `e${(serial += 1).toString(36)}`, ...e })),
      };
      const whole = withoutBounds(withRefs);
      const wholeBytes = bytes(whole);
      // Without refs no text is told apart by one: every item is a string.
      const texts = screenTexts(tree).texts.map((t) => (typeof t === 'string' ? t : t.text));
      const textBytes = bytes({ foreground_package: whole.foreground_package, texts });
      // Text mode carries the strings the summary cuts whole: cut as the summary cuts, it is never larger.
      const cut = texts.map((t) => cutCodePoints(t, MAX_NAME_CODE_POINTS));
      expect(bytes({ foreground_package: whole.foreground_package, texts: cut }), file).toBeLessThanOrEqual(wholeBytes);
      // Every string the summary cut is read whole in text mode.
      const names = [...whole.texts, ...whole.actions.flatMap((e) => (e.label === undefined ? [] : [e.label]))];
      for (const name of names.filter((n) => n.endsWith('…'))) {
        // (text mode trims the blanks around a text, the summary does not)
        const head = name.slice(0, -1).trim();
        expect(
          texts.some((t) => t.startsWith(head) && t.length > head.length),
          `${file}: ${name}`,
        ).toBe(true);
      }
      textRatios.push(textBytes / wholeBytes);
      const list = visibleScrollables(tree).sort((a, b) => area(b) - area(a))[0];
      if (list) {
        const part = withoutBounds(summaryWithin(withRefs, plans, list));
        const refs = new Set(whole.actions.map((e) => e.ref));
        expect(
          part.actions.every((e) => refs.has(e.ref)),
          file,
        ).toBe(true);
        expect(bytes(part), file).toBeLessThanOrEqual(wholeBytes);
        withinRatios.push(bytes(part) / wholeBytes);
      }
      if (!whole.truncated) {
        expect(isSameScreen(whole, whole), file).toBe(true);
        expect(diffSummaries(whole, whole), file).toEqual({ foreground_package: whole.foreground_package });
      }
    }
    const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
    console.error(
      `[screen parts] ${files.length} dumps: mode "text" median ${pct(median(textRatios))} of the whole summary; ` +
        `within the largest scrollable (${withinRatios.length} dumps) median ${pct(median(withinRatios))}`,
    );
  });
});

function area(node: { readonly bounds: { left: number; top: number; right: number; bottom: number } | null }): number {
  const b = node.bounds;
  return b ? Math.max(0, b.right - b.left) * Math.max(0, b.bottom - b.top) : 0;
}

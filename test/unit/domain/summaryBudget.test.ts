/**
 * The summary's cut to its share of the answer budget, at its exact boundary: a list element
 * whose cost lands exactly on the room left is kept, one byte less and it goes. The tests through
 * ui_get_tree (answerBudget.test.ts) only check that a whole answer stays under the limit, which a
 * summary one element over its share still does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wireBytesOfJson } from '../../../src/domain/summary/answerBudget.js';
import { fitSummaryToBudget, type BudgetedSummary } from '../../../src/domain/summary/summaryBudget.js';
import type { LayoutFinding } from '../../../src/domain/tree/screen.js';

const wire = (value: unknown): number => wireBytesOfJson(JSON.stringify(value));

/** Labels of one length, so every element costs the same. */
const labels = (n: number, stem: string): string[] =>
  Array.from({ length: n }, (_, i) => `${stem} ${String(i).padStart(4, '0')}`);

interface Summary extends BudgetedSummary {
  readonly foreground_package: string;
  readonly texts: readonly string[];
  readonly actions: readonly { readonly label: string }[];
}

function summaryOf(texts: number, actions: number, findings?: LayoutFinding[]): Summary {
  return {
    foreground_package: 'com.example.notes',
    texts: labels(texts, 'text'),
    actions: labels(actions, 'action').map((label) => ({ label })),
    ...(findings ? { layout_findings: findings } : {}),
  };
}

/** What the cut counts as fixed: the summary with both lists empty, marked as cut. */
function frameCost(summary: Summary, counts: { texts: number; actions: number; layout_findings: number }): number {
  return wire({ ...summary, texts: [], actions: [], counts, truncated: true });
}

/** One element with its separating comma, which is on the wire twice (once in each copy of the envelope). */
const elementCost = (item: unknown): number => wire(item) + 2;

describe('the summary cut to its share of the answer budget', () => {
  it('a summary that fits is answered as it is, unmarked', () => {
    const summary = summaryOf(3, 2);
    expect(fitSummaryToBudget(summary, wire(summary))).toBe(summary);
  });

  it('texts: the one whose cost lands exactly on the room is kept; one byte less and it goes', () => {
    const summary = summaryOf(60, 4);
    const counts = { texts: 60, actions: 4, layout_findings: 0 };
    const actionsCost = summary.actions.reduce((sum, a) => sum + elementCost(a), 0);
    const perText = elementCost(summary.texts[0]);
    for (const kept of [1, 2, 17, 40]) {
      const exact = frameCost(summary, counts) + actionsCost + kept * perText;
      const atBoundary = fitSummaryToBudget(summary, exact);
      expect(atBoundary.texts).toEqual(summary.texts.slice(0, kept));
      expect(atBoundary.actions).toEqual(summary.actions);
      expect(atBoundary.counts).toEqual(counts);
      expect(atBoundary.truncated).toBe(true);
      expect(wire(atBoundary)).toBeLessThanOrEqual(exact);
      expect(fitSummaryToBudget(summary, exact - 1).texts).toHaveLength(kept - 1);
    }
  });

  it('actions are cut only once no text fits, at the same exact boundary, and findings keep only kept actions', () => {
    const findings: LayoutFinding[] = [
      { issue: 'touch_target_too_small', actions: [0, 5, 30], minimum_px: 126 },
      { issue: 'under_status_bar', actions: [31, 32] },
      { issue: 'off_screen', label: 'Offline', size_px: [200, 48] },
    ];
    const summary = summaryOf(5, 40, findings);
    const counts = { texts: 5, actions: 40, layout_findings: 6 };
    const perAction = elementCost(summary.actions[0]);
    const frame = frameCost(summary, counts);
    for (const kept of [1, 6, 31]) {
      const exact = frame + kept * perAction;
      const atBoundary = fitSummaryToBudget(summary, exact);
      expect(atBoundary.texts).toEqual([]);
      expect(atBoundary.actions).toEqual(summary.actions.slice(0, kept));
      expect(fitSummaryToBudget(summary, exact - 1).actions).toHaveLength(kept - 1);
      for (const finding of atBoundary.layout_findings ?? []) {
        if ('actions' in finding) for (const index of finding.actions) expect(index).toBeLessThan(kept);
      }
    }
    expect(fitSummaryToBudget(summary, frame + 6 * perAction).layout_findings).toEqual([
      { issue: 'touch_target_too_small', actions: [0, 5], minimum_px: 126 },
      { issue: 'off_screen', label: 'Offline', size_px: [200, 48] },
    ]);
    // The counts are those before the cut: findings count each action once, a single finding once.
    expect(fitSummaryToBudget(summary, frame + 6 * perAction).counts).toEqual(counts);
  });

  it('keeps counts a count cap already gave', () => {
    const capped = {
      ...summaryOf(30, 3),
      counts: { texts: 400, actions: 3, layout_findings: 0 },
      truncated: true as const,
    };
    expect(fitSummaryToBudget(capped, wire(capped) - 1).counts).toEqual({ texts: 400, actions: 3, layout_findings: 0 });
  });

  it('whatever the budget, the cut summary stays within it and no further element would fit', () => {
    const summary = summaryOf(50, 30);
    const counts = { texts: 50, actions: 30, layout_findings: 0 };
    const floor = frameCost(summary, counts);
    fc.assert(
      fc.property(fc.integer({ min: floor, max: wire(summary) - 1 }), (budget) => {
        const cut = fitSummaryToBudget(summary, budget);
        expect(wire(cut)).toBeLessThanOrEqual(budget);
        // One more element (a text while actions are whole, else an action) would pass the room.
        const next =
          cut.actions.length === summary.actions.length
            ? { ...cut, texts: summary.texts.slice(0, cut.texts.length + 1) }
            : { ...cut, actions: summary.actions.slice(0, cut.actions.length + 1) };
        // As the cut counts it: each list's last element with a comma too, in both copies.
        const counted = wire(next) + (next.texts.length > 0 ? 2 : 0) + (next.actions.length > 0 ? 2 : 0);
        expect(counted).toBeGreaterThan(budget);
      }),
    );
  });
});

/**
 * The summary within its share of the answer budget (answerBudget.ts). The lists are already
 * capped by count (summary.ts); a screen of long labels can still outgrow what a client accepts,
 * so this cuts further by size: `texts` from the end first (an action is what a model came for),
 * then `actions` from the end, and with them the layout findings' references to cut actions.
 * The cut is marked like the count caps: `truncated: true` and `counts` taken before any cut.
 * Kept apart from summary.ts on purpose: it only shortens lists, never changes an entry.
 * Pure: no I/O.
 */
import { wireBytesOfJson } from './answerBudget.js';
import type { LayoutFinding, ScreenSummary } from '../tree/screen.js';

/** Single findings (one per issue and target), as `counts.layout_findings` counts them. */
function singleFindings(findings: readonly LayoutFinding[] | undefined): number {
  return (findings ?? []).reduce(
    (sum, f) => sum + ('actions' in f ? f.actions.length : 'refs' in f ? f.refs.length : 1),
    0,
  );
}

/**
 * Wire bytes of each element of a list, with its separating comma: the comma is on the wire twice,
 * once in each copy of the envelope, as the element is (a list's last element has none, so a cut
 * list may come in up to 2 bytes under its room).
 */
function elementCosts(items: readonly unknown[]): number[] {
  return items.map((item) => wireBytesOfJson(JSON.stringify(item)) + 2);
}

/** How many leading elements fit in `room` wire bytes. */
function fittingCount(costs: readonly number[], room: number): number {
  let spent = 0;
  let count = 0;
  for (const cost of costs) {
    if (spent + cost > room) break;
    spent += cost;
    count += 1;
  }
  return count;
}

/**
 * Findings that still name only offered actions: indexes at or past `kept`, and refs of the actions
 * cut, are dropped, then empty groups.
 */
function findingsFor(
  findings: readonly LayoutFinding[] | undefined,
  kept: number,
  actions: readonly unknown[],
): LayoutFinding[] {
  const keptRefs = new Set(actions.slice(0, kept).map(refOf));
  const out: LayoutFinding[] = [];
  for (const finding of findings ?? []) {
    if ('actions' in finding) {
      const indexes = finding.actions.filter((index) => index < kept);
      if (indexes.length > 0) out.push({ ...finding, actions: indexes });
    } else if ('refs' in finding) {
      const refs = finding.refs.filter((ref) => keptRefs.has(ref));
      if (refs.length > 0) out.push({ ...finding, refs });
    } else {
      out.push(finding);
    }
  }
  return out;
}

function refOf(entry: unknown): unknown {
  return typeof entry === 'object' && entry !== null ? (entry as { ref?: unknown }).ref : undefined;
}

/** What the budget reads of a summary: its two lists, its findings and its marks (bounds or not, the cut is the same). */
export type BudgetedSummary = Pick<ScreenSummary, 'layout_findings' | 'counts' | 'truncated'> & {
  /** Strings, or in a text read also `{text, ref}` for a text repeated in several entries. */
  readonly texts: readonly unknown[];
  readonly actions: readonly unknown[];
};

export function fitSummaryToBudget<S extends BudgetedSummary>(summary: S, budget: number): S {
  if (wireBytesOfJson(JSON.stringify(summary)) <= budget) return summary;
  const counts = summary.counts ?? {
    texts: summary.texts.length,
    actions: summary.actions.length,
    layout_findings: singleFindings(summary.layout_findings),
  };
  // Everything but the two lists, marked as cut, with both lists empty: the fixed part of the cost.
  const { layout_findings: findings, ...rest } = summary;
  const frame = { ...rest, texts: [], actions: [], counts, truncated: true };
  const frameCost = wireBytesOfJson(JSON.stringify({ ...frame, ...(findings ? { layout_findings: findings } : {}) }));
  const actionCosts = elementCosts(summary.actions);
  const textCosts = elementCosts(summary.texts);
  const actionsTotal = actionCosts.reduce((a, b) => a + b, 0);

  const textsKept = fittingCount(textCosts, budget - frameCost - actionsTotal);
  const actionsKept = textsKept > 0 ? summary.actions.length : fittingCount(actionCosts, budget - frameCost);
  const kept = findingsFor(findings, actionsKept, summary.actions);
  return {
    ...(rest as Omit<S, 'layout_findings'>),
    texts: summary.texts.slice(0, textsKept),
    actions: summary.actions.slice(0, actionsKept),
    ...(kept.length > 0 ? { layout_findings: kept } : {}),
    counts,
    truncated: true,
  } as unknown as S; // the same summary with shorter lists (S only adds fields this leaves as they are)
}

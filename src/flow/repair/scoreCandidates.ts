/**
 * Finding a step's element again when its selector no longer matches (docs/guide/usage.md, "Repair"):
 * each element the screen offers now is scored against the facts recorded when the step was made
 * (src/domain/summary/actedElement.ts), and the step is repaired only when exactly one candidate
 * clears REPAIR_THRESHOLD. Two that clear it are a coin toss: refused, never guessed.
 *
 * The score is a sum of the facts that agree, each with a weight (the docs list the same table):
 *   label        0.40 the same label; 0.35 the same but for case, spaces and punctuation;
 *                0.25 one contains the other (3 characters or more); 0.15 a word's first 4 letters shared
 *   selector     0.30 another selector recorded for it names this candidate alone now
 *   resource id  0.25 the same resource id, which no other candidate has; 0.10 when others share it
 *   role         0.10 the same role (button, input, toggle…)
 *   ancestor     0.10 the same nearest labelled ancestor (its section, card, dialog)
 *   bounds       0.10 the very same place on the screen
 *   class        0.05 the same class
 *   order        0.05 the same place among the elements that share its label
 * No single fact reaches the threshold alone but the label (0.40) or a recorded selector (0.30)
 * together with one more: a candidate needs two independent agreements.
 */
import type { ActedElement } from '../../domain/summary/actedElement.js';
import type { FlowElement } from '../flowFile.js';

export const REPAIR_THRESHOLD = 0.5;

export interface ScoredCandidate {
  readonly candidate: ActedElement;
  readonly score: number;
  /** The facts that agreed, in words, with their weights. */
  readonly evidence: readonly string[];
}

export type RepairDecision =
  | { readonly kind: 'repair'; readonly best: ScoredCandidate; readonly ranked: readonly ScoredCandidate[] }
  | { readonly kind: 'tie'; readonly tied: readonly ScoredCandidate[]; readonly ranked: readonly ScoredCandidate[] }
  | { readonly kind: 'none'; readonly ranked: readonly ScoredCandidate[] };

function normalised(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

function stems(label: string): Set<string> {
  return new Set(
    normalised(label)
      .split(' ')
      .filter((word) => word.length >= 4)
      .map((word) => word.slice(0, 4)),
  );
}

function labelScore(recorded: string, now: string): [number, string] | null {
  if (recorded === '' || now === '') return null;
  if (recorded === now) return [0.4, `the same label '${now}'`];
  const a = normalised(recorded);
  const b = normalised(now);
  if (a === b) return [0.35, `the same label but for case or punctuation ('${now}')`];
  if (Math.min(a.length, b.length) >= 3 && (a.includes(b) || b.includes(a)))
    return [0.25, `a label containing the other ('${recorded}' / '${now}')`];
  const shared = [...stems(recorded)].some((stem) => stems(now).has(stem));
  return shared ? [0.15, `a label sharing a word ('${recorded}' / '${now}')`] : null;
}

function key(selector: Readonly<Record<string, unknown>>): string {
  return JSON.stringify(
    Object.keys(selector)
      .sort()
      .map((name) => [name, selector[name]]),
  );
}

function sameBox(a: readonly number[] | undefined, b: readonly number[]): boolean {
  return a !== undefined && a.length === 4 && a.every((value, i) => value === b[i]);
}

export function scoreCandidates(recorded: FlowElement, candidates: readonly ActedElement[]): ScoredCandidate[] {
  const recordedSelectors = new Set(recorded.selectors.slice(1).map(key));
  const idCount = new Map<string, number>();
  for (const candidate of candidates)
    if (candidate.resource_id) idCount.set(candidate.resource_id, (idCount.get(candidate.resource_id) ?? 0) + 1);
  const scored = candidates.map((candidate) => {
    const evidence: string[] = [];
    let score = 0;
    const add = (weight: number, why: string): void => {
      score += weight;
      evidence.push(`${why} (+${weight.toFixed(2)})`);
    };
    const label = labelScore(recorded.label, candidate.label);
    if (label) add(label[0], label[1]);
    const selector = candidate.selectors.find((offered) => recordedSelectors.has(key(offered)));
    if (selector) add(0.3, `the recorded selector ${JSON.stringify(selector)} names it alone`);
    if (recorded.resource_id && candidate.resource_id === recorded.resource_id) {
      const alone = idCount.get(candidate.resource_id) === 1;
      add(alone ? 0.25 : 0.1, `the same resource id${alone ? '' : ', shared with others'}`);
    }
    if (recorded.role && candidate.role === recorded.role) add(0.1, `the same role (${candidate.role})`);
    if (recorded.ancestor && candidate.ancestor === recorded.ancestor)
      add(0.1, `the same ancestor '${candidate.ancestor}'`);
    if (sameBox(recorded.bounds, candidate.bounds)) add(0.1, 'the same place on the screen');
    if (recorded.class && candidate.class === recorded.class) add(0.05, 'the same class');
    if (recorded.same_label && candidate.same_label?.index === recorded.same_label.index)
      add(0.05, 'the same order among elements with its label');
    return { candidate, score: Math.round(score * 100) / 100, evidence };
  });
  return scored.sort((a, b) => b.score - a.score);
}

/** Repair only when exactly one candidate clears the threshold and a selector names it alone. */
export function decideRepair(recorded: FlowElement, candidates: readonly ActedElement[]): RepairDecision {
  const ranked = scoreCandidates(recorded, candidates);
  const clearing = ranked.filter((scored) => scored.score >= REPAIR_THRESHOLD);
  if (clearing.length > 1) return { kind: 'tie', tied: clearing, ranked };
  const best = clearing[0];
  if (best && best.candidate.selectors.length > 0) return { kind: 'repair', best, ranked };
  return { kind: 'none', ranked };
}

/** One candidate in words, for a message: its selector (or label), score and evidence. */
export function describeCandidate(scored: ScoredCandidate): string {
  const selector = scored.candidate.selectors[0];
  const name = selector ? JSON.stringify(selector) : `'${scored.candidate.label}' (no selector names it alone)`;
  return `${name} scores ${scored.score.toFixed(2)}: ${scored.evidence.join(', ') || 'nothing agrees'}`;
}

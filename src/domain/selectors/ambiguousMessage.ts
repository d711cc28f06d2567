/**
 * The words of UI_ELEMENT_AMBIGUOUS (docs/reference/contract.md, "One element or none"): the selector, how
 * many elements it names, and each candidate as the model can send it back: its ref, else nothing
 * it could act on, and the `within` that leaves it alone when one exists.
 */
import { separatingContext } from '../summary/selectorChoice.js';
import { cutCodePoints, isVisible, ownLabel } from '../tree/nodeFacts.js';
import type { UiNode } from '../tree/uiNode.js';
import type { PressTarget } from './pressTargets.js';
import { NO_WITHIN_KEYS, selectorToWire, termToWire, type Selector, type SelectorTerm } from './selector.js';

/** What a refusal says about one candidate, besides the ref the application gives it. */
export interface CandidateFacts {
  readonly target: PressTarget;
  /** What the element says: its own label, else the first visible one inside it ('' when none). */
  readonly label: string;
  /** Up to two more texts inside the element that tell it from its twins (a row's size, a date). */
  readonly alsoShows: readonly string[];
  /**
   * The `within` that, added to the selector, leaves this candidate alone (nearest ancestor term
   * first); null when none does, or when the selector cannot take one (it has a `within`, state
   * flags or `instance` already, or its key runs as a UiSelector).
   */
  readonly within: SelectorTerm | null;
}

const LABEL_CODE_POINTS = 40;
const ALSO_SHOWS = 2;

function labelsIn(node: UiNode, out: string[]): void {
  const own = isVisible(node) ? ownLabel(node) : '';
  if (own !== '' && !out.includes(own)) out.push(own);
  for (const child of node.children) labelsIn(child, out);
}

function canTakeWithin(selector: Selector): boolean {
  return (
    selector.within === undefined &&
    selector.states === undefined &&
    selector.instance === undefined &&
    !NO_WITHIN_KEYS.includes(selector.target.key)
  );
}

/** The facts of each candidate, in the order of `targets`. */
export function candidateFacts(selector: Selector, targets: readonly PressTarget[]): CandidateFacts[] {
  return targets.map((target) => {
    const labels: string[] = [];
    labelsIn(target.element, labels);
    const [label = '', ...rest] = labels.map((l) => cutCodePoints(l, LABEL_CODE_POINTS));
    const others = targets.filter((t) => t !== target).flatMap((t) => t.matches);
    const first = target.matches[0];
    return {
      target,
      label,
      alsoShows: rest.slice(0, ALSO_SHOWS),
      within: first && canTakeWithin(selector) ? separatingContext(first, others) : null,
    };
  });
}

/** One candidate with the ref the application's registry gave its element (null: none, see below). */
export interface NamedCandidate {
  readonly facts: CandidateFacts;
  readonly ref: string | null;
}

/** How many candidates a message names: enough to choose from, short enough to read. */
export const MAX_NAMED_CANDIDATES = 6;

function quoted(value: string): string {
  return `'${value}'`;
}

function describe(selector: Selector, candidate: NamedCandidate, foreground: string | undefined): string {
  const { facts, ref } = candidate;
  const parts: string[] = [];
  if (ref !== null) parts.push(JSON.stringify({ ref }));
  const simpleClass = facts.target.element.className.split('.').pop() ?? '';
  parts.push(facts.label !== '' ? quoted(facts.label) : `an unlabelled ${simpleClass || 'element'}`);
  let text = parts.join(' ');
  if (facts.alsoShows.length > 0) text += ` (with ${facts.alsoShows.map(quoted).join(', ')})`;
  if (!facts.target.actionable) text += ' (not actionable: it has no ref)';
  else if (ref === null) text += ' (no ref: ui_get_tree offers none for it)';
  if (facts.within) {
    const wire = { ...selectorToWire(selector, foreground), within: termToWire(facts.within, foreground) };
    text += `, or ${JSON.stringify(wire)}`;
  }
  return text;
}

/**
 * `{"text":"Clock"} matches 2 different elements here, so acting on it would be a coin toss: …`,
 * then the candidates, at most MAX_NAMED_CANDIDATES of them.
 */
export function ambiguousMessage(
  selector: Selector,
  candidates: readonly NamedCandidate[],
  foreground?: string,
): string {
  const named = candidates.slice(0, MAX_NAMED_CANDIDATES).map((c) => describe(selector, c, foreground));
  const more = candidates.length - named.length;
  return (
    `${JSON.stringify(selectorToWire(selector, foreground))} matches ${candidates.length} different elements on this screen, ` +
    'so acting on it would be a coin toss: nothing was tapped or typed. ' +
    `Send the one you mean by its ref (or by the selector with the within given): ${named.join('; ')}` +
    (more > 0 ? `; and ${more} more (ui_get_tree lists them)` : '') +
    '.'
  );
}

/** The driver found several matches, and the screen read right after to tell them apart showed none. */
export function movedWhileCountingMessage(selector: Selector, found: number, foreground?: string): string {
  return (
    `${JSON.stringify(selectorToWire(selector, foreground))} matched ${found} elements, and the screen changed before ` +
    'they could be told apart, so nothing was tapped or typed. Call ui_get_tree and send the ref of the one you mean.'
  );
}

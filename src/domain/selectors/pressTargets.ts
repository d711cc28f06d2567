/**
 * One element or none (docs/reference/contract.md, "One element or none"): how many different elements a
 * selector's matches would press, so that an action never presses the first of several.
 *
 * The driver's find answers every node the locator matches, in document order, and its click
 * presses the centre of the one it is given. Matches that press the same element are one
 * candidate, not several:
 *  - a match that is actionable itself (it has a role: nodeFacts.roleOf) or scrollable is its own element;
 *  - a match that is not (a title, a summary, an icon) presses the nearest actionable ancestor when
 *    its centre lies inside that ancestor and no scrollable container lies between them: the
 *    "Clock" title inside its row is that row (the summary names a row by the same rule,
 *    selectorChoice.selectorSources);
 *  - a match nested in another match that is not actionable either, its centre inside it, is
 *    that outer match (an identical nested match: a container and its own text saying the same).
 * Everything else is an element of its own, actionable or not: a non-actionable heading that says
 * "Clock" beside a "Clock" row is a second candidate, since the driver's first match could be it.
 *
 * The summary decides `ambiguous` by the same rule (selectorChoice.ts): a selector it offers
 * names one element here, and one it withholds as `ambiguous` names two or more, which an action
 * refuses (ambiguousMessage.ts). Pure: the same tree and matches give the same answer.
 */
import { tapLandsIn } from '../gestures/tapPoint.js';
import { roleOf } from '../tree/nodeFacts.js';
import type { UiNode } from '../tree/uiNode.js';

/** One element the selector's matches would press, with the matches that press it (document order). */
export interface PressTarget {
  readonly element: UiNode;
  readonly matches: readonly UiNode[];
  /** The element has a role (a row, a button, a field, a toggle): the summary lists it as an action. */
  readonly actionable: boolean;
}

/** The element a press on `node` reaches, given all the selector's matches (`matched`). */
export function pressedElementOf(node: UiNode, matched: ReadonlySet<UiNode>): UiNode {
  if (node.scrollable || roleOf(node) !== null) return node;
  let element = node;
  for (let a = node.parent; a !== null; a = a.parent) {
    if (a.scrollable) break;
    if (roleOf(a) !== null) return tapLandsIn(node, a.bounds) ? a : element;
    // An outer match that is not actionable either: the press on `node` lands in it, one candidate.
    if (matched.has(a) && tapLandsIn(node, a.bounds)) element = a;
  }
  return element;
}

/** The selector's matches grouped by the element each would press, in document order of the first match. */
export function pressTargets(matches: readonly UiNode[]): PressTarget[] {
  const matched = new Set(matches);
  const byElement = new Map<UiNode, UiNode[]>();
  for (const node of matches) {
    const element = pressedElementOf(node, matched);
    const group = byElement.get(element);
    if (group) group.push(node);
    else byElement.set(element, [node]);
  }
  return [...byElement].map(([element, grouped]) => ({
    element,
    matches: grouped,
    actionable: roleOf(element) !== null,
  }));
}

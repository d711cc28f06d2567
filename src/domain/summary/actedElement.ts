/**
 * The element an action acted on, as the server resolved it when it acted (docs/reference/contract.md,
 * "Traces"): the facts a replay needs to find it again on a later run, or on a screen that has
 * drifted since (a label renamed, a row moved, an id changed). Written into the call's trace line
 * as `element`; the exporter reads it there and never reconstructs it from an earlier read, so it
 * does not matter which read (whole, diff, subtree, text) gave the model the ref.
 *
 * Two sources. A ref: the screen the action read to check the ref, with the node and its summary
 * entry, so every fact is known. A selector: what the driver said of the element it found (its
 * bounds, package, class when read, label), and the selector itself, which named it alone or the
 * driver would have tapped the first of several.
 */
import type { ActionPlan } from './actionPlans.js';
import { candidatesFor, selectorSources } from './selectorChoice.js';
import { matchTerm } from '../selectors/matcher.js';
import { selectorToWire, termToWire, type WireSelector } from '../selectors/selector.js';
import { roleOfEntry, selectorOfEntry, type Role } from '../tree/screen.js';
import { isBlank, ownLabel } from '../tree/nodeFacts.js';
import type { BoxBounds, UiNode, UiTree } from '../tree/uiNode.js';

/** How many selector candidates a record keeps: the entry's own, then the next unique ones. */
const MAX_CANDIDATES = 4;

export interface ActedElement {
  /** Selectors that named exactly this element then, the summary's own first (wire form, `id` for the app's ids). */
  readonly selectors: readonly WireSelector[];
  /** What the element says (the summary entry's name); '' when nothing. */
  readonly label: string;
  readonly role: Role;
  /** Its resource id, whole (`pkg:id/name`); absent when it has none. */
  readonly resource_id?: string;
  /** Its class as the tree or the driver reported it; absent when unknown. */
  readonly class?: string;
  /** `[left, top, width, height]`, the shape of the trace line's `acted_bounds`. */
  readonly bounds: BoxBounds;
  /** The package of its window. */
  readonly package: string;
  /** The label of its nearest ancestor that has one (a section, a card, a dialog); absent when none. */
  readonly ancestor?: string;
  /** Among the offered entries with the same label, in screen order: its index (0-based) and how many there were. */
  readonly same_label?: { readonly index: number; readonly count: number };
  /** A password field: what is typed into it is a secret. */
  readonly password?: true;
  /** `ref`: read from the screen the action checked the ref on; `selector`: from the driver's answers. */
  readonly source: 'ref' | 'selector';
}

/** The record of the node behind `plan` on the screen `plans` were made from. */
export function actedElementOfPlan(
  tree: UiTree,
  plans: readonly ActionPlan[],
  plan: ActionPlan,
  foreground: string,
): ActedElement {
  const { node, entry } = plan;
  const label = plan.fullLabel;
  const own = selectorOfEntry(entry);
  const selectors: WireSelector[] = own ? [own] : [];
  for (const candidate of candidatesFor(node, selectorSources(node))) {
    if (selectors.length >= MAX_CANDIDATES) break;
    const matches = matchTerm(tree, candidate.term);
    if (matches.length !== 1 || matches[0] !== candidate.node) continue;
    const wire = termToWire(candidate.term, foreground);
    if (!selectors.some((known) => sameSelector(known, wire))) selectors.push(wire);
  }
  const twins = label === '' ? [] : plans.filter((other) => other.fullLabel === label);
  const ancestor = labelledAncestor(node);
  return {
    selectors,
    label,
    role: roleOfEntry(entry),
    ...(node.resourceId !== '' ? { resource_id: node.resourceId } : {}),
    ...(node.className !== '' ? { class: node.className } : {}),
    bounds: entry.bounds,
    package: node.packageName,
    ...(ancestor !== '' ? { ancestor } : {}),
    ...(twins.length > 1 ? { same_label: { index: twins.indexOf(plan), count: twins.length } } : {}),
    ...(node.password ? { password: true as const } : {}),
    source: 'ref',
  };
}

/** What the driver told of an element found by a selector. */
export interface DriverFacts {
  readonly selector: Parameters<typeof selectorToWire>[0];
  readonly label: string;
  readonly bounds: BoxBounds;
  readonly packageName: string;
  readonly className?: string;
  /** The foreground package an `id` stood for. */
  readonly foreground: string;
}

export function actedElementOfSelector(facts: DriverFacts): ActedElement {
  const className = facts.className ?? '';
  return {
    selectors: [selectorToWire(facts.selector, facts.foreground)],
    label: facts.label,
    role: className.endsWith('EditText') ? 'input' : 'button',
    ...(className !== '' ? { class: className } : {}),
    bounds: facts.bounds,
    package: facts.packageName,
    source: 'selector',
  };
}

function labelledAncestor(node: UiNode): string {
  for (let a = node.parent; a !== null; a = a.parent) {
    const label = ownLabel(a);
    if (!isBlank(label)) return label;
  }
  return '';
}

function sameSelector(a: WireSelector, b: WireSelector): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

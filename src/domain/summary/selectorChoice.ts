/**
 * Which selector names an actionable node: the candidates it offers, and the one that resolves to
 * exactly it (docs/reference/summary.md, "Choosing a selector").
 *
 * The one promise everything here serves: an offered selector that is not marked `ambiguous`,
 * sent back to ui_tap, resolves to exactly the element this entry advertises. "Resolves" means
 * what the locator does on the device (locator.ts), which the domain matcher mirrors
 * (matcher.ts) — over ALL nodes, invisible ones included, because UiAutomator2 searches those
 * too. So ambiguity is decided by `matchTerm`/`matchSelector`, never by counting visible nodes only;
 * matches that all press this one element (a tile and its icon sharing a content-desc) count as
 * one, by the rule an action uses to refuse a coin toss (selectors/pressTargets.ts).
 *
 * Selector choice for an actionable node N (its role as docs/reference/summary.md, "Visibility, texts, roles", says):
 *  1. Candidates: N itself, then N's visible descendants in document order, each offering its
 *     resource-id, content-desc, text, hint (in that order, skipping blanks and values a selector
 *     may not carry). Descendants that are actionable or scrollable themselves are skipped with
 *     their subtrees: a tap on them would go to them, not to N.
 *  2. The first candidate that alone resolves to exactly its node (or to its node and twins that
 *     press the same element) wins; only resource-ids may be
 *     passed over this way: candidates after the first label (content-desc, text, hint) are not
 *     considered, so a repeated label gets a `within` or stays `ambiguous`.
 *  3. Otherwise the first candidate that a `within` on an ancestor (visible or not; resource-id,
 *     content-desc, text, hint, nearest first) narrows to exactly its node → `disambiguated`.
 *  4. Otherwise no selector: the entry is marked `ambiguous`, named by its label (the first
 *     candidate's value when it has none) and targeted by its ref only — never a silent coin toss.
 * Preferring a unique candidate over the literal "first attribute" matters on real screens:
 * every Settings row carries the same `android:id/title`, and taking it would make the whole
 */
import type { Selector, SelectorKey, SelectorTerm } from '../selectors/selector.js';
import { termToWire } from '../selectors/selector.js';
import type { UiNode, UiTree } from '../tree/uiNode.js';
import { hasAncestorMatching, matchTerm, termMatchesNode } from '../selectors/matcher.js';
import { tapLandsIn } from '../gestures/tapPoint.js';
import { pressTargets } from '../selectors/pressTargets.js';
import {
  codePointLength,
  isBlank,
  isEditText,
  isVisible,
  repeatableText,
  roleOf,
  selectorValueProblem,
  showsHint,
} from '../tree/nodeFacts.js';

interface Candidate {
  readonly term: SelectorTerm;
  /** The node this term must resolve to. */
  readonly node: UiNode;
}

type AttributeReader = { readonly key: SelectorKey; readonly read: (n: UiNode) => string };

const RESOURCE_ID: AttributeReader = { key: 'resource_id', read: (n) => n.resourceId };
const CONTENT_DESC: AttributeReader = { key: 'content_desc', read: (n) => n.contentDesc };
/** A password field's text is never a selector value nor a context (nodeFacts.repeatableText). */
const TEXT: AttributeReader = { key: 'text', read: repeatableText };
const HINT: AttributeReader = { key: 'input_hint', read: (n) => n.hint };

const ATTRIBUTE_ORDER: readonly AttributeReader[] = [RESOURCE_ID, CONTENT_DESC, TEXT, HINT];
/**
 * A text field's own text changes with every keystroke, while its hint stays (UiAutomator2
 * keeps reporting `hint` after typing): the hint is the better name, so it comes before the text.
 * A field that shows its hint reports that same hint as its text, which is then no candidate at all.
 */
const FIELD_ORDER: readonly AttributeReader[] = [RESOURCE_ID, CONTENT_DESC, HINT, TEXT];

/**
 * A name, not a sentence: the summary writes no string longer than this (labels and texts are cut
 * to it, the not-found message names offers by as many). A longer text, content-desc or hint is
 * no selector value, since an offered selector carries its value whole; resource ids are names
 * whatever their length. The whole strings are read with ui_get_tree's text mode.
 */
export const MAX_NAME_CODE_POINTS = 40;

function usableTerm(key: SelectorKey, value: string): SelectorTerm | null {
  if (isBlank(value) || selectorValueProblem(value) !== null) return null;
  if (key !== 'resource_id' && codePointLength(value) > MAX_NAME_CODE_POINTS) return null;
  return { key, value };
}

/**
 * N, then its visible descendants in document order, minus the subtrees of descendants that
 * would take the tap themselves (actionable or scrollable).
 */
export function selectorSources(node: UiNode): UiNode[] {
  const out: UiNode[] = [node];
  const walk = (parent: UiNode): void => {
    for (const child of parent.children) {
      if (child.scrollable || roleOf(child) !== null) continue;
      if (isVisible(child) && tapLandsIn(child, node.bounds)) out.push(child);
      walk(child);
    }
  };
  walk(node);
  return out;
}

export function candidatesFor(node: UiNode, sources: readonly UiNode[]): Candidate[] {
  const out: Candidate[] = [];
  const field = isEditText(node);
  for (const source of sources) {
    const own = field && source === node;
    for (const { key, read } of own ? FIELD_ORDER : ATTRIBUTE_ORDER) {
      if (own && key === 'text' && showsHint(node)) continue;
      const term = usableTerm(key, read(source));
      if (!term) continue;
      if (key === 'input_hint') {
        // input_hint resolves to an EditText, so it can only name N when N is that EditText.
        if (isEditText(node)) out.push({ term, node });
        continue;
      }
      out.push({ term, node: source });
    }
  }
  return out;
}

/**
 * The term's matches all press the element `node` presses (selectors/pressTargets.ts): `node`
 * alone, or `node` with twins inside that same element (a launcher tile and its icon sharing one
 * content-desc). An action refuses exactly the selectors that fail this, so the two agree.
 */
function resolvesToExactly(tree: UiTree, term: SelectorTerm, node: UiNode): boolean {
  const matches = matchTerm(tree, term);
  if (!matches.includes(node)) return false;
  return matches.length === 1 || pressTargets(matches).length === 1;
}

/** The nearest ancestor term that leaves only `candidate.node`'s element among the matches of `candidate.term`. */
function findContext(tree: UiTree, candidate: Candidate): SelectorTerm | null {
  const matches = matchTerm(tree, candidate.term);
  if (!matches.includes(candidate.node)) return null;
  const own = pressTargets(matches).find((t) => t.matches.includes(candidate.node));
  return separatingContext(
    candidate.node,
    matches.filter((m) => !own?.matches.includes(m)),
  );
}

/**
 * The nearest ancestor term of `node` (resource-id, content-desc, text, hint, nearest ancestor
 * first) that no node of `others` has an ancestor matching: the `within` that keeps `node` and
 * drops `others`. Also what a refused coin-toss tap offers per candidate (selectors/pressTargets.ts).
 */
export function separatingContext(node: UiNode, others: readonly UiNode[]): SelectorTerm | null {
  for (let a = node.parent; a !== null; a = a.parent) {
    for (const { key, read } of ATTRIBUTE_ORDER) {
      const context = usableTerm(key, read(a));
      if (!context || !termMatchesNode(context, a)) continue;
      if (others.every((o) => !hasAncestorMatching(o, context))) return context;
    }
  }
  return null;
}

export interface Choice {
  readonly selector: Selector;
  readonly source: UiNode;
  readonly disambiguated?: true;
  readonly ambiguous?: true;
}

export function chooseSelector(
  tree: UiTree,
  all: readonly Candidate[],
  foreground: string | null = null,
): Choice | null {
  const first = all[0];
  if (!first) return null;
  // A shared resource-id may be passed over for a later candidate, but the first label
  // (content-desc, text, hint) may not: a repeated label is told apart only by a `within`,
  // otherwise it stays ambiguous — never by a sibling's unique text, which names another node.
  const firstLabel = all.findIndex((c) => c.term.key !== 'resource_id');
  const considered = firstLabel === -1 ? all : all.slice(0, firstLabel + 1);
  // A resource id the wire cannot shorten to `id` (another package's: System UI's bars, a
  // launcher's widgets, a dialog of the permission controller, `android:id/…`) is tried after
  // that first label: it costs its package on the wire and still needs the label to say what
  // it is, while a label that names the element alone is name and selector at once.
  const later = (c: Candidate): boolean =>
    foreground !== null && c.term.key === 'resource_id' && !isShortId(c.term, foreground);
  const candidates = [...considered.filter((c) => !later(c)), ...considered.filter(later)];
  for (const c of candidates) {
    if (resolvesToExactly(tree, c.term, c.node)) return { selector: { target: c.term }, source: c.node };
  }
  for (const c of candidates) {
    const context = findContext(tree, c);
    if (context) return { selector: { target: c.term, within: context }, source: c.node, disambiguated: true };
  }
  return { selector: { target: first.term }, source: first.node, ambiguous: true };
}

/** Whether the wire writes this term as the foreground app's bare `id` (selector.ts, termToWire). */
function isShortId(term: SelectorTerm, foreground: string): boolean {
  return 'id' in termToWire(term, foreground);
}

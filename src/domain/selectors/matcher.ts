/**
 * The domain's own matcher: which nodes the locator built by `buildLocator` (locator.ts) would
 * find in this tree. It mirrors the XPath predicates term by term, so the summary can prove a
 * selector unique before offering it, and tests can check the two agree.
 *
 * Semantics (deliberately the locator's, not "visible only"):
 *  - Every node of the tree is a candidate, visible or not: UiAutomator2's XPath runs over the
 *    whole page source, and a selector proven unique over all nodes is unique over any subset
 *    the device might search.
 *  - resource_id is exact equality with `resource-id`. UiAutomator2's `id` strategy would prefix an
 *    id without ':id/' with the current package; `buildLocator` avoids that rewrite by sending such
 *    ids as XPath, so exact equality is the truth for both.
 *  - content_desc and text are exact equality; text_contains is substring of `text`. Neither ever
 *    matches a password field (`password="true"`): its text is never ours to repeat, nor to probe
 *    ("does it contain an h?"), so the locator excludes it too.
 *  - input_hint: a node whose class ends with `EditText` and whose own or any descendant's hint,
 *    content-desc or text (not a password field's text) contains the value.
 *  - within: the target term, and some ancestor (visible or not) satisfying the context term.
 *  - text_starts_with: prefix of `text`; content_desc_contains: substring of `content-desc`;
 *    class_name: exact class.
 *  - resource_id_matches: the whole resource-id matches the dialect's pattern, with Java's
 *    semantics (idPattern.ts); a node without an id never matches, as UiSelector decides.
 *  - id: never here. It names a resource-id relative to the foreground package, which only the
 *    application knows at resolve time (selector.ts, expandIds); an unexpanded one throws.
 *  - state flags: the node's flag equals the one asked for (absent attributes read as dump.ts
 *    defaults them); instance: the n-th (0-based) of all matches, in document order.
 * Results come in document order.
 */
import { idMatches } from './idPattern.js';
import { STATE_FLAGS, unexpandedId, type Selector, type SelectorTerm, type StateFlags } from './selector.js';
import type { UiNode, UiTree } from '../tree/uiNode.js';
import { isEditText, repeatableText } from '../tree/nodeFacts.js';

interface TreeIndex {
  readonly byResourceId: Map<string, UiNode[]>;
  readonly byContentDesc: Map<string, UiNode[]>;
  readonly byText: Map<string, UiNode[]>;
  readonly editTexts: UiNode[];
}

const indexes = new WeakMap<UiTree, TreeIndex>();

function push(map: Map<string, UiNode[]>, key: string, node: UiNode): void {
  if (key === '') return;
  const list = map.get(key);
  if (list) list.push(node);
  else map.set(key, [node]);
}

function indexOf(tree: UiTree): TreeIndex {
  const index = indexes.get(tree);
  if (index) return index;
  const built: TreeIndex = { byResourceId: new Map(), byContentDesc: new Map(), byText: new Map(), editTexts: [] };
  for (const node of tree.nodes) {
    push(built.byResourceId, node.resourceId, node);
    push(built.byContentDesc, node.contentDesc, node);
    push(built.byText, repeatableText(node), node);
    if (isEditText(node)) built.editTexts.push(node);
  }
  indexes.set(tree, built);
  return built;
}

function ownContains(node: UiNode, value: string): boolean {
  return node.hint.includes(value) || node.contentDesc.includes(value) || repeatableText(node).includes(value);
}

function subtreeContains(node: UiNode, value: string): boolean {
  if (ownContains(node, value)) return true;
  for (const child of node.children) if (subtreeContains(child, value)) return true;
  return false;
}

/** Does `node` satisfy `term` on its own (the XPath predicate of that term)? */
export function termMatchesNode(term: SelectorTerm, node: UiNode): boolean {
  switch (term.key) {
    case 'id':
      throw unexpandedId('termMatchesNode');
    case 'resource_id':
      return node.resourceId === term.value;
    case 'content_desc':
      return node.contentDesc === term.value;
    case 'text':
      return !node.password && node.text === term.value;
    case 'text_contains':
      return !node.password && node.text.includes(term.value);
    case 'input_hint':
      return isEditText(node) && subtreeContains(node, term.value);
    case 'text_starts_with':
      return !node.password && node.text.startsWith(term.value);
    case 'content_desc_contains':
      return node.contentDesc.includes(term.value);
    case 'class_name':
      return node.className === term.value;
    case 'resource_id_matches':
      return idMatches(term.value, node.resourceId);
  }
}

/** Nodes satisfying one term, in document order. */
export function matchTerm(tree: UiTree, term: SelectorTerm): readonly UiNode[] {
  const index = indexOf(tree);
  switch (term.key) {
    case 'id':
      throw unexpandedId('matchTerm');
    case 'resource_id':
      return index.byResourceId.get(term.value) ?? [];
    case 'content_desc':
      return index.byContentDesc.get(term.value) ?? [];
    case 'text':
      return index.byText.get(term.value) ?? [];
    case 'text_contains':
      return tree.nodes.filter((node) => !node.password && node.text.includes(term.value));
    case 'input_hint':
      return index.editTexts.filter((node) => subtreeContains(node, term.value));
    case 'text_starts_with':
    case 'content_desc_contains':
    case 'class_name':
    case 'resource_id_matches':
      return tree.nodes.filter((node) => termMatchesNode(term, node));
  }
}

function hasStates(node: UiNode, states: StateFlags): boolean {
  return STATE_FLAGS.every((flag) => states[flag] === undefined || node[flag] === states[flag]);
}

export function hasAncestorMatching(node: UiNode, term: SelectorTerm): boolean {
  for (let a = node.parent; a !== null; a = a.parent) if (termMatchesNode(term, a)) return true;
  return false;
}

/** The nodes of `tree` that the locator built for `selector` would find (the domain's own matcher). */
export function matchSelector(tree: UiTree, selector: Selector): UiNode[] {
  const context = selector.within;
  const states = selector.states;
  let found = [...matchTerm(tree, selector.target)];
  if (context) found = found.filter((node) => hasAncestorMatching(node, context));
  if (states) found = found.filter((node) => hasStates(node, states));
  if (selector.instance === undefined) return found;
  const picked = found[selector.instance];
  return picked ? [picked] : [];
}

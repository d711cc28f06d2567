/**
 * Parts of a screen for ui_get_tree (docs/reference/contract.md, "Behaviour per tool"): one container's entries and texts
 * (`within`), or the screen's texts alone (`mode: "text"`, for reading an article or a chat).
 * Both are cut from the whole summary's own lists, so an entry reads and acts exactly as in a
 * whole read (same ref, same selector). Pure: no I/O.
 */
import { cutCodePoints, isIconGlyphsOnly, isVisible, ownLabel } from '../tree/nodeFacts.js';
import type { ScreenSummary } from '../tree/screen.js';
import type { Rect, UiNode, UiTree } from '../tree/uiNode.js';
import { MAX_NAME_CODE_POINTS, MAX_TEXTS, MAX_TEXT_CODE_POINTS, type ActionPlan } from './summary.js';

function inside(node: UiNode, container: UiNode): boolean {
  for (let n: UiNode | null = node; n !== null; n = n.parent) if (n === container) return true;
  return false;
}

function boxInside(box: readonly [number, number, number, number], rect: Rect | null): boolean {
  if (rect === null) return false;
  const [left, top, width, height] = box;
  return left >= rect.left && top >= rect.top && left + width <= rect.right && top + height <= rect.bottom;
}

/** The visible labels of `container` and its descendants, as the summary writes texts. */
function labelsWithin(container: UiNode): Set<string> {
  const out = new Set<string>();
  const walk = (node: UiNode): void => {
    const label = ownLabel(node);
    if (isVisible(node) && label !== '') out.add(cutCodePoints(label, MAX_NAME_CODE_POINTS));
    node.children.forEach(walk);
  };
  walk(container);
  return out;
}

/**
 * The summary of one container: the entries whose node is the container or inside it, the texts
 * its nodes show, the scrollables within its bounds. Layout findings name entries by index in the
 * whole list, so they are left out; the keyboard stays (it covers the container too).
 */
export function summaryWithin(summary: ScreenSummary, plans: readonly ActionPlan[], container: UiNode): ScreenSummary {
  const actions = summary.actions.filter((_entry, i) => {
    const plan = plans[i];
    return plan !== undefined && inside(plan.node, container);
  });
  const labels = labelsWithin(container);
  const scrollables = (summary.scrollables ?? []).filter((s) => boxInside(s.bounds, container.bounds));
  const { layout_findings: _findings, scrollables: _all, counts: _counts, truncated: _cut, ...rest } = summary;
  return {
    ...rest,
    texts: summary.texts.filter((t) => labels.has(t)),
    actions,
    ...(scrollables.length > 0 ? { scrollables } : {}),
  };
}

/** A text the screen shows more than once, each time inside another entry: named by that entry's ref. */
export interface RepeatedText {
  readonly text: string;
  readonly ref: string;
}

/**
 * Every visible text of the screen in screen order, the actions' names included (a password's text
 * never: ownLabel leaves it out), icon glyphs left out, each cut as `texts` are. A text is written
 * once, except one that stands in two entries or more (two `Clock` rows): then each of those is
 * kept, as `{text, ref}` with the ref of the entry it stands in (`refOf`: the ref of an entry's
 * node), so twins stay two and can be told apart. `within` limits it to one container.
 */
export function screenTexts(
  tree: UiTree,
  container?: UiNode,
  refOf: (node: UiNode) => string | undefined = () => undefined,
): { texts: (string | RepeatedText)[]; truncated: boolean } {
  const seen: { text: string; ref: string | undefined }[] = [];
  for (const node of container ? [...subtree(container)] : tree.nodes) {
    if (!isVisible(node)) continue;
    const label = ownLabel(node).trim();
    if (label === '' || isIconGlyphsOnly(label)) continue;
    seen.push({ text: cutCodePoints(label, MAX_TEXT_CODE_POINTS), ref: entryRef(node, refOf) });
  }
  const refsOf = new Map<string, Set<string>>();
  for (const { text, ref } of seen) {
    if (ref !== undefined) refsOf.set(text, (refsOf.get(text) ?? new Set()).add(ref));
  }
  const written = new Set<string>();
  const texts: (string | RepeatedText)[] = [];
  for (const { text, ref } of seen) {
    const repeated = ref !== undefined && (refsOf.get(text)?.size ?? 0) > 1;
    const key = repeated ? `${text}\u0000${ref}` : text;
    if (written.has(key)) continue;
    written.add(key);
    texts.push(repeated ? { text, ref } : text);
  }
  return { texts: texts.slice(0, MAX_TEXTS), truncated: texts.length > MAX_TEXTS };
}

/** The ref of the nearest entry holding the node (itself or an ancestor), if any. */
function entryRef(node: UiNode, refOf: (node: UiNode) => string | undefined): string | undefined {
  for (let n: UiNode | null = node; n !== null; n = n.parent) {
    const ref = refOf(n);
    if (ref !== undefined) return ref;
  }
  return undefined;
}

function* subtree(node: UiNode): Generator<UiNode> {
  yield node;
  for (const child of node.children) yield* subtree(child);
}

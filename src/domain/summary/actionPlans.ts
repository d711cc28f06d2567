/**
 * One summary entry per actionable node: its selector (selectorChoice.ts), its label, its facts,
 * and for a node no selector names, the best label the screen gives (docs/reference/summary.md).
 */
import type { ActionEntry, EntrySelector, LabelSource, Role, ScrollableEntry } from '../tree/screen.js';
import { scrollOrientation } from './scrollables.js';
import type { Selector } from '../selectors/selector.js';
import { selectorToWire, termToWire } from '../selectors/selector.js';
import type { Rect, UiNode, UiTree } from '../tree/uiNode.js';
import {
  cutCodePoints,
  isEmptyField,
  isIconGlyphsOnly,
  isVisible,
  ownLabel,
  roleOf,
  toBox,
} from '../tree/nodeFacts.js';
import { MAX_NAME_CODE_POINTS, candidatesFor, chooseSelector, selectorSources } from './selectorChoice.js';

/** Labels describe; the selector carries the exact value. A label is a name, cut as every summary string is. */
export const MAX_LABEL_CODE_POINTS = MAX_NAME_CODE_POINTS;
/** One offered entry with the nodes behind it (for the application layer's logs and for tests). */
export interface ActionPlan {
  readonly entry: ActionEntry;
  /** The actionable node whose bounds the entry advertises. */
  readonly node: UiNode;
  /** The node the selector resolves to: `node` itself or a descendant whose tap reaches `node`; null without selector. */
  readonly selectorNode: UiNode | null;
  /** null when no attribute of the node or its content can be a selector (the entry has only its ref). */
  readonly selector: Selector | null;
  /** The entry's label before cutting, '' when it has none (the entry may leave it out). */
  readonly fullLabel: string;
  /** The entry's detail before cutting, '' when it has none. */
  readonly fullDetail: string;
}

/**
 * A scrollable container as the summary lists it. Its selector comes from its own attributes
 * only (a row's text scrolls away with the row, so it would name the container only until the
 * next page), unique over the whole tree or narrowed by a `within`, else marked `ambiguous`.
 */
export function scrollableEntry(tree: UiTree, node: UiNode, foreground: string): ScrollableEntry {
  const choice = chooseSelector(tree, candidatesFor(node, [node]));
  return {
    ...(choice ? { selector: selectorToWire(choice.selector, foreground) } : {}),
    bounds: toBox(node.bounds!),
    ...(scrollOrientation(node) === 'horizontal' ? { orientation: 'horizontal' as const } : {}),
    ...(choice?.ambiguous ? { ambiguous: true as const } : {}),
  };
}

function overlapsStrictly(a: Rect, b: Rect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** role, enabled, bounds, checked: what every entry says about its node, in wire order. */
export function entryFlags(node: UiNode, role: Role): Partial<ActionEntry> & Pick<ActionEntry, 'bounds'> {
  const bounds = node.bounds!;
  return {
    // `checked` goes on toggles only, so it says the role (roleOfEntry reads it back).
    ...(role !== 'button' && role !== 'toggle' ? { role } : {}),
    ...(node.enabled ? {} : { enabled: false as const }),
    bounds: toBox(bounds),
    ...(role === 'toggle' ? { checked: node.checked } : {}),
    ...(role === 'input' && isEmptyField(node) ? { empty: true as const } : {}),
  };
}

export function planAction(
  tree: UiTree,
  node: UiNode,
  role: Role,
  keyboardFrame: Rect | null,
  foreground: string,
): ActionPlan {
  const sources = selectorSources(node);
  const choice = chooseSelector(tree, candidatesFor(node, sources), foreground);
  const bounds = node.bounds!;
  const covered =
    keyboardFrame && overlapsStrictly(bounds, keyboardFrame) ? { covered_by_keyboard: true as const } : {};
  if (!choice) return planUnnamed(node, role, sources, entryFlags(node, role), covered);
  const content = ownLabel(node) || ownLabel(choice.source) || sources.map(ownLabel).find((l) => l !== '') || '';
  // A toggle that says nothing itself (a Switch whose title sits beside it in its row) is named by
  // that title: its resource id (android:id/switch_widget) names a widget, not what it switches.
  const borrowed = content === '' && role === 'toggle' ? neighbourLabel(node) : null;
  const label = content || (borrowed?.label ?? '');
  const from = borrowed ? { label_from: borrowed.from } : {};
  const detail = detailOf(node, [label, choice.selector.target.value]);
  if (choice.ambiguous) {
    // No selector names it alone, so none is offered (a tap by it could land on a twin): its ref
    // does. The label says what the selector would have: the element's name.
    // A resource-id of the foreground app is named as its `id` would say it (the bare name).
    const name =
      label || (Object.values(termToWire(choice.selector.target, foreground))[0] ?? choice.selector.target.value);
    const entry: ActionEntry = {
      label: cutCodePoints(name, MAX_LABEL_CODE_POINTS),
      ...(label !== '' ? from : {}),
      ...detailKey(detail),
      ...entryFlags(node, role),
      ambiguous: true,
      ...covered,
    };
    return { entry, node, selectorNode: choice.source, selector: choice.selector, fullLabel: name, fullDetail: detail };
  }
  // Flat: the selector's keys are the entry's own keys.
  // The summary offers a target and a `within`, never state flags nor `instance` (a fact such as
  // `enabled: false` must not read as a selector flag).
  const { target, within } = choice.selector;
  const wire: EntrySelector = {
    ...termToWire(target, foreground),
    ...(within ? { within: termToWire(within, foreground) } : {}),
  };
  // Left out when it would only repeat the selector's value (or say nothing): see ActionEntry.
  const sayLabel = label !== '' && label !== choice.selector.target.value;
  const entry: ActionEntry = {
    ...wire,
    ...(sayLabel ? { label: cutCodePoints(label, MAX_LABEL_CODE_POINTS), ...from } : {}),
    ...detailKey(detail),
    ...entryFlags(node, role),
    ...(choice.disambiguated ? { disambiguated: true as const } : {}),
    ...covered,
  };
  return { entry, node, selectorNode: choice.source, selector: choice.selector, fullLabel: label, fullDetail: detail };
}

/**
 * An actionable node no selector can name (no usable resource-id, content-desc, text or hint on
 * it or its content: an icon button, a bare checkbox). It is still offered, named by its ref
 * only, with the best label the screen gives: its own or its content's (when too long or
 * otherwise unusable as a selector value), else a descendant's, else a neighbour's: the nearest
 * sibling content of it or of one of its three nearest ancestors (a Switch beside its "Wi-Fi"
 * title). `label_from` says which when the label is not its own.
 */
export function planUnnamed(
  node: UiNode,
  role: Role,
  sources: readonly UiNode[],
  flags: Partial<ActionEntry> & Pick<ActionEntry, 'bounds'>,
  covered: Partial<ActionEntry>,
): ActionPlan {
  const own = sources.map(ownLabel).find((l) => l !== '') ?? '';
  const found: { label: string; from?: LabelSource } =
    own !== '' ? { label: own } : (descendantLabel(node) ?? neighbourLabel(node) ?? { label: '' });
  // A neighbour's label says nothing of the element's own content, which has no label then.
  const detail = found.from === 'neighbour' ? '' : detailOf(node, [found.label]);
  const entry: ActionEntry = {
    ...(found.label !== '' ? { label: cutCodePoints(found.label, MAX_LABEL_CODE_POINTS) } : {}),
    ...(found.from ? { label_from: found.from } : {}),
    ...detailKey(detail),
    ...flags,
    ...covered,
  };
  return { entry, node, selectorNode: null, selector: null, fullLabel: found.label, fullDetail: detail };
}

function firstLabelIn(node: UiNode, skipActionable: boolean): string {
  for (const child of node.children) {
    if (skipActionable && (child.scrollable || roleOf(child) !== null)) continue;
    const own = isVisible(child) ? ownLabel(child) : '';
    if (own !== '') return own;
    const inner = firstLabelIn(child, skipActionable);
    if (inner !== '') return inner;
  }
  return '';
}

/** A label inside the node's tappable descendants (a card whose only text sits in its own button). */
function descendantLabel(node: UiNode): { label: string; from: LabelSource } | null {
  const label = firstLabelIn(node, false);
  return label !== '' ? { label, from: 'descendant' } : null;
}

const NEIGHBOUR_LEVELS = 3;

/**
 * Nearest sibling first (before, then after, by distance), at the node's level then up to three
 * ancestors', never past a scrollable container: a list's item is named inside its list. A row
 * clipped at the list's edge shows none of its own content, and the search used to climb out of
 * the list and name it after the page's title ("Settings" for a Settings row).
 */
function neighbourLabel(node: UiNode): { label: string; from: LabelSource } | null {
  let current = node;
  for (let level = 0; level <= NEIGHBOUR_LEVELS && current.parent !== null; level++, current = current.parent) {
    const siblings = current.parent.children;
    const at = siblings.indexOf(current);
    for (let d = 1; d < siblings.length; d++) {
      for (const sibling of [siblings[at - d], siblings[at + d]]) {
        if (!sibling || sibling.scrollable || roleOf(sibling) !== null || !isVisible(sibling)) continue;
        const label = ownLabel(sibling) || firstLabelIn(sibling, true);
        if (label !== '') return { label, from: 'neighbour' };
      }
    }
    if (current.parent.scrollable) break;
  }
  return null;
}

/**
 * The second line of a row (an app's size beside its name, a setting's summary under its title):
 * the first visible label of the element's own content, tappable parts left out, that is not
 * already its name. Without it such a line would stand in `texts`, tied to no entry.
 */
function detailOf(node: UiNode, names: readonly string[]): string {
  if (contentSaidByName(node, names)) return '';
  return firstLabelWhere(node, (l) => !names.includes(l) && l.trim() !== '' && !isIconGlyphsOnly(l));
}

/**
 * Whether the element's name, as the summary shows it (its first 40 code points), already says
 * every label of its own content, case aside: the name was made of them. React Native and Flutter
 * merge a control's texts into its content-desc ("0, Projects" over "0" and "Projects"), and a
 * Material tab described "Advanced" draws its title in capitals ("ADVANCED", `textAllCaps`).
 * Repeated as a second line or in `texts`, those labels would cost bytes and tell nothing. Only
 * when all of them are said: a name that merely contains one (a "1" badge inside a tab named
 * "Tab 1 of 3" beside its title "Chats") is no merge, and the badge keeps its line. Only what the
 * shown name holds counts, so nothing cut off the name is left out.
 */
export function contentSaidByName(node: UiNode, names: readonly string[]): boolean {
  const shown = names.filter((n) => n !== '').map((n) => foldCase([...n].slice(0, MAX_LABEL_CODE_POINTS).join('')));
  const labels = contentLabels(node).filter((l) => l.trim() !== '' && !isIconGlyphsOnly(l));
  return labels.length > 0 && labels.every((l) => shown.some((name) => name.includes(foldCase(l))));
}

/** Case aside, as a reader reads it (no locale: the same fold on every device). */
export function foldCase(value: string): string {
  return value.toLowerCase();
}

/** The visible labels of the element's own content, its tappable and scrollable parts left out. */
export function contentLabels(node: UiNode): string[] {
  const out: string[] = [];
  firstLabelWhere(node, (l) => {
    out.push(l);
    return false;
  });
  return out;
}

/** The entry's `detail` key, cut as every summary string is; nothing when there is none. */
function detailKey(detail: string): { detail?: string } {
  return detail === '' ? {} : { detail: cutCodePoints(detail, MAX_LABEL_CODE_POINTS) };
}

function firstLabelWhere(node: UiNode, accept: (label: string) => boolean): string {
  for (const child of node.children) {
    if (child.scrollable || roleOf(child) !== null) continue;
    const own = isVisible(child) ? ownLabel(child) : '';
    if (own !== '' && accept(own)) return own;
    const inner = firstLabelWhere(child, accept);
    if (inner !== '') return inner;
  }
  return '';
}

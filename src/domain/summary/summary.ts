/**
 * CONTRACT §6: the screen in the server's own vocabulary. Pure: same tree and context, same summary.
 * The rules and the decisions behind them are written out in docs/summary.md.
 *
 * The one promise everything here serves: an offered selector that is not marked `ambiguous`,
 * sent back to ui_tap, resolves to exactly the element this entry advertises. "Resolves" means
 * what the locator does on the device (locator.ts), which the domain matcher mirrors
 * (matcher.ts) — over ALL nodes, invisible ones included, because UiAutomator2 searches those
 * too. So ambiguity is decided by `matchTerm`/`matchSelector`, never by counting visible nodes only.
 *
 * Selector choice for an actionable node N (role per CONTRACT §6):
 *  1. Candidates: N itself, then N's visible descendants in document order, each offering its
 *     resource-id, content-desc, text, hint (in that order, skipping blanks and values a selector
 *     may not carry). Descendants that are actionable or scrollable themselves are skipped with
 *     their subtrees: a tap on them would go to them, not to N.
 *  2. The first candidate that alone resolves to exactly its node wins; only resource-ids may be
 *     passed over this way: candidates after the first label (content-desc, text, hint) are not
 *     considered, so a repeated label gets a `within` or stays `ambiguous` (CONTRACT-SEL-CTX-1).
 *  3. Otherwise the first candidate that a `within` on an ancestor (visible or not; resource-id,
 *     content-desc, text, hint, nearest first) narrows to exactly its node → `disambiguated`.
 *  4. Otherwise no selector: the entry is marked `ambiguous`, named by its label (the first
 *     candidate's value when it has none) and targeted by its ref only — never a silent coin toss.
 * Preferring a unique candidate over the literal "first attribute" matters on real screens:
 * every Settings row carries the same `android:id/title`, and taking it would make the whole
 * list ambiguous although each row's text is unique.
 */
import { unreachable } from '../gestures/tapPoint.js';
import type { ActionEntry, EntrySelector, LabelSource, LayoutFinding, Role, ScreenContext, ScreenSummary, ScrollableEntry } from '../tree/screen.js';
import { scrollOrientation, visibleScrollables } from './scrollables.js';
import { selectorValueOf } from '../tree/screen.js';
import type { Selector, SelectorKey, SelectorTerm, WireSelector } from '../selectors/selector.js';
import { selectorToWire, termToWire } from '../selectors/selector.js';
import type { Rect, UiNode, UiTree } from '../tree/uiNode.js';
import { hasAncestorMatching, matchTerm, termMatchesNode } from '../selectors/matcher.js';
import { auditLayout, type AuditFinding } from './layoutAudit.js';
import { centreOf } from '../gestures/tapPoint.js';
import {
  cutCodePoints,
  isBlank,
  isEditText,
  isEmptyField,
  isIconGlyphsOnly,
  isVisible,
  ownLabel,
  repeatableText,
  roleOf,
  selectorValueProblem,
  showsHint,
  toBox,
} from '../tree/nodeFacts.js';

export const MAX_ACTIONS = 120;
export const MAX_TEXTS = 200;
export const MAX_LAYOUT_FINDINGS = 50;
/** Scrollable containers listed; a screen rarely shows more than a few. */
export const MAX_SCROLLABLES = 20;
/** Labels describe; the selector carries the exact value. Long labels are cut to keep the summary small. */
export const MAX_LABEL_CODE_POINTS = 120;
/** A paragraph of on-screen text is kept readable but bounded. */
export const MAX_TEXT_CODE_POINTS = 500;

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
}

export interface DetailedSummary {
  readonly summary: ScreenSummary;
  /** Every actionable entry, before the MAX_ACTIONS cut. */
  readonly plans: readonly ActionPlan[];
}

/** CONTRACT §6. Pure: same tree and context, same summary. */
export function summariseScreen(tree: UiTree, context: ScreenContext): ScreenSummary {
  return summariseScreenDetailed(tree, context).summary;
}

export function summariseScreenDetailed(tree: UiTree, context: ScreenContext): DetailedSummary {
  const screen = screenSize(tree, context);
  const foreground = foregroundPackage(tree, context);
  const ime = context.window.ime;
  const keyboardFrame = ime.visible && ime.frame ? ime.frame : null;

  const texts = new Set<string>();
  const plans: ActionPlan[] = [];
  let canScroll = false;
  for (const node of tree.nodes) {
    if (!isVisible(node)) continue;
    if (node.scrollable) canScroll = true;
    const label = ownLabel(node);
    if (label !== '') texts.add(label);
    const role = roleOf(node);
    if (role === null) continue;
    const bars = context.window.systemBars;
    let plan = planAction(tree, node, role, keyboardFrame, foreground);
    // Said on the entry rather than offered as a target: ui_tap would refuse it (tapPoint.ts).
    const why = unreachable(node.bounds!, node.packageName, ime, bars);
    const target = plan.selectorNode;
    if (!why && target && target !== node && target.bounds && unreachable(target.bounds, target.packageName, ime, bars)) {
      // The selector names a label inside it that lies wholly under a bar while part of the element
      // does not: a tap by that selector would be refused, its ref presses the visible part.
      plan = planUnnamed(node, role, selectorSources(node), entryFlags(node, role), plan.entry.covered_by_keyboard ? { covered_by_keyboard: true } : {});
    }
    plans.push(why ? { ...plan, entry: { ...plan.entry, not_actionable: why } } : plan);
  }

  const offered = plans.slice(0, MAX_ACTIONS);
  const findings = auditLayout(
    plans.map((p) => p.node),
    screen,
    tree.roots,
    context.density,
    context.window.systemBars,
  );
  const shown = stringsShownBy(offered);
  const allTexts = [
    ...new Set(
      [...texts].filter((t) => !shown.has(t) && !isIconGlyphsOnly(t)).map((t) => cutCodePoints(t, MAX_TEXT_CODE_POINTS)),
    ),
  ];
  const truncated =
    plans.length > MAX_ACTIONS || allTexts.length > MAX_TEXTS || findings.length > MAX_LAYOUT_FINDINGS;
  const layoutFindings = groupFindings(findings.slice(0, MAX_LAYOUT_FINDINGS), plans, foreground);
  const scrollables = visibleScrollables(tree).slice(0, MAX_SCROLLABLES).map((n) => scrollableEntry(tree, n, foreground));
  const summary: ScreenSummary = {
    foreground_package: foreground,
    screen,
    texts: allTexts.slice(0, MAX_TEXTS),
    actions: offered.map((p) => p.entry),
    can_scroll: canScroll,
    ...(scrollables.length > 0 ? { scrollables } : {}),
    ...(keyboardFrame ? { keyboard: { open: true as const, top: keyboardFrame.top } } : {}),
    ...(layoutFindings.length > 0 ? { layout_findings: layoutFindings } : {}),
    ...(truncated
      ? {
          counts: { texts: allTexts.length, actions: plans.length, layout_findings: findings.length },
          truncated: true as const,
        }
      : {}),
  };
  return { summary, plans };
}



/**
 * The strings an offered action already shows in full: its selector's value and its label
 * (unless the label was cut). `texts` leaves them out rather than repeat them.
 */
function stringsShownBy(offered: readonly ActionPlan[]): Set<string> {
  const shown = new Set<string>();
  for (const { entry, fullLabel } of offered) {
    shown.add(selectorValueOf(entry));
    if (entry.label === undefined || entry.label === fullLabel) shown.add(fullLabel);
  }
  return shown;
}

/**
 * Findings on offered actions are grouped by issue (in order of first appearance) and name the
 * actions by index; a finding on an entry past the 120 cut stands alone and names its selector.
 */
function groupFindings(findings: readonly AuditFinding[], plans: readonly ActionPlan[], foreground: string): LayoutFinding[] {
  const groups = new Map<string, { issue: AuditFinding['issue']; actions: number[]; minimum_px?: number }>();
  const out: LayoutFinding[] = [];
  for (const finding of findings) {
    const minimum = finding.minimumPx !== undefined ? { minimum_px: finding.minimumPx } : {};
    if (finding.index < MAX_ACTIONS) {
      let group = groups.get(finding.issue);
      if (!group) {
        group = { issue: finding.issue, actions: [], ...minimum };
        groups.set(finding.issue, group);
        out.push(group);
      }
      group.actions.push(finding.index);
      continue;
    }
    const { entry, fullLabel, selector } = plans[finding.index]!;
    out.push({
      issue: finding.issue,
      ...(selector && !entry.ambiguous ? { selector: selectorToWire(selector, foreground) } : {}),
      ...(fullLabel !== '' ? { label: cutCodePoints(fullLabel, MAX_LABEL_CODE_POINTS) } : {}),
      size_px: finding.sizePx,
      ...minimum,
    });
  }
  return out;
}

/** Display size from dumpsys, else the size Appium declared, else the extent of the windows. */
export function screenSize(tree: UiTree, context: ScreenContext): { width: number; height: number } {
  const display = context.window.displaySize;
  if (display && display.width > 0 && display.height > 0) return { width: display.width, height: display.height };
  if (tree.declaredSize) return { width: tree.declaredSize.width, height: tree.declaredSize.height };
  let width = 0;
  let height = 0;
  for (const root of tree.roots) {
    if (!root.bounds) continue;
    width = Math.max(width, root.bounds.right);
    height = Math.max(height, root.bounds.bottom);
  }
  return { width, height };
}

/**
 * dumpsys's focused package when known; otherwise the first window that is not system UI
 * (multi-window dumps often start with the navigation bar), else the first window. The package
 * an offered `id` stands for (selector.ts): the application expands an `id` with the same rule.
 */
export function foregroundPackage(tree: UiTree, context: ScreenContext): string {
  return context.window.foregroundPackage || packageOfRoots(tree);
}

/** The package of the first window that is not system UI, else of the first window, else ''. */
export function packageOfRoots(tree: UiTree): string {
  const app = tree.roots.find((r) => r.packageName !== '' && r.packageName !== 'com.android.systemui');
  return app?.packageName ?? tree.roots[0]?.packageName ?? '';
}

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

function usableTerm(key: SelectorKey, value: string): SelectorTerm | null {
  if (isBlank(value) || selectorValueProblem(value) !== null) return null;
  return { key, value };
}

/**
 * N, then its visible descendants in document order, minus the subtrees of descendants that
 * would take the tap themselves (actionable or scrollable).
 */
function selectorSources(node: UiNode): UiNode[] {
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

/**
 * UiAutomator2 clicks an element at the centre of its visible bounds, so a descendant can name
 * N only when that centre lies inside N. A clipped descendant of a row scrolled almost out of
 * its list reports an empty or inverted rectangle (`[49,326][431,263]`) whose centre lies
 * outside the row: a tap there would land on something else.
 */
function tapLandsIn(child: UiNode, target: Rect | null): boolean {
  const b = child.bounds;
  if (b === null || target === null || b.right <= b.left || b.bottom <= b.top) return false;
  const { x, y } = centreOf(b);
  return x >= target.left && x < target.right && y >= target.top && y < target.bottom;
}

function candidatesFor(node: UiNode, sources: readonly UiNode[]): Candidate[] {
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

function resolvesToExactly(tree: UiTree, term: SelectorTerm, node: UiNode): boolean {
  const matches = matchTerm(tree, term);
  return matches.length === 1 && matches[0] === node;
}

/** The nearest ancestor term that leaves `candidate.node` as the only match of `candidate.term`. */
function findContext(tree: UiTree, candidate: Candidate): SelectorTerm | null {
  const matches = matchTerm(tree, candidate.term);
  if (!matches.includes(candidate.node)) return null;
  const others = matches.filter((m) => m !== candidate.node);
  for (let a = candidate.node.parent; a !== null; a = a.parent) {
    for (const { key, read } of ATTRIBUTE_ORDER) {
      const context = usableTerm(key, read(a));
      if (!context || !termMatchesNode(context, a)) continue;
      if (others.every((o) => !hasAncestorMatching(o, context))) return context;
    }
  }
  return null;
}

interface Choice {
  readonly selector: Selector;
  readonly source: UiNode;
  readonly disambiguated?: true;
  readonly ambiguous?: true;
}

function chooseSelector(tree: UiTree, all: readonly Candidate[]): Choice | null {
  const first = all[0];
  if (!first) return null;
  // A shared resource-id may be passed over for a later candidate, but the first label
  // (content-desc, text, hint) may not: a repeated label is told apart only by a `within`,
  // otherwise it stays ambiguous (CONTRACT-SEL-CTX-1) — never by a sibling's unique text.
  const firstLabel = all.findIndex((c) => c.term.key !== 'resource_id');
  const candidates = firstLabel === -1 ? all : all.slice(0, firstLabel + 1);
  for (const c of candidates) {
    if (resolvesToExactly(tree, c.term, c.node)) return { selector: { target: c.term }, source: c.node };
  }
  for (const c of candidates) {
    const context = findContext(tree, c);
    if (context) return { selector: { target: c.term, within: context }, source: c.node, disambiguated: true };
  }
  return { selector: { target: first.term }, source: first.node, ambiguous: true };
}

/**
 * A scrollable container as the summary lists it. Its selector comes from its own attributes
 * only (a row's text scrolls away with the row, so it would name the container only until the
 * next page), unique over the whole tree or narrowed by a `within`, else marked `ambiguous`.
 */
function scrollableEntry(tree: UiTree, node: UiNode, foreground: string): ScrollableEntry {
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
function entryFlags(node: UiNode, role: Role): Partial<ActionEntry> & Pick<ActionEntry, 'bounds'> {
  const bounds = node.bounds!;
  return {
    ...(role !== 'button' ? { role } : {}),
    ...(node.enabled ? {} : { enabled: false as const }),
    bounds: toBox(bounds),
    ...(role === 'toggle' ? { checked: node.checked } : {}),
    ...(role === 'input' && isEmptyField(node) ? { empty: true as const } : {}),
  };
}

function planAction(tree: UiTree, node: UiNode, role: Role, keyboardFrame: Rect | null, foreground: string): ActionPlan {
  const sources = selectorSources(node);
  const choice = chooseSelector(tree, candidatesFor(node, sources));
  const bounds = node.bounds!;
  const covered = keyboardFrame && overlapsStrictly(bounds, keyboardFrame) ? { covered_by_keyboard: true as const } : {};
  if (!choice) return planUnnamed(node, role, sources, entryFlags(node, role), covered);
  const label =
    ownLabel(node) || ownLabel(choice.source) || sources.map(ownLabel).find((l) => l !== '') || '';
  if (choice.ambiguous) {
    // No selector names it alone, so none is offered (a tap by it could land on a twin): its ref
    // does (issue 13). The label says what the selector would have: the element's name.
    // A resource-id of the foreground app is named as its `id` would say it (the bare name).
    const name = label || (Object.values(termToWire(choice.selector.target, foreground))[0] ?? choice.selector.target.value);
    const entry: ActionEntry = {
      label: cutCodePoints(name, MAX_LABEL_CODE_POINTS),
      ...entryFlags(node, role),
      ambiguous: true,
      ...covered,
    };
    return { entry, node, selectorNode: choice.source, selector: choice.selector, fullLabel: name };
  }
  // Flat (issue 14): the selector's keys are the entry's own keys.
  // The summary offers a target and a `within`, never state flags nor `instance` (a fact such as
  // `enabled: false` must not read as a selector flag).
  const { target, within } = choice.selector;
  const wire: EntrySelector = { ...termToWire(target, foreground), ...(within ? { within: termToWire(within, foreground) } : {}) };
  // Left out when it would only repeat the selector's value (or say nothing): see ActionEntry.
  const sayLabel = label !== '' && label !== choice.selector.target.value;
  const entry: ActionEntry = {
    ...wire,
    ...(sayLabel ? { label: cutCodePoints(label, MAX_LABEL_CODE_POINTS) } : {}),
    ...entryFlags(node, role),
    ...(choice.disambiguated ? { disambiguated: true as const } : {}),
    ...covered,
  };
  return { entry, node, selectorNode: choice.source, selector: choice.selector, fullLabel: label };
}

/**
 * An actionable node no selector can name (no usable resource-id, content-desc, text or hint on
 * it or its content: an icon button, a bare checkbox). It is still offered, named by its ref
 * only, with the best label the screen gives: its own or its content's (when too long or
 * otherwise unusable as a selector value), else a descendant's, else a neighbour's: the nearest
 * sibling content of it or of one of its three nearest ancestors (a Switch beside its "Wi-Fi"
 * title). `label_from` says which when the label is not its own.
 */
function planUnnamed(
  node: UiNode,
  role: Role,
  sources: readonly UiNode[],
  flags: Partial<ActionEntry> & Pick<ActionEntry, 'bounds'>,
  covered: Partial<ActionEntry>,
): ActionPlan {
  const own = sources.map(ownLabel).find((l) => l !== '') ?? '';
  const found: { label: string; from?: LabelSource } =
    own !== '' ? { label: own } : descendantLabel(node) ?? neighbourLabel(node) ?? { label: '' };
  const entry: ActionEntry = {
    ...(found.label !== '' ? { label: cutCodePoints(found.label, MAX_LABEL_CODE_POINTS) } : {}),
    ...(found.from ? { label_from: found.from } : {}),
    ...flags,
    ...covered,
  };
  return { entry, node, selectorNode: null, selector: null, fullLabel: found.label };
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

/** Nearest sibling first (before, then after, by distance), at the node's level then up to three ancestors'. */
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
  }
  return null;
}

/**
 * The screen in the server's own vocabulary (docs/reference/contract.md, "Behaviour per tool", ui_get_tree).
 * Pure: same tree and context, same summary.
 * The rules and the decisions behind them are written out in docs/reference/summary.md.
 */
import { unreachable } from '../gestures/tapPoint.js';
import type { LayoutFinding, ScreenContext, ScreenSummary } from '../tree/screen.js';
import { visibleScrollables } from './scrollables.js';
import { selectorValueOf } from '../tree/screen.js';
import { selectorToWire } from '../selectors/selector.js';
import type { UiTree } from '../tree/uiNode.js';
import { auditLayout, type AuditFinding } from './layoutAudit.js';
import { cutCodePoints, isIconGlyphsOnly, isVisible, ownLabel, roleOf } from '../tree/nodeFacts.js';
import {
  MAX_LABEL_CODE_POINTS,
  contentLabels,
  contentSaidByName,
  entryFlags,
  foldCase,
  planAction,
  planUnnamed,
  scrollableEntry,
  type ActionPlan,
} from './actionPlans.js';
import { MAX_NAME_CODE_POINTS, selectorSources } from './selectorChoice.js';

export { MAX_LABEL_CODE_POINTS, type ActionPlan } from './actionPlans.js';

export const MAX_ACTIONS = 120;
export const MAX_TEXTS = 200;
export const MAX_LAYOUT_FINDINGS = 50;
/** Scrollable containers listed; a screen rarely shows more than a few. */
export const MAX_SCROLLABLES = 20;
/** A paragraph as the text mode reads it: readable but bounded (the summary's own texts are names). */
export const MAX_TEXT_CODE_POINTS = 500;
export { MAX_NAME_CODE_POINTS } from './selectorChoice.js';

export interface DetailedSummary {
  readonly summary: ScreenSummary;
  /** Every actionable entry, before the MAX_ACTIONS cut. */
  readonly plans: readonly ActionPlan[];
}

/** The summary ui_get_tree answers. Pure: same tree and context, same summary. */
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
    if (
      !why &&
      target &&
      target !== node &&
      target.bounds &&
      unreachable(target.bounds, target.packageName, ime, bars)
    ) {
      // The selector names a label inside it that lies wholly under a bar while part of the element
      // does not: a tap by that selector would be refused, its ref presses the visible part.
      plan = planUnnamed(
        node,
        role,
        selectorSources(node),
        entryFlags(node, role),
        plan.entry.covered_by_keyboard ? { covered_by_keyboard: true } : {},
      );
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
  const allTexts = distinctCaseAside(
    [...texts].filter((t) => !shown.has(t) && !isIconGlyphsOnly(t)).map((t) => cutCodePoints(t, MAX_NAME_CODE_POINTS)),
  );
  const truncated = plans.length > MAX_ACTIONS || allTexts.length > MAX_TEXTS || findings.length > MAX_LAYOUT_FINDINGS;
  const layoutFindings = groupFindings(findings.slice(0, MAX_LAYOUT_FINDINGS), plans, foreground);
  const scrollables = visibleScrollables(tree)
    .slice(0, MAX_SCROLLABLES)
    .map((n) => scrollableEntry(tree, n, foreground));
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
 * Each text once, case aside, the first written kept: a tab's description "Basic" and its title in
 * capitals "BASIC" (`textAllCaps`) are one word to a reader.
 */
function distinctCaseAside(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  return texts.filter((t) => {
    const key = foldCase(t);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The strings an offered action is named by: its selector's value, its label and its detail, cut or not.
 * `texts` leaves them out rather than repeat them; a cut label is read whole in text mode.
 */
function stringsShownBy(offered: readonly ActionPlan[]): Set<string> {
  const shown = new Set<string>();
  for (const { entry, node, fullLabel, fullDetail } of offered) {
    shown.add(selectorValueOf(entry));
    shown.add(fullLabel);
    if (fullDetail !== '') shown.add(fullDetail);
    // The labels of its own content, when its shown name was made of them (a merged content-desc).
    if (contentSaidByName(node, [fullLabel, selectorValueOf(entry)])) for (const l of contentLabels(node)) shown.add(l);
  }
  return shown;
}

/**
 * Findings on offered actions are grouped by issue (in order of first appearance) and name the
 * actions by index; a finding on an entry past the 120 cut stands alone and names its selector.
 */
function groupFindings(
  findings: readonly AuditFinding[],
  plans: readonly ActionPlan[],
  foreground: string,
): LayoutFinding[] {
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

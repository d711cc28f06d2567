/**
 * The layout audit (docs/reference/summary.md): three size checks, one system-bar check, and zero false
 * positives as the goal. Only offered action entries are audited: a finding names something the
 * model could tap.
 *
 * What a dump hides, and how the checks avoid crying wolf:
 *  - uiautomator and UiAutomator2 report *visible* bounds: a row half scrolled out of its list
 *    is reported short (or even zero-high) but wide. The touch-target check needs BOTH axes
 *    below 48 dp, so a wide clipped row never qualifies; and any node whose rectangle lies on an
 *    edge of a scrollable ancestor (or is squeezed to nothing there) is treated as clipped by
 *    scrolling and not audited at all.
 *  - Rotated dumps: some devices (BlueStacks, rotation=1) report portrait bounds while the display
 *    is landscape. The audit screen is therefore the reported screen widened to cover the roots'
 *    own bounds: a node is off screen only when it leaves both the display and every window.
 *  - Clipping by a non-scrollable ancestor or by the display edge: see `isPossiblyClipped`.
 *  - Edge-to-edge apps (enforced for apps targeting API 35) draw under the status and navigation
 *    bars, and the driver's click presses the centre of the bounds: a centre inside a bar's frame
 *    (from dumpsys window) is `under_status_bar` / `under_navigation_bar`. Checked before the
 *    clipping test, since such a control usually sits on the screen's edge. The bars' own windows
 *    (System UI's buttons) are under them by definition and are not audited for it.
 */
import type { LayoutIssue, SystemBars } from '../tree/screen.js';
import { centreOf, obstructionAt, obstructionsOf } from '../gestures/tapPoint.js';

/** The keyboard is its own flag (`covered_by_keyboard`), not a layout finding. */
const NO_KEYBOARD = { visible: false, frame: null } as const;
import type { Rect, UiNode } from '../tree/uiNode.js';

/** One audited finding, before the summary decides how to name its target (by index, or by selector). */
export interface AuditFinding {
  readonly issue: LayoutIssue;
  /** Index of the audited target in the list given to `auditLayout`. */
  readonly index: number;
  /** [width, height] in pixels. */
  readonly sizePx: readonly [number, number];
  /** Only for touch_target_too_small: ceil(48 * density / 160). */
  readonly minimumPx?: number;
}

export interface AuditScreen {
  readonly width: number;
  readonly height: number;
}

/** ceil(48 dp in px): 48 at 160 dpi, 96 at 320, 126 at 420, 144 at 480. */
export function minimumTouchPx(density: number): number {
  return Math.ceil((48 * density) / 160);
}

/** The rectangle the audit calls "the screen": the display, widened by the roots' own extent. */
export function auditArea(screen: AuditScreen, roots: readonly UiNode[]): Rect {
  let right = screen.width;
  let bottom = screen.height;
  let left = 0;
  let top = 0;
  for (const root of roots) {
    const b = root.bounds;
    if (!b) continue;
    right = Math.max(right, b.right);
    bottom = Math.max(bottom, b.bottom);
    left = Math.min(left, b.left);
    top = Math.min(top, b.top);
  }
  return { left, top, right, bottom };
}

/**
 * True when the dump may be showing only part of the node, so its size says nothing about its
 * real touch target. Dumps report visible bounds; clipping leaves the node flush with the edge
 * that cut it. Three signs, any one suffices:
 *  - it sits on an edge of a scrollable ancestor (a row or tile scrolled half out of its list);
 *  - it sits on an edge of the screen area (a chip cut by the display edge);
 *  - it is flush with exactly one edge of an ancestor that is itself squeezed below the minimum on
 *    that axis (a toolbar collapsing mid-animation: a 17 px container holding an 8 px-high icon).
 *    Flush with both edges is ordinary wrap_content layout, not clipping.
 */
export function isPossiblyClipped(node: UiNode, rect: Rect, area: Rect, minimumPx: number): boolean {
  if (rect.top <= area.top || rect.left <= area.left || rect.bottom >= area.bottom || rect.right >= area.right) {
    return true;
  }
  for (let a = node.parent; a !== null; a = a.parent) {
    const s = a.bounds;
    if (!s) continue;
    if (a.scrollable) {
      if (rect.top <= s.top || rect.bottom >= s.bottom || rect.left <= s.left || rect.right >= s.right) return true;
      continue;
    }
    const flushVertically = (rect.top === s.top) !== (rect.bottom === s.bottom);
    const flushHorizontally = (rect.left === s.left) !== (rect.right === s.right);
    if (flushVertically && s.bottom - s.top < minimumPx) return true;
    if (flushHorizontally && s.right - s.left < minimumPx) return true;
  }
  return false;
}

/** The windows of the system bars and the notification shade belong to System UI. */
const SYSTEM_UI = 'com.android.systemui';

/** The bar whose frame holds the node's centre, as a finding; null when none does (or the bars are unknown). */
function barIssue(node: UiNode, rect: Rect, bars: SystemBars | undefined): LayoutIssue | null {
  if (!bars || node.packageName === SYSTEM_UI) return null;
  const bar = obstructionAt(centreOf(rect), obstructionsOf(NO_KEYBOARD, bars))?.kind;
  return bar === 'navigation_bar' ? 'under_navigation_bar' : bar === 'status_bar' ? 'under_status_bar' : null;
}

/** Audits the offered targets' nodes, in order; each finding names its target by index. */
export function auditLayout(
  targets: readonly UiNode[],
  screen: AuditScreen,
  roots: readonly UiNode[],
  density: number,
  bars?: SystemBars,
): AuditFinding[] {
  const area = auditArea(screen, roots);
  const minimum = minimumTouchPx(density);
  const findings: AuditFinding[] = [];
  targets.forEach((node, index) => {
    const rect = node.bounds;
    if (!rect) return;
    const w = rect.right - rect.left;
    const h = rect.bottom - rect.top;
    const base = { index, sizePx: [w, h] as const };
    const bar = w > 0 && h > 0 ? barIssue(node, rect, bars) : null;
    if (bar) findings.push({ issue: bar, ...base });
    if (rect.left < area.left || rect.top < area.top || rect.right > area.right || rect.bottom > area.bottom) {
      // Checked before the clipping test: a node reaching outside the screen is a finding in itself.
      findings.push({ issue: 'off_screen', ...base });
      return;
    }
    if (isPossiblyClipped(node, rect, area, minimum)) return;
    if (w <= 0 || h <= 0) {
      findings.push({ issue: 'no_area', ...base });
      return;
    }
    if (w * 160 < 48 * density && h * 160 < 48 * density) {
      findings.push({ issue: 'touch_target_too_small', ...base, minimumPx: minimum });
    }
  });
  return findings;
}

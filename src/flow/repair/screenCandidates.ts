/**
 * The elements a screen offers now, described as the server describes the element an action
 * acted on (src/domain/summary/actedElement.ts), so a repair compares like with like: the raw XML
 * of ui_get_tree (include_raw) is summarised here with the server's own rules, and each offered
 * entry that a tap can reach becomes a candidate with its selectors, label, role, resource id,
 * ancestor and place.
 */
import { actedElementOfPlan, type ActedElement } from '../../domain/summary/actedElement.js';
import { summariseScreenDetailed } from '../../domain/summary/summary.js';
import { parseDump } from '../../domain/tree/dump.js';

/** Density only sizes layout findings, which a repair does not read. */
const ANY_DENSITY = 420;

export function candidatesOnScreen(xml: string, foreground: string | null): ActedElement[] {
  const tree = parseDump(xml);
  const { plans } = summariseScreenDetailed(tree, {
    density: ANY_DENSITY,
    window: { foregroundPackage: foreground, ime: { visible: false, frame: null }, displaySize: null },
  });
  const foregroundName = foreground ?? '';
  return plans
    .filter((plan) => plan.entry.not_actionable === undefined)
    .map((plan) => actedElementOfPlan(tree, plans, plan, foregroundName));
}

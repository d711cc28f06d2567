/**
 * The title a screen shows in its app bar, as a person reads it ("Apps"), not a row's label on it.
 * Two shapes of app bar reach the dump:
 *  - Material's CollapsingToolbarLayout (AOSP Settings since Android 12, `id/collapsing_toolbar`)
 *    draws its title itself; it says it to accessibility as its content description
 *    (CollapsingToolbarLayout.updateContentDescriptionFromTitle), so the dump carries it there;
 *  - a Toolbar or action bar (`id/action_bar`, `id/toolbar`) holds its title as a TextView child,
 *    beside the Up button and the menu, which take taps and are left out.
 * Pure: no I/O.
 */
import { isVisible, ownLabel, roleOf } from './nodeFacts.js';
import type { UiNode, UiTree } from './uiNode.js';

const COLLAPSING = /:id\/collapsing_toolbar$/;
const BAR = /:id\/(action_bar|toolbar)$/;

/** The app bar's title of the first window that has one, or null when no bar with a title is shown. */
export function screenTitle(tree: UiTree): string | null {
  for (const node of tree.nodes) {
    if (!isVisible(node)) continue;
    if (COLLAPSING.test(node.resourceId)) {
      const own = ownLabel(node).trim();
      if (own !== '') return own;
    }
    if (BAR.test(node.resourceId)) {
      const title = firstText(node);
      if (title !== '') return title;
    }
  }
  return null;
}

/** The first visible label inside the bar that is not a control of its own (Up, a menu). */
function firstText(node: UiNode): string {
  for (const child of node.children) {
    if (!isVisible(child) || roleOf(child) !== null) continue;
    const own = ownLabel(child).trim();
    if (own !== '') return own;
    const inner = firstText(child);
    if (inner !== '') return inner;
  }
  return '';
}

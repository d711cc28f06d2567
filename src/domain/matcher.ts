// STUB: signatures pinned for the other layers; the domain work replaces the bodies.
import type { Selector } from './selector.js';
import type { UiNode, UiTree } from './uiNode.js';

/** The nodes of `tree` that the locator built for `selector` would find (the domain's own matcher). */
export function matchSelector(tree: UiTree, selector: Selector): UiNode[] {
  throw new Error(`not implemented ${tree.nodes.length} ${selector.target.key}`);
}

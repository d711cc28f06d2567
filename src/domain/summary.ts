// STUB: signatures pinned for the other layers; the domain work replaces the bodies.
import type { UiTree } from './uiNode.js';
import type { ScreenContext, ScreenSummary } from './screen.js';

/** CONTRACT §6. Pure: same tree and context, same summary. */
export function summariseScreen(tree: UiTree, context: ScreenContext): ScreenSummary {
  throw new Error(`not implemented ${tree.nodes.length} ${context.density}`);
}

// STUB: signatures pinned for the other layers; the domain work replaces the bodies.
import type { UiTree } from './uiNode.js';

/** Parses either dump shape; throws HarnessError('UI_TREE_UNAVAILABLE') when there is no usable hierarchy. */
export function parseDump(xml: string): UiTree {
  throw new Error(`not implemented ${xml.length}`);
}

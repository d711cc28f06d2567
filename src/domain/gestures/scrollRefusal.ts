/**
 * Why ui_scroll refused to swipe, in words that name what was found and what
 * to send instead. Nothing is swiped in any of these cases: a sideways swipe over whatever lies
 * under it can dismiss a row or page a pager, and a swipe over a container the model did not
 * mean moves the wrong thing.
 */
import { describeSelector } from '../summary/notFound.js';
import { safePreview } from '../tree/nodeFacts.js';
import { orientationOfEntry, type ScrollableEntry } from '../tree/screen.js';
import type { Orientation } from '../summary/scrollables.js';
import type { Selector } from '../selectors/selector.js';
import type { UiNode } from '../tree/uiNode.js';
import type { ScrollDirection } from './scrollDirection.js';

const MAX_LISTED = 5;

const DIRECTIONS_OF: Record<Orientation, string> = { vertical: 'up or down', horizontal: 'left or right' };

function listScrollables(scrollables: readonly ScrollableEntry[]): string {
  if (scrollables.length === 0) return 'This screen shows no scrollable container.';
  const named = scrollables.slice(0, MAX_LISTED).map((s) => {
    const name = s.selector ? safePreview(JSON.stringify(s.selector), 120) : 'one without a selector';
    return `${name} (${orientationOfEntry(s)}, bounds [${s.bounds.join(',')}])`;
  });
  const rest = scrollables.length - named.length;
  return `Scrollable containers here: ${named.join('; ')}${rest > 0 ? ` and ${rest} more` : ''}.`;
}

function describeNode(node: UiNode): string {
  const label = node.text || node.contentDesc || node.resourceId;
  return `${safePreview(node.className, 80)}${label && !node.password ? ` '${safePreview(label, 40)}'` : ''}`;
}

/** No container on screen scrolls the way asked (only sideways: up/down fall back to the screen). */
export function noContainerMessage(
  direction: ScrollDirection,
  orientation: Orientation,
  scrollables: readonly ScrollableEntry[],
): string {
  return (
    `Nothing on this screen scrolls ${orientation === 'horizontal' ? 'sideways' : 'vertically'}, so ui_scroll ${direction} ` +
    `did not swipe. ${listScrollables(scrollables)} Send a direction its containers scroll, or call ui_get_tree to look again.`
  );
}

/** The driver found the element, but it is not in the page source read right after (the screen changed). */
export function namedGoneMessage(selector: Selector): string {
  return `The element matched by ${describeSelector(selector)} left the screen before the swipe; nothing was swiped. Call ui_get_tree and send a container it lists.`;
}

/** The named element neither scrolls nor sits inside something that scrolls. */
export function namedNotScrollableMessage(
  selector: Selector,
  node: UiNode,
  scrollables: readonly ScrollableEntry[],
): string {
  return (
    `The element matched by ${describeSelector(selector)} is a ${describeNode(node)}: it does not scroll and no container ` +
    `around it does, so nothing was swiped. ${listScrollables(scrollables)} Send one of those selectors, or leave selector out to scroll the main container.`
  );
}

/** The named element (or the container around it) scrolls the other way only. */
export function namedWrongOrientationMessage(
  selector: Selector,
  direction: ScrollDirection,
  nearest: UiNode,
  orientation: Orientation,
  scrollables: readonly ScrollableEntry[],
): string {
  return (
    `The element matched by ${describeSelector(selector)} is in a ${orientation} container (${describeNode(nearest)}), which cannot ` +
    `scroll ${direction}; nothing was swiped. Send ${DIRECTIONS_OF[orientation]} for it, or name another container. ${listScrollables(scrollables)}`
  );
}

/** The named container is hidden where no swipe may start (under the keyboard or the system bars). */
export function namedHiddenMessage(selector: Selector, container: UiNode): string {
  return (
    `The container for ${describeSelector(selector)} (${describeNode(container)}) shows too little of itself above the keyboard and ` +
    `clear of the screen edges to swipe on; nothing was swiped. Close the keyboard (device_back) or scroll the screen first.`
  );
}

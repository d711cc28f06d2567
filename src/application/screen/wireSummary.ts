/**
 * The summary as an answer carries it, and the small readers everything that reads
 * entries goes through (flows, bench, tests), so that the wire shape is spelled out once:
 *
 * - entries are flat: the selector's keys (`id`, `text`, … and `within`) sit beside `ref` and the
 *   facts, and `selectorOfEntry` reads them back as the selector ui_tap takes;
 * - bounds go out only on request (`include_bounds`): a model acts by ref or selector and never
 *   sends a position back, so the rectangles are for auditing and cost a fifth of the bytes.
 */
import type { BoxBounds } from '../../domain/tree/uiNode.js';
import type { ActionEntry, ScreenSummary, ScrollableEntry, VisualWireEntry } from '../../domain/tree/screen.js';

export { selectorKeyOf, selectorOfEntry, selectorValueOf, nameOfEntry } from '../../domain/tree/screen.js';

export type WireActionEntry = Omit<ActionEntry, 'bounds'> & { readonly bounds?: BoxBounds };
export type WireScrollableEntry = Omit<ScrollableEntry, 'bounds'> & { readonly bounds?: BoxBounds };
export type WireVisualEntry = Omit<VisualWireEntry, 'bounds'> & { readonly bounds?: VisualWireEntry['bounds'] };
export type WireSummary = Omit<ScreenSummary, 'actions' | 'scrollables' | 'visual'> & {
  readonly actions: readonly WireActionEntry[];
  readonly scrollables?: readonly WireScrollableEntry[];
  readonly visual?: readonly WireVisualEntry[];
};

function dropBounds<T extends { readonly bounds?: BoxBounds }>(entry: T): Omit<T, 'bounds'> {
  const { bounds: _bounds, ...rest } = entry;
  return rest;
}

/** The summary without any rectangle: no action's, scrollable's nor visual entry's `bounds`. Nothing else changes. */
export function withoutBounds(summary: ScreenSummary | WireSummary): WireSummary {
  return {
    ...summary,
    actions: summary.actions.map(dropBounds),
    ...(summary.scrollables ? { scrollables: summary.scrollables.map(dropBounds) } : {}),
    ...(summary.visual ? { visual: summary.visual.map((v: WireVisualEntry) => dropBounds(v)) } : {}),
  };
}

/** The summary as ui_get_tree and ui_wait answer it: bounds only when the caller asked for them. */
export function summaryForAnswer(summary: ScreenSummary, includeBounds: boolean): WireSummary {
  return includeBounds ? summary : withoutBounds(summary);
}

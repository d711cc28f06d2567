/**
 * The ways a model may name an element (CONTRACT §4). Order matters: it is the wire order.
 * The first five are what `ui_get_tree` offers; the rest (issue 13 §4) are UiAutomator2's own
 * strategies for selectors written by hand (flow files), never offered by the summary.
 */
export const SELECTOR_KEYS = [
  'resource_id',
  'text',
  'content_desc',
  'text_contains',
  'input_hint',
  'text_starts_with',
  'content_desc_contains',
  'class_name',
  'resource_id_matches',
] as const;
export type SelectorKey = (typeof SELECTOR_KEYS)[number];

/** The keys `ui_get_tree` offers (and the tool schemas publish); the others are for flow files. */
export const OFFERED_SELECTOR_KEYS = SELECTOR_KEYS.slice(0, 5) as readonly SelectorKey[];

/**
 * Keys that cannot name a `within` context, nor be combined with one: a regular expression runs
 * as a UiSelector on the device (locator.ts), and UiSelector has no ancestor test.
 */
export const NO_WITHIN_KEYS: readonly SelectorKey[] = ['resource_id_matches'];

/** State flags a hand-written selector may add to its main key (`{"class_name": "…Switch", "checked": true}`). */
export const STATE_FLAGS = ['checked', 'selected', 'enabled', 'focused'] as const;
export type StateFlag = (typeof STATE_FLAGS)[number];
export type StateFlags = Readonly<Partial<Record<StateFlag, boolean>>>;

/** One `key: value` pair, already validated. */
export interface SelectorTerm {
  readonly key: SelectorKey;
  readonly value: string;
}

/**
 * A validated selector: one target term and at most one context term; optionally state flags
 * the target must have, and `instance`, the zero-based position among all matches in document
 * order (fragile: it changes whenever an earlier match appears or goes).
 */
export interface Selector {
  readonly target: SelectorTerm;
  readonly within?: SelectorTerm;
  readonly states?: StateFlags;
  readonly instance?: number;
}

/** The JSON shape a model sends and `ui_get_tree` emits: `{text: "Save", within: {content_desc: "Work profile"}}`. */
export type WireSelectorTerm = Partial<Record<SelectorKey, string>>;
export type WireSelector = WireSelectorTerm & {
  within?: WireSelectorTerm;
  instance?: number;
} & Partial<Record<StateFlag, boolean>>;

export function termToWire(term: SelectorTerm): WireSelectorTerm {
  return { [term.key]: term.value };
}

export function selectorToWire(selector: Selector): WireSelector {
  const wire: WireSelector = termToWire(selector.target);
  if (selector.within) wire.within = termToWire(selector.within);
  for (const flag of STATE_FLAGS) {
    const value = selector.states?.[flag];
    if (value !== undefined) wire[flag] = value;
  }
  if (selector.instance !== undefined) wire.instance = selector.instance;
  return wire;
}

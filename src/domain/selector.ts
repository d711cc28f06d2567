/** The five ways a model may name an element (CONTRACT §4). Order matters: it is the wire order. */
export const SELECTOR_KEYS = ['resource_id', 'text', 'content_desc', 'text_contains', 'input_hint'] as const;
export type SelectorKey = (typeof SELECTOR_KEYS)[number];

/** One `key: value` pair, already validated. */
export interface SelectorTerm {
  readonly key: SelectorKey;
  readonly value: string;
}

/** A validated selector: one target term and at most one context term. */
export interface Selector {
  readonly target: SelectorTerm;
  readonly within?: SelectorTerm;
}

/** The JSON shape a model sends and `ui_get_tree` emits: `{text: "Save", within: {content_desc: "Work profile"}}`. */
export type WireSelectorTerm = Partial<Record<SelectorKey, string>>;
export type WireSelector = WireSelectorTerm & { within?: WireSelectorTerm };

export function termToWire(term: SelectorTerm): WireSelectorTerm {
  return { [term.key]: term.value };
}

export function selectorToWire(selector: Selector): WireSelector {
  const wire: WireSelector = termToWire(selector.target);
  if (selector.within) wire.within = termToWire(selector.within);
  return wire;
}

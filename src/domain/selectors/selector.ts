/**
 * The ways a model may name an element. Order matters: it is the wire order.
 * The first six are what `ui_get_tree` offers; the rest are UiAutomator2's own
 * strategies for selectors written by hand (flow files), never offered by the summary.
 * `id` is a resource-id of the foreground app without its `<package>:id/` prefix:
 * the summary writes it in `resource_id`'s place, and the application expands it (expandIds)
 * with the foreground package at resolve time, before anything matches or locates.
 */
export const SELECTOR_KEYS = [
  'id',
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
export const OFFERED_SELECTOR_KEYS = SELECTOR_KEYS.slice(0, 6) as readonly SelectorKey[];

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

/** The `<package>:id/` prefix an `id` stands for. */
function idPrefix(foregroundPackage: string): string {
  return `${foregroundPackage}:id/`;
}

/**
 * Why a value cannot be an `id`, or null: it is a bare resource name, so no `:` or `/` (those
 * would make it a package-qualified id, which goes in `resource_id`) and no white space.
 */
export function idValueProblem(value: string): string | null {
  if (value === '') return 'must not be empty';
  if (/[:/\s]/u.test(value))
    return "must be the bare name after ':id/' (no ':', '/' or white space); a full resource id goes in resource_id";
  return null;
}

/**
 * A resource-id term written the short way when the id belongs to the foreground package
 * (`com.app:id/login` on com.app → `{id: "login"}`); any other term as it is.
 */
export function termToWire(term: SelectorTerm, foregroundPackage?: string): WireSelectorTerm {
  if (term.key === 'resource_id' && foregroundPackage) {
    const prefix = idPrefix(foregroundPackage);
    if (term.value.startsWith(prefix)) {
      const name = term.value.slice(prefix.length);
      if (idValueProblem(name) === null) return { id: name };
    }
  }
  return { [term.key]: term.value };
}

/** `{id: X}` → `{resource_id: "<package>:id/X"}`; every other term unchanged. */
function expandTerm(term: SelectorTerm, foregroundPackage: string): SelectorTerm {
  return term.key === 'id' ? { key: 'resource_id', value: `${idPrefix(foregroundPackage)}${term.value}` } : term;
}

export function hasIdTerm(selector: Selector): boolean {
  return selector.target.key === 'id' || selector.within?.key === 'id';
}

/**
 * `id: X` means `resource_id: "<foreground package at resolve time>:id/X"`: the
 * application calls this with the package it read right before resolving, and the matcher and
 * the locator only ever see the expanded form (they throw on an `id`).
 */
export function expandIds(selector: Selector, foregroundPackage: string): Selector {
  if (!hasIdTerm(selector)) return selector;
  return {
    ...selector,
    target: expandTerm(selector.target, foregroundPackage),
    ...(selector.within ? { within: expandTerm(selector.within, foregroundPackage) } : {}),
  };
}

/** A programming error: an `id` term reached code that needs the expanded resource id (expandIds). */
export function unexpandedId(where: string): Error {
  return new Error(`${where} got an unexpanded id term: expand it with expandIds and the foreground package first`);
}

/** The selector on the wire; with the foreground package, its resource-ids of that package as `id`. */
export function selectorToWire(selector: Selector, foregroundPackage?: string): WireSelector {
  const wire: WireSelector = termToWire(selector.target, foregroundPackage);
  if (selector.within) wire.within = termToWire(selector.within, foregroundPackage);
  for (const flag of STATE_FLAGS) {
    const value = selector.states?.[flag];
    if (value !== undefined) wire[flag] = value;
  }
  if (selector.instance !== undefined) wire.instance = selector.instance;
  return wire;
}

/**
 * The summary as it travels (docs/reference/summary.md), read the way a client reads it. The compact form
 * leaves out what would say nothing (role `button`, `enabled: true`, a closed keyboard, a label
 * equal to the selector's value, texts an action already shows); these accessors give each
 * field its full meaning whichever form the server sends, so the oracle checks the promise,
 * not a field layout.
 */
import { selectorOfEntry, selectorValueOf } from '../../../src/application/screen/wireSummary.js';

export type WireSelector = Record<string, unknown> & { within?: Record<string, string> };

/**
 * An action entry: its selector keys (flat entries, the keys beside ref and the facts;
 * read back with the server's own reader, selectorOfEntry) — none of them when no selector names
 * the element alone (ambiguous, or nothing to select by): then only the ref does.
 */
export interface WireAction {
  /** Names exactly this entry's element for ui_tap / ui_type_text. */
  readonly ref?: string;
  readonly id?: string;
  readonly resource_id?: string;
  readonly text?: string;
  readonly content_desc?: string;
  readonly text_contains?: string;
  readonly input_hint?: string;
  readonly within?: Record<string, string>;
  readonly label?: string;
  readonly label_from?: string;
  /** The row's second line (an app's size, a setting's summary), when its content says more than its name. */
  readonly detail?: string;
  readonly role?: string;
  readonly enabled?: boolean;
  /** `{left, top, width, height}` or `[left, top, width, height]`; only with include_bounds: true. */
  readonly bounds?: unknown;
  readonly checked?: boolean;
  readonly disambiguated?: true;
  readonly ambiguous?: true;
  readonly covered_by_keyboard?: true;
  /** Why no tap reaches it (then it has no ref): no_area, under_status_bar, under_navigation_bar, covered_by_keyboard. */
  readonly not_actionable?: string;
}

export interface WireSummary {
  readonly foreground_package: string;
  readonly screen: { readonly width: number; readonly height: number };
  readonly texts: readonly string[];
  readonly actions: readonly WireAction[];
  readonly can_scroll: boolean;
  /** The visible scrollable containers, absent when there is none. */
  readonly scrollables?: readonly WireScrollable[];
  readonly keyboard?: { readonly open: boolean; readonly top: number | null };
}

export interface WireScrollable {
  readonly selector?: WireSelector;
  readonly bounds: unknown;
  /** Only `horizontal`: absent means vertical. */
  readonly orientation?: 'horizontal';
  readonly ambiguous?: true;
}

export interface Box {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/** The entry's selector as ui_tap takes it (its selector keys, `within` included), or undefined without one. */
export function selectorOf(entry: WireAction): WireSelector | undefined {
  return selectorOfEntry(entry) ?? undefined;
}

export function selectorValue(entry: WireAction): string {
  return selectorValueOf(entry);
}

/** What a model reads as the entry's name: its label, else its selector's value. */
export function nameOf(entry: WireAction): string {
  return entry.label ?? selectorValue(entry);
}

export function roleOf(entry: WireAction): string {
  return entry.role ?? (entry.checked !== undefined ? 'toggle' : 'button');
}

export function isEnabled(entry: WireAction): boolean {
  return entry.enabled !== false;
}

/** Enabled, with a selector (so not ambiguous), not under the keyboard, reachable: what FLOW-SEL-ALL-1 taps by selector. */
export function isReady(entry: WireAction): boolean {
  return (
    isEnabled(entry) &&
    selectorOf(entry) !== undefined &&
    !entry.ambiguous &&
    !entry.covered_by_keyboard &&
    !entry.not_actionable
  );
}

export function boxOf(entry: WireAction): Box {
  const b = entry.bounds;
  if (Array.isArray(b) && b.length === 4 && b.every((n) => typeof n === 'number')) {
    const [left, top, width, height] = b as [number, number, number, number];
    return { left, top, width, height };
  }
  const o = b as Partial<Box> | null;
  if (o && [o.left, o.top, o.width, o.height].every((n) => typeof n === 'number')) return o as Box;
  throw new Error(`bounds of unexpected shape: ${JSON.stringify(b)}`);
}

export function pointInside(x: number, y: number, entry: WireAction): boolean {
  const b = boxOf(entry);
  return x >= b.left && x < b.left + b.width && y >= b.top && y < b.top + b.height;
}

export function keyboardOpen(summary: WireSummary): boolean {
  return summary.keyboard?.open === true;
}

/**
 * True when the screen shows `text`: as a text, or as the name or selector value of an offered
 * action (texts leave out strings an action already carries in either place).
 */
export function shows(summary: WireSummary, text: string): boolean {
  return summary.texts.includes(text) || summary.actions.some((a) => nameOf(a) === text || selectorValue(a) === text);
}

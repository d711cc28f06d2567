/**
 * The summary as it travels (CONTRACT §6), read the way a client reads it. The compact form
 * leaves out what would say nothing (role `button`, `enabled: true`, a closed keyboard, a label
 * equal to the selector's value, texts an action already shows); these accessors give each
 * field its full meaning whichever form the server sends, so the oracle checks the promise,
 * not a field layout.
 */
export type WireSelector = Record<string, unknown> & { within?: Record<string, string> };

export interface WireAction {
  /** Names exactly this entry's element for ui_tap / ui_type_text (issue 13). */
  readonly ref?: string;
  /** Absent when no selector names the element alone (ambiguous, or nothing to select by): then only the ref does. */
  readonly selector?: WireSelector;
  readonly label?: string;
  readonly label_from?: string;
  readonly role?: string;
  readonly enabled?: boolean;
  /** `{left, top, width, height}` or `[left, top, width, height]`. */
  readonly bounds: unknown;
  readonly checked?: boolean;
  readonly disambiguated?: true;
  readonly ambiguous?: true;
  readonly covered_by_keyboard?: true;
}

export interface WireSummary {
  readonly foreground_package: string;
  readonly screen: { readonly width: number; readonly height: number };
  readonly texts: readonly string[];
  readonly actions: readonly WireAction[];
  readonly can_scroll: boolean;
  /** Issue 13: the visible scrollable containers, absent when there is none. */
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

export function selectorValue(entry: WireAction): string {
  if (!entry.selector) return '';
  const { within: _within, ...target } = entry.selector;
  return Object.values(target).find((v): v is string => typeof v === 'string') ?? '';
}

/** What a model reads as the entry's name: its label, else its selector's value. */
export function nameOf(entry: WireAction): string {
  return entry.label ?? selectorValue(entry);
}

export function roleOf(entry: WireAction): string {
  return entry.role ?? 'button';
}

export function isEnabled(entry: WireAction): boolean {
  return entry.enabled !== false;
}

/** Enabled, with a selector (so not ambiguous), not under the keyboard: what FLOW-SEL-ALL-1 taps by selector. */
export function isReady(entry: WireAction): entry is WireAction & { readonly selector: WireSelector } {
  return isEnabled(entry) && entry.selector !== undefined && !entry.ambiguous && !entry.covered_by_keyboard;
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
  return (
    summary.texts.includes(text) ||
    summary.actions.some((a) => nameOf(a) === text || selectorValue(a) === text)
  );
}

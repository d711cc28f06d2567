/**
 * What changed between two summaries of the same screen (docs/reference/contract.md, "Only what
 * changed"): a model that read the first one applies the diff and holds the second exactly, so it
 * reads a toggle's flip instead of the whole screen again. Entries are matched by ref: the
 * registry gives the same element the same ref, so an entry whose ref is in both readings is the
 * same element, and its facts are compared. Pure: no I/O.
 */
import type { LayoutFinding } from '../tree/screen.js';

/** What the diff reads of a summary: refs on every entry, the rest as the answer carries it. */
export interface DiffableSummary {
  readonly foreground_package: string;
  readonly screen: { readonly width: number; readonly height: number };
  readonly texts: readonly string[];
  readonly actions: readonly { readonly ref?: string }[];
  readonly can_scroll: boolean;
  readonly scrollables?: readonly unknown[];
  readonly keyboard?: { readonly open: true; readonly top: number };
  readonly layout_findings?: readonly LayoutFinding[];
  readonly truncated?: true;
}

export interface ScreenDiff<E> {
  readonly foreground_package: string;
  readonly added?: readonly E[];
  readonly removed?: readonly string[];
  readonly changed?: readonly E[];
  readonly texts_added?: readonly string[];
  readonly texts_removed?: readonly string[];
  readonly can_scroll?: boolean;
  readonly keyboard?: { readonly open: true; readonly top: number } | null;
  readonly scrollables?: readonly unknown[];
}

/** At least this share of the earlier reading's entries must still be offered for the screen to be "the same". */
export const SAME_SCREEN_SHARE = 0.5;

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** `a` minus `b` as multisets, in `a`'s order. */
function multisetMinus(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const t of b) left.set(t, (left.get(t) ?? 0) + 1);
  const out: string[] = [];
  for (const t of a) {
    const n = left.get(t) ?? 0;
    if (n > 0) left.set(t, n - 1);
    else out.push(t);
  }
  return out;
}

/**
 * Whether `next` is the same screen as `prev`, so a diff makes sense: same foreground and
 * display size (the caller compares the activity, which the summary does not carry), neither cut by the budget (a
 * cut list has no defined end to diff against), the same layout findings (a diff does not carry
 * them), and at least half of `prev`'s entries still offered.
 */
export function isSameScreen(prev: DiffableSummary, next: DiffableSummary): boolean {
  if (prev.foreground_package !== next.foreground_package || !same(prev.screen, next.screen)) return false;
  if (prev.truncated || next.truncated) return false;
  if (!same(prev.layout_findings ?? [], next.layout_findings ?? [])) return false;
  if (prev.actions.length === 0) return next.actions.length === 0 || same(prev.texts, next.texts);
  const nextRefs = new Set(next.actions.map((e) => e.ref));
  const kept = prev.actions.filter((e) => nextRefs.has(e.ref)).length;
  return kept >= prev.actions.length * SAME_SCREEN_SHARE;
}

/** The diff from `prev` to `next` (call isSameScreen first). Empty lists and unchanged extras are left out. */
export function diffSummaries<E extends { readonly ref?: string }>(
  prev: DiffableSummary & { readonly actions: readonly E[] },
  next: DiffableSummary & { readonly actions: readonly E[] },
): ScreenDiff<E> {
  const before = new Map(prev.actions.map((e) => [e.ref, e]));
  const after = new Set(next.actions.map((e) => e.ref));
  const added: E[] = [];
  const changed: E[] = [];
  for (const entry of next.actions) {
    const old = before.get(entry.ref);
    if (old === undefined) added.push(entry);
    else if (!same(old, entry)) changed.push(entry);
  }
  const removed = prev.actions.flatMap((e) => (e.ref !== undefined && !after.has(e.ref) ? [e.ref] : []));
  const textsAdded = multisetMinus(next.texts, prev.texts);
  const textsRemoved = multisetMinus(prev.texts, next.texts);
  return {
    foreground_package: next.foreground_package,
    ...(added.length > 0 ? { added } : {}),
    ...(removed.length > 0 ? { removed } : {}),
    ...(changed.length > 0 ? { changed } : {}),
    ...(textsAdded.length > 0 ? { texts_added: textsAdded } : {}),
    ...(textsRemoved.length > 0 ? { texts_removed: textsRemoved } : {}),
    ...(prev.can_scroll !== next.can_scroll ? { can_scroll: next.can_scroll } : {}),
    ...(!same(prev.keyboard ?? null, next.keyboard ?? null) ? { keyboard: next.keyboard ?? null } : {}),
    ...(!same(prev.scrollables ?? [], next.scrollables ?? []) ? { scrollables: next.scrollables ?? [] } : {}),
  };
}

/** The keys a diff answer carries whatever changed: its read ids and its package. */
const DIFF_FRAME_KEYS = new Set(['read', 'diff_of', 'foreground_package']);

/**
 * Whether an action's `after` says the screen did not change at all: a diff (`diff_of`) with
 * nothing added, removed or changed. A whole read, a read that failed or did not settle says nothing of the kind.
 */
export function isUnchangedAfter(after: unknown): boolean {
  if (typeof after !== 'object' || after === null || !('diff_of' in after)) return false;
  return Object.keys(after).every((key) => DIFF_FRAME_KEYS.has(key));
}

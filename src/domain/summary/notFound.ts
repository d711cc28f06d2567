/**
 * When nothing matched (UI_ELEMENT_NOT_FOUND), say what the screen does offer, so the model's next
 * call can be one of those instead of another guess.
 *
 * Order: entries a model can act on right now come first (enabled, not ambiguous, not under the
 * keyboard), then the rest, each group in screen (document) order. At most 10 are named; the
 * count after "and N more" covers all the others.
 */
import type { Selector, SelectorTerm } from '../selectors/selector.js';
import type { ActionEntry } from '../tree/screen.js';
import { nameOfEntry, roleOfEntry, selectorKeyOf, selectorOfEntry } from '../tree/screen.js';
import { codePointLength, cutCodePoints, safePreview } from '../tree/nodeFacts.js';

export const NOT_FOUND_MAX_OFFERS = 10;
export const NOT_FOUND_LABEL_MAX = 40;

export function describeTerm(term: SelectorTerm): string {
  return `${term.key} '${safePreview(term.value, 60)}'`;
}

/** `text 'Save' within content_desc 'Work profile'`, values cut and escaped. */
export function describeSelector(selector: Selector): string {
  return selector.within
    ? `${describeTerm(selector.target)} within ${describeTerm(selector.within)}`
    : describeTerm(selector.target);
}

function isReady(entry: ActionEntry): boolean {
  return entry.enabled !== false && !entry.ambiguous && !entry.covered_by_keyboard && !entry.not_actionable;
}

/** One line, at most `NOT_FOUND_LABEL_MAX` code points including the ellipsis, control characters escaped. */
function shortLabel(label: string): string {
  const flat = label.replace(/\s+/g, ' ').trim();
  const name = codePointLength(flat) <= NOT_FOUND_LABEL_MAX ? flat : cutCodePoints(flat, NOT_FOUND_LABEL_MAX - 1);
  return safePreview(name, NOT_FOUND_LABEL_MAX);
}

/**
 * The value was right and the key wrong (`text 'Navigate up'` for an up button that only has a
 * content-desc): the very selector to send instead, or the ref when no selector names it alone.
 * Matched exactly, on an entry's selector value or its label; null when nothing on screen is it.
 */
function otherKeyHint(selector: Selector, offers: readonly ActionEntry[]): string | null {
  if (selector.within) return null;
  const { key, value } = selector.target;
  const same = (entry: ActionEntry): boolean => {
    const entryKey = selectorKeyOf(entry);
    if (entryKey === key) return false;
    return entry.label === value || (entryKey !== null && entry[entryKey] === value);
  };
  const entry = offers.filter(isReady).find(same) ?? offers.find(same);
  if (!entry) return null;
  const quoted = `'${shortLabel(value)}'`;
  const entryKey = selectorKeyOf(entry);
  const other = selectorOfEntry(entry);
  if (entryKey === null || other === null)
    return `${quoted} is on the screen, but no selector names it alone: call ui_get_tree and send its ref.`;
  if (entry[entryKey] === value)
    return `${quoted} is its ${entryKey} here, not its ${key}: send ${JSON.stringify(other)} (or its ref from ui_get_tree).`;
  return `${quoted} is the label of the element that ${JSON.stringify(other)} names: send that (or its ref from ui_get_tree).`;
}

/**
 * `No visible element matched text 'X' before timeout. The screen offers: 'Calendar' (button), … and N more.`
 * At most 10 offers, labels cut at 40 characters. When an offer has the very value under another
 * key, the selector to send comes first.
 */
export function notFoundMessage(selector: Selector, offers: readonly ActionEntry[]): string {
  const wanted = describeSelector(selector);
  const hint = otherKeyHint(selector, offers);
  const head = `No visible element matched ${wanted} before timeout.${hint === null ? '' : ` ${hint}`}`;
  if (offers.length === 0) {
    return `${head} The screen offers nothing to act on; call ui_get_tree to see it, or ui_scroll / device_back to move on.`;
  }
  const ordered = [...offers.filter(isReady), ...offers.filter((o) => !isReady(o))];
  const named = ordered
    .slice(0, NOT_FOUND_MAX_OFFERS)
    .map((o) => `'${shortLabel(nameOfEntry(o))}' (${roleOfEntry(o)})`);
  const rest = offers.length - named.length;
  return `${head} The screen offers: ${named.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}.`;
}

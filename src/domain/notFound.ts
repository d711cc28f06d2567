// STUB: signatures pinned for the other layers; the domain work replaces the bodies.
import type { Selector } from './selector.js';
import type { ActionEntry } from './screen.js';

/**
 * `No visible element matched 'text' "X" before timeout. The screen offers: 'Calendar' (button), … and N more.`
 * At most 10 offers, labels cut at 40 characters.
 */
export function notFoundMessage(selector: Selector, offers: readonly ActionEntry[]): string {
  throw new Error(`not implemented ${selector.target.key} ${offers.length}`);
}

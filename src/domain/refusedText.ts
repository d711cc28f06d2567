/**
 * Issue 12: a field that was found but would not take the text. UiAutomator2 answers a set-text
 * the node refuses with HTTP 400 `invalid element state`; that is a different failure from "not
 * found", and the model's next step differs too: the element is there, typing into it is what
 * cannot work. The message says so and names the fields the screen does offer.
 */
import { describeTerm } from './summary/notFound.js';
import { safePreview } from './tree/nodeFacts.js';
import type { ActionEntry } from './tree/screen.js';
import { nameOfEntry, roleOfEntry } from './tree/screen.js';
import { isRefTarget, type ActionTarget } from './refs/refTarget.js';

const MAX_FIELDS = 5;

/** `tapped`: whether the harness tapped the element to focus it before typing. */
export function refusedTextMessage(target: ActionTarget, tapped: boolean, offers: readonly ActionEntry[]): string {
  const selector = isRefTarget(target) ? null : target.selector;
  const wanted = selector === null
    ? `ref ${isRefTarget(target) ? target.ref : ''}`
    : selector.within
      ? `${describeTerm(selector.target)} within ${describeTerm(selector.within)}`
      : describeTerm(selector.target);
  const focus = tapped ? 'even after a tap on it' : 'although it had focus';
  const head = `The element matched by ${wanted} refused the text (invalid element state) ${focus}: it is not an editable field, or it is read-only or disabled. Nothing was typed.`;
  const fields = offers.filter((o) => roleOfEntry(o) === 'input' && o.enabled !== false);
  if (fields.length === 0) return `${head} The screen offers no input field; call ui_get_tree to see what it does offer.`;
  const named = fields.slice(0, MAX_FIELDS).map((o) => `'${safePreview(nameOfEntry(o), 40)}'`);
  const rest = fields.length - named.length;
  return `${head} Type into one of the screen's input fields instead: ${named.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}.`;
}

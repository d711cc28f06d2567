/**
 * A field that was found but would not take the text. UiAutomator2 answers a set-text
 * the node refuses with HTTP 400 `invalid element state`; that is a different failure from "not
 * found", and the model's next step differs too: the element is there, typing into it is what
 * cannot work. The message says so and names the fields the screen does offer. A target that is
 * not a text field at all is refused the same way before anything touches it.
 */
import { describeTerm } from './summary/notFound.js';
import { safePreview } from './tree/nodeFacts.js';
import type { ActionEntry } from './tree/screen.js';
import { nameOfEntry, roleOfEntry } from './tree/screen.js';
import { isRefTarget, type ActionTarget } from './refs/refTarget.js';

const MAX_FIELDS = 5;

function wantedOf(target: ActionTarget): string {
  if (isRefTarget(target)) return `ref ${target.ref}`;
  const { selector } = target;
  return selector.within
    ? `${describeTerm(selector.target)} within ${describeTerm(selector.within)}`
    : describeTerm(selector.target);
}

/**
 * Where to type instead: the screen's enabled input fields, each by its ref (a field's text changes
 * as it is typed into, its ref does not) and its name, or a pointer to ui_get_tree when it has none.
 */
function fieldsOffered(offers: readonly ActionEntry[]): string {
  const fields = offers.filter((o) => roleOfEntry(o) === 'input' && o.enabled !== false && !o.not_actionable);
  if (fields.length === 0) return 'The screen offers no input field; call ui_get_tree to see what it does offer.';
  const named = fields.slice(0, MAX_FIELDS).map((o) => {
    const name = nameOfEntry(o);
    const said = name === '' ? '' : ` '${safePreview(name, 40)}'`;
    return o.ref === undefined ? said.trim() || 'an unnamed field' : `{"ref":"${o.ref}"}${said}`;
  });
  const rest = fields.length - named.length;
  return `Type into one of the screen's input fields instead: ${named.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}.`;
}

/** `tapped`: whether the harness tapped the element to focus it before typing. */
export function refusedTextMessage(target: ActionTarget, tapped: boolean, offers: readonly ActionEntry[]): string {
  const focus = tapped ? 'even after a tap on it' : 'although it had focus';
  return `The element matched by ${wantedOf(target)} refused the text (invalid element state) ${focus}: it is not an editable field, or it is read-only or disabled. Nothing was typed. ${fieldsOffered(offers)}`;
}

/**
 * The target is found but is not a text field (a button, a label, a row): ui_type_text refuses
 * it before the focusing tap, which on a button would press it (an Up button leaves the screen).
 */
export function notEditableMessage(target: ActionTarget, className: string, offers: readonly ActionEntry[]): string {
  return `The element matched by ${wantedOf(target)} is a ${className || 'view without a class name'}, not a text field, so ui_type_text did not touch it: nothing was tapped or typed. ${fieldsOffered(offers)}`;
}

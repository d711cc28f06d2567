/**
 * What widget a node of the UI tree is, from its class and state: the role the renderer paints it as.
 */
import type { UiElement } from '../uiTree.js';

export type Role =
  | 'field'
  | 'switch'
  | 'checkbox'
  | 'radio'
  | 'button'
  | 'card'
  | 'iconButton'
  | 'image'
  | 'text'
  | 'appIcon'
  | 'tab'
  | 'semantics'
  | 'container';

/** Flutter's tab semantics append this to the tab's label; it is read out, not shown. */
export const TAB_SUFFIX = /\nTab \d+ of \d+$/;

export function shortClass(e: UiElement): string {
  return e.className.slice(e.className.lastIndexOf('.') + 1);
}

function isLeaf(e: UiElement): boolean {
  return e.children.length === 0;
}

function hasLabelledDescendant(e: UiElement): boolean {
  return e.children.some((c) => c.text !== '' || c.contentDesc !== '' || hasLabelledDescendant(c));
}

export function roleOf(e: UiElement): Role {
  const cls = shortClass(e);
  if (/EditText$|AutoCompleteTextView$/.test(cls)) return 'field';
  if (/Switch/.test(cls) || cls === 'ToggleButton') return 'switch';
  if (/CheckBox$|CheckedTextView$/.test(cls)) return 'checkbox';
  if (/RadioButton$/.test(cls)) return 'radio';
  if (/ImageButton$|FloatingActionButton$/.test(cls)) return 'iconButton';
  // A Compose/Flutter "button" that holds its own texts is a clickable surface (a card), not a label on a pill.
  if (/Button$/.test(cls)) return hasLabelledDescendant(e) ? 'card' : 'button';
  if (/Image(View)?$/.test(cls)) return 'image';
  if (/TextView$|Chip$/.test(cls)) return /launcher/i.test(e.package) && e.clickable ? 'appIcon' : 'text';
  if (e.checkable) return 'checkbox';
  if (isLeaf(e) && TAB_SUFFIX.test(e.contentDesc)) return 'tab';
  if (isLeaf(e) && (e.text !== '' || e.contentDesc !== '')) return 'semantics';
  return 'container';
}

/**
 * Small facts about one node that several domain modules share: visibility, label,
 * role, and whether a string may travel as a selector value. Pure functions only.
 */
import type { BoxBounds, Rect, UiNode } from './uiNode.js';
import type { Role } from './screen.js';

/** Visible means bounds present and not `[0,0][0,0]` (docs/reference/summary.md, "Visibility, texts, roles"). */
export function isVisible(node: UiNode): boolean {
  const b = node.bounds;
  if (b === null) return false;
  return !(b.left === 0 && b.top === 0 && b.right === 0 && b.bottom === 0);
}

/** Whitespace-only attributes carry no meaning for a model and cannot be a selector value. */
export function isBlank(value: string): boolean {
  return value.trim().length === 0;
}

/**
 * The text the harness may repeat: the node's `text`, or '' for a password field. A real
 * device reports bullets there (PasswordTransformationMethod), some views the plain text;
 * neither ever reaches a summary, a selector, a message or a log (docs/reference/summary.md).
 */
export function repeatableText(node: UiNode): string {
  return node.password ? '' : node.text;
}

/** The node's own label: first non-blank of text (never a password's), content-desc, hint; '' when none. */
export function ownLabel(node: UiNode): string {
  const text = repeatableText(node);
  if (!isBlank(text)) return text;
  if (!isBlank(node.contentDesc)) return node.contentDesc;
  if (!isBlank(node.hint)) return node.hint;
  return '';
}

/**
 * Whether a class name, as the accessibility tree reports it, is a text field. EditText and its
 * subclasses report `android.widget.EditText` (or their own name ending in EditText); Compose's
 * and Flutter's text fields and WebView inputs report `android.widget.EditText` too. The
 * AutoCompleteTextView family extends EditText but reports its own class name (it overrides
 * getAccessibilityClassName), as a real dump's `android.widget.MultiAutoCompleteTextView` shows.
 */
export function isTextFieldClass(className: string): boolean {
  return className.endsWith('EditText') || className.endsWith('AutoCompleteTextView');
}

export function isEditText(node: UiNode): boolean {
  return isTextFieldClass(node.className);
}

/**
 * An empty text field reports its hint as its text (TextView.getTextForAccessibility): the
 * field shows its hint when UiAutomator2 says so (`showing-hint`), or, in a dump without that
 * attribute, when its text is exactly its non-blank hint.
 */
export function showsHint(node: UiNode): boolean {
  if (node.showingHint !== null) return node.showingHint;
  return !isBlank(node.hint) && node.text === node.hint;
}

/** A text field with nothing typed in it: it shows its hint, or its text is empty. */
export function isEmptyField(node: UiNode): boolean {
  return isEditText(node) && (node.text === '' || showsHint(node));
}

/**
 * Whether a password node's text may stay in the raw XML: it is empty, or it is the field's own
 * hint while the field shows it (the `hint` attribute already carries that string).
 */
export function keepsPasswordText(node: UiNode): boolean {
  return node.text === '' || (!isBlank(node.hint) && node.text === node.hint && node.showingHint !== false);
}

/** The roles of docs/reference/summary.md; scrollables are never offered, so they get no role. */
export function roleOf(node: UiNode): Role | null {
  if (node.scrollable) return null;
  if (isEditText(node)) return 'input';
  if (node.checkable) return 'toggle';
  if (node.clickable) return 'button';
  if (node.longClickable) return 'long-press';
  return null;
}

export function toBox(rect: Rect): BoxBounds {
  return [rect.left, rect.top, rect.right - rect.left, rect.bottom - rect.top];
}

/**
 * Icon-font glyphs (Private Use Area code points: Material or Font Awesome icons drawn as text)
 * mean nothing outside their font, so a text made only of them tells a model nothing.
 */
const ICON_GLYPHS_ONLY = /^[\s\u{E000}-\u{F8FF}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]*$/u;

export function isIconGlyphsOnly(text: string): boolean {
  return ICON_GLYPHS_ONLY.test(text);
}

export function codePointLength(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}

/** First `max` code points (never splits a surrogate pair), with '…' when cut. */
export function cutCodePoints(value: string, max: number): string {
  let out = '';
  let n = 0;
  for (const ch of value) {
    if (n === max) return `${out}…`;
    out += ch;
    n++;
  }
  return out;
}

/** C0 controls, DEL, C1 controls, bidi embeddings/overrides (U+202A–U+202E) and isolates (U+2066–U+2069). */
export function isControlOrBidi(codePoint: number): boolean {
  return (
    codePoint <= 0x1f ||
    (codePoint >= 0x7f && codePoint <= 0x9f) ||
    (codePoint >= 0x202a && codePoint <= 0x202e) ||
    (codePoint >= 0x2066 && codePoint <= 0x2069)
  );
}

/**
 * A short, printable rendering of untrusted input for an error message: at most `max`
 * code points, control and bidi characters escaped as \uXXXX, so a message never carries
 * a NUL, a newline that fakes a second line, or an override that reverses what follows.
 */
export function safePreview(value: string, max = 40): string {
  let out = '';
  let n = 0;
  for (const ch of value) {
    if (n === max) return `${out}…`;
    const cp = ch.codePointAt(0) ?? 0;
    if (isControlOrBidi(cp) || (cp >= 0xd800 && cp <= 0xdfff)) {
      out += `\\u${cp.toString(16).padStart(4, '0')}`;
    } else {
      out += ch;
    }
    n++;
  }
  return out;
}

export const SELECTOR_VALUE_MAX_CODE_POINTS = 256;

/**
 * Why `value` cannot be a selector value (docs/reference/contract.md, "Error codes"), or null when it can.
 * Shared by input validation and by the summary, so the summary never offers a
 * selector that ui_tap would refuse.
 */
export function selectorValueProblem(value: string): string | null {
  if (isBlank(value)) return 'is empty or only whitespace';
  if (!isWellFormedUnicode(value)) return 'contains an unpaired surrogate (not well-formed Unicode)';
  let n = 0;
  for (const ch of value) {
    n++;
    const cp = ch.codePointAt(0) ?? 0;
    if (cp === 0x0a || cp === 0x0d || cp === 0x09) continue;
    if (cp <= 0x1f || cp === 0x7f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
      return `contains the control character U+${cp.toString(16).toUpperCase().padStart(4, '0')} at position ${n}`;
    }
  }
  if (n > SELECTOR_VALUE_MAX_CODE_POINTS) return `is ${n} characters long (at most ${SELECTOR_VALUE_MAX_CODE_POINTS})`;
  return null;
}

/** True when `value` holds no unpaired UTF-16 surrogate (it could not be sent as UTF-8 otherwise). */
export function isWellFormedUnicode(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}

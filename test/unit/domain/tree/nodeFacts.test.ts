import { describe, expect, it } from 'vitest';
import {
  codePointLength,
  cutCodePoints,
  isBlank,
  isControlOrBidi,
  isEditText,
  isEmptyField,
  isIconGlyphsOnly,
  isTextFieldClass,
  isVisible,
  isWellFormedUnicode,
  keepsPasswordText,
  ownLabel,
  repeatableText,
  roleOf,
  safePreview,
  selectorValueProblem,
  showsHint,
  toBox,
} from '../../../../src/domain/tree/nodeFacts.js';
import type { UiNode } from '../../../../src/domain/tree/uiNode.js';

function node(fields: Partial<UiNode>): UiNode {
  return {
    order: 0,
    className: 'android.view.View',
    packageName: 'com.example.app',
    resourceId: '',
    text: '',
    contentDesc: '',
    hint: '',
    showingHint: null,
    checkable: false,
    checked: false,
    clickable: false,
    longClickable: false,
    enabled: true,
    focusable: false,
    focused: false,
    scrollable: false,
    selected: false,
    password: false,
    bounds: { left: 0, top: 0, right: 10, bottom: 10 },
    parent: null,
    children: [],
    ...fields,
  };
}

describe('nodeFacts: visibility and labels', () => {
  it('visible: bounds present and not all four zero; one non-zero side is enough', () => {
    expect(isVisible(node({ bounds: null }))).toBe(false);
    expect(isVisible(node({ bounds: { left: 0, top: 0, right: 0, bottom: 0 } }))).toBe(false);
    for (const bounds of [
      { left: 1, top: 0, right: 0, bottom: 0 },
      { left: 0, top: 1, right: 0, bottom: 0 },
      { left: 0, top: 0, right: 1, bottom: 0 },
      { left: 0, top: 0, right: 0, bottom: 1 },
    ]) {
      expect(isVisible(node({ bounds })), JSON.stringify(bounds)).toBe(true);
    }
  });

  it('blank is whitespace only', () => {
    expect(isBlank('')).toBe(true);
    expect(isBlank(' \t\n')).toBe(true);
    expect(isBlank(' a ')).toBe(false);
  });

  it("a password's text is never repeatable nor a label", () => {
    expect(repeatableText(node({ text: 'hunter2', password: true }))).toBe('');
    expect(repeatableText(node({ text: 'Name' }))).toBe('Name');
    expect(ownLabel(node({ text: 'hunter2', password: true, hint: 'Password' }))).toBe('Password');
  });

  it('own label: text, else content-desc, else hint, each only when not blank', () => {
    expect(ownLabel(node({ text: 'T', contentDesc: 'D', hint: 'H' }))).toBe('T');
    expect(ownLabel(node({ text: ' ', contentDesc: 'D', hint: 'H' }))).toBe('D');
    expect(ownLabel(node({ text: '', contentDesc: ' ', hint: 'H' }))).toBe('H');
    expect(ownLabel(node({ text: '', contentDesc: '', hint: '  ' }))).toBe('');
  });
});

describe('nodeFacts: text fields and roles', () => {
  it('a text field is a class ending in EditText or AutoCompleteTextView', () => {
    expect(isTextFieldClass('android.widget.EditText')).toBe(true);
    expect(isTextFieldClass('com.google.android.material.textfield.TextInputEditText')).toBe(true);
    expect(isTextFieldClass('android.widget.MultiAutoCompleteTextView')).toBe(true);
    expect(isTextFieldClass('android.widget.TextView')).toBe(false);
    expect(isTextFieldClass('android.widget.EditTextLayout')).toBe(false);
    expect(isEditText(node({ className: 'android.widget.EditText' }))).toBe(true);
    expect(isEditText(node({ className: 'android.widget.Button' }))).toBe(false);
  });

  it('shows its hint: as UiAutomator2 says, else when its text is exactly its non-blank hint', () => {
    expect(showsHint(node({ showingHint: true, text: 'x', hint: 'y' }))).toBe(true);
    expect(showsHint(node({ showingHint: false, text: 'Email', hint: 'Email' }))).toBe(false);
    expect(showsHint(node({ text: 'Email', hint: 'Email' }))).toBe(true);
    expect(showsHint(node({ text: 'a@b.c', hint: 'Email' }))).toBe(false);
    expect(showsHint(node({ text: ' ', hint: ' ' }))).toBe(false);
  });

  it('an empty field is a text field with no text or showing its hint', () => {
    const edit = 'android.widget.EditText';
    expect(isEmptyField(node({ className: edit, text: '' }))).toBe(true);
    expect(isEmptyField(node({ className: edit, text: 'Email', hint: 'Email' }))).toBe(true);
    expect(isEmptyField(node({ className: edit, text: 'a@b.c', hint: 'Email' }))).toBe(false);
    expect(isEmptyField(node({ className: 'android.widget.TextView', text: '' }))).toBe(false);
  });

  it("a password's text stays in the raw XML only when empty or its hint shown", () => {
    expect(keepsPasswordText(node({ text: '' }))).toBe(true);
    expect(keepsPasswordText(node({ text: 'Password', hint: 'Password' }))).toBe(true);
    expect(keepsPasswordText(node({ text: 'Password', hint: 'Password', showingHint: true }))).toBe(true);
    expect(keepsPasswordText(node({ text: 'Password', hint: 'Password', showingHint: false }))).toBe(false);
    expect(keepsPasswordText(node({ text: ' ', hint: ' ' }))).toBe(false);
    expect(keepsPasswordText(node({ text: 'hunter2', hint: 'Password' }))).toBe(false);
  });

  it('the role: none for a scrollable, then input, toggle, button, long-press, in that order', () => {
    const all = { checkable: true, clickable: true, longClickable: true };
    expect(roleOf(node({ ...all, scrollable: true, className: 'android.widget.EditText' }))).toBeNull();
    expect(roleOf(node({ ...all, className: 'android.widget.EditText' }))).toBe('input');
    expect(roleOf(node(all))).toBe('toggle');
    expect(roleOf(node({ clickable: true, longClickable: true }))).toBe('button');
    expect(roleOf(node({ longClickable: true }))).toBe('long-press');
    expect(roleOf(node({}))).toBeNull();
  });

  it('a box is left, top, width, height', () => {
    expect(toBox({ left: 10, top: 20, right: 110, bottom: 70 })).toEqual([10, 20, 100, 50]);
  });
});

describe('nodeFacts: untrusted strings', () => {
  it('icon glyphs only: Private Use Area code points and spaces', () => {
    expect(isIconGlyphsOnly('\uE000 \uF8FF')).toBe(true);
    expect(isIconGlyphsOnly('\u{F0000}\u{100000}')).toBe(true);
    expect(isIconGlyphsOnly('\uE000a')).toBe(false);
  });

  it('lengths and cuts count code points, never half a pair', () => {
    expect(codePointLength('a\u{1F600}b')).toBe(3);
    expect(codePointLength('')).toBe(0);
    expect(cutCodePoints('a\u{1F600}bc', 2)).toBe('a\u{1F600}…');
    expect(cutCodePoints('abc', 3)).toBe('abc');
    expect(cutCodePoints('abcd', 3)).toBe('abc…');
  });

  it('control and bidi: each range at both ends, and its neighbours outside', () => {
    for (const cp of [0x00, 0x1f, 0x7f, 0x9f, 0x202a, 0x202e, 0x2066, 0x2069]) {
      expect(isControlOrBidi(cp), cp.toString(16)).toBe(true);
    }
    for (const cp of [0x20, 0x7e, 0xa0, 0x2029, 0x202f, 0x2065, 0x206a]) {
      expect(isControlOrBidi(cp), cp.toString(16)).toBe(false);
    }
  });

  it('a preview escapes controls, bidi and lone surrogates, and cuts at max code points', () => {
    expect(safePreview('a\u0000b\n\u202Ec')).toBe('a\\u0000b\\u000a\\u202ec');
    expect(safePreview('x\uD800y\uDFFF')).toBe('x\\ud800y\\udfff');
    expect(safePreview('\u{1F600}', 1)).toBe('\u{1F600}');
    expect(safePreview('abcdef', 3)).toBe('abc…');
    expect(safePreview('abc', 3)).toBe('abc');
    expect(safePreview('x'.repeat(41))).toBe(`${'x'.repeat(40)}…`);
    expect(safePreview('x'.repeat(40))).toBe('x'.repeat(40));
  });

  it('a selector value: not blank, well-formed, no control but newline, CR and tab, at most 256 code points', () => {
    expect(selectorValueProblem(' ')).toBe('is empty or only whitespace');
    expect(selectorValueProblem('a\uD800')).toBe('contains an unpaired surrogate (not well-formed Unicode)');
    expect(selectorValueProblem('a\nb\rc\td')).toBeNull();
    expect(selectorValueProblem('ab\u0001')).toBe('contains the control character U+0001 at position 3');
    expect(selectorValueProblem('\u{1F600}\u001f')).toBe('contains the control character U+001F at position 2');
    expect(selectorValueProblem('a\u007f')).toBe('contains the control character U+007F at position 2');
    for (const cp of [0x202a, 0x202e, 0x2066, 0x2069]) {
      expect(selectorValueProblem(`a${String.fromCodePoint(cp)}`)).toBe(
        `contains the control character U+${cp.toString(16).toUpperCase()} at position 2`,
      );
    }
    // C1 controls and the neighbours of the bidi ranges are text here, unlike in safePreview.
    for (const cp of [0x80, 0x9f, 0x2029, 0x202f, 0x2065, 0x206a]) {
      expect(selectorValueProblem(`a${String.fromCodePoint(cp)}`), cp.toString(16)).toBeNull();
    }
    expect(selectorValueProblem('\u{1F600}'.repeat(256))).toBeNull();
    expect(selectorValueProblem('x'.repeat(257))).toBe('is 257 characters long (at most 256)');
  });

  it('well-formed Unicode: pairs pass, a lone half anywhere fails', () => {
    expect(isWellFormedUnicode('a\u{1F600}b')).toBe(true);
    expect(isWellFormedUnicode('')).toBe(true);
    expect(isWellFormedUnicode('\uD800')).toBe(false);
    expect(isWellFormedUnicode('\uDBFFa')).toBe(false);
    expect(isWellFormedUnicode('a\uDC00')).toBe(false);
    expect(isWellFormedUnicode('\uDFFF')).toBe(false);
    expect(isWellFormedUnicode('\uD800\uD800\uDC00')).toBe(false);
    // A pair's second half read as a pair, not again on its own.
    expect(isWellFormedUnicode('\uDBFF\uDFFF\uD800\uDC00')).toBe(true);
    expect(isWellFormedUnicode('\uD7FF\uE000')).toBe(true);
    // A high surrogate before a unit past the low range (U+E000) is alone.
    expect(isWellFormedUnicode('\uD800\uE000')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  nameOfEntry,
  orientationOfEntry,
  roleOfEntry,
  selectorKeyOf,
  selectorOfEntry,
  selectorValueOf,
  type ActionEntry,
} from '../../../../src/domain/tree/screen.js';

const BOX = [0, 0, 10, 10] as const;

describe("an entry's absent fields read back as their one meaning", () => {
  it('a scrollable without orientation is vertical', () => {
    expect(orientationOfEntry({ bounds: BOX })).toBe('vertical');
    expect(orientationOfEntry({ bounds: BOX, orientation: 'horizontal' })).toBe('horizontal');
  });

  it('no role: a toggle when it says checked (either way), else a button', () => {
    expect(roleOfEntry({ bounds: BOX })).toBe('button');
    expect(roleOfEntry({ bounds: BOX, checked: false })).toBe('toggle');
    expect(roleOfEntry({ bounds: BOX, checked: true })).toBe('toggle');
    expect(roleOfEntry({ bounds: BOX, role: 'input', checked: true })).toBe('input');
  });

  it('the selector key is the first offered key the entry holds; label and within are none', () => {
    expect(selectorKeyOf({ content_desc: 'More', within: { text: 'Row' } })).toBe('content_desc');
    expect(selectorKeyOf({ input_hint: 'Search' })).toBe('input_hint');
    expect(selectorKeyOf({ within: { text: 'Row' } })).toBeNull();
    // Keys a selector may carry but the summary never offers are not an entry's selector.
    expect(selectorKeyOf({ text_starts_with: 'Sa' })).toBeNull();
  });

  it('the selector as ui_tap takes it, within included; none without a key', () => {
    const entry: ActionEntry = { text: 'Save', within: { id: 'toolbar' }, label: 'Save it', bounds: BOX };
    expect(selectorOfEntry(entry)).toEqual({ text: 'Save', within: { id: 'toolbar' } });
    expect(selectorOfEntry({ id: 'ok' })).toEqual({ id: 'ok' });
    expect(selectorOfEntry({ within: { id: 'toolbar' } })).toBeNull();
  });

  it("the name is the label, else the selector's value, else nothing", () => {
    expect(selectorValueOf({ text: 'Save' })).toBe('Save');
    expect(selectorValueOf({})).toBe('');
    expect(nameOfEntry({ text: 'Save', label: 'Save changes' })).toBe('Save changes');
    expect(nameOfEntry({ text: 'Save' })).toBe('Save');
    expect(nameOfEntry({})).toBe('');
  });
});

import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../../../src/domain/errors.js';
import {
  checkArgumentNames,
  parseFlag,
  parsePackageName,
  parseRawOffset,
  parseSelector,
  parseSessionId,
  parseText,
} from '../../../../src/domain/validation.js';
import { refusalMessage } from '../../../support/harnessError.js';

/** The refusal `fn` throws, with its code checked. */
const refusal = (code: ErrorCode, fn: () => unknown): string => refusalMessage(code, fn);

/** The problem of an INVALID_SELECTOR message: between "Invalid selector: " and the shape that follows. */
function selectorProblem(input: unknown): string {
  const message = refusal('INVALID_SELECTOR', () => parseSelector(input));
  expect(message.startsWith('Invalid selector: ')).toBe(true);
  expect(message).toContain('. A selector is an object with exactly one of id, resource_id, text,');
  return message.slice('Invalid selector: '.length, message.indexOf('. A selector is'));
}

describe("every call's argument names, word for word", () => {
  it('an unknown name: what the tool takes, or that it takes none', () => {
    expect(
      refusal('INVALID_ARGUMENT', () => checkArgumentNames({ sesion_id: 'x' }, ['session_id', 'selector'], 'ui_tap')),
    ).toBe("Invalid argument 'sesion_id': ui_tap takes only session_id, selector.");
    expect(refusal('INVALID_ARGUMENT', () => checkArgumentNames({ extra: 1 }, [], 'device_back'))).toBe(
      "Invalid argument 'extra': device_back takes no arguments.",
    );
  });

  it('a position name, whatever the tool takes: the reason first', () => {
    expect(refusal('INVALID_ARGUMENT', () => checkArgumentNames({ x: 1 }, ['selector'], 'ui_tap'))).toBe(
      "Invalid argument 'x', a position: the harness never takes coordinates (no x, y, bounds, point or offset under any name), so " +
        'name the element with a selector or a ref from ui_get_tree; ui_tap takes only selector.',
    );
    expect(refusal('INVALID_ARGUMENT', () => checkArgumentNames({ bounds: 1 }, [], 'device_back'))).toMatch(
      /a position: .*; device_back takes no arguments\.$/,
    );
  });

  it('the names a tool takes pass', () => {
    expect(() =>
      checkArgumentNames({ selector: {}, session_id: 'x' }, ['session_id', 'selector'], 'ui_tap'),
    ).not.toThrow();
  });
});

describe('the selector refusals, word for word', () => {
  it('a position key in a selector or its within', () => {
    const message = refusal('INVALID_SELECTOR', () =>
      parseSelector({ text: 'Save', within: { bounds: '[0,0][1,1]' } }),
    );
    expect(message).toBe(
      "Invalid selector: selector.within has the key 'bounds', a position. Selectors never take coordinates " +
        '(no x, y, bounds, point or offset under any name): name the element by what it says or is, e.g. {"text": "Save"}, ' +
        'as ui_get_tree offers it (its bounds are for auditing only).',
    );
  });

  it('what a selector or its within was instead of an object', () => {
    expect(selectorProblem('Save')).toBe('selector must be an object, got a string');
    expect(selectorProblem(['Save'])).toBe('selector must be an object, got an array');
    expect(selectorProblem(7)).toBe('selector must be an object, got a number');
    expect(selectorProblem(true)).toBe('selector must be an object, got a boolean');
    expect(selectorProblem(new Date(0))).toBe('selector must be an object, got an object');
    expect(selectorProblem({ text: 'Save', within: null })).toBe('selector.within must be an object, got null');
    expect(selectorProblem({ text: 'Save', within: 'Row' })).toBe('selector.within must be an object, got a string');
  });

  it('an object without prototype is a plain object', () => {
    const bare = Object.assign(Object.create(null) as object, { text: 'Save' });
    expect(parseSelector(bare)).toEqual({ target: { key: 'text', value: 'Save' } });
  });

  it('a within inside a within, an unknown key, a key of the wrong type', () => {
    expect(selectorProblem({ text: 'a', within: { text: 'b', within: { text: 'c' } } })).toBe(
      'selector.within cannot contain another "within" (one level only)',
    );
    expect(selectorProblem({ txt: 'Save' })).toBe("selector has the unknown key 'txt'");
    expect(selectorProblem({ text: 3 })).toBe('selector.text must be a string, got a number');
  });

  it('a flag or an instance of the wrong kind says what it got', () => {
    expect(selectorProblem({ text: 'a', checked: 'yes' })).toBe(
      "selector.checked must be the JSON boolean true or false, got the string 'yes'",
    );
    expect(selectorProblem({ text: 'a', checked: 1 })).toBe(
      'selector.checked must be the JSON boolean true or false, got a number',
    );
    expect(selectorProblem({ text: 'a', instance: 1.5 })).toBe(
      'selector.instance must be a whole number from 0 to 999 (0 is the first match), got 1.5',
    );
    expect(selectorProblem({ text: 'a', instance: '1' })).toBe(
      'selector.instance must be a whole number from 0 to 999 (0 is the first match), got a string',
    );
  });

  it('none, or more than one, main key', () => {
    expect(selectorProblem({})).toBe(
      'selector has none of id, resource_id, text, content_desc, text_contains, input_hint, text_starts_with, content_desc_contains, class_name, resource_id_matches',
    );
    expect(selectorProblem({ checked: true })).toMatch(/ \(state flags and instance only narrow a main key\)$/);
    expect(selectorProblem({ instance: 0 })).toMatch(/ \(state flags and instance only narrow a main key\)$/);
    expect(selectorProblem({ text: 'a', content_desc: 'b' })).toBe(
      'selector has 2 keys (text, content_desc) but must have exactly one',
    );
    expect(selectorProblem({ text: 'a', within: {} })).toMatch(/^selector\.within has none of id, /);
    expect(selectorProblem({ text: 'a', within: {} })).not.toContain('state flags');
  });

  it('a selector without flags or instance carries neither key', () => {
    expect(Object.keys(parseSelector({ text: 'a' }))).toEqual(['target']);
    expect(Object.keys(parseSelector({ text: 'a', within: { id: 'row' } }))).toEqual(['target', 'within']);
    expect(Object.keys(parseSelector({ text: 'a', checked: false, instance: 0 }))).toEqual([
      'target',
      'states',
      'instance',
    ]);
  });
});

const TEXT_RULE =
  'Text must be a string of 1 to 512 characters without control characters ' +
  '(no newline, tab, NUL or bidi override; to submit, tap the button instead of sending a newline).';

describe('text, package, raw offset and session id refusals, word for word', () => {
  it('text', () => {
    expect(refusal('INVALID_TEXT', () => parseText(5))).toBe(`Invalid text: got a number. ${TEXT_RULE}`);
    expect(refusal('INVALID_TEXT', () => parseText('a\uD800'))).toBe(
      `Invalid text: it contains an unpaired surrogate. ${TEXT_RULE}`,
    );
    expect(refusal('INVALID_TEXT', () => parseText('ab\u001b'))).toBe(
      `Invalid text: control character U+001B at position 3. ${TEXT_RULE}`,
    );
    expect(refusal('INVALID_TEXT', () => parseText('a\u202e'))).toContain('control character U+202E at position 2.');
    expect(refusal('INVALID_TEXT', () => parseText(''))).toBe(`Invalid text: it is 0 characters long. ${TEXT_RULE}`);
  });

  it('package name', () => {
    const rule =
      'A package name is dot-separated segments of letters, digits and underscores, each starting with a letter, ' +
      'at most 255 characters (e.g. com.android.settings; no activity, path, space or flag). ' +
      'app_list_installed lists the installed packages.';
    expect(refusal('INVALID_PACKAGE', () => parsePackageName(['com.x']))).toBe(
      `Invalid package name: got an array. ${rule}`,
    );
    expect(refusal('INVALID_PACKAGE', () => parsePackageName(`a${'b'.repeat(255)}`))).toBe(
      `Invalid package name: it is 256 characters long. ${rule}`,
    );
    expect(refusal('INVALID_PACKAGE', () => parsePackageName('com.x/.Main'))).toBe(
      `Invalid package name 'com.x/.Main'. ${rule}`,
    );
  });

  it('raw offset: a whole number from 0', () => {
    expect(parseRawOffset(0)).toBe(0);
    expect(parseRawOffset(120)).toBe(120);
    const tail =
      '. Send a whole number from 0, as raw_truncated.next_offset gives it; leave it out for the first part.';
    expect(refusal('INVALID_ARGUMENT', () => parseRawOffset(-1))).toBe(`Invalid raw_offset: got -1${tail}`);
    expect(refusal('INVALID_ARGUMENT', () => parseRawOffset(1.5))).toBe(`Invalid raw_offset: got 1.5${tail}`);
    expect(refusal('INVALID_ARGUMENT', () => parseRawOffset('10'))).toBe(
      `Invalid raw_offset: got the string '10'${tail}`,
    );
    expect(refusal('INVALID_ARGUMENT', () => parseRawOffset(null))).toBe(`Invalid raw_offset: got null${tail}`);
    expect(refusal('INVALID_ARGUMENT', () => parseRawOffset(undefined))).toBe(`Invalid raw_offset: got nothing${tail}`);
    expect(refusal('INVALID_ARGUMENT', () => parseRawOffset([1]))).toBe(`Invalid raw_offset: got an array${tail}`);
  });

  it('a flag: the JSON booleans only, and what came instead', () => {
    expect(parseFlag(true, 'include_raw')).toBe(true);
    expect(parseFlag(false, 'include_raw')).toBe(false);
    const tail = '. Only the JSON booleans true and false are accepted (no quotes); leave it out for false.';
    expect(refusal('INVALID_ARGUMENT', () => parseFlag(undefined, 'include_raw'))).toBe(
      `Invalid include_raw: got nothing${tail}`,
    );
    expect(refusal('INVALID_ARGUMENT', () => parseFlag('true', 'include_raw'))).toBe(
      `Invalid include_raw: got the string 'true'${tail}`,
    );
  });

  it('session id', () => {
    expect(refusal('INVALID_UI_SESSION', () => parseSessionId('short'))).toBe(
      'Invalid session_id: it must be the exact id ui_session_open returned (24 to 128 characters of ' +
        'A-Z, a-z, 0-9, _ and -). Omit session_id to act without a UI session, or call ui_session_open for a new one.',
    );
  });
});

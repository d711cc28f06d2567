import { describe, expect, it } from 'vitest';
import { HarnessError, type ErrorCode } from '../../../src/domain/errors.js';
import { containerArgument } from '../../../src/mcp/arguments.js';

const optionalSelector = (args: Record<string, unknown>) => containerArgument.parse(args.selector);
import {
  parseDirection,
  parseFlag,
  parsePackageName,
  parseSelector,
  parseSessionId,
  parseText,
} from '../../../src/domain/validation.js';

function codeOf(fn: () => unknown): ErrorCode | 'no error' {
  try {
    fn();
    return 'no error';
  } catch (error) {
    if (error instanceof HarnessError) return error.code;
    throw error;
  }
}

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof HarnessError) return error.message;
    throw error;
  }
  throw new Error('expected a HarnessError');
}

const CONTROL_EXCEPT_WHITESPACE = [
  ...Array.from({ length: 0x20 }, (_, i) => i).filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d),
  0x7f,
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
];

describe('parseSelector (the validation rules of the contract)', () => {
  it.each([
    [{ resource_id: 'com.android.settings:id/search' }],
    [{ text: 'Calendar' }],
    [{ content_desc: 'Navigate up' }],
    [{ text_contains: 'Cal' }],
    [{ input_hint: 'Search' }],
    [{ text: 'Save', within: { content_desc: 'Work profile' } }],
    [{ text: 'Historial\nTab 2 of 3' }],
    [{ content_desc: 'a\tb\r\nc' }],
    [{ text: '日本語 العربية 😀' }],
    [{ text: ' padded ' }],
  ])('accepts %j and keeps the value exactly', (input) => {
    const selector = parseSelector(input);
    const [key, value] = Object.entries(input).find(([k]) => k !== 'within')!;
    expect(selector.target).toEqual({ key, value });
    if ('within' in input) expect(selector.within).toEqual({ key: 'content_desc', value: 'Work profile' });
    else expect(selector.within).toBeUndefined();
  });

  it('accepts exactly 256 code points, emoji counted as one each', () => {
    expect(codeOf(() => parseSelector({ text: '😀'.repeat(256) }))).toBe('no error');
    expect(codeOf(() => parseSelector({ text: 'a'.repeat(256) }))).toBe('no error');
  });

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'Calendar'],
    ['a number', 42],
    ['a boolean', true],
    ['an array', [{ text: 'x' }]],
    ['an empty array', []],
    ['an empty object', {}],
    ['two keys', { text: 'a', content_desc: 'b' }],
    ['all five keys', { resource_id: 'a', text: 'b', content_desc: 'c', text_contains: 'd', input_hint: 'e' }],
    ['an unknown key', { xpath: '//*' }],
    ['an unknown key beside a good one', { text: 'a', xpath: '//*' }],
    ['a class selector', { class: 'android.widget.Button' }],
    ['bounds', { bounds: '[0,0][1,1]' }],
    ['only within', { within: { text: 'a' } }],
    ['a nested within', { text: 'a', within: { text: 'b', within: { text: 'c' } } }],
    ['within with two keys', { text: 'a', within: { text: 'b', content_desc: 'c' } }],
    ['within empty', { text: 'a', within: {} }],
    ['within a string', { text: 'a', within: 'Work profile' }],
    ['within null', { text: 'a', within: null }],
    ['within an array', { text: 'a', within: [{ text: 'b' }] }],
    ['within with an unknown key', { text: 'a', within: { ident: 'b' } }],
    ['a number value', { text: 5 }],
    ['a null value', { text: null }],
    ['an object value', { text: { $ne: '' } }],
    ['an array value', { text: ['a'] }],
    ['an empty value', { text: '' }],
    ['a whitespace value', { text: '   ' }],
    ['a newline-only value', { text: '\n\t\r' }],
    ['257 code points', { text: 'a'.repeat(257) }],
    ['257 emoji', { text: '😀'.repeat(257) }],
    ['10 KB', { text: 'x'.repeat(10_240) }],
    ['NUL', { text: 'Cal\u0000endar' }],
    ['ESC', { text: '\u001b[31mred' }],
    ['DEL', { text: 'a\u007fb' }],
    ['RLO', { text: 'abc\u202edcba' }],
    ['LRI', { text: '\u2066x\u2069' }],
    ['a lone surrogate', { text: 'a\ud800b' }],
    ['a bad value inside within', { text: 'a', within: { text: 'b\u0000' } }],
    ['an empty within value', { text: 'a', within: { content_desc: ' ' } }],
  ])('refuses %s with INVALID_SELECTOR', (_name, input) => {
    expect(codeOf(() => parseSelector(input))).toBe('INVALID_SELECTOR');
  });

  it.each(CONTROL_EXCEPT_WHITESPACE.map((c) => [c.toString(16).padStart(4, '0'), c]))(
    'refuses U+%s in a value',
    (_hex, cp) => {
      expect(codeOf(() => parseSelector({ content_desc: `x${String.fromCodePoint(cp as number)}y` }))).toBe(
        'INVALID_SELECTOR',
      );
    },
  );

  it('refuses class instances and prototype tricks', () => {
    class Fake {
      text = 'a';
    }
    expect(codeOf(() => parseSelector(new Fake()))).toBe('INVALID_SELECTOR');
    expect(codeOf(() => parseSelector(JSON.parse('{"__proto__": {"text": "x"}}')))).toBe('INVALID_SELECTOR');
    expect(codeOf(() => parseSelector(new Date()))).toBe('INVALID_SELECTOR');
  });

  it('tells the model what is accepted and never echoes hostile input verbatim', () => {
    const message = messageOf(() => parseSelector({ text: 'a', content_desc: 'b' }));
    expect(message).toContain('exactly one of id, resource_id, text, content_desc, text_contains, input_hint');
    expect(message).toContain('within');
    const huge = messageOf(() => parseSelector({ ['x'.repeat(5000) + '\u0000\u202e']: 'a' }));
    expect(huge.length).toBeLessThan(700);
    // The control characters are the point: none may reach the message.
    // eslint-disable-next-line no-control-regex
    expect(huge).not.toMatch(/[\u0000-\u001f\u202a-\u202e]/);
    const long = messageOf(() => parseSelector({ text: 'y'.repeat(100_000) }));
    expect(long).not.toContain('y'.repeat(50));
    expect(long).toContain('100000 characters');
    const nul = messageOf(() => parseSelector({ text: 'ab\u0000' }));
    expect(nul).toContain('U+0000');
    expect(nul).not.toContain('\u0000');
  });

  it('says which argument is missing and what to send, never "got a undefined"', () => {
    for (const input of [undefined, null]) {
      const message = messageOf(() => parseSelector(input));
      expect(message).toMatch(
        /^Invalid selector: the "selector" argument is (missing|null) \(it names the element to act on\)\. /,
      );
      expect(message).toContain('e.g. {"text": "Save"}');
      expect(message).not.toMatch(/undefined|got a /);
    }
  });

  it('treats a key whose value is undefined as absent', () => {
    expect(parseSelector({ text: 'a', content_desc: undefined, within: undefined })).toEqual({
      target: { key: 'text', value: 'a' },
    });
  });
});

describe('parseText (the validation rules of the contract)', () => {
  it.each(['hello', 'a', ' ', '😀'.repeat(512), 'x'.repeat(512), 'Ünïcödé 日本 עברית', 'it\'s "quoted" $(rm -rf /)'])(
    'accepts %j',
    (text) => {
      expect(parseText(text)).toBe(text);
    },
  );

  it.each([
    ['empty', ''],
    ['513 code points', 'x'.repeat(513)],
    ['513 emoji', '😀'.repeat(513)],
    ['newline', 'a\nb'],
    ['carriage return', 'a\rb'],
    ['tab', 'a\tb'],
    ['NUL', 'a\u0000'],
    ['DEL', '\u007f'],
    ['C1 control', 'a\u0085b'],
    ['RLO', '\u202eabc'],
    ['PDI', 'abc\u2069'],
    ['lone surrogate', '\udc00'],
    ['number', 42],
    ['null', null],
    ['object', { text: 'a' }],
    ['array', ['a']],
  ])('refuses %s with INVALID_TEXT', (_name, input) => {
    expect(codeOf(() => parseText(input))).toBe('INVALID_TEXT');
  });

  it('explains that a newline is not text', () => {
    expect(messageOf(() => parseText('a\n'))).toMatch(/newline/);
  });
});

describe('parsePackageName (the validation rules of the contract)', () => {
  it.each(['com.android.settings', 'a', 'A_b.C1', 'com.google.android.apps.nexuslauncher', `a${'b'.repeat(254)}`])(
    'accepts %s',
    (pkg) => {
      expect(parsePackageName(pkg)).toBe(pkg);
    },
  );

  it.each([
    'com.x; rm -rf /',
    'com.x/../../etc',
    '-e',
    '--user 0',
    'com.x && whoami',
    'com.x\ncom.y',
    'com.android.settings/.Settings',
    '',
    ' com.x',
    'com.x ',
    'com..x',
    '.com.x',
    'com.x.',
    '1com.x',
    'com.1x',
    'com.x$(id)',
    'com.x`id`',
    'com.x|sh',
    'com.x\u0000',
    'com.x\r',
    'com.\u202ex',
    'com.éx',
    'com-x',
    `a${'b'.repeat(255)}`,
  ])('refuses %j with INVALID_PACKAGE', (pkg) => {
    expect(codeOf(() => parsePackageName(pkg))).toBe('INVALID_PACKAGE');
  });

  it.each([null, undefined, 7, ['com.x'], { name: 'com.x' }])('refuses the non-string %j', (value) => {
    expect(codeOf(() => parsePackageName(value))).toBe('INVALID_PACKAGE');
  });

  it('names a missing package_name instead of "got a undefined"', () => {
    const message = messageOf(() => parsePackageName(undefined));
    expect(message).toMatch(
      /^Invalid package name: the "package_name" argument is missing \(the app to open\)\. A package name is/,
    );
    expect(message).not.toContain('undefined');
  });

  it('escapes what it quotes back', () => {
    const message = messageOf(() => parsePackageName('com.x\ncom.y\u202e'));
    expect(message).not.toMatch(/[\n\u202e]/);
    expect(message).toContain('\\u000a');
  });
});

describe('missing arguments', () => {
  it('text and direction name the missing argument and what to send', () => {
    expect(messageOf(() => parseText(undefined))).toMatch(
      /^Invalid text: the "text" argument is missing \(the text to type\)\. Text must be/,
    );
    expect(messageOf(() => parseDirection(undefined))).toBe(
      'Invalid scroll direction: the "direction" argument is missing. Send "direction": "up", "down", "left" or "right" (exactly, lowercase; "down" shows what is further down, "right" what is further right).',
    );
    expect(messageOf(() => parseDirection(null))).toContain('the "direction" argument is null');
    expect(messageOf(() => parseDirection('sideways'))).toBe(
      `Invalid scroll direction: got 'sideways'. Send "direction": "up", "down", "left" or "right" (exactly, lowercase; "down" shows what is further down, "right" what is further right).`,
    );
    for (const fn of [() => parseText(undefined), () => parseDirection(undefined), () => parseText(7)])
      expect(messageOf(fn)).not.toMatch(/undefined|got a undefined/);
  });
});

describe('parseDirection (the validation rules of the contract)', () => {
  it('accepts exactly up, down, left and right', () => {
    for (const d of ['up', 'down', 'left', 'right']) expect(parseDirection(d)).toBe(d);
  });
  it.each([
    'UP',
    'Down',
    ' up',
    'LEFT',
    'Right',
    ' left',
    'right ',
    'left\n',
    'ríght',
    'sideways',
    'horizontal',
    'left,right',
    'right;reboot',
    'l\u202eeft',
    'right\u0000',
    '',
    'up\n',
    null,
    1,
    true,
    ['left'],
    { direction: 'left' },
    'left'.repeat(3000),
  ])('refuses %j with INVALID_SCROLL_DIRECTION', (value) => {
    expect(codeOf(() => parseDirection(value))).toBe('INVALID_SCROLL_DIRECTION');
  });
});

describe("optionalSelector: ui_scroll's container", () => {
  it("absent and null are no container; a selector is parsed as ui_tap's, within included", () => {
    expect(optionalSelector({ direction: 'down' })).toBeUndefined();
    expect(optionalSelector({ direction: 'down', selector: null })).toBeUndefined();
    expect(optionalSelector({ selector: { resource_id: 'com.x:id/list' } })).toEqual({
      target: { key: 'resource_id', value: 'com.x:id/list' },
    });
    expect(optionalSelector({ selector: { text: 'Dec 1', within: { resource_id: 'com.x:id/strip' } } })).toEqual({
      target: { key: 'text', value: 'Dec 1' },
      within: { key: 'resource_id', value: 'com.x:id/strip' },
    });
  });
  it.each([
    {},
    'com.x:id/list',
    ['a'],
    5,
    true,
    { x: 10, y: 20 },
    { bounds: '[0,0][10,10]' },
    { text: 'a', resource_id: 'b' },
    { text: '' },
    { text: 'a\u202eb' },
    { text: 'x'.repeat(257) },
    { within: { text: 'a' } },
  ])('refuses %j with INVALID_SELECTOR, never as no container', (value) => {
    expect(codeOf(() => optionalSelector({ direction: 'down', selector: value }))).toBe('INVALID_SELECTOR');
  });
});

describe('parseSessionId (the validation rules of the contract)', () => {
  it.each(['a'.repeat(24), 'A-z_0'.repeat(5), 'x'.repeat(128)])('accepts %s', (id) => {
    expect(parseSessionId(id)).toBe(id);
  });
  it.each([
    'a'.repeat(23),
    'x'.repeat(129),
    '',
    `${'a'.repeat(24)}\n`,
    `${'a'.repeat(24)} `,
    `${'a'.repeat(23)}/`,
    `${'a'.repeat(23)}.`,
    `../${'a'.repeat(24)}`,
    `${'a'.repeat(23)}é`,
    null,
    // A number too long to be exact is still a number, not an id.
    // eslint-disable-next-line no-loss-of-precision
    123456789012345678901234567890,
    { id: 'a'.repeat(24) },
  ])('refuses %j with INVALID_UI_SESSION', (value) => {
    expect(codeOf(() => parseSessionId(value))).toBe('INVALID_UI_SESSION');
  });
  it('never echoes the id', () => {
    expect(messageOf(() => parseSessionId('secret-but-short'))).not.toContain('secret');
  });
});

describe('parseFlag (include_raw)', () => {
  it('accepts exactly the JSON booleans', () => {
    expect(parseFlag(true, 'include_raw')).toBe(true);
    expect(parseFlag(false, 'include_raw')).toBe(false);
  });

  it.each([
    ['"yes"', 'yes'],
    ['"true"', 'true'],
    ['"false"', 'false'],
    ['an empty string', ''],
    ['1', 1],
    ['0', 0],
    ['an empty array', []],
    ['an object', {}],
    ['[true]', [true]],
  ] as const)('refuses %s with INVALID_ARGUMENT, saying only true/false are accepted', (_label, value) => {
    expect(codeOf(() => parseFlag(value, 'include_raw'))).toBe('INVALID_ARGUMENT');
    const message = messageOf(() => parseFlag(value, 'include_raw'));
    expect(message).toMatch(/^Invalid include_raw: got .+\. Only the JSON booleans true and false are accepted/);
  });

  it('quotes a string back safely', () => {
    expect(messageOf(() => parseFlag('yes', 'include_raw'))).toContain("got the string 'yes'");
    expect(messageOf(() => parseFlag('x\u202e'.repeat(30), 'include_raw'))).not.toMatch(/\u202e/);
  });
});

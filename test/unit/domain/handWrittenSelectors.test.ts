/**
 * Selectors written by hand (text_starts_with, content_desc_contains, class_name,
 * resource_id_matches, state flags, instance). Validation, the locator each becomes, and the
 * domain matcher checked against a real XPath 1.0 engine on hand-written screens and on every
 * real dump in ../shared/fixtures (skipped with a message when ../shared is absent).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { HarnessError } from '../../../src/domain/errors.js';
import { compileIdPattern, idMatches, idPatternProblem } from '../../../src/domain/selectors/idPattern.js';
import { buildLocator } from '../../../src/domain/selectors/locator.js';
import { matchSelector } from '../../../src/domain/selectors/matcher.js';
import { selectorToWire } from '../../../src/domain/selectors/selector.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { appiumSource, screen, uiautomatorDump, type NodeSpec } from './dumpBuilder.js';
import { allNodes, evaluateLocator, parseXml } from './xpathOracle.js';

function refusal(input: unknown): string {
  try {
    parseSelector(input);
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('INVALID_SELECTOR');
    return (error as HarnessError).message;
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe('validation of hand-written selectors', () => {
  it('accepts each new key alone, with flags, with instance, and echoes them on the wire', () => {
    for (const wire of [
      { text_starts_with: 'Network' },
      { content_desc_contains: 'Tab 2' },
      { class_name: 'android.widget.Switch' },
      { resource_id_matches: 'com\\.android\\.settings:id/.*' },
      { class_name: 'android.widget.Switch', checked: true },
      {
        text: 'Save',
        within: { content_desc: 'Work profile' },
        enabled: false,
        selected: true,
        focused: false,
        instance: 0,
      },
      { text_starts_with: 'Clock', instance: 1 },
      { resource_id_matches: '^android:id/(title)$'.replace('(title)', 'title'), checked: false, instance: 999 },
    ]) {
      expect(selectorToWire(parseSelector(wire)), JSON.stringify(wire)).toEqual(wire);
    }
  });

  it('refuses coordinates under any name, at the top and inside within, saying so', () => {
    for (const key of [
      'x',
      'y',
      'X',
      'x1',
      'bounds',
      'bound',
      'point',
      'coordinates',
      'coords',
      'position',
      'offset',
      'left',
      'top',
      'center',
      'rect',
      'location',
      'tap_coordinates',
    ]) {
      expect(refusal({ text: 'Save', [key]: 10 }), key).toMatch(/never take coordinates/);
      expect(refusal({ text: 'Save', within: { content_desc: 'Work', [key]: 10 } }), key).toMatch(
        /never take coordinates/,
      );
    }
    expect(refusal({ x: 10, y: 20 })).toMatch(/a position\. Selectors never take coordinates/);
  });

  it('refuses flags and instance of the wrong type, alone, or inside within', () => {
    expect(refusal({ checked: true })).toMatch(/none of .*state flags and instance only narrow a main key/);
    expect(refusal({ instance: 0 })).toMatch(/only narrow a main key/);
    for (const value of ['true', 1, null, [], {}])
      expect(refusal({ text: 'A', checked: value })).toMatch(/checked must be the JSON boolean/);
    for (const value of [-1, 1.5, 1000, '1', true, null, Number.NaN])
      expect(refusal({ text: 'A', instance: value })).toMatch(/instance must be a whole number from 0 to 999/);
    expect(refusal({ text: 'A', within: { text: 'B', checked: true } })).toMatch(/state flags go at the top level/);
    expect(refusal({ text: 'A', within: { text: 'B', instance: 1 } })).toMatch(/instance.*top level/);
  });

  it('checks the length and characters of every new key like the old ones', () => {
    for (const key of ['text_starts_with', 'content_desc_contains', 'class_name', 'resource_id_matches']) {
      expect(refusal({ [key]: '' })).toMatch(new RegExp(`selector\\.${key}`));
      expect(refusal({ [key]: 'a\u0000b' })).toMatch(new RegExp(`selector\\.${key}`));
      expect(refusal({ [key]: 'a'.repeat(257) })).toMatch(new RegExp(`selector\\.${key}`));
      expect(refusal({ [key]: 5 })).toMatch(/must be a string/);
    }
  });

  it('resource_id_matches cannot take or be a within', () => {
    expect(refusal({ resource_id_matches: '.*:id/title', within: { text: 'Wi-Fi' } })).toMatch(
      /cannot be combined with "within"/,
    );
    expect(refusal({ text: 'Wi-Fi', within: { resource_id_matches: '.*:id/title' } })).toMatch(
      /cannot be combined with "within"/,
    );
  });
});

describe('the resource_id_matches dialect', () => {
  it('accepts literals, ., classes, the safe escapes, one quantifier per atom and the two anchors', () => {
    for (const ok of [
      'com\\.x:id/row_.*',
      '^android:id/title$',
      '.*:id/switch_widget',
      'com.x:id/item[0-9]+',
      '[^/]+:id/[a-z_]+',
      'a?b?c?d?',
      '\\d\\w\\D\\W',
      'x[a-]y',
      'x[-a]y',
      '[$]',
      'com\\.x:id/a\\-b\\/c',
    ]) {
      expect(idPatternProblem(ok), ok).toBeNull();
    }
  });

  it.each([
    ['(a)\\1', /groups are not supported/],
    ['(?=a)b', /groups are not supported/],
    ['(?<=a)b', /groups are not supported/],
    ['(a+)+', /groups are not supported/],
    ['a**', /follows another quantifier/],
    ['a+?', /follows another quantifier/],
    ['a*+', /follows another quantifier/],
    ['*a', /nothing to repeat/],
    ['^+a', /nothing to repeat/],
    ['a{1,30}', /counted repetition/],
    ['a|b', /alternation/],
    ['.*.*.*', /3 '\*' or '\+' \(at most 2\)/],
    ['a?b?c?d?e?f?g?', /7 quantifiers \(at most 6\)/],
    ['\\s+', /'\\s' is not supported/],
    ['\\\\', /'\\\\' is not supported/],
    ['a\\', /ends with a backslash/],
    ['[a&&b]', /'&' inside a character class/],
    ['[a[b]]', /'\[' inside a character class/],
    ['[z-a]', /runs backwards/],
    ['[]', /empty|not closed/],
    ['[abc', /not closed/],
    ['a]', /closes no class/],
    ['a"b', /double quote/],
    ['a^b', /only allowed as the first/],
    ['a$b', /only allowed as the first/],
    ['^$', /nothing but anchors/],
    ['a'.repeat(129), /129 characters long \(at most 128\)/],
  ])('refuses %j', (pattern, message) => {
    expect(idPatternProblem(pattern)).toMatch(message);
    expect(refusal({ resource_id_matches: pattern })).toMatch(/selector\.resource_id_matches/);
  });

  it('matches the whole id with Java semantics: no id never matches, . stops at every Java line terminator', () => {
    expect(idMatches('title', 'android:id/title')).toBe(false); // matches(), not find()
    expect(idMatches('.*title', 'android:id/title')).toBe(true);
    expect(idMatches('.*', '')).toBe(false); // getViewIdResourceName() is null: no match
    // java.util.regex: '.' excludes \n \r \u0085 \u2028 \u2029; a JS '.' would accept \u0085.
    for (const terminator of ['\n', '\r', '\u0085', '\u2028', '\u2029'])
      expect(idMatches('a.b', `a${terminator}b`)).toBe(false);
    expect(idMatches('a[^x]b', 'a\u0085b')).toBe(true);
    // Code points, not UTF-16 units, as Java's Pattern.
    expect(idMatches('a.b', 'a😀b')).toBe(true);
    expect(idMatches('a\\.b', 'axb')).toBe(false);
    expect(compileIdPattern('^x$').source).toBe('^(?:x)$');
  });

  it('stays fast on the worst input the bounds allow', () => {
    // Two unbounded quantifiers over a 256-character id with no match: polynomial, not exponential.
    const id = 'a'.repeat(256);
    expect(idMatches('.*a.*b', id)).toBe(false);
    expect(idMatches('a*a*b', id)).toBe(false);
  });
});

describe('buildLocator for hand-written selectors', () => {
  it('translates each key, flag and instance', () => {
    const locator = (wire: unknown) => buildLocator(parseSelector(wire));
    expect(locator({ text_starts_with: 'Net' })).toEqual({
      using: 'xpath',
      value: "//*[starts-with(@text, 'Net') and not(@password='true')]",
    });
    expect(locator({ content_desc_contains: "it's" })).toEqual({
      using: 'xpath',
      value: `//*[contains(@content-desc, "it's")]`,
    });
    expect(locator({ class_name: 'android.widget.Switch' })).toEqual({
      using: 'xpath',
      value: "//*[(@class='android.widget.Switch' or (not(@class) and local-name()='android.widget.Switch'))]",
    });
    expect(locator({ text: 'Save', checked: true, enabled: true })).toEqual({
      using: 'xpath',
      value: "//*[(@text='Save' and not(@password='true')) and @checked='true' and not(@enabled='false')]",
    });
    expect(locator({ text: 'Save', selected: false, focused: true, enabled: false })).toEqual({
      using: 'xpath',
      value:
        "//*[(@text='Save' and not(@password='true')) and not(@selected='true') and @enabled='false' and @focused='true']",
    });
    expect(locator({ text: 'Save', within: { content_desc: 'Work' }, instance: 1 })).toEqual({
      using: 'xpath',
      value: "(//*[(@text='Save' and not(@password='true')) and ancestor::*[@content-desc='Work']])[2]",
    });
    expect(locator({ resource_id_matches: 'com\\.x:id/row_.*', checked: true, instance: 2 })).toEqual({
      using: '-android uiautomator',
      value: 'new UiSelector().resourceIdMatches("com\\.x:id/row_.*").checked(true).instance(2)',
    });
    // The offered selectors keep their strategies.
    expect(locator({ resource_id: 'com.x:id/a' })).toEqual({ using: 'id', value: 'com.x:id/a' });
    expect(locator({ content_desc: 'Up' })).toEqual({ using: 'accessibility id', value: 'Up' });
  });
});

const handScreen: NodeSpec[] = [
  screen([
    { cls: 'android.widget.TextView', id: 'com.x:id/title', text: 'Network & internet', bounds: '[0,0][100,10]' },
    { cls: 'android.widget.TextView', id: 'com.x:id/title', text: 'Networked storage', bounds: '[0,10][100,20]' },
    {
      cls: 'android.widget.TextView',
      id: 'com.x:id/summary',
      text: 'it\'s "on"',
      desc: 'Tab 1 of 3',
      bounds: '[0,20][100,30]',
    },
    {
      cls: 'android.widget.Switch',
      id: 'android:id/switch_widget',
      checkable: true,
      checked: true,
      bounds: '[0,30][100,40]',
    },
    {
      cls: 'android.widget.Switch',
      id: 'android:id/switch_widget',
      checkable: true,
      checked: false,
      enabled: false,
      bounds: '[0,40][100,50]',
    },
    {
      cls: 'android.widget.LinearLayout',
      desc: 'Work profile',
      bounds: '[0,50][100,90]',
      children: [
        { cls: 'android.widget.Button', text: 'Save', bounds: '[0,50][100,60]' },
        { cls: 'android.widget.Button', text: 'Save', enabled: false, bounds: '[0,60][100,70]' },
        { cls: 'android.widget.Switch', checkable: true, checked: true, bounds: '[0,70][100,80]' },
      ],
    },
    { cls: 'android.widget.Button', text: 'Save', bounds: '[0,90][100,100]' },
  ]),
];

const xpathSelectors: unknown[] = [
  { text_starts_with: 'Network' },
  { text_starts_with: 'Net' },
  { text_starts_with: "it's" },
  { content_desc_contains: 'Tab' },
  { content_desc_contains: 'profile' },
  { class_name: 'android.widget.Switch' },
  { class_name: 'android.widget.Switch', checked: true },
  { class_name: 'android.widget.Switch', checked: false },
  { class_name: 'android.widget.Switch', enabled: false },
  { class_name: 'android.widget.Switch', checked: true, within: { content_desc: 'Work profile' } },
  { text: 'Save', enabled: true },
  { text: 'Save', enabled: false },
  { text: 'Save', instance: 0 },
  { text: 'Save', instance: 1 },
  { text: 'Save', instance: 2 },
  { text: 'Save', instance: 3 },
  { text: 'Save', within: { content_desc: 'Work profile' }, instance: 1 },
  { text: 'Save', selected: false, focused: false, instance: 2 },
  { text: 'Save', within: { class_name: 'android.widget.LinearLayout' } },
  { resource_id: 'com.x:id/title', instance: 1 },
  { content_desc: 'Tab 1 of 3', checked: false },
];

describe('the matcher agrees with a real XPath 1.0 engine on every hand-written key', () => {
  for (const [shape, xml] of [
    ['uiautomator', uiautomatorDump(handScreen)],
    ['appium', appiumSource(handScreen)],
    ['appium without class attributes', appiumSource(handScreen, undefined, false)],
  ] as const) {
    it(`finds exactly what the matcher finds (${shape})`, () => {
      const doc = parseXml(xml);
      const elements = allNodes(doc);
      const tree = parseDump(xml);
      let nonEmpty = 0;
      for (const wire of xpathSelectors) {
        const selector = parseSelector(wire);
        const expected = matchSelector(tree, selector).map((n) => elements[n.order]);
        expect(evaluateLocator(doc, buildLocator(selector)), JSON.stringify(wire)).toEqual(expected);
        if (expected.length > 0) nonEmpty++;
      }
      // { text: 'Save', instance: 3 } is the only one built to find nothing.
      expect(nonEmpty).toBe(xpathSelectors.length - 1);
    });
  }

  it('instance picks the n-th match in document order', () => {
    const tree = parseDump(uiautomatorDump(handScreen));
    const bounds = (instance: number) =>
      matchSelector(tree, parseSelector({ text: 'Save', instance })).map((n) => n.bounds?.top);
    expect([0, 1, 2, 3].map(bounds)).toEqual([[50], [60], [90], []]);
  });
});

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixturesRoot = resolve(repoRoot, '../shared/fixtures');
const present = existsSync(join(fixturesRoot, 'dumps'));
if (!present) {
  console.warn(
    `hand-written selectors on fixtures skipped: ${fixturesRoot} is absent (clone ../shared next to the repository)`,
  );
}

describe.skipIf(!present)('hand-written selectors on every real dump in ../shared/fixtures', () => {
  const files = present
    ? ['dumps', 'appium-source'].flatMap((dir) => {
        const full = join(fixturesRoot, dir);
        return existsSync(full)
          ? readdirSync(full)
              .filter((f) => f.endsWith('.xml'))
              .sort()
              .map((f) => join(full, f))
          : [];
      })
    : [];

  it('each XPath key, with flags and instance, finds what the matcher finds', () => {
    let checked = 0;
    let found = 0;
    for (const file of files) {
      const xml = readFileSync(file, 'utf8');
      const doc = parseXml(xml);
      const elements = allNodes(doc);
      const tree = parseDump(xml);
      const wires: unknown[] = [];
      for (const node of tree.nodes.slice(0, 20)) {
        const text = [...node.text].slice(0, 4).join('');
        const desc = [...node.contentDesc].slice(1, 5).join('');
        if (text.trim()) wires.push({ text_starts_with: text }, { text_starts_with: text, enabled: true, instance: 1 });
        if (desc.trim()) wires.push({ content_desc_contains: desc }, { content_desc_contains: desc, selected: false });
        wires.push({ class_name: node.className, checked: node.checked, instance: node.order % 3 });
        wires.push({ class_name: node.className, focused: node.focused, enabled: node.enabled });
      }
      for (const wire of wires) {
        let selector;
        try {
          selector = parseSelector(wire);
        } catch {
          continue; // a fixture value the selector rules refuse (control characters): not a selector
        }
        const expected = matchSelector(tree, selector).map((n) => elements[n.order]);
        expect(
          evaluateLocator(doc, buildLocator(selector)),
          `${file.slice(fixturesRoot.length + 1)} ${JSON.stringify(wire)}`,
        ).toEqual(expected);
        checked++;
        if (expected.length > 0) found++;
      }
    }
    expect(checked).toBeGreaterThan(500);
    expect(found).toBeGreaterThan(checked / 2);
  });

  it('resource_id_matches over real ids: the whole id, with Java semantics, exactly the nodes a naive whole-match would pick', () => {
    let ids = 0;
    for (const file of files) {
      const tree = parseDump(readFileSync(file, 'utf8'));
      for (const node of tree.nodes) {
        if (node.resourceId === '' || /[\n\r\u0085\u2028\u2029"\\]/.test(node.resourceId)) continue;
        const [pkg, name] = node.resourceId.split(':id/');
        if (pkg === undefined || name === undefined) continue;
        const pattern = `.*:id/${name.replace(/[.^$|?*+()[\]{}\\-]/g, (c) => `\\${c}`)}`;
        if (idPatternProblem(pattern) !== null) continue;
        const picked = matchSelector(tree, parseSelector({ resource_id_matches: pattern }));
        expect(picked).toContain(node);
        expect(picked.every((n) => n.resourceId.endsWith(`:id/${name}`))).toBe(true);
        ids++;
      }
    }
    expect(ids).toBeGreaterThan(500);
  });
});

describe('docs/flows/template.json shows the hand-written keys', () => {
  it('every selector in it is valid, and together they use each hand-written key and long_press', () => {
    const template = JSON.parse(readFileSync(join(repoRoot, 'docs/flows/template.json'), 'utf8')) as {
      steps: { tool: string; arguments: { selector?: unknown; long_press?: unknown } }[];
    };
    const keys = new Set<string>();
    for (const step of template.steps) {
      if (step.arguments.selector === undefined) continue;
      const wire = selectorToWire(parseSelector(step.arguments.selector));
      for (const key of Object.keys(wire)) keys.add(key);
      if (step.arguments.long_press === true) keys.add('long_press');
    }
    for (const key of [
      'text_starts_with',
      'content_desc_contains',
      'class_name',
      'resource_id_matches',
      'checked',
      'instance',
      'long_press',
    ]) {
      expect(keys.has(key), key).toBe(true);
    }
  });
});

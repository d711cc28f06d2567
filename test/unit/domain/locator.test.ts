import { describe, expect, it } from 'vitest';
import xpath from 'xpath';
import { buildLocator, xpathLiteral } from '../../../src/domain/selectors/locator.js';
import { matchSelector } from '../../../src/domain/selectors/matcher.js';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { allNodes, evaluateLocator, parseXml } from './xpathOracle.js';
import { appiumSource, screen, uiautomatorDump, type NodeSpec } from './dumpBuilder.js';

const tricky = [
  'plain',
  "it's",
  'say "hi"',
  `it's "both"`,
  `'`,
  `"`,
  `'"'"`,
  `"'`,
  `'''`,
  `a'b"c'd"e`,
  'Historial\nTab 2 of 3',
  '日本語 😀 العربية',
  '&amp; <node> ]]>',
];

describe('xpathLiteral', () => {
  it('uses single quotes, double quotes, or concat() when both appear', () => {
    expect(xpathLiteral('plain')).toBe("'plain'");
    expect(xpathLiteral("it's")).toBe(`"it's"`);
    expect(xpathLiteral('say "hi"')).toBe(`'say "hi"'`);
    expect(xpathLiteral(`it's "both"`)).toBe(`concat('it', "'", 's "both"')`);
  });

  it.each(tricky)('round-trips %j through a real XPath engine', (value) => {
    const result = xpath.select(`string(${xpathLiteral(value)})`, parseXml('<hierarchy/>') as unknown as Node);
    expect(result).toBe(value);
  });
});

const screenSpec: NodeSpec[] = [
  screen([
    ...tricky.map((t, i): NodeSpec => ({
      cls: 'android.widget.TextView',
      text: t,
      desc: `d:${t}`,
      bounds: `[0,${i * 10}][100,${i * 10 + 10}]`,
    })),
    { cls: 'android.widget.Button', id: 'com.example.app:id/save', text: 'Save', bounds: '[0,500][100,600]' },
    { cls: 'android.widget.Button', id: 'save_button', text: 'Save as', bounds: '[0,600][100,700]' },
    {
      cls: 'android.widget.LinearLayout',
      desc: 'Work profile',
      bounds: '[0,700][1080,900]',
      children: [
        { cls: 'android.widget.Button', text: 'Save', bounds: '[0,700][100,800]' },
        { cls: 'android.widget.EditText', hint: 'Search apps', bounds: '[0,800][500,900]' },
      ],
    },
    // A Compose-style field: the EditText holds its hint in a child text node.
    {
      cls: 'android.widget.EditText',
      bounds: '[0,900][500,1000]',
      children: [{ cls: 'android.view.View', text: 'Search settings', bounds: '[0,900][500,1000]' }],
    },
    // Neither of these is an EditText, whatever their names contain.
    { cls: 'com.example.EditTextLayout', hint: 'Search apps', bounds: '[0,1000][500,1100]' },
    { cls: 'android.widget.TextView', hint: 'Search apps', bounds: '[0,1100][500,1200]' },
    { cls: 'com.google.android.material.textfield.TextInputEditText', desc: 'Email', bounds: '[0,1200][500,1300]' },
    // A password field of a view that exposes the plain text to accessibility.
    {
      cls: 'android.widget.EditText',
      id: 'com.example.app:id/pin',
      text: 'hunter2-secret',
      hint: 'PIN',
      password: true,
      bounds: '[0,1300][500,1400]',
    },
  ]),
];

describe('buildLocator (the selection rules of the contract), checked by a real XPath engine and by the domain matcher', () => {
  it('maps each key to its strategy', () => {
    expect(buildLocator({ target: { key: 'resource_id', value: 'com.example.app:id/save' } })).toEqual({
      using: 'id',
      value: 'com.example.app:id/save',
    });
    expect(buildLocator({ target: { key: 'content_desc', value: 'Navigate up' } })).toEqual({
      using: 'accessibility id',
      value: 'Navigate up',
    });
    // A password field's text is never matched.
    expect(buildLocator({ target: { key: 'text', value: 'Save' } })).toEqual({
      using: 'xpath',
      value: "//*[@text='Save' and not(@password='true')]",
    });
    expect(buildLocator({ target: { key: 'text_contains', value: 'Sav' } })).toEqual({
      using: 'xpath',
      value: "//*[contains(@text, 'Sav') and not(@password='true')]",
    });
    // An id without ':id/' would be rewritten by UiAutomator2's id strategy; it goes as XPath.
    expect(buildLocator({ target: { key: 'resource_id', value: 'save_button' } })).toEqual({
      using: 'xpath',
      value: "//*[@resource-id='save_button']",
    });
    expect(
      buildLocator({ target: { key: 'text', value: 'Save' }, within: { key: 'content_desc', value: 'Work profile' } }),
    ).toEqual({
      using: 'xpath',
      value: "//*[(@text='Save' and not(@password='true')) and ancestor::*[@content-desc='Work profile']]",
    });
  });

  const selectors: unknown[] = [
    ...tricky.flatMap((t) => [{ text: t }, { content_desc: `d:${t}` }, { text_contains: t.slice(0, 2) || t }]),
    { resource_id: 'com.example.app:id/save' },
    { resource_id: 'save_button' },
    { text: 'Save' },
    { text_contains: 'Save' },
    { text: 'Save', within: { content_desc: 'Work profile' } },
    { text_contains: 'Sav', within: { content_desc: 'Work profile' } },
    { input_hint: 'Search apps' },
    { input_hint: 'Search settings' },
    { input_hint: 'Search' },
    { input_hint: 'Email' },
    { input_hint: 'Search', within: { content_desc: 'Work profile' } },
    { text: 'Save', within: { input_hint: 'Search' } },
    { text: 'nothing like this' },
    { content_desc: 'Work profile', within: { text: 'Save' } },
    { input_hint: 'PIN' },
    // A password field's text: never a match, in any form.
    { text: 'hunter2-secret' },
    { text_contains: 'hunter' },
    { input_hint: 'hunter' },
  ];

  for (const [shape, xml] of [
    ['uiautomator', uiautomatorDump(screenSpec)],
    ['appium', appiumSource(screenSpec)],
    ['appium without class attributes', appiumSource(screenSpec, undefined, false)],
  ] as const) {
    it(`finds exactly what the matcher finds (${shape})`, () => {
      const doc = parseXml(xml);
      const elements = allNodes(doc);
      const tree = parseDump(xml);
      expect(elements).toHaveLength(tree.nodes.length);
      let nonEmpty = 0;
      for (const wire of selectors) {
        const selector = parseSelector(wire);
        const expected = matchSelector(tree, selector).map((n) => elements[n.order]);
        const found = evaluateLocator(doc, buildLocator(selector));
        expect(found, JSON.stringify(wire)).toEqual(expected);
        if (expected.length > 0) nonEmpty++;
      }
      // Six selectors above are built to find nothing; every other one finds something.
      expect(nonEmpty).toBe(selectors.length - 6);
    });
  }

  it('input_hint finds only EditTexts, through their own or a descendant label', () => {
    const tree = parseDump(uiautomatorDump(screenSpec));
    const classes = (v: string) => matchSelector(tree, parseSelector({ input_hint: v })).map((n) => n.className);
    expect(classes('Search apps')).toEqual(['android.widget.EditText']);
    expect(classes('Search')).toEqual(['android.widget.EditText', 'android.widget.EditText']);
    expect(classes('Email')).toEqual(['com.google.android.material.textfield.TextInputEditText']);
  });

  it('never matches the text of a password field, while its hint and id still find it', () => {
    const tree = parseDump(appiumSource(screenSpec));
    const ids = (wire: unknown) => matchSelector(tree, parseSelector(wire)).map((n) => n.resourceId);
    expect(ids({ text: 'hunter2-secret' })).toEqual([]);
    expect(ids({ text_contains: 'secret' })).toEqual([]);
    expect(ids({ input_hint: 'secret' })).toEqual([]);
    expect(ids({ input_hint: 'PIN' })).toEqual(['com.example.app:id/pin']);
    expect(ids({ resource_id: 'com.example.app:id/pin' })).toEqual(['com.example.app:id/pin']);
  });

  it('input_hint finds a field before and after typing, through the hint UiAutomator2 keeps reporting', () => {
    const field = (text: string, showingHint: boolean): string =>
      appiumSource([
        screen([{ cls: 'android.widget.EditText', text, hint: 'Email', showingHint, bounds: '[0,0][1080,150]' }]),
      ]);
    for (const xml of [field('Email', true), field('ada@example.com', false)]) {
      const doc = parseXml(xml);
      const found = evaluateLocator(doc, buildLocator(parseSelector({ input_hint: 'Email' })));
      expect(found, xml).toHaveLength(1);
      expect(matchSelector(parseDump(xml), parseSelector({ input_hint: 'Email' }))).toHaveLength(1);
    }
    // {text: "Email"} is what an empty field's text says, and it stops matching once something is typed.
    expect(
      evaluateLocator(parseXml(field('ada@example.com', false)), buildLocator(parseSelector({ text: 'Email' }))),
    ).toEqual([]);
  });
});

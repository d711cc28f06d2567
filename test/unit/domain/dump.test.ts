import { describe, expect, it } from 'vitest';
import { HIDDEN_PASSWORD_TEXT, parseDump, redactPasswordTexts } from '../../../src/domain/tree/dump.js';
import { HarnessError } from '../../../src/domain/errors.js';
import { isVisible } from '../../../src/domain/tree/nodeFacts.js';
import { appiumSource, escapeAttr, screen, uiautomatorDump } from './dumpBuilder.js';
import { refusalMessage } from '../../support/harnessError.js';

/** The whole refusal of a dump: UI_TREE_UNAVAILABLE, and its message word for word. */
const unavailableMessage = (xml: string): string => refusalMessage('UI_TREE_UNAVAILABLE', () => parseDump(xml));

const sample = [
  screen([
    { cls: 'android.widget.TextView', text: 'Title', bounds: '[0,0][1080,100]' },
    {
      cls: 'android.widget.LinearLayout',
      clickable: true,
      bounds: '[0,100][1080,300]',
      children: [
        { cls: 'android.widget.EditText', hint: 'Search', id: 'com.example.app:id/q', bounds: '[10,110][1070,290]' },
      ],
    },
  ]),
];

describe('parseDump', () => {
  it('reads the uiautomator shape', () => {
    const tree = parseDump(uiautomatorDump(sample, 1));
    expect(tree.rotation).toBe(1);
    expect(tree.declaredSize).toBeNull();
    expect(tree.roots).toHaveLength(1);
    expect(tree.nodes.map((n) => n.className)).toEqual([
      'android.widget.FrameLayout',
      'android.widget.TextView',
      'android.widget.LinearLayout',
      'android.widget.EditText',
    ]);
    expect(tree.nodes.map((n) => n.order)).toEqual([0, 1, 2, 3]);
    const edit = tree.nodes[3]!;
    expect(edit.hint).toBe('Search');
    expect(edit.resourceId).toBe('com.example.app:id/q');
    expect(edit.bounds).toEqual({ left: 10, top: 110, right: 1070, bottom: 290 });
    expect(edit.parent).toBe(tree.nodes[2]);
    expect(tree.nodes[2]!.clickable).toBe(true);
    expect(tree.nodes[2]!.children).toEqual([edit]);
    expect(tree.nodes[0]!.packageName).toBe('com.example.app');
  });

  it('reads the Appium page-source shape, with and without class attributes', () => {
    for (const withClass of [true, false]) {
      const tree = parseDump(appiumSource(sample, { width: 1080, height: 2400 }, withClass));
      expect(tree.declaredSize).toEqual({ width: 1080, height: 2400 });
      expect(tree.rotation).toBe(0);
      expect(tree.nodes.map((n) => n.className)).toEqual([
        'android.widget.FrameLayout',
        'android.widget.TextView',
        'android.widget.LinearLayout',
        'android.widget.EditText',
      ]);
      expect(tree.nodes[3]!.parent).toBe(tree.nodes[2]);
    }
  });

  it("ignores junk around the hierarchy (adb chatter, the device's own trailer)", () => {
    const xml = `WARNING: linker: junk\r\n${uiautomatorDump(sample)}UI hierchary dumped to: /dev/tty\r\n`;
    expect(parseDump(xml).nodes).toHaveLength(4);
    expect(parseDump(`\uFEFF  ${uiautomatorDump(sample)}\n\n`).nodes).toHaveLength(4);
  });

  it('decodes entities, keeps emoji, CJK, RTL and newlines', () => {
    const xml =
      `<?xml version='1.0'?><hierarchy rotation="0"><node class="android.view.View" text="a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;" ` +
      `content-desc="Historial&#10;Tab 2 of 3" hint="&#x1F600; 日本語 العربية" resource-id="x&#13;y&#9;z" bounds="[1,2][3,4]" /></hierarchy>`;
    const node = parseDump(xml).nodes[0]!;
    expect(node.text).toBe('a & b <c> "d" \'e\'');
    expect(node.contentDesc).toBe('Historial\nTab 2 of 3');
    expect(node.hint).toBe('😀 日本語 العربية');
    expect(node.resourceId).toBe('x\ry\tz');
  });

  it('keeps unknown entities as written and accepts > and single quotes in values', () => {
    const xml = `<hierarchy><node class='a' text='x > y &nbsp; &#xD800;' bounds='[0,0][5,5]'/></hierarchy>`;
    expect(parseDump(xml).nodes[0]!.text).toBe('x > y &nbsp; &#xD800;');
  });

  it('fills missing attributes with safe defaults', () => {
    const node = parseDump('<hierarchy><node /></hierarchy>').nodes[0]!;
    expect(node).toMatchObject({
      className: '',
      text: '',
      contentDesc: '',
      hint: '',
      resourceId: '',
      clickable: false,
      enabled: true,
      bounds: null,
    });
    expect(isVisible(node)).toBe(false);
  });

  it('treats [0,0][0,0] as present but invisible', () => {
    const node = parseDump('<hierarchy><node bounds="[0,0][0,0]" /></hierarchy>').nodes[0]!;
    expect(node.bounds).toEqual({ left: 0, top: 0, right: 0, bottom: 0 });
    expect(isVisible(node)).toBe(false);
    expect(isVisible(parseDump('<hierarchy><node bounds="[0,0][1,0]" /></hierarchy>').nodes[0]!)).toBe(true);
  });

  it('skips comments, processing instructions and CDATA inside the hierarchy', () => {
    const xml = `<hierarchy><!-- a <node> in a comment --><?pi x?><node text="a"><![CDATA[<node/>]]></node></hierarchy>`;
    expect(parseDump(xml).nodes).toHaveLength(1);
  });

  it('reads several windows as several roots', () => {
    const tree = parseDump(uiautomatorDump([screen([], '[0,0][1080,100]'), screen([], '[0,100][1080,2400]')]));
    expect(tree.roots).toHaveLength(2);
    expect(tree.roots[1]!.parent).toBeNull();
  });

  it.each([
    ['empty input', '', /empty/],
    ['whitespace', '  \n ', /empty/],
    ['null root node', 'ERROR: null root node returned by UiTestAutomationBridge.\n', /null root node/],
    ['idle state', 'ERROR: could not get idle state.\n', /idle state/],
    [
      'UiAutomation busy',
      'java.lang.IllegalStateException: UiAutomationService x already registered!',
      /another UiAutomation/,
    ],
    ['not XML', '{"json": true}', /no <hierarchy>/],
    ['no nodes', '<hierarchy rotation="0"></hierarchy>', /no nodes/],
    ['self-closing hierarchy', '<hierarchy rotation="0"/>', /no nodes/],
    ['cut short', uiautomatorDump(sample).slice(0, 400), /cut short|not closed|never closed|not terminated/],
    ['mismatched tags', '<hierarchy><node><node></node></hierarchy>', /does not match|never closed/],
    ['unquoted attribute', '<hierarchy><node text=abc /></hierarchy>', /not quoted/],
    ['stray close', '<hierarchy></node></hierarchy>', /does not match/],
  ])('refuses %s with UI_TREE_UNAVAILABLE and a next step', (_name, xml, reason) => {
    const message = unavailableMessage(xml);
    expect(message).toMatch(reason);
    expect(message).toMatch(/call ui_get_tree again/);
    expect(message.length).toBeLessThan(400);
  });

  it('does not echo a huge malformed dump', () => {
    const message = unavailableMessage(`<hierarchy><${'x'.repeat(100_000)}`);
    expect(message.length).toBeLessThan(400);
  });

  // How fast is a figure of the bench (bench/tools/speedFigures.ts), not a check: a loaded runner would flake it.
  it('parses a large dump whole', () => {
    const rows = Array.from({ length: 800 }, (_, i) => ({
      cls: 'android.widget.LinearLayout',
      clickable: true,
      bounds: `[0,${i * 3}][1080,${i * 3 + 3}]`,
      children: [{ cls: 'android.widget.TextView', text: `Row ${i}`, bounds: `[0,${i * 3}][1080,${i * 3 + 3}]` }],
    }));
    const xml = uiautomatorDump([screen(rows)]);
    expect(xml.length).toBeGreaterThan(400_000);
    const tree = parseDump(xml);
    expect(tree.nodes).toHaveLength(1601);
    expect(tree.nodes.at(-1)?.text).toBe('Row 799');
  });
});

describe('showing-hint and password fields', () => {
  it("reads UiAutomator2's showing-hint, and null where the dump has none", () => {
    const field = { cls: 'android.widget.EditText', text: 'Email', hint: 'Email', bounds: '[0,0][1080,150]' };
    expect(parseDump(appiumSource([screen([{ ...field, showingHint: true }])])).nodes[1]?.showingHint).toBe(true);
    expect(parseDump(appiumSource([screen([{ ...field, showingHint: false }])])).nodes[1]?.showingHint).toBe(false);
    expect(parseDump(uiautomatorDump([screen([field])])).nodes[1]?.showingHint).toBeNull();
  });

  const SECRET = `hunter2-secret &amp; "q"`;
  const roots = (text: string) => [
    screen([
      { cls: 'android.widget.TextView', text: 'hunter2-secret is not a password here', bounds: '[0,0][1080,100]' },
      { cls: 'android.widget.EditText', text, hint: 'Password', password: true, bounds: '[0,100][1080,250]' },
      { cls: 'android.widget.EditText', text: '', password: true, bounds: '[0,250][1080,400]' },
      {
        cls: 'android.widget.EditText',
        text: 'Password',
        hint: 'Password',
        password: true,
        bounds: '[0,400][1080,550]',
      },
    ]),
  ];

  for (const [shape, build] of [
    ['uiautomator', (text: string) => uiautomatorDump(roots(text))],
    ['appium', (text: string) => appiumSource(roots(text))],
  ] as const) {
    it(`redactPasswordTexts hides the text of a password field and nothing else (${shape})`, () => {
      const xml = build(SECRET);
      const redacted = redactPasswordTexts(xml);
      expect(xml).toContain(escapeAttr(SECRET));
      expect(redacted).not.toContain(escapeAttr(SECRET));
      const before = parseDump(xml).nodes;
      const after = parseDump(redacted).nodes;
      expect(after.map((n) => n.text)).toEqual([
        before[0]!.text,
        'hunter2-secret is not a password here',
        HIDDEN_PASSWORD_TEXT,
        // An empty text, and the field's own hint while it shows it, stay.
        '',
        'Password',
      ]);
      // Everything else is byte for byte what the device wrote.
      expect(redacted.replace(HIDDEN_PASSWORD_TEXT, 'X')).toBe(xml.replace(escapeAttr(SECRET), 'X'));
      // Bullets are a password field's text too.
      expect(parseDump(redactPasswordTexts(build('••••••'))).nodes[2]?.text).toBe(HIDDEN_PASSWORD_TEXT);
    });
  }

  it('redactPasswordTexts returns a dump without password fields unchanged, and refuses what parseDump refuses', () => {
    const xml = uiautomatorDump(sample);
    expect(redactPasswordTexts(xml)).toBe(xml);
    expect(() => redactPasswordTexts('not xml')).toThrow(HarnessError);
  });
});

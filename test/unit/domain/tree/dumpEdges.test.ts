import { describe, expect, it } from 'vitest';
import {
  decodeEntities,
  HIDDEN_PASSWORD_TEXT,
  parseBounds,
  parseDump,
  redactPasswordTexts,
} from '../../../../src/domain/tree/dump.js';
import { refusalMessage } from '../../../support/harnessError.js';

const NEXT = ' Wait a moment for the screen to settle and call ui_get_tree again.';

/** The whole refusal of a dump: UI_TREE_UNAVAILABLE, and its message word for word. */
const refusal = (xml: string): string => refusalMessage('UI_TREE_UNAVAILABLE', () => parseDump(xml));

function reason(text: string): string {
  return `The UI hierarchy could not be read: ${text}.${NEXT}`;
}

describe('decodeEntities and parseBounds', () => {
  it('decodes decimal and hex references at the edges of Unicode, and keeps the rest as written', () => {
    expect(decodeEntities('&#65;&#x41;&#x10FFFF;&#0;')).toBe('AA\u{10FFFF}\u0000');
    // XML writes a hex reference with a lowercase x only; `&#X41;` is no reference and stays as written.
    expect(decodeEntities('&#X41;')).toBe('&#X41;');
    expect(decodeEntities('&#x110000;&#1114112;&#xDFFF;&#55296;')).toBe('&#x110000;&#1114112;&#xDFFF;&#55296;');
    expect(decodeEntities('&#xD7FF;&#xE000;')).toBe('\uD7FF\uE000');
    expect(decodeEntities('&nbsp; &AMP; &amp')).toBe('&nbsp; &AMP; &amp');
    expect(decodeEntities('&lt;&gt;&quot;&apos;&amp;')).toBe('<>"\'&');
    expect(decodeEntities('&#x1234567;&#12345678;')).toBe('&#x1234567;&#12345678;');
    expect(decodeEntities('no entity')).toBe('no entity');
  });

  it('reads bounds with spaces around and negative numbers, and nothing else', () => {
    expect(parseBounds(' [-5,-6][7,8] ')).toEqual({ left: -5, top: -6, right: 7, bottom: 8 });
    expect(parseBounds(undefined)).toBeNull();
    for (const bad of ['x[1,2][3,4]', '[1,2][3,4]x', '[1,2][3]', '[1.5,2][3,4]', '']) {
      expect(parseBounds(bad), bad).toBeNull();
    }
  });
});

describe('parseDump: the hierarchy element', () => {
  it('finds <hierarchy followed by a space, > or /, not a longer name', () => {
    const node = '<node bounds="[0,0][1,1]"/>';
    expect(parseDump(`<hierarchyX/><hierarchy>${node}</hierarchy>`).nodes).toHaveLength(1);
    expect(parseDump(`<hierarchy\n>${node}</hierarchy>`).nodes).toHaveLength(1);
    expect(refusal('<hierarchyX>')).toBe(reason('the dump holds no <hierarchy> element'));
  });

  it('reads rotation, and a size only when both sides are positive whole numbers', () => {
    const node = '<node bounds="[0,0][1,1]"/>';
    const of = (attrs: string) => parseDump(`<hierarchy ${attrs}>${node}</hierarchy>`);
    expect(of('rotation=" 3 " width="1080" height="2400"').rotation).toBe(3);
    expect(of('rotation="x"').rotation).toBeNull();
    expect(of('width="1080" height="2400"').declaredSize).toEqual({ width: 1080, height: 2400 });
    for (const attrs of [
      'width="0" height="2400"',
      'width="1080" height="0"',
      'width="1080"',
      'height="2400"',
      'width="1.5" height="2"',
    ]) {
      expect(of(attrs).declaredSize, attrs).toBeNull();
    }
  });

  it('says why a dump has no hierarchy, one device line at a time', () => {
    expect(refusal('ERROR: null root node returned by UiTestAutomationBridge.')).toBe(
      reason('the device returned "null root node" (the app is still starting)'),
    );
    expect(refusal('ERROR: could not get idle state.')).toBe(
      reason('the device reported "could not get idle state" (the screen never goes idle, e.g. a playing video)'),
    );
    expect(refusal('UiAutomationService already registered!')).toBe(
      reason('another UiAutomation client holds the device (an automation tool is running)'),
    );
    expect(refusal(' \n ')).toBe(reason('the dump was empty'));
    expect(refusal('x')).toBe(reason('the dump holds no <hierarchy> element'));
  });

  it('refuses what is not text, and a hierarchy cut short or empty', () => {
    expect(refusal(42 as unknown as string)).toBe(reason('the dump was not text'));
    expect(refusal('<hierarchy><node bounds="[0,0][1,1]"/>')).toBe(
      reason('the dump ends before </hierarchy> (it was cut short)'),
    );
    expect(refusal('<hierarchy></hierarchy>')).toBe(
      reason('the hierarchy has no nodes (the app may still be starting)'),
    );
  });
});

describe('parseDump: every structural refusal, word for word', () => {
  it.each([
    ['a tag without a name', '<hierarchy>< node/></hierarchy>', 'a tag without a name at offset 11'],
    ['an open tag not closed', '<hierarchy><node </hierarchy>', 'the tag <node> is not closed'],
    ['a stray slash', '<hierarchy><node / ></hierarchy>', "a stray '/' in <node>"],
    ['an unexpected character', '<hierarchy><node ="x"/></hierarchy>', 'an unexpected character in <node>'],
    ['an attribute without value', '<hierarchy><node text /></hierarchy>', 'the attribute text has no value'],
    ['an unquoted value', '<hierarchy><node text=x /></hierarchy>', 'the attribute text is not quoted'],
    ['an unterminated value', '<hierarchy><node text="x/></hierarchy>', 'the attribute text is not terminated'],
    ['an unterminated closing tag', '<hierarchy><node></node</hierarchy>', 'a closing tag is not terminated'],
    ['a stray closing tag', '<hierarchy></node></hierarchy>', '</node> does not match the open tag'],
    ['a mismatched closing tag', '<hierarchy><node></x></hierarchy>', '</x> does not match the open tag <node>'],
    ['a tag never closed', '<hierarchy><node><a/></hierarchy>', '<node> is never closed'],
    ['an unterminated comment', '<hierarchy><!-- x </hierarchy>', 'an unterminated comment'],
    ['an unterminated instruction', '<hierarchy><?x </hierarchy>', 'an unterminated processing instruction'],
    ['an unterminated CDATA', '<hierarchy><![CDATA[ x </hierarchy>', 'an unterminated CDATA section'],
    ['an unterminated declaration', '<hierarchy><!DOCTYPE x </hierarchy>', 'an unterminated declaration'],
  ])('%s', (_name, xml, why) => {
    expect(refusal(xml)).toBe(reason(why));
  });

  it('a terminator or a quote past the hierarchy does not close what is inside it', () => {
    expect(refusal('<hierarchy><!-- x </hierarchy> -->')).toBe(reason('an unterminated comment'));
    expect(refusal('<hierarchy><node text="x </hierarchy>"')).toBe(reason('the attribute text is not terminated'));
    expect(refusal('<hierarchy><node></hierarchy>>')).toBe(reason('<node> is never closed'));
  });

  it('cuts a long tag name to 60 characters in a refusal', () => {
    const name = 'n'.repeat(100);
    expect(refusal(`<hierarchy><${name} / ></hierarchy>`)).toBe(reason(`a stray '/' in <${'n'.repeat(60)}>`));
    expect(refusal(`<hierarchy><${name}></hierarchy>`)).toBe(reason(`<${'n'.repeat(60)}> is never closed`));
  });

  it('cuts a long tag or attribute name to 60 characters in every refusal that names one', () => {
    const n = 'n'.repeat(100);
    const cut = 'n'.repeat(60);
    expect(refusal(`<hierarchy><${n} </hierarchy>`)).toBe(reason(`the tag <${cut}> is not closed`));
    expect(refusal(`<hierarchy><${n} ="x"/></hierarchy>`)).toBe(reason(`an unexpected character in <${cut}>`));
    expect(refusal(`<hierarchy><node ${n} /></hierarchy>`)).toBe(reason(`the attribute ${cut} has no value`));
    expect(refusal(`<hierarchy><node ${n}=x /></hierarchy>`)).toBe(reason(`the attribute ${cut} is not quoted`));
    expect(refusal(`<hierarchy><node ${n}="x/></hierarchy>`)).toBe(reason(`the attribute ${cut} is not terminated`));
    expect(refusal(`<hierarchy><${n}></${n}x></hierarchy>`)).toBe(
      reason(`</${cut}> does not match the open tag <${cut}>`),
    );
  });

  it('a self-closing hierarchy is found, and has no nodes', () => {
    expect(refusal('<hierarchy/>')).toBe(reason('the hierarchy has no nodes (the app may still be starting)'));
  });

  it('a node without a package has none', () => {
    expect(parseDump('<hierarchy><node/></hierarchy>').nodes[0]?.packageName).toBe('');
  });

  it('reads attributes around spaces, in either quote, with a closing tag spaced out', () => {
    const tree = parseDump(
      `<hierarchy>\n\t<node\r\n text = 'a"b' content-desc\t=\t"c'd" bounds="[0,0][1,1]" >\n</node >\n</hierarchy>`,
    );
    expect(tree.nodes[0]).toMatchObject({ text: 'a"b', contentDesc: "c'd" });
  });

  it('skips a comment, an instruction, a CDATA section and a declaration between nodes', () => {
    const tree = parseDump(
      '<hierarchy><!-- <node/> --><?pi <node/> ?><![CDATA[ <node/> ]]><!DOCTYPE x><node bounds="[0,0][1,1]"/></hierarchy>',
    );
    expect(tree.nodes).toHaveLength(1);
  });
});

describe('parseDump: one node', () => {
  it('reads every flag as true only when it says "true", and enabled as false only when it says "false"', () => {
    const flags =
      'checkable="true" checked="true" clickable="true" long-clickable="true" focusable="true" focused="true" ' +
      'scrollable="true" selected="true" password="true" enabled="false" showing-hint="false"';
    expect(parseDump(`<hierarchy><node ${flags}/></hierarchy>`).nodes[0]).toMatchObject({
      checkable: true,
      checked: true,
      clickable: true,
      longClickable: true,
      focusable: true,
      focused: true,
      scrollable: true,
      selected: true,
      password: true,
      enabled: false,
      showingHint: false,
    });
    const yes = flags.replace(/"(true|false)"/g, '"yes"');
    expect(parseDump(`<hierarchy><node ${yes}/></hierarchy>`).nodes[0]).toMatchObject({
      checkable: false,
      checked: false,
      clickable: false,
      longClickable: false,
      focusable: false,
      focused: false,
      scrollable: false,
      selected: false,
      password: false,
      enabled: true,
      showingHint: null,
    });
  });

  it('a uiautomator node without class has none; an Appium tag is its class', () => {
    const tree = parseDump('<hierarchy><node/><android.widget.Button/></hierarchy>');
    expect(tree.nodes.map((n) => n.className)).toEqual(['', 'android.widget.Button']);
    expect(tree.roots).toHaveLength(2);
  });
});

describe('parseDump: bounds trimmed into the nearest scrollable ancestor, as the server reports them', () => {
  const list = (inner: string) =>
    `<hierarchy><node bounds="[0,0][1080,2400]"><node scrollable="true" bounds="[24,300][1056,2000]">${inner}</node></node></hierarchy>`;

  it('trims a row drawn into the padding, on every side', () => {
    const tree = parseDump(list('<node bounds="[0,200][1080,2100]"/>'));
    expect(tree.nodes[2]!.bounds).toEqual({ left: 24, top: 300, right: 1056, bottom: 2000 });
  });

  it('trims a single side as well: left, top, right or bottom alone', () => {
    const tree = parseDump(
      list(
        '<node bounds="[0,400][500,500]"/><node bounds="[100,250][500,500]"/>' +
          '<node bounds="[100,400][1080,500]"/><node bounds="[100,400][500,2100]"/>',
      ),
    );
    expect(tree.nodes.slice(2).map((n) => n.bounds)).toEqual([
      { left: 24, top: 400, right: 500, bottom: 500 },
      { left: 100, top: 300, right: 500, bottom: 500 },
      { left: 100, top: 400, right: 1056, bottom: 500 },
      { left: 100, top: 400, right: 500, bottom: 2000 },
    ]);
  });

  it('trims a grandchild too, through a container that does not scroll', () => {
    const tree = parseDump(list('<node bounds="[24,300][1056,800]"><node bounds="[0,250][500,400]"/></node>'));
    expect(tree.nodes[3]!.bounds).toEqual({ left: 24, top: 300, right: 500, bottom: 400 });
  });

  it('leaves alone a node inside, one that only touches or misses the list, and a node without bounds', () => {
    const inside = { left: 100, top: 400, right: 200, bottom: 500 };
    const tree = parseDump(
      list(
        '<node bounds="[100,400][200,500]"/><node bounds="[0,2000][1080,2100]"/><node bounds="[1056,300][1080,400]"/>' +
          '<node bounds="[0,100][1080,300]"/><node bounds="[0,300][24,400]"/><node/>',
      ),
    );
    expect(tree.nodes.slice(2).map((n) => n.bounds)).toEqual([
      inside,
      { left: 0, top: 2000, right: 1080, bottom: 2100 },
      { left: 1056, top: 300, right: 1080, bottom: 400 },
      { left: 0, top: 100, right: 1080, bottom: 300 },
      { left: 0, top: 300, right: 24, bottom: 400 },
      null,
    ]);
  });

  it('a node under no scrollable, or under a scrollable without bounds, keeps its bounds', () => {
    const plain = parseDump(
      '<hierarchy><node bounds="[24,300][1056,2000]"><node bounds="[0,0][1080,2400]"/></node></hierarchy>',
    );
    expect(plain.nodes[1]!.bounds).toEqual({ left: 0, top: 0, right: 1080, bottom: 2400 });
    const noBounds = parseDump(
      '<hierarchy><node scrollable="true"><node bounds="[0,0][1080,2400]"/></node></hierarchy>',
    );
    expect(noBounds.nodes[1]!.bounds).toEqual({ left: 0, top: 0, right: 1080, bottom: 2400 });
  });

  it('the nearest scrollable wins over a farther one', () => {
    const tree = parseDump(
      '<hierarchy><node scrollable="true" bounds="[0,0][1080,2400]"><node scrollable="true" bounds="[0,500][1080,900]">' +
        '<node bounds="[0,400][1080,1000]"/></node></node></hierarchy>',
    );
    expect(tree.nodes[2]!.bounds).toEqual({ left: 0, top: 500, right: 1080, bottom: 900 });
  });
});

describe('redactPasswordTexts', () => {
  it("hides every password's text in place, keeps the rest byte for byte", () => {
    const xml =
      `<hierarchy><node password="true" text="one" bounds="[0,0][1,1]"/><node text="seen"/>` +
      `<node password='true' text='two'/></hierarchy>`;
    expect(redactPasswordTexts(xml)).toBe(
      `<hierarchy><node password="true" text="${HIDDEN_PASSWORD_TEXT}" bounds="[0,0][1,1]"/><node text="seen"/>` +
        `<node password='true' text='${HIDDEN_PASSWORD_TEXT}'/></hierarchy>`,
    );
  });

  it("keeps an empty text, the field's own hint, and a password node without a text attribute", () => {
    const xml =
      '<hierarchy><node password="true" text=""/><node password="true" text="Password" hint="Password"/>' +
      '<node password="true"/></hierarchy>';
    expect(redactPasswordTexts(xml)).toBe(xml);
  });
});

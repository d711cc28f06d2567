/**
 * Which selector names an actionable node (src/domain/summary/selectorChoice.ts), the edges the
 * summary's own tests left open, through small hand-written dumps: a value a selector may not carry
 * (a bidi control) is passed over, content whose tap lands outside the element names nothing, a hint
 * only names a text field, a button whose text equals its hint is still named by its text, twins that
 * press one element are one, a `within` must leave out every other match (the nearest that does, not
 * the nearest that leaves out some), another package's id waits behind the label, and a field that
 * shows its hint is never recorded by that text.
 */
import { describe, expect, it } from 'vitest';
import { actedElementOfPlan } from '../../../../src/domain/summary/actedElement.js';
import { summariseScreen, summariseScreenDetailed } from '../../../../src/domain/summary/summary.js';
import { parseDump } from '../../../../src/domain/tree/dump.js';
import type { ScreenContext } from '../../../../src/domain/tree/screen.js';
import { appiumSource, screen, uiautomatorDump, type NodeSpec } from '../dumpBuilder.js';

const context: ScreenContext = {
  density: 160,
  window: { foregroundPackage: 'com.example.app', ime: { visible: false, frame: null }, displaySize: null },
};
const summarise = (children: NodeSpec[]) => summariseScreen(parseDump(uiautomatorDump([screen(children)])), context);
const button = (extra: NodeSpec, bounds = '[0,100][500,200]'): NodeSpec => ({
  cls: 'android.widget.Button',
  clickable: true,
  bounds,
  ...extra,
});

describe('the candidates', () => {
  it('a value a selector may not carry (a bidi control) is passed over for the next attribute', () => {
    expect(summarise([button({ desc: 'Bad\u202e', text: 'Good' })]).actions[0]).toMatchObject({ text: 'Good' });
  });

  it('content whose tap would land outside the element does not name it', () => {
    const [entry] = summarise([button({ children: [{ text: 'Outside', bounds: '[600,100][700,200]' }] })]).actions;
    expect(entry).not.toHaveProperty('text');
    expect(entry).toMatchObject({ bounds: [0, 100, 500, 100] });
  });

  it('a hint inside an element that is no text field names nothing and does not stop the search', () => {
    const [entry] = summarise([
      button({
        children: [
          { text: '', hint: 'Not a field', bounds: '[0,100][200,200]' },
          { text: 'Unique', bounds: '[200,100][400,200]' },
        ],
      }),
    ]).actions;
    expect(entry).toMatchObject({ text: 'Unique' });
    expect(entry).not.toHaveProperty('ambiguous');
  });

  it('a button whose text equals its hint is named by its text (only a field shows a hint)', () => {
    expect(summarise([button({ text: 'Same', hint: 'Same' })]).actions[0]).toMatchObject({ text: 'Same' });
  });

  it('a field that shows its hint is never recorded by that text, only by its hint', () => {
    const tree = parseDump(
      appiumSource([
        screen([
          { cls: 'android.widget.EditText', text: 'Name', hint: 'Name', showingHint: true, bounds: '[0,100][500,200]' },
        ]),
      ]),
    );
    const { plans, summary } = summariseScreenDetailed(tree, context);
    expect(actedElementOfPlan(tree, plans, plans[0]!, summary.foreground_package).selectors).toEqual([
      { input_hint: 'Name' },
    ]);
  });
});

describe('the choice', () => {
  it('a tile and its icon sharing one content-desc press one element: named alone, not ambiguous', () => {
    const [entry] = summarise([
      button({
        desc: 'Camera',
        children: [{ cls: 'android.widget.ImageView', desc: 'Camera', bounds: '[0,100][100,200]' }],
      }),
    ]).actions;
    expect(entry).toEqual({ content_desc: 'Camera', bounds: [0, 100, 500, 100] });
  });

  it('the within is the nearest ancestor that no other match has, not one that only some lack', () => {
    const section = (desc: string, bounds: string, children: NodeSpec[]): NodeSpec => ({ desc, bounds, children });
    const s = summarise([
      section('Profiles', '[0,0][1080,600]', [section('Work', '[0,0][1080,300]', [button({ text: 'Save' })])]),
      section('Elsewhere', '[0,600][1080,1200]', [
        section('Work', '[0,600][1080,900]', [button({ text: 'Save' }, '[0,700][500,800]')]),
      ]),
      section('Personal', '[0,1200][1080,1800]', [button({ text: 'Save' }, '[0,1300][500,1400]')]),
    ]);
    expect(s.actions[0]).toEqual({
      text: 'Save',
      within: { content_desc: 'Profiles' },
      bounds: [0, 100, 500, 100],
      disambiguated: true,
    });
  });

  it("another package's resource id, unique as it is, waits behind the element's label", () => {
    expect(summarise([button({ id: 'com.android.systemui:id/go', text: 'Go' })]).actions[0]).toMatchObject({
      text: 'Go',
    });
    // The foreground app's own id comes first.
    expect(summarise([button({ id: 'com.example.app:id/go', text: 'Go' })]).actions[0]).toMatchObject({ id: 'go' });
  });
});

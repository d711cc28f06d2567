/**
 * The acted element a trace line records (src/domain/summary/actedElement.ts), called directly: from a
 * ref's plan (the entry's own selector first, then the other candidates that name the node alone, at
 * most four, none twice; the label, role, id, class, bounds, package; the nearest labelled ancestor;
 * the index among entries of the same label; a password field) and from what the driver said of an
 * element a selector found.
 */
import { describe, expect, it } from 'vitest';
import { actedElementOfPlan, actedElementOfSelector } from '../../../../src/domain/summary/actedElement.js';
import { summariseScreenDetailed } from '../../../../src/domain/summary/summary.js';
import { parseDump } from '../../../../src/domain/tree/dump.js';
import type { ScreenContext } from '../../../../src/domain/tree/screen.js';
import { screen, uiautomatorDump, type NodeSpec } from '../dumpBuilder.js';

const context: ScreenContext = {
  density: 420,
  window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: null },
};

/** The acted element of each entry of a screen, in entry order. */
function acted(children: NodeSpec[]) {
  const tree = parseDump(uiautomatorDump([screen(children)]));
  const { plans, summary } = summariseScreenDetailed(tree, context);
  return plans.map((plan) => actedElementOfPlan(tree, plans, plan, summary.foreground_package));
}

describe('actedElementOfPlan', () => {
  it("records the entry's own selector first, then each other candidate that names the node alone, at most four", () => {
    const [go] = acted([
      {
        desc: 'Section',
        bounds: '[0,0][1080,1000]',
        children: [
          {
            cls: 'android.widget.Button',
            id: 'com.example.app:id/go',
            desc: 'Go',
            clickable: true,
            bounds: '[0,0][500,100]',
            children: [
              { text: 'Shared', bounds: '[0,0][100,100]' },
              { text: 'Go now', bounds: '[100,0][200,100]' },
              { text: 'Sub', bounds: '[200,0][300,100]' },
              { text: 'Extra', bounds: '[300,0][400,100]' },
            ],
          },
          { text: 'Shared', bounds: '[0,500][500,600]' },
        ],
      },
    ]);
    expect(go).toEqual({
      // `id` once though the resource id is a candidate too; `Shared` names two nodes; `Extra` is the fifth.
      selectors: [{ id: 'go' }, { content_desc: 'Go' }, { text: 'Go now' }, { text: 'Sub' }],
      label: 'Go',
      role: 'button',
      resource_id: 'com.example.app:id/go',
      class: 'android.widget.Button',
      bounds: [0, 0, 500, 100],
      package: 'com.example.app',
      ancestor: 'Section',
      source: 'ref',
    });
  });

  it('an entry with no selector of its own records the candidates that still name it alone', () => {
    const [first, second] = acted([
      {
        cls: 'android.widget.Button',
        text: 'Twin',
        clickable: true,
        bounds: '[0,200][500,300]',
        children: [{ desc: 'One', bounds: '[0,200][100,300]' }],
      },
      { cls: 'android.widget.Button', text: 'Twin', clickable: true, bounds: '[0,300][500,400]' },
    ]);
    expect(first!.selectors).toEqual([{ content_desc: 'One' }]);
    expect(second!.selectors).toEqual([]);
  });

  it('names its place among entries of the same label; none for a single label or for entries without one', () => {
    const elements = acted([
      { cls: 'android.widget.Button', text: 'Twin', clickable: true, bounds: '[0,200][500,300]' },
      { cls: 'android.widget.Button', text: 'Alone', clickable: true, bounds: '[0,400][500,500]' },
      { cls: 'android.widget.Button', text: 'Twin', clickable: true, bounds: '[0,600][500,700]' },
      { cls: 'android.widget.Button', text: 'Twin', clickable: true, bounds: '[0,800][500,900]' },
      { cls: 'android.widget.ImageButton', clickable: true, bounds: '[0,1000][100,1100]' },
      { cls: 'android.widget.ImageButton', clickable: true, bounds: '[0,1200][100,1300]' },
    ]);
    expect(elements.map((e) => e.same_label)).toEqual([
      { index: 0, count: 3 },
      undefined,
      { index: 1, count: 3 },
      { index: 2, count: 3 },
      undefined,
      undefined,
    ]);
    expect(elements[4]!.label).toBe('');
    expect(elements[1]).not.toHaveProperty('same_label');
  });

  it('the nearest ancestor with a label that is not blank; none when no ancestor has one', () => {
    const [inner, outer] = acted([
      {
        desc: 'Far',
        bounds: '[0,0][1080,1000]',
        children: [
          {
            desc: '   ',
            bounds: '[0,0][1080,500]',
            children: [{ cls: 'android.widget.Button', text: 'In', clickable: true, bounds: '[0,0][500,100]' }],
          },
        ],
      },
      { cls: 'android.widget.Button', text: 'Out', clickable: true, bounds: '[0,1200][500,1300]' },
    ]);
    expect(inner!.ancestor).toBe('Far');
    expect(outer).not.toHaveProperty('ancestor');
  });

  it('no resource id, no class: the keys are left out; a password field says so, an input is an input', () => {
    const [bare, secret] = acted([
      { cls: '', text: 'Bare', clickable: true, bounds: '[0,0][500,100]' },
      {
        cls: 'android.widget.EditText',
        id: 'com.example.app:id/pw',
        password: true,
        clickable: true,
        bounds: '[0,200][500,300]',
      },
    ]);
    expect(bare).not.toHaveProperty('resource_id');
    expect(bare).not.toHaveProperty('class');
    expect(bare).not.toHaveProperty('password');
    expect(secret!.password).toBe(true);
    expect(secret!.role).toBe('input');
    expect(secret!.resource_id).toBe('com.example.app:id/pw');
  });
});

describe('actedElementOfPlan, a selector with a within', () => {
  it("keeps the entry's own selector, within and all, first", () => {
    const save = (top: number): NodeSpec => ({
      cls: 'android.widget.Button',
      text: 'Save',
      clickable: true,
      bounds: `[0,${top}][500,${top + 100}]`,
    });
    const [first] = acted([
      { desc: 'Work', bounds: '[0,0][1080,500]', children: [save(100)] },
      { desc: 'Personal', bounds: '[0,500][1080,1000]', children: [save(600)] },
    ]);
    expect(first!.selectors[0]).toEqual({ text: 'Save', within: { content_desc: 'Work' } });
  });
});

describe('actedElementOfSelector', () => {
  const facts = {
    selector: { target: { key: 'resource_id' as const, value: 'com.example.app:id/save' } },
    label: 'Save',
    bounds: [10, 20, 30, 40] as const,
    packageName: 'com.example.app',
    foreground: 'com.example.app',
  };

  it("records the selector on the wire, the driver's facts, and a button by default", () => {
    expect(actedElementOfSelector(facts)).toEqual({
      selectors: [{ id: 'save' }],
      label: 'Save',
      role: 'button',
      bounds: [10, 20, 30, 40],
      package: 'com.example.app',
      source: 'selector',
    });
  });

  it('an EditText class is an input, and the class is kept', () => {
    const field = actedElementOfSelector({ ...facts, className: 'android.widget.EditText' });
    expect(field.role).toBe('input');
    expect(field.class).toBe('android.widget.EditText');
    const button = actedElementOfSelector({ ...facts, className: 'android.widget.Button' });
    expect(button.role).toBe('button');
    expect(button.class).toBe('android.widget.Button');
    expect(actedElementOfSelector({ ...facts, className: '' })).not.toHaveProperty('class');
  });
});

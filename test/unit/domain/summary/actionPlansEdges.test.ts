/**
 * One entry per actionable node (src/domain/summary/actionPlans.ts) at its edges, through the summary
 * of small hand-written dumps: the neighbour a bare switch is named after (nearest sibling first,
 * before then after at one distance; siblings that take taps, scroll or are hidden passed over; up to
 * three ancestors' levels and no farther; never out of a scrollable list), the keyboard's cover on
 * each side (touching is not covering), and the flags an entry carries.
 */
import { describe, expect, it } from 'vitest';
import { summariseScreen } from '../../../../src/domain/summary/summary.js';
import { parseDump } from '../../../../src/domain/tree/dump.js';
import type { ActionEntry, ScreenContext, WindowState } from '../../../../src/domain/tree/screen.js';
import type { Rect } from '../../../../src/domain/tree/uiNode.js';
import { screen, uiautomatorDump, type NodeSpec } from '../dumpBuilder.js';

function ctx(window: Partial<WindowState> = {}): ScreenContext {
  return {
    density: 160,
    window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: null, ...window },
  };
}

const summarise = (children: NodeSpec[], context = ctx()) =>
  summariseScreen(parseDump(uiautomatorDump([screen(children)])), context);

const SWITCH: NodeSpec = { cls: 'android.widget.Switch', checkable: true, bounds: '[900,500][1000,600]' };
const label = (text: string, bounds = '[0,500][400,600]'): NodeSpec => ({ text, bounds });
const plain = (children: NodeSpec[], bounds = '[0,400][1080,700]'): NodeSpec => ({
  cls: 'android.widget.LinearLayout',
  bounds,
  children,
});

/** The bare switch's entry. */
function switchOf(children: NodeSpec[]): ActionEntry {
  const entry = summarise(children).actions.find((a) => a.checked !== undefined);
  if (!entry) throw new Error('no switch entry');
  return entry;
}

describe("a bare switch's neighbour", () => {
  it('the nearest sibling, before before after at the same distance', () => {
    expect(switchOf([plain([label('Before'), SWITCH, label('After')])])).toMatchObject({
      label: 'Before',
      label_from: 'neighbour',
    });
    expect(switchOf([plain([label('Far'), plain([], '[0,0][0,0]'), SWITCH, label('Near')])]).label).toBe('Near');
    expect(switchOf([plain([SWITCH, label('After')])]).label).toBe('After');
  });

  it('passes over siblings that take a tap, scroll, or are hidden; reads a plain sibling’s content', () => {
    const button: NodeSpec = {
      cls: 'android.widget.Button',
      text: 'Tap me',
      clickable: true,
      bounds: '[0,400][100,450]',
    };
    const list: NodeSpec = {
      cls: 'android.widget.ListView',
      text: 'List',
      scrollable: true,
      bounds: '[0,450][100,500]',
    };
    const hidden: NodeSpec = { text: 'Hidden', bounds: '[0,0][0,0]' };
    expect(switchOf([plain([label('Title', '[0,600][100,700]'), button, list, hidden, SWITCH])]).label).toBe('Title');
    // A plain sibling with no text of its own is read through its content, buttons inside passed over.
    const group = plain(
      [{ ...button, bounds: '[0,400][50,450]' }, label('Inner', '[50,400][100,450]')],
      '[0,400][100,450]',
    );
    expect(switchOf([plain([group, SWITCH])]).label).toBe('Inner');
  });

  it('climbs three ancestors, no farther', () => {
    const nest = (depth: number, inner: NodeSpec): NodeSpec =>
      depth === 0 ? inner : plain([nest(depth - 1, inner)], '[0,400][1080,700]');
    // The title beside the third ancestor: found.
    expect(switchOf([plain([label('Three'), nest(3, SWITCH)])]).label).toBe('Three');
    // Beside the fourth: too far.
    const far = switchOf([plain([label('Four'), nest(4, SWITCH)])]);
    expect(far.label).toBeUndefined();
    expect(far.label_from).toBeUndefined();
  });

  it('never climbs out of a scrollable list', () => {
    const list: NodeSpec = {
      cls: 'android.widget.ListView',
      scrollable: true,
      bounds: '[0,400][1080,700]',
      children: [SWITCH],
    };
    expect(switchOf([plain([label('Page title'), list])]).label).toBeUndefined();
  });
});

describe('the keyboard covers an entry that overlaps it, not one that only touches it', () => {
  const covered = (button: string, frame: Rect): boolean =>
    summarise(
      [{ cls: 'android.widget.Button', text: 'B', clickable: true, bounds: button }],
      ctx({ ime: { visible: true, frame } }),
    ).actions[0]!.covered_by_keyboard === true;

  it('on each side', () => {
    const frame = { left: 500, top: 1500, right: 900, bottom: 2000 };
    expect(covered('[100,1600][500,1700]', frame)).toBe(false);
    expect(covered('[100,1600][501,1700]', frame)).toBe(true);
    expect(covered('[900,1600][1000,1700]', frame)).toBe(false);
    expect(covered('[899,1600][1000,1700]', frame)).toBe(true);
    expect(covered('[600,1400][700,1500]', frame)).toBe(false);
    expect(covered('[600,1400][700,1501]', frame)).toBe(true);
    expect(covered('[600,2000][700,2100]', frame)).toBe(false);
    expect(covered('[600,1999][700,2100]', frame)).toBe(true);
  });
});

describe('the flags an entry carries', () => {
  it('a disabled button says so; a toggle says checked, no role; an input says its role and empty; a long press its role', () => {
    const s = summarise([
      { cls: 'android.widget.Button', text: 'Off', clickable: true, enabled: false, bounds: '[0,100][500,200]' },
      { cls: 'android.widget.CheckBox', text: 'Tick', checkable: true, checked: false, bounds: '[0,200][500,300]' },
      { cls: 'android.widget.EditText', hint: 'Name', bounds: '[0,300][500,400]' },
      { cls: 'android.widget.TextView', text: 'Hold', longClickable: true, bounds: '[0,400][500,500]' },
    ]);
    expect(s.actions).toEqual([
      { text: 'Off', enabled: false, bounds: [0, 100, 500, 100] },
      { text: 'Tick', bounds: [0, 200, 500, 100], checked: false },
      { input_hint: 'Name', role: 'input', bounds: [0, 300, 500, 100], empty: true },
      { text: 'Hold', role: 'long-press', bounds: [0, 400, 500, 100] },
    ]);
  });
});

describe('the label and the second line', () => {
  it("an element named by its own id takes its content's first label, and says it", () => {
    expect(
      summarise([
        {
          cls: 'android.widget.Button',
          id: 'com.example.app:id/go',
          clickable: true,
          bounds: '[0,100][500,300]',
          children: [
            { text: 'First', bounds: '[0,100][500,200]' },
            { text: 'Second', bounds: '[0,200][500,300]' },
          ],
        },
      ]).actions,
    ).toEqual([{ id: 'go', label: 'First', detail: 'Second', bounds: [0, 100, 500, 200] }]);
  });

  it('only a toggle that says nothing borrows a neighbour; a button does not, nor a toggle with its own text', () => {
    const s = summarise([
      plain([
        label('Near', '[0,400][400,450]'),
        { cls: 'android.widget.Button', id: 'com.example.app:id/b', clickable: true, bounds: '[500,400][600,450]' },
      ]),
      plain(
        [
          label('Other', '[0,600][400,650]'),
          { ...SWITCH, id: 'com.example.app:id/s', text: 'Wi-Fi', bounds: '[500,600][600,650]' },
        ],
        '[0,600][1080,700]',
      ),
    ]);
    expect(s.actions).toEqual([
      { id: 'b', bounds: [500, 400, 100, 50] },
      { id: 's', label: 'Wi-Fi', bounds: [500, 600, 100, 50], checked: false },
    ]);
  });

  it('an ambiguous toggle named by its neighbour says where its label is from', () => {
    const row = (title: string, top: number): NodeSpec =>
      plain(
        [
          label(title, `[0,${top}][400,${top + 50}]`),
          { ...SWITCH, id: 'android:id/switch_widget', bounds: `[500,${top}][600,${top + 50}]` },
        ],
        `[0,${top}][1080,${top + 100}]`,
      );
    const [wifi] = summarise([row('Wi-Fi', 400), row('Bluetooth', 600)]).actions;
    expect(wifi).toMatchObject({ label: 'Wi-Fi', label_from: 'neighbour', ambiguous: true });
  });

  it("an element with no selector named by its own content's label says no source", () => {
    const long = 'x'.repeat(50);
    const [entry] = summarise([
      {
        cls: 'android.widget.FrameLayout',
        clickable: true,
        bounds: '[0,100][500,200]',
        children: [label(long, '[0,100][500,200]')],
      },
    ]).actions;
    expect(entry).toEqual({ label: `${'x'.repeat(40)}…`, bounds: [0, 100, 500, 100] });
  });

  it('the second line passes over icon glyphs and parts that take their own taps', () => {
    const [row] = summarise([
      {
        cls: 'android.widget.LinearLayout',
        id: 'com.example.app:id/row',
        clickable: true,
        bounds: '[0,100][1080,400]',
        children: [
          label('Title', '[0,100][500,150]'),
          label('\ue000', '[0,150][500,200]'),
          { cls: 'android.widget.Button', text: 'Action', clickable: true, bounds: '[600,100][1000,200]' },
          label('Sub', '[0,200][500,250]'),
        ],
      },
    ]).actions;
    expect(row).toEqual({ id: 'row', label: 'Title', detail: 'Sub', bounds: [0, 100, 1080, 300] });
  });

  it('a name made of its content, icon glyphs aside, has no second line; said by the label but not the id, it still is', () => {
    const tab = (extra: NodeSpec[]): NodeSpec => ({
      cls: 'android.widget.LinearLayout',
      id: 'com.example.app:id/tab',
      desc: 'Chats, 3',
      clickable: true,
      bounds: '[0,100][500,200]',
      children: [label('Chats', '[0,100][250,150]'), label('3', '[250,100][500,150]'), ...extra],
    });
    expect(summarise([tab([])]).actions).toEqual([{ id: 'tab', label: 'Chats, 3', bounds: [0, 100, 500, 100] }]);
    expect(summarise([tab([label('\ue001', '[0,150][250,200]')])]).actions).toEqual([
      { id: 'tab', label: 'Chats, 3', bounds: [0, 100, 500, 100] },
    ]);
  });

  it('case is folded by lower-casing, the same on every device: ß and SS are two words', () => {
    const s = summarise([
      label('Straße', '[0,100][500,200]'),
      label('STRASSE', '[0,200][500,300]'),
      label('strasse', '[0,300][500,400]'),
    ]);
    expect(s.texts).toEqual(['Straße', 'STRASSE']);
  });
});

describe('labels read through content', () => {
  it("a neighbour's label is read through plain containers, past an empty first one; an empty sibling is no neighbour", () => {
    const empty = plain([], '[0,400][10,410]');
    expect(
      switchOf([plain([plain([empty, plain([label('Deep', '[20,400][300,450]')], '[20,400][300,450]')]), SWITCH])])
        .label,
    ).toBe('Deep');
    const s = switchOf([plain([label('Title', '[0,450][300,500]'), empty, SWITCH])]);
    expect(s).toMatchObject({ label: 'Title', label_from: 'neighbour' });
  });

  it('hidden content names nothing: no label for an unnamed element, no second line for a row', () => {
    const [unnamed, row] = summarise([
      {
        cls: 'android.widget.FrameLayout',
        clickable: true,
        bounds: '[0,100][500,200]',
        children: [{ text: 'Hidden', bounds: '[0,0][0,0]' }],
      },
      {
        cls: 'android.widget.LinearLayout',
        id: 'com.example.app:id/row',
        clickable: true,
        bounds: '[0,300][1080,500]',
        children: [label('Title', '[0,300][500,350]'), { text: 'Secret', bounds: '[0,0][0,0]' }],
      },
    ]).actions;
    expect(unnamed).toEqual({ bounds: [0, 100, 500, 100] });
    expect(row).toEqual({ id: 'row', label: 'Title', bounds: [0, 300, 1080, 200] });
  });

  it("a row's second line is read through a plain container", () => {
    const [row] = summarise([
      {
        cls: 'android.widget.LinearLayout',
        id: 'com.example.app:id/row',
        clickable: true,
        bounds: '[0,100][1080,400]',
        children: [
          label('Title', '[0,100][500,150]'),
          plain([label('Nested', '[0,150][500,200]')], '[0,150][500,200]'),
        ],
      },
    ]).actions;
    expect(row).toEqual({ id: 'row', label: 'Title', detail: 'Nested', bounds: [0, 100, 1080, 300] });
  });

  it('an element whose label lies under a bar while the keyboard covers part of it keeps saying it is covered', () => {
    const s = summarise(
      [
        {
          cls: 'android.widget.FrameLayout',
          clickable: true,
          bounds: '[0,1800][1080,2400]',
          children: [label('Under the bar', '[0,2300][500,2400]')],
        },
      ],
      ctx({
        ime: { visible: true, frame: { left: 0, top: 2000, right: 1080, bottom: 2250 } },
        systemBars: { status: null, navigation: { left: 0, top: 2250, right: 1080, bottom: 2400 } },
      }),
    );
    expect(s.actions).toEqual([{ label: 'Under the bar', bounds: [0, 1800, 1080, 600], covered_by_keyboard: true }]);
  });
});

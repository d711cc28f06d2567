import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { summariseScreen, summariseScreenDetailed } from '../../../src/domain/summary/summary.js';
import { matchSelector } from '../../../src/domain/selectors/matcher.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { expandIds } from '../../../src/domain/selectors/selector.js';
import {
  nameOfEntry,
  roleOfEntry,
  selectorOfEntry,
  type ScreenContext,
  type WindowState,
} from '../../../src/domain/tree/screen.js';
import { notFoundMessage } from '../../../src/domain/summary/notFound.js';
import { appiumSource, screen, uiautomatorDump, type NodeSpec } from './dumpBuilder.js';
import { cutCodePoints } from '../../../src/domain/tree/nodeFacts.js';

function ctx(window: Partial<WindowState> = {}, density = 420): ScreenContext {
  return {
    density,
    window: { foregroundPackage: null, ime: { visible: false, frame: null }, displaySize: null, ...window },
  };
}

function summarise(children: NodeSpec[], context = ctx()) {
  return summariseScreen(parseDump(uiautomatorDump([screen(children)])), context);
}

/** Every unambiguous offer resolves (domain matcher) to exactly one node. */
function expectEveryOfferUnique(children: NodeSpec[]) {
  const tree = parseDump(uiautomatorDump([screen(children)]));
  const { plans, summary } = summariseScreenDetailed(tree, ctx());
  const fg = summary.foreground_package;
  for (const plan of plans.filter((p) => !p.entry.ambiguous)) {
    expect(matchSelector(tree, expandIds(parseSelector(selectorOfEntry(plan.entry)!), fg))).toEqual([
      plan.selectorNode,
    ]);
  }
}

describe('summariseScreen: roles', () => {
  const children: NodeSpec[] = [
    { cls: 'android.widget.EditText', hint: 'Search settings', clickable: true, bounds: '[0,0][1080,150]' },
    { cls: 'com.google.android.material.textfield.TextInputEditText', text: 'typed', bounds: '[0,150][1080,300]' },
    {
      cls: 'android.widget.Switch',
      text: 'Wi-Fi',
      checkable: true,
      checked: true,
      clickable: true,
      bounds: '[0,300][1080,450]',
    },
    { cls: 'android.widget.Button', text: 'Calendar', clickable: true, bounds: '[0,450][1080,600]' },
    { cls: 'android.view.View', desc: 'Hold me', longClickable: true, bounds: '[0,600][1080,750]' },
    { cls: 'android.widget.TextView', text: 'Just a caption', bounds: '[0,750][1080,900]' },
    { cls: 'android.widget.Button', text: 'Ghost', clickable: true, bounds: '[0,0][0,0]' },
    { cls: 'android.widget.Button', text: 'No bounds', clickable: true, bounds: null },
    {
      cls: 'androidx.recyclerview.widget.RecyclerView',
      desc: 'Scrollable list',
      scrollable: true,
      clickable: true,
      bounds: '[0,900][1080,2000]',
      children: [{ cls: 'android.widget.TextView', text: 'Inside list', bounds: '[100,1000][980,1100]' }],
    },
  ];
  const summary = summarise(children);

  it('gives each visible actionable node its role, in document order', () => {
    expect(summary.actions.map((a) => [nameOfEntry(a), roleOfEntry(a)])).toEqual([
      ['Search settings', 'input'],
      ['typed', 'input'],
      ['Wi-Fi', 'toggle'],
      ['Calendar', 'button'],
      ['Hold me', 'long-press'],
    ]);
  });

  it('chooses the selector attribute by the contract order', () => {
    expect(summary.actions.map((a) => selectorOfEntry(a))).toEqual([
      { input_hint: 'Search settings' },
      { text: 'typed' },
      { text: 'Wi-Fi' },
      { text: 'Calendar' },
      { content_desc: 'Hold me' },
    ]);
  });

  it('reports checked for toggles only (it says the role), bounds as [left, top, width, height]', () => {
    expect(summary.actions[2]).toEqual({ text: 'Wi-Fi', bounds: [0, 300, 1080, 150], checked: true });
    expect(summary.actions[3]).not.toHaveProperty('checked');
  });

  it('leaves out what an entry would only repeat: role button, enabled true, a label equal to the selector value', () => {
    expect(summary.actions[3]).toEqual({ text: 'Calendar', bounds: [0, 450, 1080, 150] });
    const s = summarise([
      { cls: 'android.widget.Button', text: 'Off', enabled: false, clickable: true, bounds: '[0,0][1080,150]' },
      {
        cls: 'android.widget.ImageButton',
        id: 'com.example.app:id/send',
        desc: 'Send',
        clickable: true,
        bounds: '[0,150][1080,300]',
      },
    ]);
    expect(s.actions).toEqual([
      { text: 'Off', enabled: false, bounds: [0, 0, 1080, 150] },
      // The id does not say "Send": the label does.
      { id: 'send', label: 'Send', bounds: [0, 150, 1080, 150] },
    ]);
  });

  it('never offers scrollables, invisible nodes or plain text, but lists visible texts', () => {
    const labels = summary.actions.map(nameOfEntry);
    expect(labels).not.toContain('Scrollable list');
    expect(labels).not.toContain('Ghost');
    expect(labels).not.toContain('No bounds');
    expect(labels).not.toContain('Just a caption');
    expect(summary.texts).toContain('Just a caption');
    expect(summary.texts).toContain('Inside list');
    expect(summary.texts).not.toContain('Ghost');
    expect(summary.can_scroll).toBe(true);
  });

  it('de-duplicates texts and counts before truncation', () => {
    const many = Array.from({ length: 250 }, (_, i) => ({
      cls: 'android.widget.TextView',
      text: `T${i % 230}`,
      bounds: '[0,0][10,10]',
    }));
    const s = summarise(many);
    expect(s.texts).toHaveLength(200);
    expect(s.counts?.texts).toBe(230);
    expect(s.truncated).toBe(true);
  });

  it('leaves out of texts what an offered action shows in full, and icon-font glyphs', () => {
    const s = summarise([
      { cls: 'android.widget.Button', text: 'Calendar', clickable: true, bounds: '[0,0][1080,150]' },
      { cls: 'android.widget.TextView', text: 'Calendar', bounds: '[0,150][1080,300]' },
      { cls: 'android.widget.TextView', text: '\ue8b6', bounds: '[0,300][100,400]' },
      { cls: 'android.widget.TextView', text: '\ue8b6 Search', bounds: '[0,400][1080,500]' },
      { cls: 'android.widget.TextView', text: 'Caption', bounds: '[0,500][1080,600]' },
    ]);
    expect(s.texts).toEqual(['\ue8b6 Search', 'Caption']);
  });

  it('names an action by a cut label and leaves its whole string out of texts, and counts only when something was cut', () => {
    const long = 'L'.repeat(130);
    const s = summarise([
      {
        cls: 'android.widget.ImageButton',
        id: 'com.example.app:id/more',
        desc: long,
        clickable: true,
        bounds: '[0,0][1080,150]',
      },
      { cls: 'android.widget.TextView', text: `A paragraph ${'p'.repeat(100)}`, bounds: '[0,150][1080,300]' },
    ]);
    expect(s.actions[0]!.label).toBe(`${'L'.repeat(40)}…`);
    // A summary string is a name: the paragraph is cut too, and read whole in text mode.
    expect(s.texts).toEqual([`A paragraph ${'p'.repeat(28)}…`]);
    expect(s).not.toHaveProperty('counts');
    expect(s).not.toHaveProperty('truncated');
    expect(s).not.toHaveProperty('keyboard');
    expect(s).not.toHaveProperty('layout_findings');
  });

  it('keeps at most 120 actions and counts all of them', () => {
    const buttons = Array.from({ length: 130 }, (_, i) => ({
      cls: 'android.widget.Button',
      text: `B${i}`,
      clickable: true,
      bounds: `[100,${100 + i * 10}][900,${110 + i * 10}]`,
    }));
    const s = summarise(buttons);
    expect(s.actions).toHaveLength(120);
    expect(s.counts?.actions).toBe(130);
    expect(s.truncated).toBe(true);
    expect(summarise(buttons.slice(0, 5))).not.toHaveProperty('truncated');
  });

  it('reads the same screen identically from the Appium shape', () => {
    const fromAppium = summariseScreen(parseDump(appiumSource([screen(children)])), ctx());
    expect(fromAppium.actions).toEqual(summary.actions);
    expect(fromAppium.texts).toEqual(summary.texts);
  });

  it('has no can_scroll when nothing visible scrolls', () => {
    expect(summarise([{ text: 'a', scrollable: true, bounds: '[0,0][0,0]' }]).can_scroll).toBe(false);
  });
});

describe('summariseScreen: selectors from descendants', () => {
  const row = (title: string, i: number): NodeSpec => ({
    cls: 'android.widget.LinearLayout',
    clickable: true,
    bounds: `[0,${200 * i}][1080,${200 * i + 200}]`,
    children: [
      { cls: 'android.widget.ImageView', id: 'android:id/icon', bounds: `[20,${200 * i + 50}][120,${200 * i + 150}]` },
      {
        cls: 'android.widget.TextView',
        id: 'android:id/title',
        text: title,
        bounds: `[150,${200 * i + 20}][900,${200 * i + 100}]`,
      },
    ],
  });

  it('prefers a descendant attribute that is unique over a shared resource-id', () => {
    const s = summarise([row('Network & internet', 0), row('Connected devices', 1), row('Apps', 2)]);
    expect(s.actions.map((a) => [selectorOfEntry(a), nameOfEntry(a), roleOfEntry(a)])).toEqual([
      [{ text: 'Network & internet' }, 'Network & internet', 'button'],
      [{ text: 'Connected devices' }, 'Connected devices', 'button'],
      [{ text: 'Apps' }, 'Apps', 'button'],
    ]);
    // The row's own bounds are advertised, not the title's.
    expect(s.actions[0]!.bounds).toEqual([0, 0, 1080, 200]);
  });

  it("tries another package's resource id after the element's label: the label names it alone in fewer bytes; the id stays when the label is shared", () => {
    // Google's permission controller runs as com.google.android.permissioncontroller; its ids keep
    // the AOSP package, so the wire cannot shorten them to `id`.
    const fg = 'com.google.android.permissioncontroller';
    const button = (id: string, text: string, top: number): NodeSpec => ({
      cls: 'android.widget.Button',
      pkg: fg,
      id: `com.android.permissioncontroller:id/${id}`,
      text,
      clickable: true,
      bounds: `[0,${top}][1080,${top + 150}]`,
    });
    const s = summarise(
      [
        button('permission_allow_button', 'Allow', 300),
        button('permission_deny_button', 'Don’t allow', 450),
        button('permission_allow_one_time_button', 'Deny', 600),
        button('permission_deny_and_dont_ask_again_button', 'Deny', 750),
        {
          cls: 'android.widget.ImageButton',
          pkg: fg,
          id: `${fg}:id/help`,
          desc: 'Help',
          clickable: true,
          bounds: '[0,900][150,1050]',
        },
      ],
      ctx({ foregroundPackage: fg }),
    );
    expect(s.foreground_package).toBe(fg);
    expect(s.actions.map((a) => selectorOfEntry(a))).toEqual([
      { text: 'Allow' },
      { text: 'Don’t allow' },
      // "Deny" names two buttons: the id, which names one alone, still wins over a within or a coin toss.
      { resource_id: 'com.android.permissioncontroller:id/permission_allow_one_time_button' },
      { resource_id: 'com.android.permissioncontroller:id/permission_deny_and_dont_ask_again_button' },
      // The foreground app's own id is short on the wire (`id`) and keeps its place before the label.
      { id: 'help' },
    ]);
    expect(s.actions.map((a) => a.label)).toEqual([undefined, undefined, 'Deny', 'Deny', 'Help']);
    expectEveryOfferUnique([
      button('permission_allow_button', 'Allow', 300),
      button('x', 'Deny', 450),
      button('y', 'Deny', 600),
    ]);
  });

  it('never borrows a selector from a descendant that takes the tap itself', () => {
    const card: NodeSpec = {
      cls: 'android.view.ViewGroup',
      clickable: true,
      bounds: '[0,0][1080,600]',
      children: [
        { cls: 'android.widget.Button', text: 'Like', clickable: true, bounds: '[0,500][300,600]' },
        { cls: 'android.widget.TextView', text: 'Post title', bounds: '[0,0][1080,100]' },
      ],
    };
    const s = summarise([card]);
    expect(s.actions.map((a) => [selectorOfEntry(a), nameOfEntry(a)])).toEqual([
      [{ text: 'Post title' }, 'Post title'],
      [{ text: 'Like' }, 'Like'],
    ]);
  });

  it('offers an unlabelled node that has a resource-id, and one with nothing at all without selector (its ref names it)', () => {
    const s = summarise([
      {
        cls: 'android.widget.ImageButton',
        id: 'com.example.app:id/fab',
        clickable: true,
        bounds: '[800,2000][1000,2200]',
      },
      { cls: 'android.widget.ImageButton', clickable: true, bounds: '[100,2000][300,2200]' },
    ]);
    expect(s.actions).toEqual([{ id: 'fab', bounds: [800, 2000, 200, 200] }, { bounds: [100, 2000, 200, 200] }]);
  });

  it('labels an entry without selector from its content, else a descendant, else a neighbour, and says where', () => {
    const longTitle = 'x'.repeat(300);
    const s = summarise([
      // Its own text is too long to be a selector value: the label is its own, cut.
      { cls: 'android.widget.Button', text: longTitle, clickable: true, bounds: '[0,0][100,100]' },
      // A card whose only text sits in its own (tappable) button.
      {
        cls: 'android.widget.FrameLayout',
        clickable: true,
        bounds: '[0,200][1080,400]',
        children: [{ cls: 'android.widget.Button', text: 'Open', clickable: true, bounds: '[0,200][200,300]' }],
      },
      // A bare Switch beside its title.
      {
        cls: 'android.widget.LinearLayout',
        bounds: '[0,500][1080,600]',
        children: [
          { cls: 'android.widget.TextView', text: 'Wi-Fi', bounds: '[0,500][800,600]' },
          { cls: 'android.widget.Switch', checkable: true, bounds: '[900,500][1080,600]' },
        ],
      },
    ]);
    const unnamed = s.actions.filter((a) => selectorOfEntry(a) === null);
    expect(unnamed.map((a) => [a.label, a.label_from, a.role])).toEqual([
      [cutCodePoints(longTitle, 40), undefined, undefined],
      ['Open', 'descendant', undefined],
      ['Wi-Fi', 'neighbour', undefined],
    ]);
    // `checked` says the role.
    expect(roleOfEntry(unnamed[2]!)).toBe('toggle');
  });

  it('does not offer a selector value ui_tap would refuse (too long), falling back to the next attribute', () => {
    const s = summarise([
      {
        cls: 'android.widget.Button',
        text: 'x'.repeat(300),
        id: 'com.example.app:id/long',
        clickable: true,
        bounds: '[0,0][500,500]',
      },
    ]);
    expect(selectorOfEntry(s.actions[0]!)).toEqual({ id: 'long' });
    expect(s.actions[0]!.label).toBe(`${'x'.repeat(40)}…`);
  });

  it('offers no sentence as a selector: a long content-desc gives way to a short text inside, else to the ref alone', () => {
    const title = 'Chill Music Playlist | Top Trending Songs of the Year, Live';
    const s = summarise([
      {
        cls: 'android.view.View',
        desc: title,
        clickable: true,
        bounds: '[0,0][1080,400]',
        children: [{ cls: 'android.widget.TextView', text: '66:17', bounds: '[900,300][1080,400]' }],
      },
      { cls: 'android.view.View', desc: `Another ${title}`, clickable: true, bounds: '[0,400][1080,800]' },
      // Exactly 40 code points is still a name.
      { cls: 'android.widget.Button', text: 'n'.repeat(40), clickable: true, bounds: '[0,800][1080,900]' },
    ]);
    expect(s.actions[0]).toEqual({ text: '66:17', label: cutCodePoints(title, 40), bounds: [0, 0, 1080, 400] });
    expect(s.actions[1]).toEqual({ label: cutCodePoints(`Another ${title}`, 40), bounds: [0, 400, 1080, 400] });
    expect(selectorOfEntry(s.actions[2]!)).toEqual({ text: 'n'.repeat(40) });
    expect(s.texts).toEqual([]);
  });
});

describe('summariseScreen: ambiguity and within', () => {
  const profileSection = (name: string, top: number, visible = true): NodeSpec => ({
    cls: 'android.widget.LinearLayout',
    desc: name,
    bounds: visible ? `[0,${top}][1080,${top + 400}]` : '[0,0][0,0]',
    children: [
      { cls: 'android.widget.TextView', text: 'Account', bounds: `[0,${top}][1080,${top + 100}]` },
      { cls: 'android.widget.Button', text: 'Save', clickable: true, bounds: `[0,${top + 200}][1080,${top + 350}]` },
    ],
  });

  it('tells two Save rows apart by their Personal/Work profile ancestors', () => {
    const s = summarise([profileSection('Personal profile', 0), profileSection('Work profile', 500)]);
    expect(s.actions.map((a) => [selectorOfEntry(a), a.disambiguated, a.ambiguous])).toEqual([
      [{ text: 'Save', within: { content_desc: 'Personal profile' } }, true, undefined],
      [{ text: 'Save', within: { content_desc: 'Work profile' } }, true, undefined],
    ]);
    expectEveryOfferUnique([profileSection('Personal profile', 0), profileSection('Work profile', 500)]);
  });

  it('uses invisible ancestors as context too', () => {
    const s = summarise([profileSection('Personal profile', 0, false), profileSection('Work profile', 500, false)]);
    expect(s.actions.map((a) => selectorOfEntry(a))).toEqual([
      { text: 'Save', within: { content_desc: 'Personal profile' } },
      { text: 'Save', within: { content_desc: 'Work profile' } },
    ]);
  });

  it('leaves two Clock rows with no distinguishing ancestor ambiguous', () => {
    const clockRow = (top: number): NodeSpec => ({
      cls: 'android.widget.LinearLayout',
      clickable: true,
      bounds: `[0,${top}][1080,${top + 200}]`,
      children: [
        {
          cls: 'android.widget.TextView',
          id: 'android:id/title',
          text: 'Clock',
          bounds: `[100,${top}][900,${top + 200}]`,
        },
      ],
    });
    const list: NodeSpec = {
      cls: 'android.widget.LinearLayout',
      id: 'com.example.app:id/list',
      bounds: '[0,0][1080,1000]',
      children: [clockRow(0), clockRow(300)],
    };
    const { summary: s, plans } = summariseScreenDetailed(parseDump(uiautomatorDump([screen([list])])), ctx());
    expect(s.actions).toHaveLength(2);
    for (const [i, a] of s.actions.entries()) {
      expect(a.ambiguous).toBe(true);
      expect(a.disambiguated).toBeUndefined();
      // No selector names it alone, so none is offered (its ref does); the plan keeps the one tried.
      expect(selectorOfEntry(a)).toBeNull();
      expect(a.label).toBe('Clock');
      expect(plans[i]!.selector).toEqual({ target: { key: 'resource_id', value: 'android:id/title' } });
    }
  });

  it('does not tell two Clock rows apart by a unique sibling summary: ambiguous, labelled Clock', () => {
    const clockRow = (top: number, size: string): NodeSpec => ({
      cls: 'android.widget.LinearLayout',
      clickable: true,
      bounds: `[0,${top}][1080,${top + 200}]`,
      children: [
        { cls: 'android.widget.TextView', text: 'Clock', bounds: `[100,${top}][900,${top + 100}]` },
        { cls: 'android.widget.TextView', text: size, bounds: `[100,${top + 100}][900,${top + 200}]` },
      ],
    });
    const s = summarise([clockRow(0, '21.45 MB'), clockRow(300, '8.12 MB')]);
    expect(s.actions.map((a) => [selectorOfEntry(a), nameOfEntry(a), a.ambiguous])).toEqual([
      [null, 'Clock', true],
      [null, 'Clock', true],
    ]);
  });

  it('counts invisible duplicates: the locator would see them, so the offer is not unique alone', () => {
    const s = summarise([
      {
        cls: 'android.widget.FrameLayout',
        id: 'com.example.app:id/dialog',
        bounds: '[0,0][1080,1000]',
        children: [{ cls: 'android.widget.Button', text: 'OK', clickable: true, bounds: '[100,100][900,300]' }],
      },
      { cls: 'android.widget.Button', text: 'OK', clickable: true, bounds: '[0,0][0,0]' },
    ]);
    expect(s.actions).toHaveLength(1);
    expect(s.actions[0]).toMatchObject({ text: 'OK', within: { id: 'dialog' }, disambiguated: true });
  });

  it('marks a single visible offer ambiguous when an invisible twin cannot be told apart', () => {
    const s = summarise([
      { cls: 'android.widget.Button', text: 'OK', clickable: true, bounds: '[100,100][900,300]' },
      { cls: 'android.widget.Button', text: 'OK', clickable: true, bounds: '[0,0][0,0]' },
    ]);
    expect(s.actions[0]).toEqual({ label: 'OK', bounds: [100, 100, 800, 200], ambiguous: true });
  });
});

describe('summariseScreen: Flutter labels', () => {
  it('offers a content-desc with a newline as is, and it validates', () => {
    const s = summarise([
      { cls: 'android.view.View', desc: 'Historial\nTab 2 of 3', clickable: true, bounds: '[0,2200][360,2400]' },
    ]);
    expect(selectorOfEntry(s.actions[0]!)).toEqual({ content_desc: 'Historial\nTab 2 of 3' });
    expect(parseSelector(selectorOfEntry(s.actions[0]!)).target.value).toBe('Historial\nTab 2 of 3');
    // The action shows the label in full, so texts does not repeat it.
    expect(s.texts).toEqual([]);
  });
});

describe('summariseScreen: keyboard', () => {
  const children: NodeSpec[] = [
    { cls: 'android.widget.EditText', hint: 'Message', bounds: '[0,1300][1080,1500]' },
    { cls: 'android.widget.Button', text: 'Send', clickable: true, bounds: '[0,1600][1080,1800]' },
    { cls: 'android.widget.Button', text: 'Half', clickable: true, bounds: '[0,1450][1080,1550]' },
  ];

  it('marks entries that strictly overlap the visible IME frame, and only those', () => {
    const s = summarise(
      children,
      ctx({ ime: { visible: true, frame: { left: 0, top: 1500, right: 1080, bottom: 2400 } } }),
    );
    expect(s.keyboard).toEqual({ open: true, top: 1500 });
    expect(s.actions.map((a) => [nameOfEntry(a), a.covered_by_keyboard])).toEqual([
      ['Message', undefined],
      ['Send', true],
      ['Half', true],
    ]);
  });

  it('reports a closed keyboard and covers nothing when the IME is hidden', () => {
    const s = summarise(
      children,
      ctx({ ime: { visible: false, frame: { left: 0, top: 1500, right: 1080, bottom: 2400 } } }),
    );
    expect(s).not.toHaveProperty('keyboard');
    expect(s.actions.some((a) => a.covered_by_keyboard)).toBe(false);
  });
});

describe('summariseScreen: screen and foreground package', () => {
  const tree = parseDump(
    uiautomatorDump([
      { cls: 'android.widget.FrameLayout', pkg: 'com.android.systemui', bounds: '[0,0][1080,80]' },
      { cls: 'android.widget.FrameLayout', pkg: 'com.android.settings', bounds: '[0,80][1080,2340]' },
    ]),
  );

  it('takes the display size from dumpsys first, then the declared size, then the windows', () => {
    expect(summariseScreen(tree, ctx({ displaySize: { width: 1080, height: 2400 } })).screen).toEqual({
      width: 1080,
      height: 2400,
    });
    expect(summariseScreen(tree, ctx()).screen).toEqual({ width: 1080, height: 2340 });
    const appium = parseDump(appiumSource([screen([])], { width: 1344, height: 2992 }));
    expect(summariseScreen(appium, ctx()).screen).toEqual({ width: 1344, height: 2992 });
  });

  it('takes the package from dumpsys, else the first window that is not system UI', () => {
    expect(summariseScreen(tree, ctx({ foregroundPackage: 'com.example' })).foreground_package).toBe('com.example');
    expect(summariseScreen(tree, ctx()).foreground_package).toBe('com.android.settings');
  });

  it('is pure: the same input gives the same summary', () => {
    expect(summariseScreen(tree, ctx())).toEqual(summariseScreen(tree, ctx()));
  });
});

describe('summariseScreen: empty fields report their hint as their text', () => {
  // A real device reports an empty field's hint as its text (TextView.getTextForAccessibility).
  const email = (text: string, extra: Partial<NodeSpec> = {}): NodeSpec => ({
    cls: 'android.widget.EditText',
    text,
    hint: 'Email',
    clickable: true,
    bounds: '[0,300][1080,450]',
    ...extra,
  });

  it('offers an empty field by its hint, never by the text that is its hint, and says it is empty', () => {
    const s = summarise([email('Email')]);
    expect(s.actions).toEqual([{ input_hint: 'Email', role: 'input', bounds: [0, 300, 1080, 150], empty: true }]);
  });

  it('offers the same selector once something is typed, and the field is no longer empty', () => {
    const typed = summarise([email('ada@example.com')]);
    expect(typed.actions).toEqual([
      { input_hint: 'Email', label: 'ada@example.com', role: 'input', bounds: [0, 300, 1080, 150] },
    ]);
  });

  it('keeps a resource-id first, and labels the empty field with its hint', () => {
    const s = summarise([email('Email', { id: 'com.example.app:id/email' })]);
    expect(s.actions).toEqual([
      { id: 'email', label: 'Email', role: 'input', bounds: [0, 300, 1080, 150], empty: true },
    ]);
  });

  it('an empty text is empty too, and a field without a hint keeps its text as before', () => {
    const s = summarise([
      { cls: 'android.widget.EditText', desc: 'Phone', clickable: true, bounds: '[0,0][1080,150]' },
      { cls: 'android.widget.EditText', text: 'Delhi', clickable: true, bounds: '[0,150][1080,300]' },
    ]);
    expect(s.actions).toEqual([
      { content_desc: 'Phone', role: 'input', bounds: [0, 0, 1080, 150], empty: true },
      { text: 'Delhi', role: 'input', bounds: [0, 150, 1080, 150] },
    ]);
  });

  it("trusts UiAutomator2's showing-hint over the comparison of text and hint", () => {
    const source = (text: string, showingHint: boolean) =>
      summariseScreen(parseDump(appiumSource([screen([email(text, { showingHint })])])), ctx()).actions[0];
    expect(source('Email', true)).toMatchObject({ input_hint: 'Email', empty: true });
    // Someone typed the hint's own words: the field is filled.
    expect(source('Email', false)).not.toHaveProperty('empty');
    expect(selectorOfEntry(source('Email', false)!)).toEqual({ input_hint: 'Email' });
  });

  it('two empty "Name" fields are told apart by their sections, by hint, not by the text they share', () => {
    const section = (desc: string, top: number): NodeSpec => ({
      cls: 'android.widget.LinearLayout',
      desc,
      bounds: `[0,${top}][1080,${top + 300}]`,
      children: [
        {
          cls: 'android.widget.EditText',
          text: 'Name',
          hint: 'Name',
          clickable: true,
          bounds: `[0,${top + 100}][1080,${top + 250}]`,
        },
      ],
    });
    const children = [section('Sender', 300), section('Recipient', 700)];
    const s = summarise(children);
    expect(s.actions.map((a) => selectorOfEntry(a))).toEqual([
      { input_hint: 'Name', within: { content_desc: 'Sender' } },
      { input_hint: 'Name', within: { content_desc: 'Recipient' } },
    ]);
    for (const a of s.actions) expect(a).toMatchObject({ role: 'input', empty: true, disambiguated: true });
    expectEveryOfferUnique(children);
    // Typing into one of them changes nothing about either selector.
    const typed: NodeSpec[] = [section('Sender', 300), section('Recipient', 700)];
    typed[0]!.children![0]!.text = 'Ada';
    expect(summarise(typed).actions.map((a) => selectorOfEntry(a))).toEqual(s.actions.map((a) => selectorOfEntry(a)));
  });
});

describe('summariseScreen: a password field’s text is never repeated', () => {
  const SECRET = 'hunter2-secret';
  const password = (text: string, extra: Partial<NodeSpec> = {}): NodeSpec => ({
    cls: 'android.widget.EditText',
    text,
    password: true,
    clickable: true,
    bounds: '[0,500][1080,650]',
    ...extra,
  });

  it('offers it by hint, content-desc or id, never by its text, plain or bullets, and never shows the text', () => {
    for (const text of [SECRET, '••••••••••••••']) {
      for (const shape of ['uiautomator', 'appium'] as const) {
        const roots = [
          screen([
            { cls: 'android.widget.TextView', text: 'Sign in', bounds: '[0,0][1080,150]' },
            password(text, { hint: 'Password' }),
          ]),
        ];
        const s = summariseScreen(parseDump(shape === 'appium' ? appiumSource(roots) : uiautomatorDump(roots)), ctx());
        expect(s.actions).toEqual([{ input_hint: 'Password', role: 'input', bounds: [0, 500, 1080, 150] }]);
        expect(JSON.stringify(s)).not.toContain(text);
        expect(s.texts).toEqual(['Sign in']);
      }
    }
    expect(selectorOfEntry(summarise([password(SECRET, { desc: 'Your password' })]).actions[0]!)).toEqual({
      content_desc: 'Your password',
    });
    expect(summarise([password(SECRET, { id: 'com.example.app:id/pw' })]).actions[0]).toEqual({
      id: 'pw',
      role: 'input',
      bounds: [0, 500, 1080, 150],
    });
  });

  it('an empty password field is empty, and is named by its hint', () => {
    expect(summarise([password('Password', { hint: 'Password' })]).actions).toEqual([
      { input_hint: 'Password', role: 'input', bounds: [0, 500, 1080, 150], empty: true },
    ]);
  });

  it('gets no selector when only its text could name it (an entry reached by its ref), and never lends its text to a parent', () => {
    const s = summarise([password(SECRET)]);
    expect(s.actions).toHaveLength(1);
    expect(s.actions[0]).toMatchObject({ role: 'input' });
    expect(selectorOfEntry(s.actions[0]!)).toBeNull();
    expect(JSON.stringify(s)).not.toContain(SECRET);
    const parent = summarise([
      {
        cls: 'android.widget.LinearLayout',
        clickable: true,
        bounds: '[0,400][1080,800]',
        children: [{ ...password(SECRET), clickable: false, cls: 'android.view.View' }],
      },
    ]);
    expect(JSON.stringify(parent)).not.toContain(SECRET);
  });

  it('a not-found message built from these offers does not carry it either', () => {
    const s = summarise([
      password(SECRET, { hint: 'Password' }),
      { cls: 'android.widget.Button', text: 'Sign in', clickable: true, bounds: '[0,700][1080,850]' },
    ]);
    const message = notFoundMessage(parseSelector({ text: 'Log in' }), s.actions);
    expect(message).toContain("'Password' (input)");
    expect(message).not.toContain(SECRET);
  });
});

describe('summariseScreen: scrollables', () => {
  const rv = 'androidx.recyclerview.widget.RecyclerView';
  const chip = (t: string, left: number): NodeSpec => ({
    cls: 'android.widget.TextView',
    text: t,
    clickable: true,
    bounds: `[${left},273][${left + 228},441]`,
  });
  const row = (t: string, top: number): NodeSpec => ({
    cls: 'android.widget.TextView',
    text: t,
    clickable: true,
    bounds: `[0,${top}][1080,${top + 200}]`,
  });

  it('lists each visible scrollable with a selector of its own, its bounds and, when horizontal, its orientation, in screen order', () => {
    const summary = summarise([
      {
        cls: rv,
        id: 'com.x:id/day_strip',
        scrollable: true,
        bounds: '[0,252][1080,462]',
        children: [chip('Dec 1', 24), chip('Dec 2', 276), chip('Dec 3', 528)],
      },
      {
        cls: rv,
        id: 'com.x:id/schedule',
        scrollable: true,
        bounds: '[0,580][1080,1500]',
        children: [row('Standup', 580), row('Review', 780)],
      },
      { cls: 'android.widget.HorizontalScrollView', desc: 'Filters', scrollable: true, bounds: '[0,1500][1080,1600]' },
      { cls: 'android.widget.ScrollView', scrollable: true, bounds: '[0,0][0,0]' },
    ]);
    expect(summary.scrollables).toEqual([
      { selector: { resource_id: 'com.x:id/day_strip' }, bounds: [0, 252, 1080, 210], orientation: 'horizontal' },
      { selector: { resource_id: 'com.x:id/schedule' }, bounds: [0, 580, 1080, 920] },
      { selector: { content_desc: 'Filters' }, bounds: [0, 1500, 1080, 100], orientation: 'horizontal' },
    ]);
    // A row's text never names its list: it scrolls away with the row.
    expect(JSON.stringify(summary.scrollables)).not.toContain('Standup');
  });

  it('a shared id is narrowed by a within, else marked ambiguous; a container with no name of its own has no selector', () => {
    const tree = parseDump(
      uiautomatorDump([
        screen([
          {
            cls: 'android.widget.FrameLayout',
            desc: 'Inbox',
            bounds: '[0,0][1080,1200]',
            children: [{ cls: rv, id: 'com.x:id/list', scrollable: true, bounds: '[0,100][1080,1200]' }],
          },
          {
            cls: 'android.widget.FrameLayout',
            desc: 'Sent',
            bounds: '[0,1200][1080,2274]',
            children: [{ cls: rv, id: 'com.x:id/list', scrollable: true, bounds: '[0,1300][1080,2274]' }],
          },
          {
            cls: 'android.widget.FrameLayout',
            bounds: '[0,2274][1080,2400]',
            children: [
              { cls: rv, id: 'com.x:id/twin', scrollable: true, bounds: '[0,2274][540,2400]' },
              { cls: rv, id: 'com.x:id/twin', scrollable: true, bounds: '[540,2274][1080,2400]' },
            ],
          },
          { cls: 'androidx.compose.ui.platform.ComposeView', scrollable: true, bounds: '[0,0][1080,100]' },
        ]),
      ]),
    );
    const summary = summariseScreen(tree, ctx());
    expect(summary.scrollables?.map((s) => [s.selector, s.ambiguous])).toEqual([
      [{ resource_id: 'com.x:id/list', within: { content_desc: 'Inbox' } }, undefined],
      [{ resource_id: 'com.x:id/list', within: { content_desc: 'Sent' } }, undefined],
      [{ resource_id: 'com.x:id/twin' }, true],
      [{ resource_id: 'com.x:id/twin' }, true],
      [undefined, undefined],
    ]);
    // Every unambiguous container selector resolves to exactly its container.
    const nodes = tree.nodes.filter((n) => n.scrollable);
    summary.scrollables?.forEach((s, i) => {
      if (s.selector && !s.ambiguous) expect(matchSelector(tree, parseSelector(s.selector))).toEqual([nodes[i]]);
    });
  });

  it('leaves scrollables out when nothing visible scrolls', () => {
    expect(summarise([{ text: 'a', bounds: '[0,0][1080,100]' }])).not.toHaveProperty('scrollables');
  });
});

/**
 * Refs: identity, staleness and the exact locator, on hand-written screens and on
 * every real dump in ../shared/fixtures (read in place; skipped with a message when absent).
 * The locator is checked with a real XPath 1.0 engine over the raw XML, not with the domain.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDump } from '../../../src/domain/tree/dump.js';
import { identify, locateIdentity, refLocator } from '../../../src/domain/refs/refIdentity.js';
import { formatRef, parseActionTarget, REF_PATTERN } from '../../../src/domain/refs/refTarget.js';
import type { ScreenContext, WindowState } from '../../../src/domain/tree/screen.js';
import { summariseScreenDetailed } from '../../../src/domain/summary/summary.js';
import type { UiNode, UiTree } from '../../../src/domain/tree/uiNode.js';
import { HarnessError } from '../../../src/domain/errors.js';
import { RefRegistry, REF_GENERATIONS } from '../../../src/application/screen/RefRegistry.js';
import type { ScreenReading } from '../../../src/application/screen/ScreenReader.js';
import { appiumSource, screen, uiautomatorDump, type NodeSpec } from './dumpBuilder.js';
import { allNodes, asServerSource, evaluateLocator, parseXml } from './xpathOracle.js';
import { selectorOfEntry } from '../../../src/application/screen/wireSummary.js';

const SETTINGS: WindowState = {
  foregroundPackage: 'com.example.app',
  foregroundActivity: 'com.example.app.MainActivity',
  ime: { visible: false, frame: null },
  displaySize: { width: 1080, height: 2400 },
};

function reading(xml: string, window: WindowState = SETTINGS): ScreenReading {
  const tree = parseDump(xml);
  const context: ScreenContext = { density: 420, window };
  return { ...summariseScreenDetailed(tree, context), tree, window, xml, context };
}

function nodeLabelled(tree: UiTree, text: string): UiNode {
  const found = tree.nodes.find((n) => n.text === text || n.contentDesc === text);
  if (!found) throw new Error(`no node '${text}'`);
  return found;
}

const statusBar = (clock: string): NodeSpec => ({
  cls: 'android.widget.FrameLayout',
  pkg: 'com.android.systemui',
  bounds: '[0,0][1080,100]',
  children: [
    {
      cls: 'android.widget.TextView',
      pkg: 'com.android.systemui',
      id: 'com.android.systemui:id/clock',
      text: clock,
      bounds: '[20,0][200,100]',
    },
  ],
});

/** A toolbar, a counter, a field and a list of rows under it. */
function app(
  options: { clock?: string; counter?: string; typed?: string; firstRow?: number; rows?: string[]; back?: string } = {},
): string {
  const first = options.firstRow ?? 400;
  const rows = (options.rows ?? ['Inbox', 'Sent', 'Drafts']).map((label, i) => ({
    cls: 'android.widget.LinearLayout',
    clickable: true,
    bounds: `[0,${first + i * 200}][1080,${first + i * 200 + 200}]`,
    children: [
      {
        cls: 'android.widget.TextView',
        id: 'android:id/title',
        text: label,
        bounds: `[40,${first + i * 200}][1000,${first + i * 200 + 200}]`,
      },
    ],
  }));
  return uiautomatorDump([
    statusBar(options.clock ?? '12:00'),
    screen(
      [
        {
          cls: 'android.widget.ImageButton',
          desc: options.back ?? 'Navigate up',
          clickable: true,
          bounds: '[0,100][150,250]',
        },
        { cls: 'android.widget.TextView', text: options.counter ?? '3 unread', bounds: '[200,100][800,250]' },
        {
          cls: 'android.widget.EditText',
          id: 'com.example.app:id/search',
          hint: 'Search',
          text: options.typed ?? '',
          clickable: true,
          bounds: '[0,250][1080,380]',
        },
        {
          cls: 'androidx.recyclerview.widget.RecyclerView',
          scrollable: true,
          bounds: '[0,380][1080,2400]',
          children: rows,
        },
      ],
      '[0,100][1080,2400]',
    ),
  ]);
}

describe('ref identity and staleness', () => {
  function stillThere(
    before: string,
    after: string,
    label: string,
    windowAfter: WindowState = SETTINGS,
  ): UiNode | null {
    const r = reading(before);
    const identity = identify(r.tree, nodeLabelled(r.tree, label), r.window);
    return locateIdentity(parseDump(after), windowAfter, identity);
  }

  it('an unchanged screen read again resolves to the same node', () => {
    const after = parseDump(app());
    const node = stillThere(app(), app(), 'Sent');
    expect(node?.order).toBe(nodeLabelled(after, 'Sent').order);
  });

  it('a clock tick in the status bar and a counter elsewhere do not make it stale', () => {
    expect(stillThere(app(), app({ clock: '12:01', counter: '4 unread' }), 'Navigate up')).not.toBeNull();
    expect(stillThere(app(), app({ clock: '12:01', counter: '4 unread' }), 'Sent')).not.toBeNull();
  });

  it('a scroll that leaves the node in place does not make it stale; one that moves it does', () => {
    // The list scrolled by 100 px: the toolbar button stayed, the rows moved.
    const scrolled = app({ firstRow: 300 });
    expect(stillThere(app(), scrolled, 'Navigate up')).not.toBeNull();
    expect(stillThere(app(), scrolled, 'Sent')).toBeNull();
    // Scrolled by exactly one row: another row stands where "Sent" stood.
    expect(stillThere(app(), app({ rows: ['Sent', 'Drafts', 'Spam'] }), 'Sent')).toBeNull();
  });

  it('after a navigation the old ref never names what now stands at its place', () => {
    // Another activity with a look-alike back button at the same place.
    const other = { ...SETTINGS, foregroundActivity: 'com.example.app.DetailActivity' };
    expect(stillThere(app(), app(), 'Navigate up', other)).toBeNull();
    // The same activity, another fragment: something else at that position and bounds.
    expect(stillThere(app(), app({ back: 'Close' }), 'Navigate up')).toBeNull();
    // Another app in front.
    expect(stillThere(app(), app(), 'Navigate up', { ...SETTINGS, foregroundPackage: 'com.other' })).toBeNull();
  });

  it('a field typed into keeps its identity (its own text is what the model types)', () => {
    const r = reading(app());
    const field = r.tree.nodes.find((n) => n.resourceId === 'com.example.app:id/search')!;
    const identity = identify(r.tree, field, r.window);
    const once = locateIdentity(parseDump(app({ typed: 'cal' })), SETTINGS, identity);
    const twice = locateIdentity(parseDump(app({ typed: 'calendar' })), SETTINGS, identity);
    expect(once?.resourceId).toBe('com.example.app:id/search');
    expect(twice?.resourceId).toBe('com.example.app:id/search');
  });

  it('two nodes that share every attribute but their position get two identities and two exact locators', () => {
    const twin: NodeSpec = { cls: 'android.widget.ImageButton', clickable: true, bounds: '[0,100][200,300]' };
    const xml = appiumSource([
      screen([{ cls: 'android.widget.FrameLayout', bounds: '[0,0][1080,2400]', children: [twin] }, twin]),
    ]);
    const r = reading(xml);
    const twins = r.plans.map((p) => p.node);
    expect(twins).toHaveLength(2);
    const [a, b] = twins.map((n) => identify(r.tree, n, r.window));
    expect(a).not.toEqual(b);
    const doc = parseXml(xml);
    const elements = allNodes(doc);
    for (const node of twins) {
      expect(evaluateLocator(doc, refLocator(r.tree, node))).toEqual([elements[node.order]]);
    }
  });

  it('the locator finds nothing when the bounds changed between the check and the find', () => {
    const r = reading(app());
    const locator = refLocator(r.tree, nodeLabelled(r.tree, 'Sent'));
    expect(evaluateLocator(parseXml(app({ firstRow: 300 })), locator)).toEqual([]);
  });
});

describe('the registry', () => {
  it('gives every offered entry a ref, first key; an unchanged screen keeps its refs, a new element gets a new one', () => {
    const registry = new RefRegistry();
    const first = registry.attach(reading(app()));
    expect(first.actions.every((a) => Object.keys(a)[0] === 'ref' && REF_PATTERN.test(a.ref!))).toBe(true);
    expect(new Set(first.actions.map((a) => a.ref)).size).toBe(first.actions.length);
    const again = registry.attach(reading(app({ clock: '12:01' })));
    expect(again.actions.map((a) => a.ref)).toEqual(first.actions.map((a) => a.ref));
    const scrolled = registry.attach(reading(app({ firstRow: 300 })));
    // The back button and the field stay; the moved rows are new elements with new refs.
    expect(scrolled.actions.slice(0, 2).map((a) => a.ref)).toEqual(first.actions.slice(0, 2).map((a) => a.ref));
    for (const ref of scrolled.actions.slice(2).map((a) => a.ref))
      expect(first.actions.map((a) => a.ref)).not.toContain(ref);
  });

  it('never gives a ref string to a second element, forgets refs after REF_GENERATIONS readings and stays bounded', () => {
    const registry = new RefRegistry();
    const owner = new Map<string, string>();
    let firstRefs: string[] = [];
    for (let i = 0; i < 50; i++) {
      const s = registry.attach(reading(app({ firstRow: 400 + (i % 7) * 10, rows: [`Row ${i % 5}`, 'Sent'] })));
      if (i === 0) firstRefs = s.actions.map((a) => a.ref!);
      for (const [j, a] of s.actions.entries()) {
        const who = JSON.stringify([a.label ?? selectorOfEntry(a), a.bounds, j]);
        expect(owner.get(a.ref!) ?? who, a.ref).toBe(who);
        owner.set(a.ref!, who);
      }
      expect(registry.size).toBeLessThanOrEqual(REF_GENERATIONS * 120);
    }
    // The first reading's rows moved many readings ago: forgotten, not reissued.
    const forgotten = firstRefs.find((ref) => 'missing' in registry.lookup(ref));
    expect(forgotten).toBeDefined();
    expect(registry.lookup(forgotten!)).toEqual({ missing: 'forgotten' });
    expect(registry.lookup(formatRef(100_000))).toEqual({ missing: 'never-issued' });
  });
});

describe('the {ref} selector form', () => {
  it('accepts a ref alone', () => {
    expect(parseActionTarget({ ref: 'e12' })).toEqual({ ref: 'e12' });
    expect(parseActionTarget({ text: 'Save' })).toEqual({ selector: { target: { key: 'text', value: 'Save' } } });
  });

  it.each([
    [{ ref: 'e12', within: { text: 'List' } }],
    [{ ref: 'e12', text: 'Save' }],
    [{ ref: 12 }],
    [{ ref: '' }],
    [{ ref: 'e' }],
    [{ ref: 'e012' }],
    [{ ref: 'E12' }],
    [{ ref: 'e1x2y3z4w5' }],
    [{ ref: "e1' or '1'='1" }],
    [{ ref: '//*[@text]' }],
    [{ ref: 'e12\n' }],
  ])('refuses %j with INVALID_SELECTOR', (input) => {
    expect(() => parseActionTarget(input)).toThrow(HarnessError);
    try {
      parseActionTarget(input);
    } catch (error) {
      expect((error as HarnessError).code).toBe('INVALID_SELECTOR');
    }
  });
});

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const fixturesRoot = resolve(repoRoot, '../shared/fixtures');
const present = existsSync(join(fixturesRoot, 'dumps'));
const fixtureFiles = present
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
if (!present) {
  // eslint-disable-next-line no-console -- a skipped sweep must say why in the test output
  console.warn(`refs fixtures sweep skipped: ${fixturesRoot} is absent (clone ../shared next to the repository)`);
}

describe.skipIf(!present)('refs on every real dump in ../shared/fixtures', () => {
  const totals = { files: 0, refs: 0, withoutSelector: 0, twins: 0 };
  const registry = new RefRegistry();

  for (const file of fixtureFiles) {
    const name = file.slice(fixturesRoot.length + 1);
    it(`${name}: every entry has a ref that resolves, on a fresh reading, to exactly its node, and its locator to exactly that element`, () => {
      const xml = readFileSync(file, 'utf8');
      const r = reading(xml);
      const summary = registry.attach(r);
      // An entry no tap can reach says why and has no ref; every other entry has one.
      const offered = r.plans.slice(0, summary.actions.length).filter((p) => p.entry.not_actionable === undefined);
      for (const a of summary.actions)
        expect(a.ref === undefined, JSON.stringify(a)).toBe(a.not_actionable !== undefined);
      // Every actionable visible node is an entry (up to the cut).
      const actionable = r.tree.nodes.filter(
        (n) =>
          n.bounds !== null &&
          !(n.bounds.left === 0 && n.bounds.top === 0 && n.bounds.right === 0 && n.bounds.bottom === 0) &&
          !n.scrollable &&
          (n.clickable || n.checkable || n.longClickable || n.className.endsWith('EditText')),
      );
      expect(r.plans.map((p) => p.node)).toEqual(actionable);
      const refs = summary.actions.filter((a) => a.not_actionable === undefined).map((a) => a.ref);
      expect(refs.every((ref) => ref !== undefined && REF_PATTERN.test(ref))).toBe(true);
      expect(new Set(refs).size).toBe(refs.length);

      const fresh = parseDump(xml);
      const doc = asServerSource(
        parseXml(xml),
        fresh.nodes.map((n) => n.bounds),
      );
      const elements = allNodes(doc);
      const seen = new Map<string, number>();
      for (const [i, plan] of offered.entries()) {
        const known = registry.lookup(refs[i]!);
        if (!('identity' in known)) throw new Error(`ref ${refs[i]} unknown`);
        const node = locateIdentity(fresh, r.window, known.identity);
        expect(node?.order, `${name} ${refs[i]}`).toBe(plan.node.order);
        const found = evaluateLocator(doc, refLocator(fresh, node!));
        expect(found, `${name} ${refs[i]}`).toHaveLength(1);
        expect(found[0]).toBe(elements[plan.node.order]);
        seen.set(known.identity.node, (seen.get(known.identity.node) ?? 0) + 1);
      }
      totals.files++;
      totals.refs += refs.length;
      totals.withoutSelector += summary.actions.filter((a) => selectorOfEntry(a) === null).length;
      totals.twins += [...seen.values()].filter((n) => n > 1).reduce((s, n) => s + n, 0);
      // Read again: the same refs.
      expect(
        registry
          .attach(reading(xml))
          .actions.filter((a) => a.not_actionable === undefined)
          .map((a) => a.ref),
      ).toEqual(refs);
    });
  }

  it('reports the counts', () => {
    // eslint-disable-next-line no-console -- the counts are part of the report
    console.log(`refs fixtures sweep: ${JSON.stringify(totals)}`);
    expect(totals.files).toBe(fixtureFiles.length);
    expect(totals.refs).toBeGreaterThan(1000);
    // Some real dumps hold nodes that share every attribute but their position: each still has its own ref.
    expect(totals.twins).toBeGreaterThan(0);
  });
});

describe('windows the driver does not list', () => {
  it('a ref on a dialog read through uiautomator dump (activity + dialog) resolves on the page source that lists the dialog only', () => {
    const activity = screen([
      { cls: 'android.widget.Button', text: 'Behind', clickable: true, bounds: '[0,500][1080,700]' },
    ]);
    const dialog: NodeSpec = {
      cls: 'android.widget.FrameLayout',
      bounds: '[100,800][980,1400]',
      children: [{ cls: 'android.widget.Button', text: 'OK', clickable: true, bounds: '[600,1200][900,1350]' }],
    };
    const dump = reading(uiautomatorDump([statusBar('12:00'), activity, dialog]));
    const ok = nodeLabelled(dump.tree, 'OK');
    const identity = identify(dump.tree, ok, dump.window);
    expect(identity.windowRank).toBe(1);
    const source = parseDump(appiumSource([dialog]));
    expect(locateIdentity(source, SETTINGS, identity)?.text).toBe('OK');
    // Two alike windows both holding it: no coin toss.
    expect(
      locateIdentity(parseDump(appiumSource([dialog, dialog])), SETTINGS, { ...identity, windowRank: 5 }),
    ).toBeNull();
  });
});

describe('bounds as the UiAutomator2 server reports them', () => {
  // A Compose chat list whose rows are drawn into the list's horizontal padding: `uiautomator dump`
  // reports [0,…][936,…] (clipped to the display only), the server trims each row into the list.
  const rows = (trimmed: boolean): NodeSpec[] =>
    ['Alice\nBob and 3 others', 'Family\nDinner at 8?'].map((name, i) => ({
      cls: 'android.view.View',
      clickable: true,
      bounds: `[${trimmed ? 24 : 0},${400 + i * 144}][936,${544 + i * 144}]`,
      children: [
        {
          cls: 'android.widget.TextView',
          text: name,
          bounds: `[${trimmed ? 24 : 0},${400 + i * 144}][900,${544 + i * 144}]`,
        },
      ],
    }));
  const chat = (trimmed: boolean): NodeSpec[] => [
    screen([{ cls: 'android.view.View', scrollable: true, bounds: '[24,300][960,2200]', children: rows(trimmed) }]),
  ];

  it('a ref read from the dump resolves on the page source, and its locator names the row there', () => {
    const dump = reading(uiautomatorDump(chat(false)));
    const row = dump.plans.find((p) => p.node.children[0]?.text.startsWith('Family'))!;
    expect(row.entry.bounds).toEqual([24, 544, 912, 144]);
    const identity = identify(dump.tree, row.node, dump.window);
    const sourceXml = appiumSource(chat(true));
    const source = parseDump(sourceXml);
    const node = locateIdentity(source, SETTINGS, identity);
    expect(node?.children[0]?.text).toBe('Family\nDinner at 8?');
    const found = evaluateLocator(parseXml(sourceXml), refLocator(source, node!));
    expect(found).toHaveLength(1);
    expect(found[0]?.getAttribute('bounds')).toBe('[24,544][936,688]');
  });

  it('leaves a node that does not overlap its scrollable ancestor as it is (android.graphics.Rect#intersect)', () => {
    const tree = parseDump(
      uiautomatorDump([
        screen([
          {
            cls: 'android.view.View',
            scrollable: true,
            bounds: '[0,300][1080,1000]',
            children: [
              { cls: 'android.widget.Button', text: 'Below', clickable: true, bounds: '[0,1100][1080,1200]' },
              { cls: 'android.widget.Button', text: 'Inverted', clickable: true, bounds: '[0,990][1080,950]' },
            ],
          },
        ]),
      ]),
    );
    expect(nodeLabelled(tree, 'Below').bounds).toEqual({ left: 0, top: 1100, right: 1080, bottom: 1200 });
    expect(nodeLabelled(tree, 'Inverted').bounds).toEqual({ left: 0, top: 990, right: 1080, bottom: 950 });
  });
});

describe('entries no tap can reach', () => {
  const BARS: WindowState = {
    ...SETTINGS,
    systemBars: {
      status: { left: 0, top: 0, right: 1080, bottom: 100 },
      navigation: { left: 0, top: 2274, right: 1080, bottom: 2400 },
    },
  };
  const edgeToEdge = uiautomatorDump([
    screen([
      { cls: 'android.widget.Button', text: 'Under the status bar', clickable: true, bounds: '[0,10][500,90]' },
      { cls: 'android.widget.Button', text: 'Half under it', clickable: true, bounds: '[0,50][500,250]' },
      { cls: 'android.widget.Button', text: 'Clipped out', clickable: true, bounds: '[0,1300][500,1250]' },
      { cls: 'android.widget.Button', text: 'Under the navigation bar', clickable: true, bounds: '[0,2300][500,2390]' },
      { cls: 'android.widget.Button', text: 'In view', clickable: true, bounds: '[0,1000][500,1200]' },
    ]),
  ]);

  it('say why (not_actionable) and get no ref; the others keep theirs, and nothing else changes', () => {
    const registry = new RefRegistry();
    const summary = registry.attach(reading(edgeToEdge, BARS));
    const byText = new Map(summary.actions.map((a) => [a.text, a]));
    expect(byText.get('Under the status bar')).toMatchObject({ not_actionable: 'under_status_bar' });
    expect(byText.get('Clipped out')).toMatchObject({ not_actionable: 'no_area' });
    expect(byText.get('Under the navigation bar')).toMatchObject({ not_actionable: 'under_navigation_bar' });
    for (const text of ['Under the status bar', 'Clipped out', 'Under the navigation bar'])
      expect(byText.get(text)?.ref).toBeUndefined();
    for (const text of ['Half under it', 'In view']) {
      expect(byText.get(text)?.ref).toMatch(REF_PATTERN);
      expect(byText.get(text)).not.toHaveProperty('not_actionable');
    }
  });

  it('a row whose label lies wholly under a bar while its top does not: ref only, no selector that would be refused', () => {
    const row = uiautomatorDump([
      screen([
        {
          cls: 'android.view.View',
          clickable: true,
          bounds: '[0,2200][1080,2380]',
          children: [{ cls: 'android.widget.TextView', text: 'Last chat', bounds: '[40,2290][1000,2370]' }],
        },
      ]),
    ]);
    const [entry] = new RefRegistry().attach(reading(row, BARS)).actions;
    expect(entry?.ref).toMatch(REF_PATTERN);
    expect(entry?.not_actionable).toBeUndefined();
    expect(selectorOfEntry(entry!)).toBeNull();
    expect(entry?.label).toBe('Last chat');
  });

  it("System UI's own nodes are the bars: never under them", () => {
    const bar = uiautomatorDump([
      {
        cls: 'android.widget.FrameLayout',
        pkg: 'com.android.systemui',
        bounds: '[0,2274][1080,2400]',
        children: [
          {
            cls: 'android.widget.ImageView',
            pkg: 'com.android.systemui',
            desc: 'Back',
            clickable: true,
            bounds: '[100,2274][300,2400]',
          },
        ],
      },
      screen([{ cls: 'android.widget.Button', text: 'In view', clickable: true, bounds: '[0,1000][500,1200]' }]),
    ]);
    const summary = new RefRegistry().attach(reading(bar, BARS));
    expect(summary.actions.every((a) => a.not_actionable === undefined && a.ref !== undefined)).toBe(true);
  });
});

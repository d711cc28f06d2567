/**
 * The default scenario makes every oracle row checkable: these tests
 * assert the screens and transitions those rows rely on, on the device in-process.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { center } from '../../../packages/virtual-device/src/device/geometry.js';
import type { UiElement } from '../../../packages/virtual-device/src/device/uiTree.js';
import { VirtualDevice } from '../../../packages/virtual-device/src/device/VirtualDevice.js';
import { defaultScenario } from '../../../packages/virtual-device/src/scenario/defaultScenario.js';
import { parseScenario } from '../../../packages/virtual-device/src/scenario/load.js';
import { sh } from '../../../packages/virtual-device/test/unit/helpers.js';
import { detectHelperVersions } from '../../../packages/virtual-device/src/device/helperVersions.js';
import { EDGE_DONE_SCREEN, EDGE_SCREEN, withEdgeToEdge } from '../../support/edgeScenario.js';

const device = (): VirtualDevice => VirtualDevice.withDefaultScenario();
const byText = (d: VirtualDevice, text: string): UiElement[] => d.nodes().filter((n) => n.text === text);
const one = (d: VirtualDevice, pred: (n: UiElement) => boolean): UiElement => {
  const found = d.nodes().filter(pred);
  expect(found).toHaveLength(1);
  return found[0] as UiElement;
};
const tap = (d: VirtualDevice, e: UiElement): void => {
  const { x, y } = center(e.bounds);
  d.ui.tapAt(x, y, 'input-tap');
};
const ancestors = (e: UiElement): UiElement[] => {
  const out: UiElement[] = [];
  for (let p = e.parent; p; p = p.parent) out.push(p);
  return out;
};

describe('default scenario', () => {
  it('boots on the launcher, whose Settings icon opens Settings (FLOW-APP-1)', () => {
    const d = device();
    expect(d.currentScreen().package).toBe('com.google.android.apps.nexuslauncher');
    tap(
      d,
      one(d, (n) => n.contentDesc === 'Settings'),
    );
    expect(d.currentScreen()).toMatchObject({ package: 'com.android.settings', screenId: 'settings_home' });
    d.ui.back();
    tap(
      d,
      one(d, (n) => n.contentDesc === 'Notes'),
    );
    expect(d.currentScreen().package).toBe('com.example.notes');
  });

  it('Settings → Apps → All apps: Calendar once, two Clock rows no ancestor tells apart (CONTRACT-SEL-CTX-1)', () => {
    const d = device();
    d.setScreen('settings_home');
    tap(
      d,
      one(d, (n) => n.text === 'Apps'),
    );
    expect(byText(d, 'All apps')).toHaveLength(1);
    tap(
      d,
      one(d, (n) => n.text === 'All apps'),
    );
    expect(d.currentScreen().screenId).toBe('all_apps');
    expect(byText(d, 'Calendar')).toHaveLength(1);
    const clocks = byText(d, 'Clock');
    expect(clocks).toHaveLength(2);
    const labels = (e: UiElement): string[] =>
      ancestors(e).flatMap((a) =>
        [a.resourceId, a.contentDesc, a.text, a.hint].filter((v) => v !== '').map((v) => `${v}`),
      );
    const [first, second] = clocks as [UiElement, UiElement];
    expect(labels(first)).toEqual(labels(second));
  });

  it('scrolling the All apps list changes the visible rows (FLOW-UI-1 ui_scroll)', () => {
    const d = device();
    d.setScreen('all_apps');
    const before = d
      .nodes()
      .map((n) => n.text)
      .filter(Boolean);
    expect(d.ui.swipe(540, 1800, 540, 600, 'test')).toBe(true);
    const after = d
      .nodes()
      .map((n) => n.text)
      .filter(Boolean);
    expect(after).not.toEqual(before);
    expect(after).toContain('Phone');
    expect(before).not.toContain('Phone');
    const rows = d.nodes().filter((e) => ancestors(e).some((a) => a.scrollable));
    expect(rows.length).toBeGreaterThan(0);
    for (const n of rows) expect(n.bounds.bottom).toBeLessThanOrEqual(2274);
    d.ui.swipe(540, 600, 540, 1800, 'test');
    expect(
      d
        .nodes()
        .map((n) => n.text)
        .filter(Boolean),
    ).toEqual(before);
  });

  it('two Save buttons under Personal profile / Work profile containers', () => {
    const d = device();
    d.setScreen('settings_accounts');
    const saves = byText(d, 'Save');
    expect(saves).toHaveLength(2);
    const contexts = saves.map((s) =>
      ancestors(s)
        .map((a) => a.contentDesc)
        .filter(Boolean),
    );
    expect(contexts).toEqual([['Personal profile'], ['Work profile']]);
    tap(d, saves[1] as UiElement);
    expect(d.nodes().some((n) => n.text.startsWith('Work profile saved'))).toBe(true);
  });

  it('the search field is found only by its hint; focus opens the IME; typing sets its text (FLOW-TEXT-1)', async () => {
    const d = device();
    d.setScreen('settings_home');
    tap(
      d,
      one(d, (n) => n.resourceId === 'com.android.settings:id/search_action_bar'),
    );
    const field = one(d, (n) => n.className === 'android.widget.EditText');
    // Empty, it reports its hint as its text, as TextView.getTextForAccessibility does.
    expect(field).toMatchObject({
      text: 'Search settings',
      editableText: '',
      showingHint: true,
      resourceId: '',
      contentDesc: '',
      hint: 'Search settings',
      focused: true,
    });
    expect(d.imeVisible()).toBe(true);
    await sh(d, 'input text wi%sfi');
    expect(one(d, (n) => n.className === 'android.widget.EditText').text).toBe('wi fi');
    d.ui.pressKey(67, 'test');
    d.ui.pressKey(67, 'test');
    d.ui.pressKey(67, 'test');
    expect(byText(d, 'Wi-Fi')).toHaveLength(1);
    d.ui.back();
    expect(d.imeVisible()).toBe(false);
    expect(d.currentScreen().screenId).toBe('settings_search');
  });

  it('Add account: empty fields read their hint, two Name fields sit in their own sections, the password shows bullets', async () => {
    const d = device();
    d.setScreen('settings_accounts');
    tap(
      d,
      one(d, (n) => n.text === 'Add account' && n.clickable),
    );
    expect(d.currentScreen()).toMatchObject({
      screenId: 'settings_add_account',
      activity: 'com.android.settings.accounts.AddAccountSettings',
    });
    const names = d.nodes().filter((n) => n.className === 'android.widget.EditText' && n.hint === 'Name');
    expect(names.map((n) => [n.text, n.showingHint, ancestors(n)[0]?.contentDesc])).toEqual([
      ['Name', true, 'Account holder'],
      ['Name', true, 'Emergency contact'],
    ]);
    tap(d, names[0] as UiElement);
    await sh(d, 'input text Ada');
    tap(
      d,
      one(d, (n) => n.password),
    );
    await sh(d, 'input text hunter2-secret');
    const pw = one(d, (n) => n.password);
    expect([pw.text, pw.editableText, pw.hint]).toEqual(['\u2022'.repeat(14), 'hunter2-secret', 'Password']);
    d.ui.pressKey(66, 'test');
    tap(
      d,
      one(d, (n) => n.text === 'Create account'),
    );
    expect(one(d, (n) => n.text.startsWith('Account created')).text).toBe('Account created for Ada <>');
    expect(d.dumpXml()).not.toContain('hunter2-secret');
  });

  it('covered nodes: a tap inside the open IME lands on the keyboard', () => {
    const d = device();
    d.setScreen('settings_search');
    const before = d.currentScreen();
    d.ui.tapAt(540, 2000, 'input-tap');
    expect(d.clicks().at(-1)?.onKeyboard).toBe(true);
    expect(d.currentScreen()).toEqual(before);
  });

  it('covered nodes: a press in a system bar goes to System UI, whatever the app draws under it', () => {
    const d = new VirtualDevice(withEdgeToEdge(defaultScenario(detectHelperVersions())));
    d.setScreen(EDGE_SCREEN);
    const button = one(d, (n) => n.text === 'Place order');
    // The driver's click presses the centre (540, 2316), under the navigation bar (y >= 2274).
    d.ui.clickElement(button, 'uia2-click');
    expect(d.clicks().at(-1)).toMatchObject({
      x: 540,
      y: 2316,
      target: null,
      onKeyboard: false,
      onSystemBar: 'navigation',
    });
    d.ui.press(73, 30, 1500, 'w3c-actions');
    expect(d.clicks().at(-1)).toMatchObject({ target: null, onSystemBar: 'status' });
    expect(d.currentScreen().screenId).toBe(EDGE_SCREEN);
    // Just above the bar, the same button takes the tap.
    d.ui.tapAt(540, 2273, 'w3c-actions');
    expect(d.clicks().at(-1)?.target?.description).toContain('Place order');
    expect(d.currentScreen().screenId).toBe(EDGE_DONE_SCREEN);
  });

  it('the Wi-Fi switch is checkable and toggles when clicked', () => {
    const d = device();
    d.setScreen('settings_network');
    const sw = one(d, (n) => n.resourceId === 'android:id/switch_widget');
    expect(sw).toMatchObject({ checkable: true, checked: true });
    tap(d, sw);
    expect(one(d, (n) => n.resourceId === 'android:id/switch_widget').checked).toBe(false);
  });

  it('the notes app has Flutter newline tabs and a form that shows the saved note', () => {
    const d = device();
    d.setScreen('notes_main');
    expect(d.nodes().some((n) => n.contentDesc === 'Historial\nTab 2 of 3')).toBe(true);
    expect(d.dumpXml()).toContain('content-desc="Historial&#10;Tab 2 of 3"');
    const title = one(d, (n) => n.hint === 'Title');
    tap(d, title);
    expect(d.imeVisible()).toBe(true);
    d.ui.typeText('Milk', 'test');
    tap(
      d,
      one(d, (n) => n.contentDesc === 'Save note'),
    );
    expect(byText(d, 'Saved: Milk - ')).toHaveLength(1);
    expect(d.imeVisible()).toBe(false);
    tap(
      d,
      one(d, (n) => n.contentDesc === 'Historial\nTab 2 of 3'),
    );
    expect(d.currentScreen().screenId).toBe('notes_history');
  });

  it('every labelled clickable node of every screen sits inside the screen', () => {
    const d = device();
    for (const id of [
      'launcher',
      'settings_home',
      'settings_network',
      'settings_apps',
      'all_apps',
      'settings_accounts',
      'settings_search',
      'notes_main',
    ]) {
      d.setScreen(id, { title: 'T', app: 'A' });
      expect(d.nodes().length, id).toBeGreaterThan(0);
      for (const n of d.nodes()) {
        expect(n.bounds.left).toBeGreaterThanOrEqual(0);
        expect(n.bounds.right).toBeLessThanOrEqual(1080);
        expect(n.bounds.bottom).toBeLessThanOrEqual(2400);
      }
    }
  });
});

describe('static screens and scenario files', () => {
  const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures');

  it.skipIf(!existsSync(fixtures))(
    'shows any real dump or page source; every node can be clicked and the click is logged with its bounds',
    () => {
      const files = [
        ...readdirSync(path.join(fixtures, 'dumps')).map((f) => path.join(fixtures, 'dumps', f)),
        ...readdirSync(path.join(fixtures, 'appium-source')).map((f) => path.join(fixtures, 'appium-source', f)),
      ];
      expect(files.length).toBeGreaterThan(10);
      let clicked = 0;
      for (const file of files.slice(0, 12)) {
        const d = VirtualDevice.withStaticScreen(readFileSync(file, 'utf8'));
        const nodes = d.nodes();
        expect(nodes.length).toBeGreaterThan(1);
        const clickable = nodes.find((n) => n.clickable && n.bounds.right > n.bounds.left);
        if (!clickable) continue;
        d.ui.clickElement(clickable, 'uia2-click');
        const click = d.clicks().at(-1);
        expect(click?.element?.bounds).toEqual(clickable.bounds);
        expect(
          d
            .log()
            .some(
              (e) =>
                e.kind === 'click' && e.detail.includes(`bounds=[${clickable.bounds.left},${clickable.bounds.top}]`),
            ),
        ).toBe(true);
        clicked += 1;
      }
      // A dump without a clickable node is skipped; the click check must still have run.
      expect(clicked).toBeGreaterThan(0);
    },
  );

  it('the default scenario is itself expressible in the scenario file format', () => {
    const spec = defaultScenario({ uiautomator2Server: '10.6.6', appiumSettings: '8.0.9' });
    const reloaded = parseScenario(JSON.parse(JSON.stringify(spec)), '/');
    const d = new VirtualDevice(reloaded);
    d.setScreen('all_apps');
    expect(d.nodes().filter((n) => n.text === 'Clock')).toHaveLength(2);
  });

  it('loads a JSON scenario with an inline XML screen and rules', () => {
    const spec = parseScenario(
      {
        name: 'tiny',
        home: 'home',
        packages: [{ name: 'com.x', launcher: { activity: '.Main', screen: 'home' } }],
        screens: [
          {
            id: 'home',
            activity: '.Main',
            xml: '<hierarchy rotation="0"><node class="android.widget.FrameLayout" package="com.x" bounds="[0,0][1080,2400]"><node class="android.widget.Button" text="Go" clickable="true" bounds="[0,0][200,200]"/></node></hierarchy>',
            rules: [{ match: { text: 'Go' }, onClick: [{ type: 'goto', screen: 'next' }] }],
          },
          {
            id: 'next',
            package: 'com.x',
            activity: '.Next',
            root: {
              class: 'android.widget.FrameLayout',
              bounds: [0, 0, 1080, 2400],
              children: [{ class: 'android.widget.TextView', text: 'Arrived', bounds: [0, 0, 500, 100] }],
            },
          },
        ],
      },
      '/',
    );
    const d = new VirtualDevice(spec);
    d.ui.tapAt(100, 100, 'input-tap');
    expect(d.currentScreen().screenId).toBe('next');
    expect(() => parseScenario({ name: 'bad', home: 'x', packages: [], screens: [{ id: 'x' }] }, '/')).toThrow(
      /invalid at screens\.0\.activity/,
    );
  });
});

describe('bounds the UiAutomator2 server reports (trimmed into the nearest scrollable ancestor)', () => {
  const node = (cls: string, bounds: string, extra = '', children = ''): string =>
    `<node index="0" text="${extra}" resource-id="" class="${cls}" package="com.example.chat" content-desc="" checkable="false" checked="false" clickable="${cls.endsWith('View') && extra === ''}" enabled="true" focusable="false" focused="false" scrollable="${cls === 'androidx.compose.ui.platform.ComposeView'}" long-clickable="false" password="false" selected="false" bounds="${bounds}">${children}</node>`;
  const xml =
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">` +
    node(
      'android.widget.FrameLayout',
      '[0,0][1080,2400]',
      '',
      node(
        'androidx.compose.ui.platform.ComposeView',
        '[24,300][960,2200]',
        '',
        node(
          'android.view.View',
          '[0,400][936,544]',
          '',
          node('android.widget.TextView', '[0,400][900,544]', 'Alice&#10;Bob'),
        ),
      ),
    ) +
    `</hierarchy>`;

  it('the page source is trimmed, the dump is not, and a newline in a text survives both', () => {
    const d = VirtualDevice.withStaticScreen(xml);
    expect(d.dumpXml()).toContain('bounds="[0,400][936,544]"');
    expect(d.pageSource()).toContain('bounds="[24,400][936,544]"');
    expect(d.pageSource()).not.toContain('bounds="[0,400][936,544]"');
    // A newline in a text survives both, as a character reference.
    expect(d.pageSource()).toContain('text="Alice&#10;Bob"');
  });
});

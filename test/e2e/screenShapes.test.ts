/**
 * Screens shaped like those where offered refs used to fail, through the whole stack (real stdio →
 * the built server → real adb → real Appium 3 + UiAutomator2 → the virtual device): the Android
 * share sheet (direct-share targets and app rows with duplicated ids, a drawer that runs on under
 * the navigation bar), a Compose month calendar (cells drawn into the pager's padding, cells of the
 * next month clipped to nothing), an edge-to-edge chat list with multi-line names (a row wholly
 * under the status bar) and an MIUI settings list (duplicated `android:id/title`, rows wider than
 * their padded list). The dumps are written here, after those shapes; no real capture is copied.
 *
 * The promise checked: every entry with a ref acts (one find of one element, one click inside the
 * bounds the summary advertised); every entry without one says why (`not_actionable`), and its
 * selector, if it has one, is refused with nothing clicked. One adb server, one Appium, one harness.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { describeWithAdb } from '../support/adbServer.js';
import { startHarness, type HarnessProcess } from './support/harnessClient.js';
import { ON_EMULATOR, logWindow, startStack, type E2eStack } from './support/stack.js';
import { boxOf, nameOf, pointInside, selectorOf, type WireSummary } from './support/summary.js';
import { SwitchableDevice } from './support/switchableDevice.js';

interface Spec {
  readonly cls: string;
  readonly b: string;
  readonly id?: string;
  readonly text?: string;
  readonly desc?: string;
  readonly click?: boolean;
  readonly scroll?: boolean;
  readonly check?: boolean;
  readonly kids?: readonly Spec[];
}

const esc = (v: string): string =>
  v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\n/g, '&#10;');

function dump(pkg: string, root: Spec): string {
  const node = (s: Spec, index: number): string =>
    `<node index="${index}" text="${esc(s.text ?? '')}" resource-id="${s.id ?? ''}" class="${s.cls}" package="${pkg}" content-desc="${esc(s.desc ?? '')}" ` +
    `checkable="${s.check === true}" checked="false" clickable="${s.click === true}" enabled="true" focusable="${s.click === true}" focused="false" ` +
    `scrollable="${s.scroll === true}" long-clickable="false" password="false" selected="false" bounds="${s.b}">${(s.kids ?? []).map(node).join('')}</node>`;
  return `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">${node(root, 0)}</hierarchy>`;
}

const box = (l: number, t: number, r: number, b: number): string => `[${l},${t}][${r},${b}]`;

/** ChooserActivity: a drawer whose grid runs on under the navigation bar (2274–2400). */
function shareSheet(): string {
  const item = (x: number, y: number, label: string): Spec => ({
    cls: 'android.widget.LinearLayout',
    id: 'android:id/item',
    click: true,
    b: box(x, y, x + 270, Math.min(y + 300, 2400)),
    kids: [
      {
        cls: 'android.widget.ImageView',
        id: 'android:id/icon',
        b: box(x + 75, y + 20, x + 195, Math.min(y + 140, 2400)),
      },
      ...(y + 160 < 2400
        ? [
            {
              cls: 'android.widget.TextView',
              id: 'android:id/text1',
              text: label,
              b: box(x + 10, y + 160, x + 260, Math.min(y + 260, 2400)),
            },
          ]
        : []),
    ],
  });
  const row = (y: number, labels: readonly string[]): Spec => ({
    cls: 'android.widget.LinearLayout',
    id: 'com.android.intentresolver:id/chooser_row',
    b: box(0, y, 1080, Math.min(y + 300, 2400)),
    kids: labels.map((l, i) => item(i * 270, y, l)),
  });
  return dump('com.android.intentresolver', {
    cls: 'android.widget.FrameLayout',
    b: box(0, 0, 1080, 2400),
    kids: [
      {
        cls: 'android.widget.FrameLayout',
        id: 'android:id/contentPanel',
        b: box(0, 900, 1080, 2400),
        kids: [
          {
            cls: 'android.widget.TextView',
            id: 'com.android.intentresolver:id/headline',
            text: 'Sharing 1 image',
            b: box(60, 940, 1020, 1020),
          },
          {
            cls: 'androidx.recyclerview.widget.RecyclerView',
            id: 'com.android.intentresolver:id/resolver_list',
            scroll: true,
            b: box(0, 1060, 1080, 2400),
            kids: [
              row(1060, ['Alice\nSmith', 'Bob', 'Family\nchat', 'Alice\nSmith']),
              row(1400, ['Messages', 'Gmail', 'Drive', 'Nearby Share']),
              row(1740, ['Maps', 'Keep', 'Photos', 'Chrome']),
              row(2040, ['Files', 'Print', 'Bluetooth', 'Copy']),
              // The drawer's next row shows 40 px, all of it under the navigation bar.
              row(2360, ['Slack', 'Teams', 'Zoom', 'Signal']),
            ],
          },
        ],
      },
    ],
  });
}

/** A Compose month grid in a pager with 24 px padding; the next month's first week is clipped to nothing. */
function composeCalendar(): string {
  const cells: Spec[] = [];
  for (let week = 0; week < 6; week++) {
    for (let day = 0; day < 7; day++) {
      const n = week * 7 + day - 2;
      const label = n < 1 ? String(30 + n) : n > 31 ? String(n - 31) : String(n);
      const [l, t] = [day * 154, 600 + week * 150];
      cells.push({
        cls: 'android.view.View',
        click: true,
        b: box(l, t, l + 154, t + 150),
        kids: [{ cls: 'android.widget.TextView', text: label, b: box(l + 50, t + 40, l + 104, t + 110) }],
      });
    }
  }
  // The next month's page, composed beside this one and clipped out: inverted bounds.
  for (let day = 0; day < 7; day++)
    cells.push({ cls: 'android.view.View', click: true, desc: `June ${day + 1}`, b: box(1080, 600, 1056, 750) });
  return dump('com.example.calendar', {
    cls: 'android.widget.FrameLayout',
    b: box(0, 0, 1080, 2400),
    kids: [
      {
        cls: 'androidx.compose.ui.platform.ComposeView',
        b: box(0, 63, 1080, 2274),
        kids: [
          { cls: 'android.widget.TextView', text: 'May 2026', b: box(60, 300, 600, 400) },
          { cls: 'android.view.View', desc: 'Next month', click: true, b: box(900, 300, 1020, 420) },
          { cls: 'android.view.View', scroll: true, b: box(24, 560, 1056, 1520), kids: cells },
        ],
      },
    ],
  });
}

/** An edge-to-edge chat list: names on two lines, the first row scrolled wholly under the status bar (0–63). */
function chatList(): string {
  const names = [
    'Pinned\nnotes',
    'Alice Smith\nSee you at 8',
    'Family 🎉\nDinner?',
    'Team standup\nMoved to 10:30',
    'Bob\nOK',
    'Alice Smith\nSee you at 8',
  ];
  const rows = names.map((name, i): Spec => {
    const top = i === 0 ? 0 : 180 + (i - 1) * 200;
    const bottom = i === 0 ? 50 : top + 200;
    return {
      cls: 'android.view.ViewGroup',
      click: true,
      b: box(0, top, 1080, bottom),
      kids: [
        { cls: 'android.widget.TextView', id: 'com.example.chat:id/name', text: name, b: box(180, top, 1040, bottom) },
      ],
    };
  });
  return dump('com.example.chat', {
    cls: 'android.widget.FrameLayout',
    b: box(0, 0, 1080, 2400),
    kids: [
      {
        cls: 'androidx.recyclerview.widget.RecyclerView',
        id: 'com.example.chat:id/list',
        scroll: true,
        b: box(0, 0, 1080, 2400),
        kids: rows,
      },
    ],
  });
}

/** MIUI Settings: every row's title is `android:id/title`, rows reach past the padded list (42 px each side). */
function miuiSettings(): string {
  const titles = [
    'WLAN',
    'Bluetooth',
    'Mobile networks',
    'More connectivity options',
    'Always-on display & Lock screen',
    'Display',
    'Sound & vibration',
  ];
  const rows = titles.map((title, i): Spec => {
    const top = 400 + i * 190;
    return {
      cls: 'android.widget.LinearLayout',
      click: true,
      b: box(0, top, 1080, top + 190),
      kids: [
        { cls: 'android.widget.TextView', id: 'android:id/title', text: title, b: box(120, top + 40, 800, top + 150) },
        ...(i < 2
          ? [
              {
                cls: 'miuix.slidingwidget.widget.SlidingButton',
                id: 'android:id/checkbox',
                check: true,
                click: true,
                b: box(880, top + 55, 1020, top + 135),
              },
            ]
          : []),
      ],
    };
  });
  return dump('com.android.settings', {
    cls: 'android.widget.FrameLayout',
    b: box(0, 0, 1080, 2400),
    kids: [
      {
        cls: 'android.widget.TextView',
        id: 'com.android.settings:id/action_bar_title',
        text: 'Settings',
        b: box(60, 150, 700, 300),
      },
      {
        cls: 'miuix.recyclerview.widget.RecyclerView',
        id: 'com.android.settings:id/recycler_view',
        scroll: true,
        b: box(42, 360, 1038, 2274),
        kids: rows,
      },
    ],
  });
}

/** Each shape, and the reasons its unreachable entries must give (none for the MIUI list). */
const SHAPES: readonly (readonly [string, () => string, readonly string[]])[] = [
  ['share sheet', shareSheet, ['under_navigation_bar']],
  ['Compose month calendar', composeCalendar, ['no_area']],
  ['chat list with multi-line names', chatList, ['under_status_bar']],
  ['MIUI settings list', miuiSettings, []],
];

const title = ON_EMULATOR
  ? 'screen shapes [skipped on a real emulator: needs the virtual device to show each screen]'
  : 'screen shapes through the full stack: every offered ref acts, every other entry says why';

(ON_EMULATOR ? describe.skip : describeWithAdb)(title, () => {
  let stack: E2eStack;
  let switchable: SwitchableDevice;
  let harness: HarnessProcess;

  beforeAll(async () => {
    switchable = new SwitchableDevice(VirtualDevice.withDefaultScenario());
    stack = await startStack({ label: 'shapes', services: switchable });
    harness = await startHarness(stack.harnessEnv());
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
  }, 60_000);

  for (const [name, make, reasons] of SHAPES) {
    it(`${name}`, async () => {
      const vd = VirtualDevice.withStaticScreen(make());
      switchable.switchTo(vd);
      const answer = await harness.call('ui_get_tree', { include_bounds: true });
      expect(answer.envelope.ok, JSON.stringify(answer.envelope).slice(0, 800)).toBe(true);
      const summary = answer.envelope.data as unknown as WireSummary;
      const open = await harness.call('ui_session_open');
      expect(open.envelope.ok, JSON.stringify(open.envelope)).toBe(true);
      const sessionId = open.envelope.data.session_id as string;
      const failures: string[] = [];
      let acted = 0;
      let refused = 0;
      try {
        for (const entry of summary.actions) {
          const what = `${JSON.stringify(entry.ref ?? selectorOf(entry))} (${nameOf(entry).slice(0, 30).replace(/\n/g, '\\n')})`;
          const clicksBefore = vd.clicks().length;
          const window = logWindow(vd);
          if (entry.not_actionable !== undefined) {
            if (entry.ref !== undefined)
              failures.push(`${what}: not actionable (${entry.not_actionable}) but offered a ref`);
            const selector = selectorOf(entry);
            if (selector && !entry.ambiguous) {
              const tap = await harness.call('ui_tap', { selector, session_id: sessionId });
              if (tap.envelope.ok || vd.clicks().length !== clicksBefore)
                failures.push(`${what}: ${entry.not_actionable}, yet the selector tapped`);
            }
            refused += 1;
            continue;
          }
          if (entry.ref === undefined) {
            failures.push(`${what}: no ref and no not_actionable`);
            continue;
          }
          const tap = await harness.call('ui_tap', { selector: { ref: entry.ref }, session_id: sessionId });
          const clicks = vd.clicks().slice(clicksBefore);
          const finds = window.since().filter((e) => e.kind === 'uia2' && e.detail.startsWith('find '));
          if (!tap.envelope.ok)
            failures.push(`${what}: ${tap.envelope.error?.code} ${tap.envelope.error?.message?.slice(0, 160)}`);
          else if (finds.length !== 1 || !/-> 1 element\(s\)$/.test(finds[0]!.detail))
            failures.push(`${what}: the find matched ${finds.map((f) => f.detail).join('; ')}`);
          else if (clicks.length !== 1) failures.push(`${what}: ${clicks.length} clicks`);
          else if (!pointInside(clicks[0]!.x, clicks[0]!.y, entry))
            failures.push(
              `${what}: click at (${clicks[0]!.x},${clicks[0]!.y}) outside ${JSON.stringify(boxOf(entry))}`,
            );
          else acted += 1;
          vd.setScreen('static');
        }
      } finally {
        await harness.call('ui_session_close', { session_id: sessionId });
      }
      console.error(
        `[screen shapes] ${name}: ${summary.actions.length} entries, ${acted} acted by ref, ${refused} not actionable`,
      );
      expect(failures).toEqual([]);
      expect(acted).toBeGreaterThan(3);
      expect([...new Set(summary.actions.flatMap((e) => (e.not_actionable ? [e.not_actionable] : [])))]).toEqual(
        reasons,
      );
    }, 240_000);
  }
});

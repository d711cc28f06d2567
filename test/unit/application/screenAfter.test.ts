import { describe, expect, it } from 'vitest';
import type { Locator } from '../../../src/domain/ports.js';
import { nameOfEntry } from '../../../src/application/screen/wireSummary.js';
import { buildLocator } from '../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { buildHarness as buildBase, type TestHarness } from '../../support/fakes/harness.js';
import { launcherDump, settingsAppsDump } from '../../support/fakes/screens.js';
import { evaluateLocator, parseXml } from '../domain/xpathOracle.js';

/** The fake driver finds a ref's XPath on its current page source (exactly one node), and `{text: "Calendar"}`. */
function buildHarness(): TestHarness {
  const h = buildBase();
  const calendar = buildLocator(parseSelector({ text: 'Calendar' })).value;
  h.automation.find = (locator: Locator) => {
    if (locator.value === calendar) return 'Calendar';
    if (locator.using !== 'xpath') return undefined;
    const found = evaluateLocator(parseXml(h.automation.source), locator);
    return found.length === 1
      ? found[0]!.getAttribute('text') || found[0]!.getAttribute('content-desc') || 'element'
      : undefined;
  };
  return h;
}

/** A Wi-Fi switch row added to the Settings screen of the fakes: `on` flips its checked state and its status text. */
function withSwitch(on: boolean): string {
  const status = on ? 'On' : 'Off';
  return settingsAppsDump(
    `<node index="2" text="" resource-id="android:id/switch_widget" class="android.widget.Switch" package="com.android.settings" content-desc="Wi-Fi" checkable="true" checked="${on}" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,760][1080,920]" />` +
      `<node index="3" text="${status}" resource-id="android:id/summary" class="android.widget.TextView" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,920][1080,1000]" />`,
  );
}

interface Entry {
  readonly ref: string;
  readonly label?: string;
  readonly content_desc?: string;
  readonly text?: string;
  readonly checked?: boolean;
}
type After = Record<string, unknown> & { read: string; diff_of?: string; actions?: Entry[]; changed?: Entry[] };

function showing(h: TestHarness, xml: string): void {
  h.device.dump = xml;
  h.automation.source = xml;
}

async function dataOf(h: TestHarness, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const envelope = await h.envelope(tool, args);
  expect(envelope.error).toBeNull();
  return envelope.data;
}

describe('the screen after an action, and only what changed', () => {
  it('a toggle flipped: after is a diff naming exactly that entry and the texts that changed, relative to the last read', async () => {
    const h = buildHarness();
    showing(h, withSwitch(false));
    const first = (await dataOf(h, 'ui_get_tree', {})) as After;
    const wifi = first.actions!.find((e) => nameOfEntry(e) === 'Wi-Fi')!;
    expect(wifi.checked).toBe(false);
    // The device flips the switch when tapped: the page source the session reads afterwards shows it on.
    showing(h, withSwitch(true));
    const tap = await dataOf(h, 'ui_tap', { selector: { ref: wifi.ref } });
    const after = tap.after as After;
    // The package is the action's own `foreground_package`: the diff does not say it again.
    expect(tap.foreground_package).toBe('com.android.settings');
    expect(after).toEqual({
      read: expect.stringMatching(/^r[0-9a-z]+$/) as unknown,
      diff_of: first.read,
      changed: [{ ...wifi, checked: true }],
      texts_added: ['On'],
      texts_removed: ['Off'],
    });
    // The unchanged entries' refs still act: one of them is tapped without a new read.
    const calendar = first.actions!.find((e) => nameOfEntry(e) === 'Calendar')!;
    expect((await h.envelope('ui_tap', { selector: { ref: calendar.ref }, observe: false })).ok).toBe(true);
  });

  it('since: "last" on ui_get_tree diffs the same way; nothing changed is a diff with nothing in it', async () => {
    const h = buildHarness();
    showing(h, withSwitch(false));
    const first = (await dataOf(h, 'ui_get_tree', {})) as After;
    const again = (await dataOf(h, 'ui_get_tree', { since: 'last' })) as After;
    expect(again).toEqual({
      read: expect.stringMatching(/^r/) as unknown,
      diff_of: first.read,
      foreground_package: 'com.android.settings',
    });
    // Without since, the whole screen.
    expect(((await dataOf(h, 'ui_get_tree', {})) as After).actions?.length).toBe(first.actions!.length);
  });

  it('a navigation: after is the whole new screen, and a ref of the old one is STALE_REF with no click', async () => {
    const h = buildHarness();
    showing(h, withSwitch(false));
    const first = (await dataOf(h, 'ui_get_tree', {})) as After;
    const calendar = first.actions!.find((e) => nameOfEntry(e) === 'Calendar')!;
    const wifi = first.actions!.find((e) => nameOfEntry(e) === 'Wi-Fi')!;
    showing(h, launcherDump('com.example.calendar'));
    h.device.foreground = 'com.example.calendar';
    const tap = await dataOf(h, 'ui_tap', { selector: { text: 'Calendar' } });
    const after = tap.after as After;
    expect(after.diff_of).toBeUndefined();
    // The whole screen is ui_get_tree's data less `screen` and the package the action names already.
    expect(tap.foreground_package).toBe('com.example.calendar');
    expect(after).not.toHaveProperty('foreground_package');
    expect(after).not.toHaveProperty('screen');
    expect(after.actions?.map((e) => nameOfEntry(e))).toEqual(['Hello']);
    const { read: _treeRead, ...tree } = (await dataOf(h, 'ui_get_tree', {})) as After;
    const { read: _afterRead, ...shown } = after;
    expect(tree).toEqual({
      ...shown,
      foreground_package: 'com.example.calendar',
      screen: { width: 1080, height: 2400 },
    });
    const clicks = (): number => h.automation.sessions.flatMap((s) => s.calls).filter((c) => c === 'click').length;
    const before = clicks();
    for (const ref of [calendar.ref, wifi.ref]) {
      const stale = await h.envelope('ui_tap', { selector: { ref } });
      expect(stale.error?.code).toBe('STALE_REF');
    }
    expect(clicks()).toBe(before);
  });

  it('Back to a screen read a few steps ago: after is a diff relative to that read, not the last one', async () => {
    const h = buildHarness();
    showing(h, withSwitch(false));
    const first = (await dataOf(h, 'ui_get_tree', {})) as After;
    showing(h, launcherDump('com.example.calendar'));
    h.device.foreground = 'com.example.calendar';
    const away = (await dataOf(h, 'ui_tap', { selector: { text: 'Calendar' } })).after as After;
    expect(away.diff_of).toBeUndefined();
    showing(h, withSwitch(false));
    h.device.foreground = 'com.android.settings';
    const backData = await dataOf(h, 'device_back', {});
    expect(backData.foreground_package).toBe('com.android.settings');
    // Nothing changed since that read: the diff is its read id and its base, nothing else.
    expect(backData.after).toEqual({ read: expect.stringMatching(/^r/) as unknown, diff_of: first.read });
    // The refs of that read still act.
    const calendar = first.actions!.find((e) => nameOfEntry(e) === 'Calendar')!;
    expect((await h.envelope('ui_tap', { selector: { ref: calendar.ref }, observe: false })).ok).toBe(true);
  });

  it('after keeps its foreground_package when the action names none or another one', async () => {
    const h = buildHarness();
    // No window has focus during the settle: the action answers null, the screen read shows Settings.
    h.device.foreground = null;
    const tap = await dataOf(h, 'ui_tap', { selector: { text: 'Calendar' } });
    expect(tap).toMatchObject({ foreground_package: null, foreground_settled: false });
    expect(tap.after).toMatchObject({ foreground_package: 'com.android.settings', settled: false });
    expect(tap.after).not.toHaveProperty('screen');
    // settings_open_apps answers a marker, not a package: its after names the package itself.
    h.device.foreground = 'com.android.settings';
    const settings = await dataOf(h, 'settings_open_apps', {});
    expect(settings).not.toHaveProperty('foreground_package');
    expect(settings.after).toMatchObject({ foreground_package: 'com.android.settings' });
    expect(settings.after).not.toHaveProperty('screen');
  });

  it('observe: false leaves after out; any other value than a boolean is INVALID_ARGUMENT', async () => {
    const h = buildHarness();
    const quiet = await dataOf(h, 'ui_tap', { selector: { text: 'Calendar' }, observe: false });
    expect(quiet).not.toHaveProperty('after');
    expect((await h.envelope('ui_tap', { selector: { text: 'Calendar' }, observe: 'no' })).error?.code).toBe(
      'INVALID_ARGUMENT',
    );
    const loud = await dataOf(h, 'device_back', {});
    expect((loud.after as After).read).toMatch(/^r/);
  });

  it('after is read through the session, never with uiautomator dump, and marks a window with nothing drawn as not settled at the bound', async () => {
    const h = buildHarness();
    // The focused package shows no node in the tree (a cold start): the reads go on until the bound.
    h.device.foreground = 'com.example.slow';
    const tap = await dataOf(h, 'ui_tap', { selector: { text: 'Calendar' } });
    expect((tap.after as After).settled).toBe(false);
    expect(h.device.calls).not.toContain('dumpUi');
  });

  it('within a ref gives that container only, and mode: "text" every visible text once; since with them is refused', async () => {
    const h = buildHarness();
    showing(h, withSwitch(false));
    const whole = (await dataOf(h, 'ui_get_tree', {})) as After & { scrollables?: { selector?: unknown }[] };
    const list = await dataOf(h, 'ui_get_tree', {
      within: { class_name: 'androidx.recyclerview.widget.RecyclerView' },
    });
    expect((list.actions as Entry[]).map((e) => nameOfEntry(e))).toEqual(['Calendar', 'Clock', 'Wi-Fi']);
    expect(list.texts).toEqual(['Off']);
    const texts = await dataOf(h, 'ui_get_tree', { mode: 'text' });
    expect(texts.texts).toEqual(['All apps', 'Search apps', 'Calendar', 'Clock', 'Wi-Fi', 'Off']);
    expect(texts).not.toHaveProperty('actions');
    expect((await h.envelope('ui_get_tree', { since: 'last', mode: 'text' })).error?.code).toBe('INVALID_ARGUMENT');
    expect((await h.envelope('ui_get_tree', { since: 'first' })).error?.code).toBe('INVALID_ARGUMENT');
    const calendar = whole.actions!.find((e) => nameOfEntry(e) === 'Calendar')!;
    const one = await dataOf(h, 'ui_get_tree', { within: { ref: calendar.ref } });
    expect(one.within).toEqual({ ref: calendar.ref });
    expect((one.actions as Entry[]).map((e) => e.ref)).toEqual([calendar.ref]);
  });
});

describe('the lock check in a flow: one dumpsys window before the action, dumpsys power once per settle', () => {
  it('a ref tap reads dumpsys window before and once after; a navigation reads dumpsys power beside the after-read, so the next check needs none', async () => {
    const h = buildHarness();
    h.device.lock = { locked: false, awake: true };
    showing(h, withSwitch(false));
    const open = await dataOf(h, 'ui_session_open', {});
    const session_id = open.session_id as string;
    const first = (await dataOf(h, 'ui_get_tree', { session_id })) as After;
    const wifi = first.actions!.find((e) => nameOfEntry(e) === 'Wi-Fi')!;
    const count = (name: string): number => h.device.calls.filter((c) => c === name).length;

    await dataOf(h, 'ui_tap', { selector: { ref: wifi.ref }, session_id });
    // Nothing told the power state yet: read once, beside the first check.
    const windows = count('getWindowState');
    let powers = count('getWakefulness');

    await dataOf(h, 'ui_tap', { selector: { ref: wifi.ref }, session_id });
    // Same focus: the check is one dumpsys window (the ref's window too), the settle another; no power read.
    expect([count('getWindowState') - windows, count('getWakefulness') - powers]).toEqual([2, 0]);

    // The tap moves the focus: the settle sees it, and dumpsys power is read then, once.
    powers = count('getWakefulness');
    h.device.foregroundReads.push('com.android.settings', 'com.example.next');
    await dataOf(h, 'ui_tap', { selector: { ref: wifi.ref }, session_id, observe: false });
    expect(count('getWakefulness') - powers).toBe(1);

    // The next check, on the screen that settle saw, reads no power.
    powers = count('getWakefulness');
    await h.envelope('ui_tap', { selector: { text: 'Calendar' }, session_id, observe: false });
    expect(count('getWakefulness') - powers).toBe(0);
  });

  it('a selector found at the first look and Back each read dumpsys window once before the action, as a ref does', async () => {
    const h = buildHarness();
    h.device.lock = { locked: false, awake: true };
    showing(h, withSwitch(false));
    const session_id = (await dataOf(h, 'ui_session_open', {})).session_id as string;
    const count = (): number => h.device.calls.filter((c) => c === 'getWindowState').length;
    await dataOf(h, 'ui_tap', { selector: { text: 'Calendar' }, session_id, observe: false });
    // The check (whose window the press plans with) and one settle read after: nothing read in between.
    let windows = count();
    await dataOf(h, 'ui_tap', { selector: { text: 'Calendar' }, session_id, observe: false });
    expect(count() - windows).toBe(2);
    // Back in a flow: the check's read is the package in front before the key (no second read), then the settle's.
    windows = count();
    h.device.foregroundReads.push('com.android.settings', 'com.example.next');
    const back = await dataOf(h, 'device_back', { session_id, observe: false });
    expect(back.back_to_package).toBe('com.example.next');
    expect(count() - windows).toBe(2);
  });
});

/**
 * ui_tap / ui_type_text by ref, through the whole application with in-memory ports.
 * The fake Appium finds by evaluating the XPath it receives with a real XPath 1.0 engine over
 * its page source, so a locator that named another node, or none, would fail here.
 */
import { describe, expect, it } from 'vitest';
import type { Locator } from '../../../src/domain/ports.js';
import { buildHarness, type TestHarness } from '../../support/fakes/harness.js';
import { settingsAppsDump } from '../../support/fakes/screens.js';
import { evaluateLocator, parseXml } from '../domain/xpathOracle.js';
import { selectorOfEntry, type WireActionEntry } from '../../../src/application/screen/wireSummary.js';

type Entry = WireActionEntry & { readonly ref: string };

/** The fake driver finds what the XPath selects on its current page source (exactly one, else nothing). */
function realXpath(h: TestHarness): void {
  h.automation.find = (locator: Locator) => {
    if (locator.using !== 'xpath') return undefined;
    const found = evaluateLocator(parseXml(h.automation.source), locator);
    if (found.length !== 1) return undefined;
    const el = found[0]!;
    return el.getAttribute('text') || el.getAttribute('content-desc') || el.getAttribute('resource-id') || 'element';
  };
}

async function entries(h: TestHarness): Promise<Entry[]> {
  const tree = await h.envelope('ui_get_tree');
  expect(tree.ok, JSON.stringify(tree)).toBe(true);
  return (tree.data as { actions: Entry[] }).actions;
}

function byName(list: readonly Entry[], name: string): Entry {
  const hit = list.find((e) => e.label === name || Object.values(selectorOfEntry(e) ?? {}).includes(name));
  if (!hit) throw new Error(`no entry ${name} in ${JSON.stringify(list)}`);
  return hit;
}

function setScreen(h: TestHarness, xml: string): void {
  h.device.dump = xml;
  h.automation.source = xml;
}

describe('acting by ref', () => {
  it('ui_tap {ref} reads the screen through the session, then clicks exactly that element', async () => {
    const h = buildHarness();
    realXpath(h);
    const clock = byName(await entries(h), 'Clock');
    const envelope = await h.envelope('ui_tap', { selector: { ref: clock.ref } });
    expect(envelope).toMatchObject({ ok: true, data: { target: { ref: clock.ref }, element_label: 'Clock' } });
    const calls = h.automation.sessions[0]?.calls ?? [];
    expect(calls.indexOf('pageSource')).toBeLessThan(calls.indexOf('findElement'));
    expect(calls).toContain('click');
    expect(h.automation.locators).toHaveLength(1);
    expect(h.automation.locators[0]!.value).toBe("/*/*[1]/*[3]/*[2][@bounds='[0,600][1080,760]']");
    expect(envelope.evidence?.artifact_id).toMatch(/-ui-tap\.png$/);
  });

  it('a ref from before a navigation is STALE_REF: nothing clicked, failure evidence left', async () => {
    const h = buildHarness();
    realXpath(h);
    const clock = byName(await entries(h), 'Clock');
    // Another screen now: "Alarms" stands where "Clock" stood (same class, same bounds, same position).
    setScreen(h, settingsAppsDump().replace('text="Clock"', 'text="Alarms"'));
    const envelope = await h.envelope('ui_tap', { selector: { ref: clock.ref } });
    expect(envelope.error?.code).toBe('STALE_REF');
    expect(envelope.error?.message).toMatch(/^The screen changed since ui_get_tree gave ref e[0-9a-z]+: read it again/);
    expect(h.automation.sessions[0]?.calls).not.toContain('click');
    expect(h.automation.locators).toEqual([]);
    expect(envelope.evidence?.artifact_id).toMatch(/-failure-ui-tap\.png$/);
  });

  it('another activity in front makes the ref stale even when the same tree stands there', async () => {
    const h = buildHarness();
    realXpath(h);
    h.device.activity = 'com.android.settings.Settings';
    const clock = byName(await entries(h), 'Clock');
    h.device.activity = 'com.android.settings.SubSettings';
    const envelope = await h.envelope('ui_tap', { selector: { ref: clock.ref } });
    expect(envelope.error?.code).toBe('STALE_REF');
    expect(h.automation.sessions[0]?.calls).not.toContain('click');
  });

  it('a clock tick elsewhere does not make it stale', async () => {
    const h = buildHarness();
    realXpath(h);
    const clock = byName(await entries(h), 'Clock');
    setScreen(h, settingsAppsDump().replace('text="All apps"', 'text="All apps (12:01)"'));
    const envelope = await h.envelope('ui_tap', { selector: { ref: clock.ref } });
    expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
  });

  it('typing twice into a field with the same ref works (its text is not its identity)', async () => {
    const h = buildHarness();
    realXpath(h);
    const field = byName(await entries(h), 'Search apps');
    const first = await h.envelope('ui_type_text', { selector: { ref: field.ref }, text: 'cal' });
    expect(first.ok, JSON.stringify(first.error)).toBe(true);
    // The field now shows what was typed.
    setScreen(
      h,
      settingsAppsDump().replace(
        'text="" resource-id="com.android.settings:id/search"',
        'text="cal" resource-id="com.android.settings:id/search"',
      ),
    );
    const second = await h.envelope('ui_type_text', { selector: { ref: field.ref }, text: 'calendar' });
    expect(second.ok, JSON.stringify(second.error)).toBe(true);
    expect(h.automation.sessions.flatMap((s) => s.typed)).toEqual(['cal', 'calendar']);
    expect(second.data).toMatchObject({ target: { ref: field.ref }, characters_sent: 8 });
  });

  it('a ref this server never gave is STALE_REF saying so, before any find', async () => {
    const h = buildHarness();
    const envelope = await h.envelope('ui_tap', { selector: { ref: 'e9zz' } });
    expect(envelope.error?.code).toBe('STALE_REF');
    expect(envelope.error?.message).toBe(
      'Ref e9zz was never given by this server process: refs, like session ids, live only as long as the server that gave them (a client that starts a new server for each call cannot reuse them). Call ui_get_tree and send a ref from its answer. Nothing was tapped or typed.',
    );
    // Refused before anything starts: no Appium session, no failure screenshot.
    expect(h.automation.log).toEqual([]);
    expect(envelope.evidence ?? null).toBeNull();
  });

  it('a ref with within or another key is INVALID_SELECTOR before anything runs', async () => {
    const h = buildHarness();
    for (const selector of [{ ref: 'e1', within: { text: 'List' } }, { ref: 'e1', text: 'Clock' }, { ref: 'x1' }]) {
      const envelope = await h.envelope('ui_tap', { selector });
      expect(envelope.error?.code).toBe('INVALID_SELECTOR');
    }
    expect(h.automation.log).toEqual([]);
  });
});

describe('an element with no visible area', () => {
  it('is offered without a ref, as not actionable (no_area); its selector is refused before any click', async () => {
    const h = buildHarness();
    realXpath(h);
    // A row clipped out of its list: an inverted rectangle, as real dumps report it.
    const clipped =
      '<node index="2" text="" resource-id="android:id/switch_widget" class="android.widget.Switch" package="com.android.settings" content-desc="" checkable="true" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[602,2380][690,2345]" />';
    setScreen(h, settingsAppsDump(clipped));
    const list = await entries(h);
    const entry = list.find((e) => JSON.stringify(selectorOfEntry(e) ?? {}).includes('switch_widget'))!;
    expect(entry).toBeDefined();
    expect(entry.not_actionable).toBe('no_area');
    expect(entry.ref).toBeUndefined();
    // Every other entry keeps its ref.
    expect(list.filter((e) => e !== entry).every((e) => e.ref !== undefined && e.not_actionable === undefined)).toBe(
      true,
    );
    const envelope = await h.envelope('ui_tap', { selector: selectorOfEntry(entry) });
    expect(envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
    expect(h.automation.sessions.flatMap((s) => s.calls)).not.toContain('click');
  });
});

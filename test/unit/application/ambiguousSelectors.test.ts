/**
 * One element or none, through the whole application with in-memory ports: a selector whose
 * matches press two elements is refused with UI_ELEMENT_AMBIGUOUS before anything is pressed or
 * typed, naming refs that then act. The fake Appium finds by evaluating the XPath it receives with
 * a real XPath 1.0 engine over its page source.
 */
import { describe, expect, it } from 'vitest';
import type { Locator } from '../../../src/domain/ports.js';
import { buildHarness, type TestHarness } from '../../support/fakes/harness.js';
import { settingsAppsDump } from '../../support/fakes/screens.js';
import { evaluateLocator, parseXml } from '../domain/xpathOracle.js';

const ROW = (text: string, top: number, extra = ''): string =>
  `<node index="0" text="" resource-id="" class="android.widget.LinearLayout" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="true" password="false" selected="false" bounds="[0,${top}][1080,${top + 160}]">` +
  `<node index="0" text="${text}" resource-id="android:id/title" class="android.widget.TextView" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[40,${top + 20}][800,${top + 80}]" />` +
  `<node index="1" text="${extra}" resource-id="android:id/summary" class="android.widget.TextView" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[40,${top + 90}][800,${top + 140}]" />` +
  `</node>`;

/** The fake driver finds every node the XPath selects on its current page source, labelled by its bounds. */
function realXpath(h: TestHarness): void {
  const labels = (locator: Locator): string[] =>
    locator.using !== 'xpath'
      ? []
      : evaluateLocator(parseXml(h.automation.source), locator).map((el) => el.getAttribute('bounds') ?? 'element');
  h.automation.findAll = labels;
  h.automation.find = (locator) => labels(locator)[0];
}

function screenWithTwoClocks(h: TestHarness): void {
  // The base screen's "Clock" row, and two more rows titled "Clock" by a child text.
  const xml = settingsAppsDump(ROW('Clock', 760, '21.45 MB') + ROW('Clock', 920, '8.12 MB'));
  h.device.dump = xml;
  h.automation.source = xml;
}

const PRESSES = ['click', 'longClick', 'pressAt', 'typeText'];

describe('one element or none', () => {
  for (const [tool, args, label] of [
    ['ui_tap', {}, 'ui-tap'],
    ['ui_tap', { long_press: true }, 'ui-long-press'],
    ['ui_type_text', { text: 'hello' }, 'ui-type'],
  ] as const) {
    it(`${tool} ${JSON.stringify(args)} by a selector that names three rows is refused, nothing pressed, each row named by a ref`, async () => {
      const h = buildHarness();
      realXpath(h);
      screenWithTwoClocks(h);
      const envelope = await h.envelope(tool, { selector: { text: 'Clock' }, ...args });
      expect(envelope.ok).toBe(false);
      expect(envelope.error?.code).toBe('UI_ELEMENT_AMBIGUOUS');
      const message = envelope.error?.message ?? '';
      expect(message).toMatch(
        /^\{"text":"Clock"\} matches 3 different elements on this screen, so acting on it would be a coin toss: nothing was tapped or typed\. Send the one you mean by its ref/,
      );
      expect(message).toContain(`'Clock' (with '21.45 MB')`);
      expect(message).toContain(`'Clock' (with '8.12 MB')`);
      const refs = [...message.matchAll(/\{"ref":"(e[0-9a-z]+)"\}/g)].map((m) => m[1]);
      expect(refs).toHaveLength(3);
      expect(new Set(refs).size).toBe(3);
      const calls = h.automation.sessions.flatMap((s) => s.calls);
      expect(calls.filter((c) => PRESSES.includes(c))).toEqual([]);
      expect(calls).toContain('findElements');
      expect(envelope.evidence?.artifact_id).toMatch(new RegExp(`-failure-${label}\\.png$`));
    });
  }

  it('a ref the refusal names acts on exactly that row', async () => {
    const h = buildHarness();
    realXpath(h);
    screenWithTwoClocks(h);
    const refused = await h.envelope('ui_tap', { selector: { text: 'Clock' } });
    const refs = [...(refused.error?.message ?? '').matchAll(/\{"ref":"(e[0-9a-z]+)"\}/g)].map((m) => m[1]!);
    const tapped = await h.envelope('ui_tap', { selector: { ref: refs[2]! } });
    expect(tapped.ok, JSON.stringify(tapped)).toBe(true);
    // The third candidate is the row at 920: its ref's locator names that row's bounds.
    expect(h.automation.locators.at(-1)?.value).toContain("[@bounds='[0,920][1080,1080]']");
    expect(h.automation.sessions.flatMap((s) => s.calls)).toContain('click');
  });

  it('one match is pressed without reading the screen again', async () => {
    const h = buildHarness();
    realXpath(h);
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Calendar' } });
    expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
    const calls = h.automation.sessions.flatMap((s) => s.calls);
    expect(calls.slice(0, calls.indexOf('click'))).not.toContain('pageSource');
  });

  it('two matches that press the same row are one element: the tap goes through', async () => {
    const h = buildHarness();
    realXpath(h);
    const xml = settingsAppsDump(ROW('Backup', 760, 'Backup'));
    h.device.dump = xml;
    h.automation.source = xml;
    const envelope = await h.envelope('ui_tap', { selector: { text: 'Backup' } });
    expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
    expect(h.automation.sessions.flatMap((s) => s.calls)).toContain('click');
  });

  it('the warm session survives a refusal (the driver answered)', async () => {
    const h = buildHarness({ warmSessionTimeoutMs: 30_000 });
    realXpath(h);
    screenWithTwoClocks(h);
    await h.envelope('ui_tap', { selector: { text: 'Clock' } });
    const next = await h.envelope('ui_tap', { selector: { text: 'Calendar' } });
    expect(next.ok, JSON.stringify(next)).toBe(true);
    expect(h.automation.sessions).toHaveLength(1);
  });
});

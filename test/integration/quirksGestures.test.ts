/**
 * Typing can be refused, a swipe belongs to the window it starts in, and
 * a fast swipe flings. Each test first shows the device's raw behaviour (through the real adb, or
 * a real Appium 3 + UiAutomator2 session driven by webdriverio), then the harness's answer: the
 * envelope of the built server over real stdio, and what the device log says really happened.
 * One private adb server, one virtual device and one real Appium for the file. docs/internals/device-quirks.md.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { detectHelperVersions } from '../../packages/virtual-device/src/device/helperVersions.js';
import { defaultScenario } from '../../packages/virtual-device/src/scenario/defaultScenario.js';
import type { NodeSpec } from '../../packages/virtual-device/src/scenario/model.js';
import { nameOf, type WireSummary } from '../e2e/support/summary.js';
import { LONG_SEARCH_SCREEN, withLongSearch } from '../support/gestureScenario.js';
import { quirkProbes } from '../support/quirkProbes.js';
import { describeOnVirtualDevice, startQuirkE2eStack, type QuirkE2eStack } from '../support/quirkStack.js';
import { ensureBuilt } from '../support/rawServer.js';

const W3C = 'element-6066-11e4-a52e-4f735466cecf';
/** Where the IME sits on the virtual phone ([0,1517][1080,2400]). */
const IME_TOP = 1517;

/** Every row of the default scenario's All apps list, from the scenario itself: [title, size]. */
function allAppsRows(): [string, string][] {
  const screen = defaultScenario(detectHelperVersions()).screens.find((s) => s.id === 'all_apps');
  const find = (n: NodeSpec): NodeSpec | null =>
    n.scrollable ? n : ((n.children ?? []).map(find).find((x) => x) ?? null);
  const list = screen ? find(screen.root) : null;
  const texts = (n: NodeSpec): string[] => [n.text ?? '', ...(n.children ?? []).flatMap(texts)].filter((t) => t !== '');
  return (list?.children ?? []).map((row) => texts(row) as [string, string]);
}

describeOnVirtualDevice('typing, swipes and flings, in the virtual device and in the harness', () => {
  let stack: QuirkE2eStack;
  let device: VirtualDevice;

  const { call, report, rawText, lastSeq, withRawSession } = quirkProbes('quirks-gestures', () => stack, {
    okDataChars: 200,
  });
  const logSince = (since: number, kind?: string): string[] =>
    device
      .log()
      .filter((e) => e.seq > since && (kind === undefined || e.kind === kind))
      .map((e) => e.detail);
  const tree = async (args: Record<string, unknown> = {}): Promise<WireSummary> => {
    const answer = await call('ui_get_tree', args);
    expect(answer.envelope.ok, JSON.stringify(answer.envelope.error)).toBe(true);
    return answer.envelope.data as unknown as WireSummary;
  };

  const elementId = (ref: unknown): string => {
    const id = (ref as Record<string, string | undefined>)[W3C] ?? (ref as Record<string, string | undefined>).ELEMENT;
    if (!id) throw new Error(`not an element reference: ${JSON.stringify(ref)}`);
    return id;
  };

  beforeAll(async () => {
    ensureBuilt();
    // A 1 s lease for the session kept after an action, so a raw session can wait it out.
    stack = await startQuirkE2eStack({
      label: 'quirks-gestures',
      device: () => new VirtualDevice(withLongSearch(defaultScenario(detectHelperVersions()))),
      harness: { ANDROID_MCP_ACTION_TIMEOUT: '30', ANDROID_MCP_WARM_SESSION_TIMEOUT: '1' },
    });
    device = stack.device;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  // --- 3. Typing can be refused ---------------------------------------------------------------

  it('QUIRK-SETTEXT-1: a Flutter field refuses set-text until it has focus; ui_type_text taps it first', async () => {
    device.setScreen('notes_main');
    // Raw: UiAutomator2's setValue on the unfocused field is HTTP 400 invalid element state; after a click it works.
    await withRawSession(async (driver) => {
      const field = elementId(await driver.findElement('xpath', "//android.widget.EditText[@hint='Title']"));
      expect(await driver.getElementAttribute(field, 'focused')).toBe('false');
      const refusal = await driver.elementSendKeys(field, 'raw').then(
        () => null,
        (error: unknown) => error as Error,
      );
      expect(refusal?.name).toBe('invalid element state');
      expect(refusal?.message).toContain("Cannot set the element to 'raw'. Did you interact with the correct element?");
      expect(device.nodes().find((n) => n.hint === 'Title')?.editableText).toBe('');
      await driver.elementClick(field);
      await driver.elementSendKeys(field, 'raw');
      expect(await driver.getElementText(field)).toBe('raw');
    });

    device.setScreen('notes_main');
    const since = lastSeq();
    const typed = await call('ui_type_text', { selector: { input_hint: 'Title' }, text: 'Milk' });
    report('QUIRK-SETTEXT-1 ui_type_text into the unfocused Flutter field', typed);
    expect(typed.envelope.ok, JSON.stringify(typed.envelope.error)).toBe(true);
    expect(typed.envelope.data).toMatchObject({
      target: { input_hint: 'Title' },
      characters_sent: 4,
      foreground_package: 'com.example.notes',
    });
    // One tap on the field, then the set-text; nothing was refused.
    const uia2 = logSince(since, 'uia2').filter((d) => /\/element\/[^/]+\/(click|value) ->/.test(d));
    expect(uia2.map((d) => d.replace(/^.*\/element\/[^/]+\//, '').replace(/ ->.*$/, ''))).toEqual(['click', 'value']);
    expect(
      uia2.every((d) => / -> 200$/.test(d)),
      uia2.join('\n'),
    ).toBe(true);
    const field = device.nodes().find((n) => n.hint === 'Title');
    expect(field?.text).toBe('Milk');
    expect(field?.focused).toBe(true);
    // Already focused: the next ui_type_text does not tap again.
    const again = lastSeq();
    expect((await call('ui_type_text', { selector: { input_hint: 'Title' }, text: 'Eggs' })).envelope.ok).toBe(true);
    expect(logSince(again, 'uia2').filter((d) => /\/click ->/.test(d))).toEqual([]);
    expect(device.nodes().find((n) => n.hint === 'Title')?.editableText).toBe('Eggs');
  }, 90_000);

  it('QUIRK-SETTEXT-2: a node that does not take text: 400 invalid element state raw; the harness refuses it as not a text field before touching it, not "not found"', async () => {
    device.setScreen('all_apps');
    await withRawSession(async (driver) => {
      const label = elementId(await driver.findElement('xpath', "//*[@text='Installed apps']"));
      const refusal = await driver.elementSendKeys(label, 'x').then(
        () => null,
        (error: unknown) => error as Error,
      );
      expect(refusal?.name).toBe('invalid element state');
    });

    device.setScreen('all_apps');
    const typed = await call('ui_type_text', { selector: { text: 'Installed apps' }, text: 'hunter2' });
    report('QUIRK-SETTEXT-2 ui_type_text into a TextView', typed);
    expect(typed.envelope.error?.code).toBe('UI_ELEMENT_NOT_EDITABLE');
    const message = typed.envelope.error?.message ?? '';
    // Refused from its class before the focusing tap: the device never saw the set-text the raw driver got 400 for.
    expect(message).toMatch(
      /^The element matched by text 'Installed apps' is a android\.widget\.TextView, not a text field, so ui_type_text did not touch it: nothing was tapped or typed\./,
    );
    expect(message).toContain('The screen offers no input field');
    expect(message).not.toMatch(/No visible element matched/);
    expect(message).not.toContain('hunter2');
    expect(typed.envelope.evidence?.artifact_id).toMatch(/-failure-ui-type\.png$/);
    expect(device.currentScreen().screenId).toBe('all_apps');
  }, 90_000);

  // --- 4. A swipe that starts on the open keyboard goes to the keyboard -----------------------

  it('QUIRK-SWIPE-IME-1: with the IME open a swipe from 75 % of the height scrolls the keyboard; ui_scroll starts above it and says the list moved', async () => {
    device.setScreen(LONG_SEARCH_SCREEN);
    expect(await rawText(['shell', 'dumpsys', 'window'])).toMatch(
      /type=ime frame=\[0,1517\]\[1080,2400\] visible=true/,
    );
    // Raw: the old gesture (75 % → 25 %, 300 ms) through adb lands on the IME: the list does not move.
    const before = await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty']);
    const since = lastSeq();
    await rawText(['shell', 'input', 'swipe', '540', '1800', '540', '600', '300']);
    expect(logSince(since, 'input').join('\n')).toMatch(
      /swipe \(540,1800\).* on the keyboard: the IME window takes it/,
    );
    expect(await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty'])).toBe(before);

    const scrollSince = lastSeq();
    const scrolled = await call('ui_scroll', { direction: 'down' });
    report('QUIRK-SWIPE-IME-1 ui_scroll with the keyboard open', scrolled);
    expect(scrolled.envelope.ok, JSON.stringify(scrolled.envelope.error)).toBe(true);
    expect(scrolled.envelope.data).toEqual({
      direction: 'down',
      moved: true,
      foreground_package: 'com.example.longsearch',
      after: expect.objectContaining({ read: expect.stringMatching(/^r/) as unknown }) as unknown,
    });
    const swipes = logSince(scrollSince, 'input').filter((d) => / swipe /.test(d));
    expect(swipes).toHaveLength(1);
    const [, startY, endY] = /swipe \(\d+,(\d+)\)->\(\d+,(\d+)\)/.exec(swipes[0] ?? '') ?? [];
    expect(Number(startY)).toBeLessThan(IME_TOP);
    expect(Number(endY)).toBeGreaterThan(252);
    expect(swipes[0]).toMatch(/over list: .*no fling/);
    const after = await tree();
    expect(after.keyboard?.open).toBe(true);
    expect(after.actions.map(nameOf)).not.toContain('Result 1');
  }, 90_000);

  // --- 5. A 300 ms swipe is a fling -----------------------------------------------------------

  it('QUIRK-FLING-1: a 1200 px / 300 ms swipe flings past rows; successive ui_scroll calls show every row of All apps, the last says moved: false', async () => {
    const rows = allAppsRows();
    expect(rows).toHaveLength(21);
    // A row's size is its entry's detail (a second line is tied to its row), else a text.
    const shownBy = (summary: WireSummary): Set<string> =>
      new Set([
        ...summary.texts,
        ...summary.actions.map(nameOf),
        ...summary.actions.flatMap((a) => (a.detail === undefined ? [] : [a.detail])),
      ]);

    // Raw: the old gesture through adb. The list travels about 2200 px for a 1200 px drag.
    device.setScreen('all_apps');
    const first = await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty']);
    const since = lastSeq();
    await rawText(['shell', 'input', 'swipe', '540', '1800', '540', '600', '300']);
    const second = await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty']);
    expect(logSince(since, 'input').join('\n')).toMatch(/fling \d+ px/);
    const skipped = rows.filter(([, size]) => !first.includes(`text="${size}"`) && !second.includes(`text="${size}"`));
    expect(skipped.length, 'rows seen in neither dump').toBeGreaterThan(0);
    process.stderr.write(
      `[quirks-gestures] QUIRK-FLING-1 raw 300 ms swipe skipped: ${skipped.map(([t]) => t).join(', ')}\n`,
    );

    // The harness: from the top, ui_scroll down until it says nothing moved, reading the tree each time.
    device.setScreen('all_apps');
    const opened = await call('ui_session_open');
    expect(opened.envelope.ok, JSON.stringify(opened.envelope.error)).toBe(true);
    const sessionId = String(opened.envelope.data.session_id);
    const seen = new Set<string>(shownBy(await tree({ session_id: sessionId })));
    const moved: boolean[] = [];
    const offsets: number[] = [device.ui.current().scroll.get('list') ?? 0];
    const scrollSince = lastSeq();
    try {
      for (let i = 0; i < 12 && moved.at(-1) !== false; i++) {
        const scrolled = await call('ui_scroll', { direction: 'down', session_id: sessionId });
        expect(scrolled.envelope.ok, JSON.stringify(scrolled.envelope.error)).toBe(true);
        moved.push(scrolled.envelope.data.moved as boolean);
        offsets.push(device.ui.current().scroll.get('list') ?? 0);
        for (const text of shownBy(await tree({ session_id: sessionId }))) seen.add(text);
      }
    } finally {
      expect((await call('ui_session_close', { session_id: sessionId })).envelope.ok).toBe(true);
    }
    process.stderr.write(
      `[quirks-gestures] QUIRK-FLING-1 ui_scroll offsets: ${offsets.join(' → ')} (moved: ${moved.join(', ')})\n`,
    );
    expect(moved.at(-1)).toBe(false);
    expect(moved.slice(0, -1).every((m) => m)).toBe(true);
    expect(moved.length).toBeGreaterThanOrEqual(2);
    // Every row: each size string is unique, so this also covers the two `Clock` rows.
    expect(rows.filter(([, size]) => !seen.has(size)).map(([title]) => title)).toEqual([]);
    for (const [title] of rows) expect(seen.has(title), title).toBe(true);
    // No ui_scroll flung, and each page moved less than the list's height (1874 px): consecutive pages overlap.
    const swipes = logSince(scrollSince, 'input').filter((d) => / swipe /.test(d));
    expect(swipes.length).toBe(moved.length);
    for (const s of swipes) expect(s).toMatch(/no fling/);
    for (let i = 1; i < offsets.length; i++) expect((offsets[i] ?? 0) - (offsets[i - 1] ?? 0)).toBeLessThan(1874);
  }, 120_000);
});

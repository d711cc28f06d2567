/**
 * edge-to-edge apps: an app targeting API 35 is laid out under the system bars, and
 * the driver's click presses the centre of an element's bounds, which can then be on the
 * navigation bar, where System UI takes the touch. First the device's raw behaviour (through the
 * real adb, and a real Appium 3 + UiAutomator2 session driven by webdriverio), then the
 * harness's answer: the envelope of the built server over real stdio, and what the device log
 * says really happened. One private adb server, one virtual device and one real Appium for the
 * file. docs/internals/device-quirks.md, quirk `edge-to-edge`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { detectHelperVersions } from '../../packages/virtual-device/src/device/helperVersions.js';
import { defaultScenario } from '../../packages/virtual-device/src/scenario/defaultScenario.js';
import type { ScreenSummary } from '../../src/domain/tree/screen.js';
import { EDGE_DONE_SCREEN, EDGE_SCREEN, withEdgeToEdge } from '../support/edgeScenario.js';
import { quirkProbes } from '../support/quirkProbes.js';
import { describeOnVirtualDevice, startQuirkE2eStack, type QuirkE2eStack } from '../support/quirkStack.js';
import { ensureBuilt } from '../support/rawServer.js';
import { selectorOfEntry } from '../../src/application/screen/wireSummary.js';

const W3C = 'element-6066-11e4-a52e-4f735466cecf';

describeOnVirtualDevice('edge-to-edge apps, in the virtual device and in the harness', () => {
  let stack: QuirkE2eStack;
  let device: VirtualDevice;

  const { call, report, rawText, lastSeq, withRawSession } = quirkProbes('quirks-edge', () => stack, {
    okDataChars: 300,
  });
  const clicksSince = (since: number): string[] =>
    device
      .log()
      .filter((e) => e.seq > since && (e.kind === 'click' || e.kind === 'long-click'))
      .map((e) => e.detail);
  const tree = async (args: Record<string, unknown> = {}): Promise<ScreenSummary> => {
    const answer = await call('ui_get_tree', args);
    expect(answer.envelope.ok, JSON.stringify(answer.envelope.error)).toBe(true);
    return answer.envelope.data as unknown as ScreenSummary;
  };
  const indexOf = (summary: ScreenSummary, text: string): number =>
    summary.actions.findIndex((a) => JSON.stringify(selectorOfEntry(a) ?? {}).includes(text) || a.label === text);

  beforeAll(async () => {
    ensureBuilt();
    // A 1 s lease for the session kept after an action, so a raw session can wait it out.
    stack = await startQuirkE2eStack({
      label: 'quirks-edge',
      device: () =>
        // The instrumentation starts in the documented 800 ms (the default), like the real server.
        new VirtualDevice(withEdgeToEdge(defaultScenario(detectHelperVersions())), { sdk: 35 }),
      harness: { ANDROID_MCP_ACTION_TIMEOUT: '30', ANDROID_MCP_WARM_SESSION_TIMEOUT: '1' },
    });
    device = stack.device;
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('QUIRK-EDGE-1: a click on a button drawn under the navigation bar goes to System UI; the harness flags it and taps its visible part', async () => {
    device.setScreen(EDGE_SCREEN);
    // Raw: API 35's dumpsys window gives the bar's frame; the button runs on under it.
    expect(await rawText(['shell', 'dumpsys', 'window'])).toMatch(
      /InsetsSource id=\S+ type=navigationBars frame=\[0,2274\]\[1080,2400\] visible=true flags= sideHint=BOTTOM/,
    );
    expect(await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty'])).toMatch(
      /text="Place order"[^>]*bounds="\[0,2232\]\[1080,2400\]"/,
    );
    // Raw: `input tap` at its centre, then UiAutomator2's element click (the centre too): System UI takes both.
    let since = lastSeq();
    await rawText(['shell', 'input', 'tap', '540', '2316']);
    await withRawSession(async (driver) => {
      const button = await driver.findElement('xpath', "//*[@text='Place order']");
      await driver.elementClick((button as unknown as Record<string, string>)[W3C] ?? '');
    });
    const raw = clicksSince(since);
    expect(raw).toHaveLength(2);
    expect(raw[0]).toMatch(/^input-tap at=\(540,2316\).* target=navigation-bar \(System UI takes it/);
    expect(raw[1]).toMatch(/^uia2-click at=\(540,2316\) element=\S+ .*target=navigation-bar \(System UI takes it/);
    expect(device.currentScreen().screenId).toBe(EDGE_SCREEN);

    // The harness: the audit names the controls whose centre is under a bar, and only those.
    device.setScreen(EDGE_SCREEN);
    const summary = await tree();
    // Findings name their actions by ref. Terms of sale lies wholly under the bar: it has no ref,
    // and its own not_actionable says what the finding would.
    const entry = (text: string): (typeof summary.actions)[number] | undefined =>
      summary.actions[indexOf(summary, text)];
    const order = entry('Place order')?.ref;
    const close = entry('Close')?.ref;
    expect(
      [order, close].every((ref) => ref !== undefined),
      JSON.stringify(summary.actions),
    ).toBe(true);
    expect(entry('Terms of sale')).toMatchObject({ not_actionable: 'under_navigation_bar' });
    expect(summary.layout_findings).toEqual(
      expect.arrayContaining([
        { issue: 'under_status_bar', refs: [close] },
        { issue: 'under_navigation_bar', refs: [order] },
      ]),
    );
    const flagged = (summary.layout_findings ?? []).flatMap((f) =>
      'refs' in f && /^under_/.test(f.issue) ? f.refs : [],
    );
    expect([...flagged].sort()).toEqual([close, order].sort());

    // ui_tap by selector lands on the 42 px above the bar, with a W3C touch; the order is placed.
    since = lastSeq();
    const tapped = await call('ui_tap', { selector: { text: 'Place order' } });
    report('QUIRK-EDGE-1 ui_tap Place order', tapped);
    expect(tapped.envelope.ok, JSON.stringify(tapped.envelope.error)).toBe(true);
    expect(tapped.envelope.data).toMatchObject({
      target: { text: 'Place order' },
      element_label: 'Place order',
      pressed_outside: 'navigation_bar',
      foreground_package: 'com.example.shop',
    });
    const harnessClicks = clicksSince(since);
    expect(harnessClicks).toHaveLength(1);
    expect(harnessClicks[0]).toMatch(/^w3c-actions at=\(540,2253\) .*target=\S+ android\.widget\.Button "Place order"/);
    expect(device.currentScreen().screenId).toBe(EDGE_DONE_SCREEN);
  }, 120_000);

  it('QUIRK-EDGE-2: by ref, a long press, the status bar, and a link entirely under the bar (refused: nothing is pressed)', async () => {
    device.setScreen(EDGE_SCREEN);
    const summary = await tree();
    const ref = (text: string): string => String(summary.actions[indexOf(summary, text)]?.ref);

    // A link with no part above the bar: the summary says so and offers no ref; its selector is
    // refused with what to do, and no touch reaches the device.
    const terms = summary.actions[indexOf(summary, 'Terms of sale')] as Record<string, unknown> | undefined;
    expect(terms).toMatchObject({ not_actionable: 'under_navigation_bar' });
    expect(terms).not.toHaveProperty('ref');
    let since = lastSeq();
    const refused = await call('ui_tap', { selector: { text: 'Terms of sale' } });
    report('QUIRK-EDGE-2 ui_tap Terms of sale', refused);
    expect(refused.envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
    expect(refused.envelope.error?.message).toMatch(
      /lies entirely under the navigation bar .*ui_scroll.*Nothing was tapped\.$/,
    );
    expect(clicksSince(since)).toEqual([]);
    expect(device.currentScreen().screenId).toBe(EDGE_SCREEN);

    // A long press by ref holds 1.5 s on the visible part (the button is not long-clickable: released as a click).
    since = lastSeq();
    const held = await call('ui_tap', { selector: { ref: ref('Place order') }, long_press: true });
    report('QUIRK-EDGE-2 long press Place order', held);
    expect(held.envelope.ok, JSON.stringify(held.envelope.error)).toBe(true);
    expect(held.envelope.data).toMatchObject({ long_press: true, pressed_outside: 'navigation_bar' });
    expect(clicksSince(since)).toEqual([
      expect.stringMatching(/^w3c-actions at=\(540,2253\) held=15\d\dms .*"Place order"/),
    ]);
    expect(device.currentScreen().screenId).toBe(EDGE_DONE_SCREEN);

    // Under the status bar: the part below it (the close button goes back).
    device.setScreen(EDGE_SCREEN);
    const again = await tree();
    since = lastSeq();
    const closed = await call('ui_tap', { selector: { ref: String(again.actions[indexOf(again, 'Close')]?.ref) } });
    report('QUIRK-EDGE-2 ui_tap Close', closed);
    expect(closed.envelope.ok, JSON.stringify(closed.envelope.error)).toBe(true);
    expect(closed.envelope.data).toMatchObject({ pressed_outside: 'status_bar' });
    expect(clicksSince(since)).toEqual([expect.stringMatching(/^w3c-actions at=\(73,84\) .*Close/)]);
  }, 120_000);

  it('QUIRK-EDGE-3: every dumpsys window layout (API 28, 30, 33, 35) gives the bars, so the audit flags the same controls', async () => {
    try {
      for (const sdk of [28, 30, 33, 35]) {
        device.setSdk(sdk);
        device.setScreen(EDGE_SCREEN);
        const raw = await rawText(['shell', 'dumpsys', 'window']);
        if (sdk <= 29)
          expect(raw).toMatch(/Window #\d+ Window\{\S+ u0 NavigationBar\}:[\s\S]*?mFrame=\[0,2274\]\[1080,2400\]/);
        else if (sdk <= 33)
          expect(raw).toMatch(/InsetsSource type=ITYPE_NAVIGATION_BAR frame=\[0,2274\]\[1080,2400\] visible=true/);
        const summary = await tree();
        const issues = (summary.layout_findings ?? []).map((f) => f.issue);
        expect(issues, `API ${sdk}`).toEqual(expect.arrayContaining(['under_status_bar', 'under_navigation_bar']));
      }
    } finally {
      device.setSdk(35);
    }
  }, 120_000);
});

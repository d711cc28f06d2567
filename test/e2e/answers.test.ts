/**
 * Answers that need no second look, end to end: an MCP client over real stdio → the built server →
 * the real adb → a real Appium 3 + UiAutomator2 → the virtual device. Each case is a place where an
 * answer used to be right but needed a second call to understand: a size tied to no app, a twin
 * text dropped, a switch without a name, a finding by index, a row named after the page title, a
 * refusal under the wrong code, a stale ref blamed on a call the model never made, a tap that did
 * nothing without saying why, and a marker naming the row instead of the screen. Skipped on a real
 * emulator (it sets the scenario's screens).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';
import { startHarness, type HarnessProcess, type ToolAnswer, type WireEnvelope } from './support/harnessClient.js';
import { ON_EMULATOR, startStack, type E2eStack } from './support/stack.js';
import { nameOf, roleOf, type WireAction, type WireSummary } from './support/summary.js';

interface Finding {
  readonly issue: string;
  readonly refs?: readonly string[];
  readonly actions?: readonly number[];
}

(ON_EMULATOR ? describe.skip : describeWithAdb)('answers that need no second look (virtual device)', () => {
  let stack: E2eStack;
  let harness: HarnessProcess;

  beforeAll(async () => {
    stack = await startStack({ label: 'answers' });
    harness = await startHarness(stack.harnessEnv());
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
  }, 60_000);

  const show = (screen: string): void => stack.device!.setScreen(screen);

  const context = (answer: ToolAnswer): string => JSON.stringify(answer.envelope).slice(0, 3000);

  function ok(answer: ToolAnswer): WireEnvelope {
    expect(answer.envelope.ok, context(answer)).toBe(true);
    return answer.envelope;
  }

  function failed(answer: ToolAnswer, code: string): WireEnvelope {
    expect(answer.envelope.error?.code, context(answer)).toBe(code);
    return answer.envelope;
  }

  async function read(args: Record<string, unknown> = {}): Promise<WireSummary & { layout_findings?: Finding[] }> {
    return ok(await harness.call('ui_get_tree', args)).data as unknown as WireSummary & { layout_findings?: Finding[] };
  }

  it("a row's second line is its entry's detail: All apps ties each size to its app, and the two Clock rows differ by it", async () => {
    show('all_apps');
    const summary = await read();
    const auto = summary.actions.find((a) => nameOf(a) === 'Android Auto');
    expect(auto?.detail, JSON.stringify(summary.actions)).toBe('48.12 MB');
    const clocks = summary.actions.filter((a) => nameOf(a) === 'Clock');
    expect(clocks.map((c) => [c.ambiguous, c.detail])).toEqual([
      [true, '21.45 MB'],
      [true, '8.12 MB'],
    ]);
    // No size is left in `texts`, tied to nothing.
    expect(summary.texts.filter((t) => / MB$/.test(t))).toEqual([]);
  });

  it('mode "text" keeps a text shown in two entries twice, each with the ref of its entry', async () => {
    show('all_apps');
    const clocks = (await read()).actions.filter((a) => nameOf(a) === 'Clock').map((a) => a.ref);
    expect(clocks).toHaveLength(2);
    const texts = (await read({ mode: 'text' })).texts as unknown[];
    expect(texts.filter((t) => typeof t === 'object' && (t as { text?: unknown }).text === 'Clock')).toEqual([
      { text: 'Clock', ref: clocks[0] },
      { text: 'Clock', ref: clocks[1] },
    ]);
    expect(texts).not.toContain('Clock');
    // A text shown once stays a plain string.
    expect(texts).toContain('Android Auto');
  });

  it("a switch without text is named by its row's title, and a tap on it says that name; its layout finding names it by ref", async () => {
    show('settings_network');
    const summary = await read();
    const toggle = summary.actions.find((a) => a.resource_id === 'android:id/switch_widget');
    expect(toggle, JSON.stringify(summary.actions)).toMatchObject({
      label: 'Wi-Fi',
      label_from: 'neighbour',
      checked: true,
    });
    // The switch is 84 px square, under the 48 dp minimum: the finding names its ref, not a place in the list.
    const small = summary.layout_findings?.find((f) => f.issue === 'touch_target_too_small');
    expect(small, JSON.stringify(summary.layout_findings)).toEqual({
      issue: 'touch_target_too_small',
      refs: [toggle!.ref],
      minimum_px: expect.any(Number) as unknown,
    });
    const bySelector = ok(
      await harness.call('ui_tap', { selector: { resource_id: 'android:id/switch_widget' }, observe: false }),
    );
    expect(bySelector.data.element_label).toBe('Wi-Fi');
    const again = (await read()).actions.find((a) => a.resource_id === 'android:id/switch_widget');
    const byRef = ok(await harness.call('ui_tap', { selector: { ref: again!.ref }, observe: false }));
    expect(byRef.data.element_label).toBe('Wi-Fi');
  });

  it("Settings home names no entry after the page's title: a row clipped at the list's edge is not 'Settings'", async () => {
    show('settings_home');
    const summary = await read();
    expect(
      summary.actions.filter((a) => a.label_from === 'neighbour'),
      JSON.stringify(summary.actions),
    ).toEqual([]);
    expect(summary.actions.some((a) => a.label === 'Settings')).toBe(false);
    // The title is a text of the screen, offered by no entry.
    expect(summary.texts).toContain('Settings');
  });

  it('typing into something that is no field is UI_ELEMENT_NOT_EDITABLE, and the hint names the field by its ref', async () => {
    show('settings_search');
    const summary = await read();
    const field = summary.actions.find((a) => roleOf(a) === 'input');
    const up = summary.actions.find((a) => nameOf(a) === 'Navigate up');
    expect(field?.ref, JSON.stringify(summary.actions)).toBeDefined();
    const refused = failed(
      await harness.call('ui_type_text', { selector: { ref: up!.ref }, text: 'wifi', observe: false }),
      'UI_ELEMENT_NOT_EDITABLE',
    );
    expect(refused.error?.message).toContain(
      `not a text field, so ui_type_text did not touch it: nothing was tapped or typed. Type into one of the screen's input fields instead: {"ref":"${field!.ref}"} 'Search settings'.`,
    );
    // Nothing was pressed: the search screen is still in front.
    expect(stack.device!.currentScreen().screenId).toBe('settings_search');
  });

  it("a stale ref taken from an action's `after` says so, not ui_get_tree", async () => {
    show('settings_home');
    await read();
    const tapped = ok(await harness.call('ui_tap', { selector: { text: 'Apps' } }));
    const after = tapped.data.after as { actions?: WireAction[] };
    const allApps = after.actions?.find((a) => nameOf(a) === 'All apps');
    expect(allApps?.ref, JSON.stringify(after).slice(0, 2000)).toBeDefined();
    show('all_apps');
    const stale = failed(await harness.call('ui_tap', { selector: { ref: allApps!.ref } }), 'STALE_REF');
    expect(stale.error?.message).toMatch(
      new RegExp(`^The screen changed since the \`after\` of the action that showed it gave ref ${allApps!.ref}: `),
    );
    expect(stale.error?.message).not.toContain('since ui_get_tree');
  });

  it('a tap on a long-press-only entry that changes nothing carries a hint to send long_press: true', async () => {
    show('notes_history');
    const summary = await read();
    const archived = summary.actions.find((a) => roleOf(a) === 'long-press');
    expect(archived?.ref, JSON.stringify(summary.actions)).toBeDefined();
    const tapped = ok(await harness.call('ui_tap', { selector: { ref: archived!.ref } }));
    expect(tapped.data.after).toEqual({ read: expect.any(String) as unknown, diff_of: expect.any(String) as unknown });
    expect(tapped.data.hint).toMatch(/long press only .*long_press: true/);
    const held = ok(await harness.call('ui_tap', { selector: { ref: archived!.ref }, long_press: true }));
    expect(held.data.hint).toBeUndefined();
    // The long press did something: the screen changed, so it was the right advice.
    expect(held.data.after).not.toEqual({
      read: expect.any(String) as unknown,
      diff_of: expect.any(String) as unknown,
    });
  });

  it("settings_open_apps answers the screen's own title as its marker", async () => {
    show('launcher');
    const opened = ok(await harness.call('settings_open_apps', { observe: false }));
    expect(opened.data.screen_marker).toBe('Apps');
    expect(stack.device!.currentScreen().screenId).toBe('settings_apps');
  });
});

/**
 * The screen after an action, and only what changed (docs/reference/contract.md §2), end to end: an MCP
 * client over real stdio → the built server → the real adb → a real Appium 3 + UiAutomator2 → the
 * virtual device's Notes app. The model's loop without ui_get_tree between steps: every next target
 * is taken from the last `after`. A toggle flipped answers a diff naming exactly that entry; a
 * navigation answers the whole new screen; a ref of the old screen is STALE_REF and nothing is
 * clicked. Skipped on a real emulator (it needs the scenario's Notes app).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';
import { startHarness, type HarnessProcess } from './support/harnessClient.js';
import { ON_EMULATOR, startStack, type E2eStack } from './support/stack.js';

interface Entry {
  readonly ref: string;
  readonly label?: string;
  readonly content_desc?: string;
  readonly text?: string;
  readonly checked?: boolean;
}
interface After {
  readonly read: string;
  readonly diff_of?: string;
  /** Only when the action's own `foreground_package` says another package (or none). */
  readonly foreground_package?: string;
  readonly actions?: Entry[];
  readonly added?: Entry[];
  readonly removed?: string[];
  readonly changed?: Entry[];
  readonly settled?: false;
}

const nameOf = (e: Entry): string => e.label ?? e.content_desc ?? e.text ?? '';

(ON_EMULATOR ? describe.skip : describeWithAdb)('after and diffs through real adb and Appium (virtual device)', () => {
  let stack: E2eStack;
  let harness: HarnessProcess;

  beforeAll(async () => {
    stack = await startStack({ label: 'after' });
    harness = await startHarness(stack.harnessEnv());
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
  }, 60_000);

  it('a toggle flipped is a diff of exactly that entry; a navigation is the whole screen; an old ref is STALE_REF with no click', async () => {
    const open = await harness.call('ui_session_open');
    expect(open.envelope.ok, JSON.stringify(open.envelope)).toBe(true);
    const session_id = open.envelope.data.session_id as string;
    try {
      const launched = await harness.call('app_open', { package_name: 'com.example.notes', session_id });
      expect(launched.envelope.ok, JSON.stringify(launched.envelope).slice(0, 1500)).toBe(true);
      const main = launched.envelope.data.after as After;
      // The package is the action's (data.foreground_package); `after` does not repeat it, nor the display size.
      expect(launched.envelope.data.foreground_package).toBe('com.example.notes');
      expect(main).not.toHaveProperty('foreground_package');
      expect(main).not.toHaveProperty('screen');
      expect(main.settled).toBeUndefined();
      // The model keeps the screen it was told and applies each diff to it.
      let screen: Entry[] = main.actions ?? [];
      const apply = (after: After): void => {
        if (after.diff_of === undefined) {
          screen = after.actions ?? [];
          return;
        }
        const changed = new Map((after.changed ?? []).map((e) => [e.ref, e]));
        screen = [
          ...screen.filter((e) => !(after.removed ?? []).includes(e.ref)).map((e) => changed.get(e.ref) ?? e),
          ...(after.added ?? []),
        ];
      };

      const tab = screen.find((e) => nameOf(e).startsWith('Ajustes'));
      expect(tab, JSON.stringify(screen)).toBeDefined();
      const toSettings = await harness.call('ui_tap', { selector: { ref: tab!.ref }, session_id });
      expect(toSettings.envelope.ok, JSON.stringify(toSettings.envelope).slice(0, 1500)).toBe(true);
      apply(toSettings.envelope.data.after as After);
      const toggle = screen.find((e) => nameOf(e) === 'Modo oscuro');
      expect(toggle, JSON.stringify(toSettings.envelope.data.after)).toBeDefined();
      expect(toggle!.checked).toBe(false);

      const vd = stack.device!;
      const flipped = await harness.call('ui_tap', { selector: { ref: toggle!.ref }, session_id });
      expect(flipped.envelope.ok, JSON.stringify(flipped.envelope).slice(0, 1500)).toBe(true);
      const diff = flipped.envelope.data.after as After;
      expect(diff, JSON.stringify(diff)).toEqual({
        read: expect.stringMatching(/^r[0-9a-z]+$/) as unknown,
        diff_of: (toSettings.envelope.data.after as After).read,
        changed: [{ ...toggle!, checked: true }],
      });

      const back = await harness.call('device_back', { session_id });
      expect(back.envelope.ok, JSON.stringify(back.envelope).slice(0, 1500)).toBe(true);
      const elsewhere = back.envelope.data.after as After;
      expect(elsewhere.diff_of, JSON.stringify(elsewhere).slice(0, 1500)).toBeUndefined();
      expect(back.envelope.data.foreground_package).not.toBe('com.example.notes');
      expect(elsewhere).not.toHaveProperty('foreground_package');
      expect(Array.isArray(elsewhere.actions)).toBe(true);

      const clicks = vd.clicks().length;
      const stale = await harness.call('ui_tap', { selector: { ref: toggle!.ref }, session_id });
      expect(stale.envelope.error?.code, JSON.stringify(stale.envelope)).toBe('STALE_REF');
      expect(vd.clicks().length).toBe(clicks);
    } finally {
      await harness.call('ui_session_close', { session_id });
    }
  }, 180_000);
});

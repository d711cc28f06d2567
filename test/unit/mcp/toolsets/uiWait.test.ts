import { describe, expect, it } from 'vitest';
import { buildHarness, drive } from '../../../support/fakes/harness.js';
import { settingsAppsDump } from '../../../support/fakes/screens.js';

const SAVED =
  '<node index="9" text="Saved" resource-id="" class="android.widget.TextView" package="com.android.settings" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,800][1080,900]" />';

function harness() {
  return buildHarness({ toolsets: ['core', 'wait'] });
}

describe('ui_wait (toolset wait)', () => {
  it('returns as soon as the selector is visible, with the summary at that moment, polling on the clock', async () => {
    const h = harness();
    h.clock.setTimeout(() => {
      h.device.dump = settingsAppsDump(SAVED);
    }, 2_200);
    const env = await drive(h.clock, h.envelope('ui_wait', { selector: { text: 'Saved' }, until: 'visible' }));
    expect(env).toMatchObject({ ok: true, tool: 'ui_wait', data: { until: 'visible' }, evidence: null });
    expect(env.data.waited_ms).toBeGreaterThanOrEqual(2_200);
    expect(env.data.waited_ms).toBeLessThanOrEqual(3_000);
    expect(JSON.stringify(env.data.texts)).toContain('Saved');
    // The same summary as ui_get_tree's: every entry carries a ref the acting tools accept.
    const actions = env.data.actions as { ref?: unknown }[];
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((a) => typeof a.ref === 'string' && /^e[1-9a-z][0-9a-z]{0,7}$/.test(a.ref))).toBe(true);
    // Read-only: dumps and adb reads, never an Appium session.
    expect(h.automation.sessions).toHaveLength(0);
    expect(h.device.calls.filter((c) => c === 'dumpUi').length).toBeGreaterThanOrEqual(5);
  });

  it('answers at once when the condition already holds; gone waits until nothing matches', async () => {
    const h = harness();
    const now = await drive(h.clock, h.envelope('ui_wait', { selector: { text: 'Clock' }, until: 'visible' }));
    expect(now.data.waited_ms).toBe(0);
    h.clock.setTimeout(() => {
      h.device.dump = settingsAppsDump().replace('text="Clock"', 'text="Clocks"');
    }, 1_000);
    const gone = await drive(
      h.clock,
      h.envelope('ui_wait', { selector: { text: 'Clock' }, until: 'gone', timeout_s: 5 }),
    );
    expect(gone).toMatchObject({ ok: true, data: { until: 'gone' } });
  });

  it('times out within its bound with OPERATION_TIMEOUT naming what was still (not) there, and frees the gate', async () => {
    const h = harness();
    const started = h.clock.monotonicMs();
    const env = await drive(
      h.clock,
      h.envelope('ui_wait', { selector: { text: 'Saved' }, until: 'visible', timeout_s: 3 }),
    );
    expect(h.clock.monotonicMs() - started).toBeLessThanOrEqual(3_100);
    expect(env.error?.code).toBe('OPERATION_TIMEOUT');
    expect(env.error?.message).toMatch(/\{"text":"Saved"\} was still not on screen after 3 s/);
    const stays = await drive(
      h.clock,
      h.envelope('ui_wait', { selector: { text: 'Calendar' }, until: 'gone', timeout_s: 1 }),
    );
    expect(stays.error?.message).toMatch(/\{"text":"Calendar"\} was still on screen after 1 s/);
    // The gate is free again: the next call runs.
    expect((await drive(h.clock, h.envelope('ui_get_tree'))).ok).toBe(true);
  });

  it('a read that hangs does not hold the gate past the timeout', async () => {
    const h = harness();
    h.device.hang.add('dumpUi');
    const started = h.clock.monotonicMs();
    const env = await drive(
      h.clock,
      h.envelope('ui_wait', { selector: { text: 'Saved' }, until: 'visible', timeout_s: 2 }),
    );
    expect(env.error?.code).toBe('OPERATION_TIMEOUT');
    expect(env.error?.message).toMatch(/could not be read within 2 s/);
    expect(h.clock.monotonicMs() - started).toBeLessThanOrEqual(2_100);
  });

  it('validates selector, until and timeout_s before anything else', async () => {
    const h = buildHarness({ toolsets: ['core', 'wait'], udid: 'not-an-emulator' });
    const cases: [Record<string, unknown>, string][] = [
      [{ until: 'visible' }, 'INVALID_SELECTOR'],
      [{ selector: { text: 'a' } }, 'INVALID_ARGUMENT'],
      [{ selector: { text: 'a' }, until: 'appears' }, 'INVALID_ARGUMENT'],
      [{ selector: { text: 'a' }, until: 'gone', timeout_s: 61 }, 'INVALID_ARGUMENT'],
      [{ selector: { text: 'a' }, until: 'gone', timeout_s: 0 }, 'INVALID_ARGUMENT'],
      [{ selector: { text: 'a' }, until: 'gone', timeout_s: '10' }, 'INVALID_ARGUMENT'],
      [{ selector: { text: 'a' }, until: 'gone', timeout_s: Number.NaN }, 'INVALID_ARGUMENT'],
      [{ selector: { text: 'a' }, until: 'gone' }, 'EMULATOR_UNAVAILABLE'],
    ];
    for (const [args, code] of cases)
      expect((await h.envelope('ui_wait', args)).error?.code, JSON.stringify(args)).toBe(code);
    expect(h.device.calls).toEqual([]);
  });
});

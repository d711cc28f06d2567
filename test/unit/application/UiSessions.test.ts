import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../../src/domain/errors.js';
import { buildLocator } from '../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { buildHarness, drive, envelopeOf } from '../../support/fakes/harness.js';

const SELECTOR = { text: 'Calendar' };
/** The locator the harness sends for a selector: the fake Appium finds elements by it. */
const locatorOf = (selector: Record<string, unknown>): string => buildLocator(parseSelector(selector)).value;

function withCalendar(h: ReturnType<typeof buildHarness>): void {
  h.automation.elements.set(locatorOf(SELECTOR), 'Calendar');
}

describe('UI sessions', () => {
  it('opens one Appium session under an opaque URL-safe id', async () => {
    const h = buildHarness();
    const opened = await h.envelope('ui_session_open');
    expect(opened.ok).toBe(true);
    const data = opened.data as { session_id: string; idle_timeout_seconds: number };
    expect(data.session_id).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(data.idle_timeout_seconds).toBe(60);
    expect(h.automation.open.size).toBe(1);
    // A 60 s lease under a 90 s action ceiling: Appium waits for the longer, plus 30 s; the server
    // keeps its 10 s wait for idle (it fits in the ceiling with its 10 s wait for the root).
    expect(h.automation.openOptions).toEqual([
      { idleTimeoutMs: 120_000, waitForIdleTimeoutMs: 10_000, leaseMs: 60_000 },
    ]);
  });

  it("under a short action ceiling the server's wait for idle shrinks, so idle + root wait stay inside it", async () => {
    const h = buildHarness({ actionTimeoutMs: 20_000 });
    expect((await h.envelope('ui_session_open')).ok).toBe(true);
    expect(h.automation.openOptions).toEqual([{ idleTimeoutMs: 90_000, waitForIdleTimeoutMs: 5_000, leaseMs: 60_000 }]);
  });

  it('refuses a second flow with EMULATOR_BUSY', async () => {
    const h = buildHarness();
    await h.envelope('ui_session_open');
    const second = await h.envelope('ui_session_open');
    expect(second.error?.code).toBe('EMULATOR_BUSY');
    expect(h.automation.sessions).toHaveLength(1);
  });

  it('while a flow is open, calls without its id get EMULATOR_BUSY saying how to proceed', async () => {
    const h = buildHarness();
    withCalendar(h);
    await h.envelope('ui_session_open');
    await h.clock.advance(15_000);
    for (const [tool, args] of [
      ['ui_tap', { selector: SELECTOR }],
      ['ui_tap', { selector: SELECTOR, session_id: 'x'.repeat(32) }],
      ['device_back', {}],
      ['app_open', { package_name: 'com.example.app' }],
      ['settings_open_apps', {}],
    ] as const) {
      const envelope = await h.envelope(tool, args);
      expect(envelope.error?.code, tool).toBe('EMULATOR_BUSY');
      expect(envelope.error?.message).toContain(
        'A UI session owns the device: pass its session_id or close it with ui_session_close; it expires in 45 s',
      );
    }
    expect(h.device.calls).not.toContain('startActivity');
    expect(h.device.calls).not.toContain('startApplicationSettings');
  });

  it('expires by timer after the idle lease even if nobody calls, and the id is then INVALID_UI_SESSION', async () => {
    const h = buildHarness();
    withCalendar(h);
    const id = ((await h.envelope('ui_session_open')).data as { session_id: string }).session_id;
    await h.clock.advance(59_999);
    expect(h.automation.open.size).toBe(1);
    await h.clock.advance(1);
    expect(h.automation.open.size).toBe(0);
    const late = await h.envelope('ui_tap', { selector: SELECTOR, session_id: id });
    expect(late.error?.code).toBe('INVALID_UI_SESSION');
    expect(late.error?.message).toContain('expired');
    // The device is free again for single actions.
    expect((await h.envelope('ui_tap', { selector: SELECTOR })).ok).toBe(true);
  });

  it('renews the lease on every use', async () => {
    const h = buildHarness();
    withCalendar(h);
    const id = ((await h.envelope('ui_session_open')).data as { session_id: string }).session_id;
    await h.clock.advance(50_000);
    expect((await h.envelope('ui_tap', { selector: SELECTOR, session_id: id })).ok).toBe(true);
    await h.clock.advance(50_000);
    expect(h.automation.open.size).toBe(1);
    expect((await h.envelope('ui_get_tree', { session_id: id })).ok).toBe(true);
    await h.clock.advance(59_000);
    expect(h.automation.open.size).toBe(1);
    await h.clock.advance(1_100);
    expect(h.automation.open.size).toBe(0);
  });

  it('runs every action of the flow on the same session and closes it with ui_session_close', async () => {
    const h = buildHarness();
    withCalendar(h);
    h.automation.elements.set(locatorOf({ text: 'Search' }), 'Search');
    const id = ((await h.envelope('ui_session_open')).data as { session_id: string }).session_id;
    expect((await h.envelope('ui_tap', { selector: SELECTOR, session_id: id })).ok).toBe(true);
    expect((await h.envelope('ui_scroll', { direction: 'down', session_id: id })).ok).toBe(true);
    expect((await h.envelope('device_back', { session_id: id })).ok).toBe(true);
    expect(h.automation.sessions).toHaveLength(1);
    const closed = await h.envelope('ui_session_close', { session_id: id });
    expect(closed).toMatchObject({ ok: true, data: { closed: true } });
    expect(h.automation.open.size).toBe(0);
    expect((await h.envelope('ui_tap', { selector: SELECTOR, session_id: id })).error?.code).toBe('INVALID_UI_SESSION');
    expect((await h.envelope('ui_session_close', { session_id: id })).error?.code).toBe('INVALID_UI_SESSION');
  });

  it('ui_get_tree reads through the open flow instead of uiautomator dump, with or without the id', async () => {
    const h = buildHarness();
    const id = ((await h.envelope('ui_session_open')).data as { session_id: string }).session_id;
    const without = await h.envelope('ui_get_tree');
    const withId = await h.envelope('ui_get_tree', { session_id: id });
    expect(without.ok).toBe(true);
    expect(withId.ok).toBe(true);
    expect(h.device.calls).not.toContain('dumpUi');
    expect(h.automation.sessions[0]?.calls.filter((c) => c === 'pageSource')).toHaveLength(2);
    // Reading without the id does not keep the flow alive (reading with it did, at t=0).
    await h.clock.advance(30_000);
    expect((await h.envelope('ui_get_tree')).ok).toBe(true);
    await h.clock.advance(29_999);
    expect(h.automation.open.size).toBe(1);
    await h.clock.advance(1);
    expect(h.automation.open.size).toBe(0);
  });

  it('a driver call that never answers ends in OPERATION_TIMEOUT at the ceiling, frees the gate and voids the flow', async () => {
    const h = buildHarness({ actionTimeoutMs: 2_000 });
    withCalendar(h);
    const id = ((await h.envelope('ui_session_open')).data as { session_id: string }).session_id;
    h.automation.hang.add('click');
    const pending = h.call('ui_tap', { selector: SELECTOR, session_id: id });
    let loopTicks = 0;
    const ticker = setInterval(() => (loopTicks += 1), 0);
    await h.clock.advance(1_999);
    expect(h.container.gate.isHeld).toBe(true);
    await h.clock.advance(1);
    const envelope = envelopeOf(await pending);
    clearInterval(ticker);
    expect(loopTicks).toBeGreaterThan(0);
    expect(envelope.error?.code).toBe('OPERATION_TIMEOUT');
    expect(envelope.error?.message).toContain('ui_session_open');
    expect(h.container.gate.isHeld).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(h.automation.open.size).toBe(0);
    expect((await h.envelope('ui_tap', { selector: SELECTOR, session_id: id })).error?.code).toBe('INVALID_UI_SESSION');
    h.automation.hang.clear();
    expect((await h.envelope('ui_tap', { selector: SELECTOR })).ok).toBe(true);
  });

  it('a flow whose Appium session ended is voided: the error says so, the id is INVALID_UI_SESSION, a new flow opens at once', async () => {
    const h = buildHarness();
    withCalendar(h);
    const id = ((await h.envelope('ui_session_open')).data as { session_id: string }).session_id;
    h.automation.failWith.click = new HarnessError(
      'APPIUM_UNAVAILABLE',
      'The Appium session ended unexpectedly (the driver or the device restarted). Open a new UI session with ui_session_open, or retry the action.',
    );
    const lost = await h.envelope('ui_tap', { selector: SELECTOR, session_id: id });
    expect(lost.error?.code).toBe('APPIUM_UNAVAILABLE');
    await new Promise((r) => setImmediate(r));
    expect(h.automation.sessions[0]?.closed).toBe(true);
    const again = await h.envelope('ui_tap', { selector: SELECTOR, session_id: id });
    expect(again.error?.code).toBe('INVALID_UI_SESSION');
    expect(again.error?.message).toContain('Appium session ended');
    h.automation.failWith = {};
    const reopened = await h.envelope('ui_session_open');
    expect(reopened.ok, JSON.stringify(reopened.error)).toBe(true);
    expect(h.automation.open.size).toBe(1);
  });

  it('a session Appium creates after the connect budget is closed when it arrives: no orphan', async () => {
    const h = buildHarness({ connectTimeoutMs: 5_000 });
    h.automation.holdOpen = true;
    const envelope = await h.envelope('ui_session_open');
    expect(envelope.error?.code).toBe('OPERATION_TIMEOUT');
    expect(envelope.error?.message).toContain('ANDROID_MCP_CONNECT_TIMEOUT');
    expect(h.container.gate.isHeld).toBe(false);
    expect(h.container.sessions.isOpen).toBe(false);
    h.automation.release();
    await new Promise((r) => setImmediate(r));
    expect(h.automation.sessions).toHaveLength(1);
    expect(h.automation.sessions[0]?.closed).toBe(true);
    expect(h.automation.open.size).toBe(0);
  });

  it('closes the temporary session of an action still running at shutdown: no orphan left to newCommandTimeout', async () => {
    const h = buildHarness();
    withCalendar(h);
    h.automation.hang.add('click');
    const pending = h.call('ui_tap', { selector: SELECTOR });
    const clicking = () => h.automation.sessions[0]?.calls.includes('click') ?? false;
    for (let i = 0; i < 50 && !clicking(); i += 1) await new Promise((r) => setImmediate(r));
    expect(clicking()).toBe(true);
    expect(h.automation.open.size).toBe(1);
    await drive(h.clock, h.container.shutdown());
    expect(h.automation.open.size).toBe(0);
    expect(h.automation.sessions[0]?.closed).toBe(true);
    void pending;
  });

  it('closes the flow on shutdown', async () => {
    const h = buildHarness();
    await h.envelope('ui_session_open');
    await drive(h.clock, h.container.shutdown());
    expect(h.automation.open.size).toBe(0);
    expect(h.container.sessions.isOpen).toBe(false);
  });
});

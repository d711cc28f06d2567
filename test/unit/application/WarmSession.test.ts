/**
 * The session of an action without session_id is kept for a short idle lease
 * (ANDROID_MCP_WARM_SESSION_TIMEOUT), so the next such action reuses it. Through the whole
 * container with the fake clock, the fake Appium and the fake device.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HarnessError } from '../../../src/domain/errors.js';
import { buildLocator } from '../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { FakeAutomation } from '../../support/fakes/FakeAutomation.js';
import { FakeDevice } from '../../support/fakes/FakeDevice.js';
import { buildHarness, drive, testConfig } from '../../support/fakes/harness.js';
import { lockedServer } from '../../support/fakes/lockedServer.js';

const LEASE_MS = 30_000;
const SELECTOR = { text: 'Calendar' };
const locatorOf = (selector: Record<string, unknown>): string => buildLocator(parseSelector(selector)).value;

function warmHarness(leaseMs = LEASE_MS) {
  const h = buildHarness({ warmSessionTimeoutMs: leaseMs });
  h.automation.elements.set(locatorOf(SELECTOR), 'Calendar');
  return h;
}

/** Session ids Appium still holds. */
const openIds = (automation: FakeAutomation): string[] => [...automation.open.keys()];

describe('the session kept after an action without session_id', () => {
  it('is reused by the next actions, and the driver is told to wait longer than the lease', async () => {
    const h = warmHarness();
    expect((await h.envelope('ui_tap', { selector: SELECTOR })).ok).toBe(true);
    expect((await h.envelope('device_back')).ok).toBe(true);
    expect((await h.envelope('ui_scroll', { direction: 'down' })).ok).toBe(true);
    expect((await h.envelope('ui_tap', { selector: SELECTOR })).ok).toBe(true);
    expect(h.automation.sessions).toHaveLength(1);
    expect(openIds(h.automation)).toEqual(['s1']);
    // max(30 s lease, 90 s ceiling) + 30 s: Appium never drops it while the harness keeps it.
    expect(h.automation.openOptions).toEqual([
      { idleTimeoutMs: 120_000, waitForIdleTimeoutMs: 10_000, leaseMs: 30_000, onAsked: expect.any(Function) },
    ]);
  });

  it('closes on its idle timer, counted from the end of the last action, even if nobody calls', async () => {
    const h = warmHarness();
    await h.envelope('ui_tap', { selector: SELECTOR });
    await h.clock.advance(20_000);
    await h.envelope('device_back');
    // The lease restarts when the action's driver work ends (the answer follows within a few fake steps).
    await h.clock.advance(LEASE_MS - 1_000);
    expect(openIds(h.automation)).toEqual(['s1']);
    await h.clock.advance(1_000);
    expect(openIds(h.automation)).toEqual([]);
    expect(h.logger.entries.some((e) => e.message === 'per-action session closed after its idle lease')).toBe(true);
    // The next action starts a new one.
    await h.envelope('ui_tap', { selector: SELECTOR });
    expect(h.automation.sessions.map((s) => s.id)).toEqual(['s1', 's2']);
  });

  it('reading the screen goes through it (no dump, no new session) and does not renew the lease', async () => {
    const h = warmHarness();
    await h.envelope('ui_tap', { selector: SELECTOR });
    h.device.calls.length = 0;
    await h.clock.advance(20_000);
    const tree = await h.envelope('ui_get_tree');
    expect(tree.ok).toBe(true);
    expect(h.device.calls).not.toContain('dumpUi');
    expect(h.automation.sessions[0]?.calls).toContain('pageSource');
    expect(h.automation.sessions).toHaveLength(1);
    await h.clock.advance(LEASE_MS - 20_000);
    expect(openIds(h.automation)).toEqual([]);
    // Nothing kept: the plain dump again, and still no session opened by an observer.
    expect((await h.envelope('ui_get_tree')).ok).toBe(true);
    expect(h.device.calls).toContain('dumpUi');
    expect(h.automation.sessions).toHaveLength(1);
  });

  it('an observer never opens a session', async () => {
    const h = warmHarness();
    for (const tool of ['ui_get_tree', 'screen_capture', 'app_list_installed', 'emulator_get_status'] as const) {
      expect((await h.envelope(tool)).ok, tool).toBe(true);
    }
    expect(h.automation.sessions).toHaveLength(0);
  });

  it('a failed read through it ends it', async () => {
    const h = warmHarness();
    await h.envelope('ui_tap', { selector: SELECTOR });
    h.automation.failWith.pageSource = new HarnessError('APPIUM_UNAVAILABLE', 'The session is gone.');
    expect((await h.envelope('ui_get_tree')).error?.code).toBe('APPIUM_UNAVAILABLE');
    expect(openIds(h.automation)).toEqual([]);
  });

  it('closes on a driver error, and the next action opens a fresh one', async () => {
    const h = warmHarness();
    await h.envelope('ui_tap', { selector: SELECTOR });
    h.automation.failWith.click = new HarnessError('APPIUM_UNAVAILABLE', 'The UiAutomator2 server is gone.');
    expect((await h.envelope('ui_tap', { selector: SELECTOR })).error?.code).toBe('APPIUM_UNAVAILABLE');
    expect(openIds(h.automation)).toEqual([]);
    delete h.automation.failWith.click;
    expect((await h.envelope('ui_tap', { selector: SELECTOR })).ok).toBe(true);
    expect(h.automation.sessions.map((s) => s.id)).toEqual(['s1', 's2']);
    expect(openIds(h.automation)).toEqual(['s2']);
  });

  it('closes behind the answer after OPERATION_TIMEOUT', async () => {
    const h = buildHarness({ warmSessionTimeoutMs: LEASE_MS, actionTimeoutMs: 2_000 });
    h.automation.elements.set(locatorOf(SELECTOR), 'Calendar');
    await h.envelope('ui_tap', { selector: SELECTOR });
    h.automation.hang.add('click');
    expect((await h.envelope('ui_tap', { selector: SELECTOR })).error?.code).toBe('OPERATION_TIMEOUT');
    expect(h.automation.sessions[0]?.calls).toContain('close');
    expect(openIds(h.automation)).toEqual([]);
  });

  it('is kept after UI_ELEMENT_NOT_FOUND: the driver answered, the session is sound', async () => {
    const h = warmHarness();
    await h.envelope('ui_tap', { selector: SELECTOR });
    expect((await h.envelope('ui_tap', { selector: { text: 'Nowhere' } })).error?.code).toBe('UI_ELEMENT_NOT_FOUND');
    expect(openIds(h.automation)).toEqual(['s1']);
    expect((await h.envelope('ui_tap', { selector: SELECTOR })).ok).toBe(true);
    expect(h.automation.sessions).toHaveLength(1);
  });

  it('is kept after UI_TREE_UNAVAILABLE from the driver (a screen whose root never came): the next read reuses it', async () => {
    const h = warmHarness();
    await h.envelope('ui_tap', { selector: SELECTOR });
    h.automation.failWith.pageSource = new HarnessError(
      'UI_TREE_UNAVAILABLE',
      'The screen could not be read during the page source.',
    );
    expect((await h.envelope('ui_get_tree')).error?.code).toBe('UI_TREE_UNAVAILABLE');
    expect(openIds(h.automation)).toEqual(['s1']);
    delete h.automation.failWith.pageSource;
    expect((await h.envelope('ui_get_tree')).ok).toBe(true);
    expect(h.automation.sessions).toHaveLength(1);
  });

  it.each([
    ['app_open', { package_name: 'com.example.app' }, 'startActivity'],
    ['settings_open_apps', {}, 'startApplicationSettings'],
  ] as const)('%s closes it (and waits for the close) before it navigates and dumps', async (tool, args, start) => {
    const h = warmHarness();
    await h.envelope('ui_tap', { selector: SELECTOR });
    const seen: Record<string, string[]> = {};
    for (const name of [start, 'dumpUi'] as const) {
      const original = h.device[name].bind(h.device) as (...a: unknown[]) => Promise<unknown>;
      (h.device as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => {
        seen[name] ??= openIds(h.automation);
        return original(...a);
      };
    }
    await h.envelope(tool, args);
    expect(seen[start]).toEqual([]);
    expect(seen.dumpUi).toEqual([]);
    expect(h.automation.sessions[0]?.closed).toBe(true);
  });

  it('ui_session_open closes it first, then opens the flow with the flow lease', async () => {
    const h = warmHarness();
    await h.envelope('ui_tap', { selector: SELECTOR });
    const opened = await h.envelope('ui_session_open');
    expect(opened.ok).toBe(true);
    expect(h.automation.sessions.map((s) => [s.id, s.closed])).toEqual([
      ['s1', true],
      ['s2', false],
    ]);
    expect(h.automation.log.indexOf('s1:close')).toBeLessThan(h.automation.log.lastIndexOf('openSession'));
    expect(h.automation.openOptions[1]).toEqual({
      idleTimeoutMs: 120_000,
      waitForIdleTimeoutMs: 10_000,
      leaseMs: 60_000,
    });
  });

  it('is closed at shutdown', async () => {
    const h = warmHarness();
    await h.envelope('ui_tap', { selector: SELECTOR });
    await drive(h.clock, h.container.shutdown());
    expect(openIds(h.automation)).toEqual([]);
  });

  it('with the lease at 0 nothing is kept: one session per action, closed before the answer', async () => {
    const h = warmHarness(0);
    await h.envelope('ui_tap', { selector: SELECTOR });
    expect(openIds(h.automation)).toEqual([]);
    await h.envelope('ui_tap', { selector: SELECTOR });
    expect(h.automation.sessions).toHaveLength(2);
    expect(h.automation.openOptions[0]).toEqual({
      idleTimeoutMs: 120_000,
      waitForIdleTimeoutMs: 10_000,
      leaseMs: 0,
      onAsked: expect.any(Function),
    });
  });
});

describe('the warm session and the cross-process device lock', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const server = (pid: number, directory: string, device: FakeDevice, automation: FakeAutomation) =>
    lockedServer(pid, directory, device, automation, testConfig({ warmSessionTimeoutMs: LEASE_MS }));

  it('holds the device for another process while it lives, and gives it back when the lease ends', async () => {
    const directory = join(mkdtempSync(join(tmpdir(), 'amh-warm-')), 'locks');
    dirs.push(directory);
    const device = new FakeDevice();
    const automation = new FakeAutomation();
    automation.elements.set(locatorOf(SELECTOR), 'Calendar');
    const a = server(2001, directory, device, automation);
    const b = server(2002, directory, device, automation);

    expect((await a.call('ui_tap', { selector: SELECTOR })).ok).toBe(true);
    const busy = await b.call('ui_get_tree');
    expect(busy.error?.code).toBe('EMULATOR_BUSY');
    expect(busy.error?.message).toContain('pid 2001');
    expect(busy.error?.message).toMatch(
      /keeps the session left after a single action on it .*has just been asked to give the device up/,
    );
    expect(busy.error?.message).toMatch(/ANDROID_MCP_WARM_SESSION_TIMEOUT/);
    // The lease runs out in process a: its timer closes the session and the lock is released.
    await a.clock.advance(LEASE_MS);
    expect([...automation.open.keys()]).toEqual([]);
    expect((await b.call('ui_get_tree')).ok).toBe(true);
  });

  it('gives the device up when another process asks, long before the lease ends', async () => {
    const directory = join(mkdtempSync(join(tmpdir(), 'amh-warm-')), 'locks');
    dirs.push(directory);
    const device = new FakeDevice();
    const automation = new FakeAutomation();
    automation.elements.set(locatorOf(SELECTOR), 'Calendar');
    const a = server(2201, directory, device, automation);
    const b = server(2202, directory, device, automation);
    expect((await a.call('ui_tap', { selector: SELECTOR })).ok).toBe(true);
    expect((await b.call('ui_tap', { selector: SELECTOR })).error?.code).toBe('EMULATOR_BUSY');
    // a's clock stands still: no lease runs out; only the ask ends the kept session.
    await vi.waitFor(() => expect([...automation.open.keys()]).toEqual([]), { timeout: 5_000 });
    expect((await b.call('ui_tap', { selector: SELECTOR })).ok).toBe(true);
  });

  it('gives the device back when a driver error ends it', async () => {
    const directory = join(mkdtempSync(join(tmpdir(), 'amh-warm-')), 'locks');
    dirs.push(directory);
    const device = new FakeDevice();
    const automation = new FakeAutomation();
    automation.elements.set(locatorOf(SELECTOR), 'Calendar');
    const a = server(2101, directory, device, automation);
    const b = server(2102, directory, device, automation);
    await a.call('ui_tap', { selector: SELECTOR });
    automation.failWith.click = new HarnessError('APPIUM_UNAVAILABLE', 'gone');
    expect((await a.call('ui_tap', { selector: SELECTOR })).error?.code).toBe('APPIUM_UNAVAILABLE');
    expect((await b.call('ui_get_tree')).ok).toBe(true);
  });
});

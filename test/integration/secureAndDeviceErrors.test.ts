/**
 * What the device answers that the harness must read right, through the real adb and the real
 * Appium 3 + UiAutomator2, then the harness's own answer over real stdio:
 * - a secure window (FLAG_SECURE, the Notes app's PIN screen): `screencap` exits 1 with nothing,
 *   the UiAutomator2 screenshot answers 500 `unable to capture screen`, `dumpsys window` prints
 *   `SECURE` among the window's flags; the harness still reads the tree, types and taps there, and
 *   answers `screen_secure: true` with no evidence;
 * - a click the UiAutomator2 server could not perform (500 `unknown error`): UI_ACTION_FAILED;
 * - the server restarted under a live session (404 `invalid session id`): APPIUM_UNAVAILABLE.
 * docs/internals/device-quirks.md ("Secure windows"), docs/reference/contract.md ("Secure screens", "Device errors").
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { detectHelperVersions } from '../../packages/virtual-device/src/device/helperVersions.js';
import { defaultScenario } from '../../packages/virtual-device/src/scenario/defaultScenario.js';
import { quirkProbes } from '../support/quirkProbes.js';
import { describeOnVirtualDevice, startQuirkStack, type QuirkStack } from '../support/quirkStack.js';
import { ensureBuilt } from '../support/rawServer.js';

describeOnVirtualDevice('secure windows and device errors, on the device and in the harness', () => {
  let stack: QuirkStack;
  const { call, report, withRawSession, untilNoSession } = quirkProbes('secure-and-device-errors', () => stack);
  const logSince = (seq: number): string[] =>
    stack.device
      .logEntries()
      .filter((e) => e.seq > seq)
      .map((e) => `${e.kind} ${e.detail}`);
  const lastSeq = (): number => stack.device.logEntries().at(-1)?.seq ?? 0;

  beforeAll(async () => {
    ensureBuilt();
    stack = await startQuirkStack({ label: 'secure-errors', scenario: defaultScenario(detectHelperVersions()) });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('a secure window: screencap exits 1 with nothing, dumpsys shows SECURE, SurfaceFlinger says why', async () => {
    stack.device.setScreen('notes_lock');
    // exec-out merges stderr into stdout: the message is all a client gets, and no PNG.
    const cap = await stack.onDevice(['exec-out', 'screencap', '-p']);
    expect(cap.stdout.toString('utf8')).toBe('Failed to take screenshot. Status: -1\n');
    const shell = await stack.onDevice(['shell', 'screencap', '-p']);
    expect(shell.code).toBe(1);
    expect(shell.stdout.length).toBe(0);
    expect(shell.stderr).toContain('Failed to take screenshot. Status: -1');
    const windows = (await stack.onDevice(['shell', 'dumpsys', 'window', 'windows'])).stdout.toString('utf8');
    expect(windows).toMatch(
      /Window\{\S+ u0 com\.example\.notes\/com\.example\.notes\.LockActivity\}:\n.*\n\s+mAttrs=.*\n\s+fl=LAYOUT_IN_SCREEN SECURE LAYOUT_INSET_DECOR/,
    );
    const logcat = (await stack.onDevice(['logcat', '-d', '-s', 'SurfaceFlinger'])).stdout.toString('utf8');
    expect(logcat).toMatch(/ W SurfaceFlinger: FB is protected: PERMISSION_DENIED/);
    // Another screen is captured as always.
    stack.device.setScreen('notes_main');
    expect((await stack.onDevice(['exec-out', 'screencap', '-p'])).stdout.subarray(1, 4).toString()).toBe('PNG');
  });

  it('a secure window: the UiAutomator2 screenshot answers 500 unable to capture screen', async () => {
    stack.device.setScreen('notes_lock');
    await withRawSession(async (driver) => {
      await expect(driver.takeScreenshot()).rejects.toThrow(/secure' flag set/);
      // The tree stays readable.
      expect(await driver.getPageSource()).toContain('content-desc="Unlock"');
    });
    expect(logSince(0).join('\n')).toMatch(/uia2 GET \/session\/\S+\/screenshot -> 500 .*unable to capture screen/);
  });

  it('the harness reads, types and taps on a secure screen and says the screen is secure', async () => {
    await untilNoSession();
    stack.device.setScreen('notes_lock');
    const tree = await call('ui_get_tree');
    report('tree', tree);
    expect(tree.envelope.ok, JSON.stringify(tree.envelope.error)).toBe(true);
    const typed = await call('ui_type_text', { selector: { input_hint: 'PIN' }, text: '4821' });
    report('type', typed);
    expect(typed.envelope.ok, JSON.stringify(typed.envelope.error)).toBe(true);
    expect(typed.envelope.evidence).toBeNull();
    expect(typed.envelope.data.screen_secure).toBe(true);
    const since = lastSeq();
    const tapped = await call('ui_tap', { selector: { content_desc: 'Unlock' } });
    report('tap', tapped);
    expect(tapped.envelope.ok, JSON.stringify(tapped.envelope.error)).toBe(true);
    expect(tapped.envelope.evidence).toBeNull();
    expect(tapped.envelope.data.screen_secure).toBe(true);
    // The tap reached the device once, on the button, and the screen answered it.
    const clicks = logSince(since).filter((l) => l.startsWith('click '));
    expect(clicks).toHaveLength(1);
    expect(clicks[0]).toContain('target=');
    expect(stack.device.nodes().some((n) => n.text === 'Unlocked')).toBe(true);
    // screen_capture's whole answer is the picture: refused, saying why.
    const shot = await call('screen_capture');
    report('capture', shot);
    expect(shot.envelope.error?.code).toBe('EVIDENCE_WRITE_FAILED');
    expect(shot.envelope.error?.message).toMatch(
      /^The screen is secure: the window of com\.example\.notes\/\S+ sets FLAG_SECURE/,
    );
    // A screen that is not secure keeps its evidence.
    stack.device.setScreen('notes_main');
    const plain = await call('ui_tap', { selector: { input_hint: 'Title' } });
    expect(plain.envelope.ok, JSON.stringify(plain.envelope.error)).toBe(true);
    expect(plain.envelope.evidence?.artifact_id).toMatch(/\.png$/);
    expect(plain.envelope.data).not.toHaveProperty('screen_secure');
  });

  it('a click the UiAutomator2 server could not perform: UI_ACTION_FAILED, nothing clicked', async () => {
    stack.device.setScreen('settings_home');
    stack.device.injectFault({ kind: 'uia2-error', match: '/click' });
    try {
      const since = lastSeq();
      const tap = await call('ui_tap', { selector: { text: 'Apps' } });
      report('tap', tap);
      expect(tap.envelope.error?.code).toBe('UI_ACTION_FAILED');
      expect(tap.envelope.error?.message).toMatch(/^The device could not perform the click/);
      expect(logSince(since).join('\n')).toMatch(
        /uia2 POST \/session\/\S+\/element\/\S+\/click -> 500 .*SecurityException/,
      );
      expect(logSince(since).filter((l) => l.startsWith('click '))).toEqual([]);
      expect(stack.device.currentScreen().screenId).toBe('settings_home');
      // The fault answered once; the retry the message suggests works.
      const again = await call('ui_tap', { selector: { text: 'Apps' } });
      expect(again.envelope.ok, JSON.stringify(again.envelope.error)).toBe(true);
      expect(stack.device.currentScreen().screenId).toBe('settings_apps');
    } finally {
      stack.device.clearFaults();
    }
  });

  it('the UiAutomator2 server restarted under a UI session: APPIUM_UNAVAILABLE, then a new session works', async () => {
    stack.device.setScreen('settings_home');
    const open = await call('ui_session_open');
    expect(open.envelope.ok, JSON.stringify(open.envelope.error)).toBe(true);
    const session_id = String(open.envelope.data.session_id);
    stack.device.injectFault({ kind: 'uia2-session-lost' });
    const since = lastSeq();
    const tap = await call('ui_tap', { selector: { text: 'Apps' }, session_id });
    report('tap', tap);
    expect(tap.envelope.error?.code).toBe('APPIUM_UNAVAILABLE');
    expect(tap.envelope.error?.message).toMatch(/The Appium session ended unexpectedly/);
    expect(logSince(since).join('\n')).toMatch(/-> 404 .*invalid session id/);
    await call('ui_session_close', { session_id });
    const retry = await call('ui_tap', { selector: { text: 'Apps' } });
    expect(retry.envelope.ok, JSON.stringify(retry.envelope.error)).toBe(true);
  });
});

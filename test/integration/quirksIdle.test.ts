/**
 * Waits for idle and the suspected killed dump: a real device waits for idle, in real time.
 * `uiautomator dump` waits up to 10 s for idle before it gives up; the UiAutomator2 server waits
 * its `waitForIdleTimeout` (a setting, 10 s by default) before page source and finds and after
 * clicks, and when the window's root never comes it polls for it another 10 s and answers HTTP 500.
 * Each test first shows the raw behaviour through the real adb or a real Appium 3 session driven
 * by webdriverio, then the harness's envelope over real stdio. One private adb server, one
 * virtual device and one real Appium for the file. docs/internals/device-quirks.md, quirks `idle-wait` and `dump-killed`.
 *
 * The harness runs with ANDROID_MCP_WARM_SESSION_TIMEOUT=0: no session outlives the action that
 * opened it, so a dump in these tests never meets a kept UiAutomator2 server (which holds
 * UiAutomation and would change what the dump answers). Each test also checks that no
 * instrumentation runs before it dumps.
 */
import { spawn } from 'node:child_process';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { sleep } from '../support/processes.js';
import { quirkProbes } from '../support/quirkProbes.js';
import { describeOnVirtualDevice, startQuirkE2eStack, type QuirkE2eStack } from '../support/quirkStack.js';
import { ensureBuilt } from '../support/rawServer.js';
import { openRawSession, type RawDriver } from '../support/rawSession.js';

type Browser = RawDriver;

/** 16 s: the harness's sessions get waitForIdleTimeout 16 − 10 (root wait) − 5 (margin) = 1 s. */
const ACTION_TIMEOUT_S = 16;
const HARNESS_IDLE_WAIT_MS = 1_000;
const ROOT_TIMED_OUT = /Timed out after \d+ms waiting for the root AccessibilityNodeInfo in the active window/;

describeOnVirtualDevice('waits for idle and a killed dump, in the virtual device and in the harness', () => {
  let stack: QuirkE2eStack;
  let device: VirtualDevice;

  const { call, report, lastSeq, untilNoSession } = quirkProbes('quirks-idle', () => stack);
  const logSince = (since: number, kind: string): string[] =>
    device
      .log()
      .filter((e) => e.seq > since && e.kind === kind)
      .map((e) => e.detail.replace(/'([^' ]*)'/g, '$1'));
  const timed = async <T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> => {
    const start = Date.now();
    const value = await work();
    return { value, ms: Date.now() - start };
  };

  /** No UiAutomator2 server on the device and no session in Appium: a dump meets nobody. */
  async function deviceFree(): Promise<void> {
    await untilNoSession(10_000, 50);
    expect(device.instrumentationRunning(), 'a UiAutomator2 server still holds UiAutomation').toBe(false);
  }

  /** A raw UiAutomator2 session with the contract's capabilities (plus `extra`), deleted at the end. */
  async function withRawSession(
    extra: Record<string, unknown>,
    work: (driver: Browser) => Promise<void>,
  ): Promise<void> {
    await deviceFree();
    const driver = await openRawSession({
      appiumPort: stack.appium.port,
      serial: stack.serial,
      adbPort: stack.adbPort,
      extra: { 'appium:newCommandTimeout': 120, ...extra },
    });
    try {
      await work(driver);
    } finally {
      await driver.deleteSession();
      await deviceFree();
    }
  }

  beforeAll(async () => {
    ensureBuilt();
    stack = await startQuirkE2eStack({
      label: 'quirks-idle',
      device: () => VirtualDevice.withDefaultScenario(),
      harness: { ANDROID_MCP_ACTION_TIMEOUT: String(ACTION_TIMEOUT_S), ANDROID_MCP_WARM_SESSION_TIMEOUT: '0' },
    });
    device = stack.device;
  }, 180_000);

  afterEach(async () => {
    device.clearFaults();
    device.resetTraits();
    await deviceFree();
  }, 30_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  it('QUIRK-IDLE-1: on a screen that never idles the UiAutomator2 server waits waitForIdleTimeout (10 s, a setting) before the page source; the harness sets it from its ceiling', async () => {
    device.setScreen('settings_home');
    device.injectFault({ kind: 'idle-state' });
    // Raw: the server's default is 10 s, and the page source still comes (the root is there).
    await withRawSession({}, async (driver) => {
      expect(await driver.getSettings()).toMatchObject({ waitForIdleTimeout: 10_000 });
      const slow = await timed(() => driver.getPageSource());
      expect(slow.value).toContain('text="Apps"');
      expect(slow.ms).toBeGreaterThanOrEqual(10_000);
      // POST /appium/settings, as any client may send it: the next source waits that long only.
      await driver.updateSettings({ waitForIdleTimeout: 500 });
      const short = await timed(() => driver.getPageSource());
      expect(short.ms).toBeGreaterThanOrEqual(500);
      // Real clock (the UiAutomator2 server runs in the device process): the 500 ms setting, not the 10 s
      // default; 5 s is half that default, room for a loaded runner that still tells the two apart.
      expect(short.ms).toBeLessThan(5_000);
    });

    // Harness: its session asks for 1 s (appium:settings, from ANDROID_MCP_ACTION_TIMEOUT=16) and the tree comes.
    const since = lastSeq();
    const open = await call('ui_session_open');
    expect(open.envelope.ok, JSON.stringify(open.envelope.error)).toBe(true);
    const sessionId = String(open.envelope.data.session_id);
    try {
      const tree = await call('ui_get_tree', { session_id: sessionId });
      report('QUIRK-IDLE-1 ui_get_tree in a flow on a never-idle screen', tree);
      expect(tree.envelope.ok, JSON.stringify(tree.envelope.error)).toBe(true);
      expect(JSON.stringify(tree.envelope.data)).toContain('Apps');
      expect(tree.elapsedMs).toBeGreaterThanOrEqual(HARNESS_IDLE_WAIT_MS);
      // Real clock: the harness's 1 s idle wait, not the server's 10 s default; 8 s is margin for a loaded runner.
      expect(tree.elapsedMs).toBeLessThan(8_000);
      const waits = logSince(since, 'uia2').filter((d) => /waiting up to \d+ ms for the device to idle/.test(d));
      expect(waits).toEqual([`source: waiting up to ${HARNESS_IDLE_WAIT_MS} ms for the device to idle`]);
    } finally {
      expect((await call('ui_session_close', { session_id: sessionId })).envelope.ok).toBe(true);
    }
  }, 120_000);

  it('QUIRK-IDLE-2: the window root never comes → HTTP 500 unknown error after the idle wait plus 10 s; the harness answers UI_TREE_UNAVAILABLE within its ceiling and the flow survives', async () => {
    device.setScreen('settings_home');
    device.injectFault({ kind: 'ui-busy' });
    // Raw: with waitForIdleTimeout 1 s (appium:settings), the source fails after about 11 s with the server's message.
    await withRawSession({ 'appium:settings': { waitForIdleTimeout: 1_000 } }, async (driver) => {
      const failed = await timed(() =>
        driver.getPageSource().then(
          () => null,
          (error: unknown) => error as Error,
        ),
      );
      expect(failed.value, 'the page source should have failed').not.toBeNull();
      expect(failed.value?.message).toMatch(ROOT_TIMED_OUT);
      expect(failed.ms).toBeGreaterThanOrEqual(11_000);
    });

    // Harness: a flow reads the tree (page source) and taps (find) on that screen.
    const open = await call('ui_session_open');
    expect(open.envelope.ok, JSON.stringify(open.envelope.error)).toBe(true);
    const sessionId = String(open.envelope.data.session_id);
    try {
      const since = lastSeq();
      const tree = await call('ui_get_tree', { session_id: sessionId });
      report('QUIRK-IDLE-2 ui_get_tree, root never comes', tree);
      expect(tree.envelope.error?.code).toBe('UI_TREE_UNAVAILABLE');
      expect(tree.envelope.error?.message).toMatch(
        /^The screen could not be read during the page source: the UiAutomator2 server waited for it to idle, then 10 s for the root of the active window, and got none/,
      );
      expect(tree.envelope.error?.message).toMatch(/Wait a few seconds and retry/);
      // The idle wait (1 s) and the root wait (10 s), inside the 16 s ceiling: not OPERATION_TIMEOUT.
      expect(tree.elapsedMs).toBeGreaterThanOrEqual(11_000);
      // Real clock: under the ceiling means the root wait's own refusal, not the harness's timeout (5 s margin).
      expect(tree.elapsedMs).toBeLessThan(ACTION_TIMEOUT_S * 1000);
      expect(logSince(since, 'uia2').filter((d) => /no root AccessibilityNodeInfo/.test(d))).toHaveLength(1);

      const tap = await call('ui_tap', { session_id: sessionId, selector: { text: 'Apps' } });
      report('QUIRK-IDLE-2 ui_tap, root never comes', tap);
      expect(tap.envelope.error?.code).toBe('UI_TREE_UNAVAILABLE');
      expect(tap.envelope.error?.message).toMatch(/^The screen could not be read during the find/);
      expect(device.clicks()).toHaveLength(0);

      // Once the app lets go of its main thread the same flow reads the screen: it was not voided.
      device.clearFaults();
      const after = await call('ui_get_tree', { session_id: sessionId });
      expect(after.envelope.ok, JSON.stringify(after.envelope.error)).toBe(true);
    } finally {
      expect((await call('ui_session_close', { session_id: sessionId })).envelope.ok).toBe(true);
    }
  }, 150_000);

  it('QUIRK-DUMP-3: "could not get idle state" comes after the dump waited 10 s for idle; the harness does not retry it and says what to do', async () => {
    device.setScreen('settings_home');
    device.injectFault({ kind: 'idle-state' });
    await deviceFree();
    const raw = await timed(() => stack.adb(['exec-out', 'uiautomator', 'dump', '/dev/tty']));
    expect(raw.value.stdout.toString('utf8') + raw.value.stderr).toBe('ERROR: could not get idle state.\n');
    expect(raw.ms).toBeGreaterThanOrEqual(10_000);

    await deviceFree();
    const since = lastSeq();
    const tree = await call('ui_get_tree');
    report('QUIRK-DUMP-3 idle state', tree);
    expect(tree.envelope.error?.code).toBe('UI_TREE_UNAVAILABLE');
    expect(tree.envelope.error?.message).toMatch(
      /never became idle[\s\S]*Pause the animation or video, or read the tree through a UI session/,
    );
    expect(tree.elapsedMs).toBeGreaterThanOrEqual(10_000);
    // Real clock: one dump's 10 s idle wait, no retry (a second would pass the ceiling); 6 s of margin.
    expect(tree.elapsedMs).toBeLessThan(ACTION_TIMEOUT_S * 1000);
    expect(logSince(since, 'shell').filter((c) => c.startsWith('exec: uiautomator dump'))).toHaveLength(1);
  }, 90_000);

  it('QUIRK-DUMP-KILLED-1: a dump beside a running UiAutomator2 server dies with exit 137 and no output; the harness checks pidof and names the server instead of "still starting"', async () => {
    device.setScreen('settings_home');
    device.setDumpConflict('killed');
    await deviceFree();
    // Someone else's UiAutomator2 server: an instrumentation started by hand through the real adb (`-w` keeps it running).
    const other = spawn(
      'adb',
      [
        '-s',
        stack.serial,
        'shell',
        'am',
        'instrument',
        '-w',
        'io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner',
      ],
      {
        env: { ...process.env, ANDROID_ADB_SERVER_PORT: String(stack.adbPort) },
        stdio: 'ignore',
      },
    );
    const otherExited = new Promise<void>((resolve) => other.once('exit', () => resolve()));
    try {
      const deadline = Date.now() + 10_000;
      while (!device.instrumentationRunning() && Date.now() < deadline) await sleep(50);
      expect(device.instrumentationRunning()).toBe(true);
      // Raw: shell_v2 carries the exit code; exec-out carries nothing at all.
      const killed = await stack.adb(['shell', 'uiautomator', 'dump', '/dev/tty']);
      expect({ code: killed.code, stdout: killed.stdout.toString('utf8'), stderr: killed.stderr }).toEqual({
        code: 137,
        stdout: '',
        stderr: '',
      });
      const quiet = await stack.adb(['exec-out', 'uiautomator', 'dump', '/dev/tty']);
      expect(quiet.stdout.toString('utf8') + quiet.stderr).toBe('');
      const pid = (await stack.adb(['shell', 'pidof', 'io.appium.uiautomator2.server'])).stdout.toString('utf8').trim();
      expect(pid).toMatch(/^\d+$/);

      const since = lastSeq();
      const tree = await call('ui_get_tree');
      report('QUIRK-DUMP-KILLED-1 ui_get_tree beside a running UiAutomator2 server', tree);
      expect(tree.envelope.error?.code).toBe('UI_TREE_UNAVAILABLE');
      expect(tree.envelope.error?.message).toContain(
        `while the UiAutomator2 server runs on the device (io.appium.uiautomator2.server, pid ${pid})`,
      );
      expect(tree.envelope.error?.message).toMatch(
        /UiAutomator2\/Appium session or another testing tool\. Pass the session_id of your open UI session/,
      );
      expect(tree.envelope.error?.message).not.toMatch(/still starting/);
      const commands = logSince(since, 'shell').filter((c) => /^exec: uiautomator dump|pidof/.test(c));
      expect(commands).toEqual(['exec: uiautomator dump /dev/tty', 'shell_v2: pidof io.appium.uiautomator2.server']);
    } finally {
      await stack.adb(['shell', 'am', 'force-stop', 'io.appium.uiautomator2.server']);
      if (other.exitCode === null) other.kill();
      await otherExited;
    }
    // Once that server is gone, the same trait dumps normally.
    await deviceFree();
    expect((await call('ui_get_tree')).envelope.ok).toBe(true);
  }, 90_000);
});

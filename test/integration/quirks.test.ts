/**
 * Android as it really is. Each behaviour of real devices is a named test
 * (QUIRK-…) that first shows the raw behaviour through the real adb (what the virtual device
 * prints), then the harness's answer: the envelope of the built server over real stdio.
 * One private adb server, one virtual device and one real Appium 3 for the whole file;
 * every test starts from resetTraits() + clearFaults(). The table: docs/internals/device-quirks.md.
 */
import { nameOfEntry, type WireActionEntry } from '../../src/application/screen/wireSummary.js';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { extractPng } from '../../src/infrastructure/adb/AdbDeviceGateway.js';
import { FOLDABLE_DISPLAYS, type VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { startHarness, type ToolAnswer } from '../e2e/support/harnessClient.js';
import { connectDevice, disconnectDevice, waitForDeviceState } from '../support/adbDevices.js';
import { describeWithAdb, type AdbResult, type PrivateAdbServer } from '../support/adbServer.js';
import type { RunningAppium } from '../support/appium.js';
import type { AttachedDevice } from '../support/deviceOnAdb.js';
import { sleep } from '../support/processes.js';
import { quirkProbes } from '../support/quirkProbes.js';
import { quirksScenario } from '../support/quirksScenario.js';
import { QUIRK_WARM_LEASE_S, startQuirkStack, type QuirkStack } from '../support/quirkStack.js';
import { ensureBuilt } from '../support/rawServer.js';
import { openRawSession } from '../support/rawSession.js';

/** The oracle's short lease of the session kept after an action without session_id. */
const WARM_LEASE_S = QUIRK_WARM_LEASE_S;

/** A flat entry: its selector keys beside the facts, read back with selectorOfEntry. */
type Entry = WireActionEntry;

type Finding = {
  issue: string;
  minimum_px?: number;
  refs?: string[];
  label?: string;
  selector?: Record<string, unknown>;
};

const nameOf = (entry: Entry): string => nameOfEntry(entry);

describeWithAdb('real-device quirks, in the virtual device and in the harness', () => {
  let stack: QuirkStack;
  let adb: PrivateAdbServer;
  let device: VirtualDevice;
  let attached: AttachedDevice;
  let serial: string;
  let appium: RunningAppium;
  let scratch: string;

  const probes = quirkProbes('quirks', () => stack);
  const { call, report, rawText, lastSeq } = probes;
  const harnessEnv = (extra: Record<string, string> = {}): Record<string, string> => stack.harnessEnv(extra);

  /** Raw adb against the device, as a user would type it. */
  const raw = (args: readonly string[], options?: { timeoutMs?: number; signal?: AbortSignal }): Promise<AdbResult> =>
    adb.adb(['-s', serial, ...args], options);
  /**
   * Waits until the session a harness kept after an action without session_id is gone (
   * its lease, then its close): until then its UiAutomator2 server holds UiAutomation, so a raw
   * dump fails as on a real device, and the device lock is that harness's.
   */
  const warmLeaseEnded = (): Promise<void> => probes.untilNoSession(WARM_LEASE_S * 1000 + 8_000);
  /** Command lines the device received since `since`, as `origin: line` (adb quotes exec-out arguments: unquoted here). */
  const deviceShellSince = (since: number): string[] =>
    device
      .log()
      .filter((e) => e.seq > since && e.kind === 'shell')
      .map((e) => e.detail.replace(/'([^' ]*)'/g, '$1'));

  /** The banner (shell_v2, device state) is read once per connection: reconnect after changing it. */
  async function reconnect(expectState = 'device'): Promise<void> {
    await disconnectDevice(adb, serial);
    attached.transport.dropConnections();
    if (expectState === 'device') {
      await connectDevice(adb, attached.port);
    } else {
      await adb.adb(['connect', serial], { timeoutMs: 10_000 });
      await waitForDeviceState(adb, serial, [expectState]);
    }
  }

  beforeAll(async () => {
    ensureBuilt();
    stack = await startQuirkStack({
      label: 'quirks',
      scenario: quirksScenario(),
      harness: { ANDROID_MCP_ACTION_TIMEOUT: '30' },
    });
    ({ adb, device, attached, serial, appium, scratch } = stack);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  afterEach(async () => {
    device.clearFaults();
    const wasLegacy = device.legacyPty();
    device.resetTraits();
    if (wasLegacy) await reconnect();
  });

  // --- 1. One UiAutomation at a time -------------------------------------------------------

  it('QUIRK-UIAUTOMATION-1: while the harness owns a flow, ui_get_tree without session_id reads through the flow (a dump would fail)', async () => {
    device.setScreen('settings_home');
    const opened = await call('ui_session_open');
    expect(opened.envelope.ok, JSON.stringify(opened.envelope.error)).toBe(true);
    const sessionId = String(opened.envelope.data.session_id);
    try {
      // Raw: the flow's UiAutomator2 instrumentation holds UiAutomation, so a dump is refused.
      expect(device.instrumentationRunning()).toBe(true);
      const dump = await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty']);
      expect(dump).toMatch(/UiAutomationService .*already registered/);
      expect(dump).not.toContain('<hierarchy');

      const since = lastSeq();
      const tree = await call('ui_get_tree');
      report('QUIRK-UIAUTOMATION-1 ui_get_tree during a flow', tree);
      expect(tree.envelope.ok, JSON.stringify(tree.envelope.error)).toBe(true);
      expect(tree.envelope.data.foreground_package).toBe('com.android.settings');
      // Read through the driver (GET /source), never with uiautomator dump; the flow survives.
      expect(deviceShellSince(since).filter((c) => c.includes('uiautomator dump'))).toEqual([]);
      expect(
        device.log().some((e) => e.seq > since && e.kind === 'uia2' && /GET \/session\/[^/]+\/source/.test(e.detail)),
      ).toBe(true);
      expect(device.instrumentationRunning()).toBe(true);
      expect((await call('ui_get_tree', { session_id: sessionId })).envelope.ok).toBe(true);
    } finally {
      expect((await call('ui_session_close', { session_id: sessionId })).envelope.ok).toBe(true);
    }
  }, 90_000);

  it('QUIRK-UIAUTOMATION-2: another automation client holds UiAutomation → UI_TREE_UNAVAILABLE naming the likely cause', async () => {
    device.setScreen('settings_home');
    // Someone else's tool (here: an instrumentation started by hand) registers UiAutomation.
    const other = new AbortController();
    const instrument = raw(
      ['shell', 'am', 'instrument', '-w', 'io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner'],
      {
        signal: other.signal,
        timeoutMs: 60_000,
      },
    );
    try {
      const deadline = Date.now() + 10_000;
      while (!device.instrumentationRunning() && Date.now() < deadline) await sleep(50);
      expect(device.instrumentationRunning()).toBe(true);
      expect(await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty'])).toMatch(
        /IllegalStateException: UiAutomationService .*already registered/,
      );

      const tree = await call('ui_get_tree');
      report('QUIRK-UIAUTOMATION-2 ui_get_tree while another client holds UiAutomation', tree);
      expect(tree.envelope.error?.code).toBe('UI_TREE_UNAVAILABLE');
      expect(tree.envelope.error?.message).toMatch(/another automation client holds UiAutomation/);
      expect(tree.envelope.error?.message).toMatch(/UiAutomator2\/Appium session or another testing tool/);
      // Real clock (the harness runs in its own process): refused on the first dump's error, not after a retry
      // loop or the 16 s ceiling; 5 s is that dump's round trip with room for a loaded 2-core runner.
      expect(tree.elapsedMs).toBeLessThan(5_000);
    } finally {
      other.abort();
      await instrument;
    }
    // Once the other client is gone, the device is dumpable again.
    const deadline = Date.now() + 5_000;
    while (device.instrumentationRunning() && Date.now() < deadline) await sleep(50);
    expect((await call('ui_get_tree')).envelope.ok).toBe(true);
  }, 60_000);

  it('QUIRK-UIAUTOMATION-3: a warm session leaves the device dumpable once its lease ends (instrumentation gone: ps and the device log)', async () => {
    device.setScreen('settings_home');
    const since = lastSeq();
    const tap = await call('ui_tap', { selector: { text: 'Apps' } });
    report('QUIRK-UIAUTOMATION-3 ui_tap (per-action session)', tap);
    expect(tap.envelope.ok, JSON.stringify(tap.envelope.error)).toBe(true);
    // Kept for the warm-session lease, then closed by the harness's timer.
    await warmLeaseEnded();
    const deadline = Date.now() + 5_000;
    let ps: string;
    for (;;) {
      ps = await rawText(['shell', 'ps', '-A']);
      if (!ps.includes('io.appium.uiautomator2.server') || Date.now() > deadline) break;
      await sleep(100);
    }
    expect(ps).toContain('system_server');
    expect(ps).not.toContain('io.appium.uiautomator2.server');
    const lifecycle = deviceShellSince(since).filter((c) =>
      /am instrument: io\.appium\.uiautomator2\.server (started|ended)/.test(c),
    );
    expect(lifecycle).toHaveLength(2);
    expect(lifecycle[1]).toMatch(/ended .*UiAutomation released/);
    expect(await appium.sessionIds()).toEqual([]);
    // Raw dump and the harness's tree both work right after.
    expect(await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty'])).toContain('</hierarchy>');
    const tree = await call('ui_get_tree');
    expect(tree.envelope.ok, JSON.stringify(tree.envelope.error)).toBe(true);
    expect(device.currentScreen().screenId).toBe('settings_apps');
  }, 90_000);

  // --- 2. Dump output as devices print it ---------------------------------------------------

  it('QUIRK-DUMP-1: the XML is followed by "UI hierchary dumped to: /dev/tty" on the same stream; the harness keeps only the hierarchy', async () => {
    device.setScreen('settings_home');
    const dump = await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty']);
    expect(dump).toMatch(/<\/hierarchy>UI hierchary dumped to: \/dev\/tty\n$/);
    // The raw XML comes in parts within the answer budget: read them all.
    const parts: string[] = [];
    let offset: number | undefined;
    for (let guard = 0; guard < 50; guard += 1) {
      const tree = await call(
        'ui_get_tree',
        offset === undefined ? { include_raw: true } : { include_raw: true, raw_offset: offset },
      );
      expect(tree.envelope.ok).toBe(true);
      parts.push(String(tree.envelope.data.ui_tree));
      offset = (tree.envelope.data.raw_truncated as { next_offset?: number } | undefined)?.next_offset;
      if (offset === undefined) break;
    }
    const xml = parts.join('');
    expect(xml.startsWith('<?xml')).toBe(true);
    expect(xml.endsWith('</hierarchy>')).toBe(true);
    expect(xml).not.toContain('hierchary');
  });

  it('QUIRK-DUMP-2: "null root node" is transient: retried within the budget (ok after 2 failures), exhausted → UI_TREE_UNAVAILABLE', async () => {
    device.setScreen('settings_home');
    device.injectFault({ kind: 'null-root', times: 3 });
    expect(await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty'])).toBe(
      'ERROR: null root node returned by UiTestAutomationBridge.\n',
    );
    // Two failures left: the harness's third attempt succeeds.
    let since = lastSeq();
    const recovered = await call('ui_get_tree');
    report('QUIRK-DUMP-2 two null roots, then a hierarchy', recovered);
    expect(recovered.envelope.ok, JSON.stringify(recovered.envelope.error)).toBe(true);
    expect(deviceShellSince(since).filter((c) => c.startsWith('exec: uiautomator dump'))).toHaveLength(3);

    device.injectFault({ kind: 'null-root', times: 10 });
    since = lastSeq();
    const exhausted = await call('ui_get_tree');
    report('QUIRK-DUMP-2 null root every time', exhausted);
    expect(exhausted.envelope.error?.code).toBe('UI_TREE_UNAVAILABLE');
    expect(exhausted.envelope.error?.message).toMatch(
      /no UI hierarchy after 3 attempts .*Wait a moment and call ui_get_tree again/,
    );
    expect(deviceShellSince(since).filter((c) => c.startsWith('exec: uiautomator dump'))).toHaveLength(3);
  });

  // QUIRK-DUMP-3 ("could not get idle state", after the dump's real 10 s wait for idle) lives in
  // quirksIdle.test.ts, whose harness keeps no session that could hold UiAutomation meanwhile.

  // --- 3. Line endings and PTYs ---------------------------------------------------------------

  it('QUIRK-PTY-1: a device without shell_v2 answers `shell` with \\r\\n; every harness tool still works (exec-out stays binary-clean)', async () => {
    device.setScreen('settings_home');
    device.setLegacyPty(true);
    await reconnect();
    const features = await rawText(['features']);
    expect(features).not.toContain('shell_v2');
    expect((await raw(['shell', 'getprop', 'ro.build.version.release'])).stdout.toString('utf8')).toBe('14\r\n');
    expect((await raw(['shell', 'wm', 'density'])).stdout.toString('utf8')).toBe('Physical density: 420\r\n');
    expect((await raw(['shell', 'pm', 'list', 'packages'])).stdout.toString('utf8')).toContain(
      'package:com.example.notes\r\n',
    );
    expect((await raw(['shell', 'dumpsys', 'window'])).stdout.toString('utf8')).toMatch(
      /type=ime frame=\[0,1517\]\[1080,2400\] visible=false flags=\r\n/,
    );
    const resolve = (
      await raw([
        'shell',
        'cmd',
        'package',
        'resolve-activity',
        '--brief',
        '-a',
        'android.intent.action.MAIN',
        '-c',
        'android.intent.category.LAUNCHER',
        'com.example.notes',
      ])
    ).stdout.toString('utf8');
    expect(resolve).toMatch(/\r\ncom\.example\.notes\/\.MainActivity\r\n$/);
    const shot = (await raw(['exec-out', 'screencap', '-p'])).stdout;
    expect(extractPng(shot)).toBe(shot);
    expect(() => PNG.sync.read(shot)).not.toThrow();

    const status = await call('emulator_get_status');
    report('QUIRK-PTY-1 emulator_get_status', status);
    expect(status.envelope.ok, JSON.stringify(status.envelope.error)).toBe(true);
    expect(status.envelope.data).toMatchObject({ android_version: '14', model: 'Virtual Pixel 7' });

    const apps = await call('app_list_installed');
    expect(apps.envelope.ok).toBe(true);
    const packages = apps.envelope.data.packages as string[];
    expect(packages).toContain('com.example.notes');
    expect(packages.some((p) => /\s/.test(p))).toBe(false);

    device.setScreen('quirks_form');
    const tree = await call('ui_get_tree');
    expect(tree.envelope.ok, JSON.stringify(tree.envelope.error)).toBe(true);
    expect(tree.envelope.data).toMatchObject({
      foreground_package: 'com.example.quirks',
      keyboard: { open: true, top: 1517 },
      screen: { width: 1080, height: 2400 },
    });

    const open = await call('app_open', { package_name: 'com.example.notes' });
    report('QUIRK-PTY-1 app_open', open);
    expect(open.envelope).toMatchObject({
      ok: true,
      data: { opened_package: 'com.example.notes', foreground_package: 'com.example.notes' },
    });
    const capture = await call('screen_capture');
    expect(capture.envelope).toMatchObject({ ok: true, data: { captured: true, width: 1080, height: 2400 } });
  }, 60_000);

  // --- 4. Keyboard reports across Android versions ------------------------------------------------

  const layouts: Record<number, { present: RegExp; absent: RegExp }> = {
    28: {
      present:
        /Window #0 Window\{e3f0c12 u0 InputMethod\}:[\s\S]*mGivenVisibleInsets=\[0,126\]\[0,0\][\s\S]*mFrame=\[0,1391\]\[1080,2400\][\s\S]*isVisible=true/,
      absent: /InsetsSource/,
    },
    30: {
      present: /InsetsSource type=ITYPE_IME frame=\[0,1517\]\[1080,2400\] visible=true\n/,
      absent: /visibleFrame|type=ime /,
    },
    33: {
      present:
        /InsetsSource type=ITYPE_IME frame=\[0,1517\]\[1080,2400\] visibleFrame=\[0,1517\]\[1080,2400\] visible=true\n/,
      absent: /type=ime /,
    },
    34: {
      present: /InsetsSource id=3 type=ime frame=\[0,1517\]\[1080,2400\] visible=true flags=/,
      absent: /ITYPE_IME/,
    },
  };

  it.each([28, 30, 33, 34])(
    'QUIRK-KEYBOARD-API%i: dumpsys window in that version’s layout → keyboard {open, top} and covered_by_keyboard',
    async (sdk) => {
      device.setSdk(sdk);
      device.setScreen('quirks_form');
      const layout = layouts[sdk] as { present: RegExp; absent: RegExp };
      const window = await rawText(['shell', 'dumpsys', 'window']);
      expect(window).toMatch(layout.present);
      expect(window).not.toMatch(layout.absent);

      const tree = await call('ui_get_tree');
      report(`QUIRK-KEYBOARD-API${sdk} ui_get_tree`, tree);
      expect(tree.envelope.ok, JSON.stringify(tree.envelope.error)).toBe(true);
      expect(tree.envelope.data.keyboard).toEqual({ open: true, top: 1517 });
      const actions = tree.envelope.data.actions as Entry[];
      const send = actions.find((a) => nameOf(a) === 'Send');
      const attach = actions.find((a) => nameOf(a) === 'Attach');
      expect(send?.covered_by_keyboard).toBe(true);
      expect(attach).toBeDefined();
      expect(attach?.covered_by_keyboard).toBeUndefined();

      // BACK hides the IME: the same layout now says so, and nothing is covered.
      await raw(['shell', 'input', 'keyevent', 'KEYCODE_BACK']);
      const hidden = await rawText(['shell', 'dumpsys', 'window']);
      expect(hidden).toMatch(
        sdk === 28
          ? /mHasSurface=false[\s\S]*isVisible=false/
          : /type=(ime|ITYPE_IME) frame=\[0,1517\]\[1080,2400\].* visible=false/,
      );
      const closed = await call('ui_get_tree');
      expect(closed.envelope.ok).toBe(true);
      expect((closed.envelope.data.keyboard as { open?: boolean } | undefined)?.open ?? false).toBe(false);
      expect((closed.envelope.data.actions as Entry[]).some((a) => a.covered_by_keyboard)).toBe(false);
    },
  );

  // --- 5. Density overrides ---------------------------------------------------------------------

  it('QUIRK-DENSITY-1: `Override density: 480` wins over `Physical density: 420` in the layout audit (minimum 144 px)', async () => {
    device.setScreen('quirks_form');
    expect(await rawText(['shell', 'wm', 'density'])).toBe('Physical density: 420\n');
    const physical = await call('ui_get_tree');
    expect(physical.envelope.ok).toBe(true);
    const small = (data: Record<string, unknown>): Finding[] =>
      ((data.layout_findings as Finding[] | undefined) ?? []).filter((f) => f.issue === 'touch_target_too_small');
    // 130 x 130 px is 49.5 dp at 420 dpi: no finding.
    expect(small(physical.envelope.data)).toEqual([]);

    device.setDensityOverride(480);
    expect(await rawText(['shell', 'wm', 'density'])).toBe('Physical density: 420\nOverride density: 480\n');
    // The window dump says the same (DisplayContent.dump's `base=`): the harness reads the density there.
    expect(await rawText(['shell', 'dumpsys', 'window'])).toMatch(/ init=1080x2400 420dpi base=1080x2400 480dpi cur=/);
    const overridden = await call('ui_get_tree');
    report('QUIRK-DENSITY-1 ui_get_tree at 480 dpi', overridden);
    const findings = small(overridden.envelope.data);
    expect(findings).toHaveLength(1);
    const finding = findings[0] as Finding;
    expect(finding.minimum_px).toBe(144);
    const actions = overridden.envelope.data.actions as Entry[];
    // A grouped finding names its actions by ref; one past the 120 cut names itself.
    const named = finding.refs
      ? finding.refs.map((ref) => nameOf(actions.find((a) => a.ref === ref) as Entry))
      : [finding.label ?? ''];
    expect(named).toEqual(['Attach']);
  });

  // --- 6. Several displays ------------------------------------------------------------------------

  it('QUIRK-DISPLAYS-1: screencap without -d warns and takes the first (off) panel; the harness captures the display that is on', async () => {
    device.setScreen('settings_home');
    device.setDisplays(FOLDABLE_DISPLAYS);
    const rawShot = (await raw(['exec-out', 'screencap', '-p'])).stdout;
    const head = rawShot.subarray(0, 400).toString('latin1');
    expect(
      head.startsWith(
        '[Warning] Multiple displays were found, but no display id was specified! Defaulting to the first display found',
      ),
    ).toBe(true);
    expect(head).toContain('See "dumpsys SurfaceFlinger --display-id" for valid display IDs.\n');
    // Through the real adb, the warning is cut and the PNG after it is intact: here the outer panel, off, all black.
    const cut = extractPng(rawShot);
    expect(cut).not.toBeNull();
    const outer = PNG.sync.read(cut as Buffer);
    expect([outer.width, outer.height]).toEqual([1080, 2092]);
    expect(new Set(outer.data.subarray(0, 4000)).size).toBeLessThanOrEqual(2);
    expect(await rawText(['shell', 'dumpsys', 'display'])).toMatch(
      /uniqueId="local:4619827551948147201", 1080 x 2400,.* state ON,/,
    );

    const since = lastSeq();
    const capture = await call('screen_capture');
    report('QUIRK-DISPLAYS-1 screen_capture on a foldable', capture);
    expect(capture.envelope).toMatchObject({ ok: true, data: { captured: true, width: 1080, height: 2400 } });
    const commands = deviceShellSince(since);
    expect(commands).toEqual([
      'exec: screencap',
      'shell_v2: dumpsys display',
      'exec: screencap -d 4619827551948147201',
    ]);
    const file = readFileSync(join(scratch, 'artifacts', String(capture.envelope.evidence?.artifact_id)));
    const inner = PNG.sync.read(file);
    expect([inner.width, inner.height]).toEqual([1080, 2400]);
    expect(new Set(inner.data).size).toBeGreaterThan(2);
  });

  // --- 7. Device states ------------------------------------------------------------------------------

  it.each([
    [
      'unauthorized',
      /unauthorized: accept the "Allow USB debugging" prompt|unauthorized: unlock it and accept the "Allow USB debugging" prompt/,
    ],
    ['recovery', /in recovery(\/bootloader)? mode, not running Android\. Reboot it normally/],
  ] as const)(
    'QUIRK-STATE-%s: `adb devices` lists the device as such → EMULATOR_UNAVAILABLE with the fitting remedy',
    async (state, remedy) => {
      device.setConnectionState(state);
      try {
        await reconnect(state);
        expect((await adb.adb(['devices'])).stdout.toString('utf8')).toContain(`${serial}\t${state}`);
        const status = await call('emulator_get_status');
        report(`QUIRK-STATE-${state} emulator_get_status`, status);
        expect(status.envelope.error?.code).toBe('EMULATOR_UNAVAILABLE');
        expect(status.envelope.error?.message).toMatch(remedy);
      } finally {
        device.setConnectionState('device');
        await reconnect();
      }
    },
    60_000,
  );

  it('QUIRK-STATE-offline: a device that stops answering is listed offline → EMULATOR_UNAVAILABLE "restart adb"', async () => {
    device.injectFault({ kind: 'offline' });
    try {
      const seen = await waitForDeviceState(adb, serial, ['offline', 'absent']);
      const status = await call('emulator_get_status');
      report(`QUIRK-STATE-offline (${seen}) emulator_get_status`, status);
      expect(status.envelope.error?.code).toBe('EMULATOR_UNAVAILABLE');
      expect(status.envelope.error?.message).toMatch(
        seen === 'offline'
          ? /is offline\. Restart adb \(`adb kill-server && adb start-server`\)/
          : /No device .* is connected to adb/,
      );
    } finally {
      device.clearFaults();
      await reconnect();
    }
    expect((await call('emulator_get_status')).envelope.ok).toBe(true);
  }, 60_000);

  /** A fake adb (USB-only states and a foreign adb server cannot be made with a TCP device). */
  function fakeAdb(name: string, script: string): Record<string, string> {
    const sdk = join(scratch, name);
    mkdirSync(join(sdk, 'platform-tools'), { recursive: true });
    const path = join(sdk, 'platform-tools', 'adb');
    writeFileSync(path, `#!/bin/sh\n${script}\n`);
    chmodSync(path, 0o755);
    return {
      ANDROID_HOME: sdk,
      ANDROID_UDID: 'emulator-5554',
      ANDROID_MCP_ALLOW_SERIALS: '',
      FAKE_LOG: join(sdk, 'calls.log'),
    };
  }

  it('QUIRK-STATE-no-permissions (USB only, fake adb): EMULATOR_UNAVAILABLE "fix the udev rules"', async () => {
    const env = fakeAdb(
      'no-permissions',
      `echo "$*" >> "$FAKE_LOG"
case "$*" in
  devices*) printf 'List of devices attached\\nemulator-5554\\tno permissions (user in plugdev group; are your udev rules wrong?); see [http://developer.android.com/tools/device.html]\\n'; exit 0;;
esac
echo "error: insufficient permissions for device: user in plugdev group; are your udev rules wrong?" >&2
echo "See [http://developer.android.com/tools/device.html] for more information" >&2
exit 1`,
    );
    const listing = execFileSync(join(env.ANDROID_HOME as string, 'platform-tools', 'adb'), ['devices'], {
      env: { ...process.env, ...env },
    }).toString();
    expect(listing).toContain('emulator-5554\tno permissions');
    const other = await startHarness(harnessEnv(env));
    try {
      const status = await other.call('emulator_get_status');
      report('QUIRK-STATE-no-permissions emulator_get_status', status);
      expect(status.envelope.error?.code).toBe('EMULATOR_UNAVAILABLE');
      expect(status.envelope.error?.message).toMatch(/no permission to open emulator-5554: fix the udev rules/);
    } finally {
      await other.close();
    }
  }, 30_000);

  it('QUIRK-ADB-VERSION-1 (fake adb): a server of another version answers with a restart message first → retried once, then ok', async () => {
    const env = fakeAdb(
      'version-mismatch',
      `echo "$*" >> "$FAKE_LOG"
marker="$FAKE_LOG.restarted"
if [ ! -e "$marker" ]; then
  touch "$marker"
  echo "adb server version (41) doesn't match this client (39); killing..." >&2
  echo "error: protocol fault (couldn't read status): Connection reset by peer" >&2
  exit 1
fi
case "$*" in
  *get-state) echo device;;
  *sys.boot_completed) echo 1;;
  *ro.build.version.release) echo 14;;
  *ro.product.model) echo Fake Pixel;;
  *) exit 1;;
esac`,
    );
    const other = await startHarness(harnessEnv(env));
    try {
      const status = await other.call('emulator_get_status');
      report('QUIRK-ADB-VERSION-1 emulator_get_status', status);
      expect(status.envelope, JSON.stringify(status.envelope.error)).toMatchObject({
        ok: true,
        data: { udid: 'emulator-5554', android_version: '14', model: 'Fake Pixel' },
      });
      const calls = readFileSync(env.FAKE_LOG as string, 'utf8')
        .trim()
        .split('\n');
      // get-state and sys.boot_completed run at once: whichever met the restart message ran once more, none more than that.
      const runs = new Map<string, number>();
      for (const call of calls) runs.set(call, (runs.get(call) ?? 0) + 1);
      expect(Math.max(...runs.values()), calls.join(' | ')).toBe(2);
      expect([...runs.keys()]).toEqual(
        expect.arrayContaining(['-s emulator-5554 get-state', '-s emulator-5554 shell getprop sys.boot_completed']),
      );
    } finally {
      await other.close();
    }
  }, 30_000);

  // --- 8. Slow boots and launches --------------------------------------------------------------------

  it('QUIRK-BOOT-1: get-state says `device` before sys.boot_completed is 1 → "still booting", then ready', async () => {
    device.setBooting(120_000);
    expect((await rawText(['get-state'])).trim()).toBe('device');
    expect(await rawText(['shell', 'getprop', 'sys.boot_completed'])).toBe('\n');
    const booting = await call('emulator_get_status');
    report('QUIRK-BOOT-1 emulator_get_status while booting', booting);
    expect(booting.envelope.error?.code).toBe('EMULATOR_UNAVAILABLE');
    expect(booting.envelope.error?.message).toMatch(
      /still booting \(sys\.boot_completed is not 1\)\. Wait until the home screen is shown, then retry/,
    );
    device.resetTraits();
    expect((await rawText(['shell', 'getprop', 'sys.boot_completed'])).trim()).toBe('1');
    expect((await call('emulator_get_status')).envelope.ok).toBe(true);
  });

  it('QUIRK-LAUNCH-1: a cold start whose window stays empty for 3 s: app_open’s 6 s poll waits for it', async () => {
    device.setLaunchDelay(3_000);
    // Raw: am start -W returns at once; focus is nobody's yet and the dump still shows the launcher.
    device.setScreen('launcher');
    expect(await rawText(['shell', 'am', 'start', '-W', '-n', 'com.example.notes/.MainActivity'])).toContain(
      'Status: ok',
    );
    expect(await rawText(['shell', 'dumpsys', 'window'])).toMatch(
      /mCurrentFocus=null\n\s+mFocusedApp=ActivityRecord\{[^}]* u0 com\.example\.notes\/\.MainActivity/,
    );
    const early = await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty']);
    expect(early).toContain('package="com.google.android.apps.nexuslauncher"');
    expect(early).not.toContain('package="com.example.notes"');

    device.setScreen('launcher');
    const open = await call('app_open', { package_name: 'com.example.notes' });
    report('QUIRK-LAUNCH-1 app_open, 3 s launch', open);
    expect(open.envelope).toMatchObject({
      ok: true,
      data: { opened_package: 'com.example.notes', foreground_package: 'com.example.notes' },
    });
    expect(open.elapsedMs).toBeGreaterThanOrEqual(2_900);
    // Real clock (harness and device in their own processes): answered once the 3 s launch shows content,
    // not at the 6 s give-up; the 3 s between them is the margin for a loaded runner.
    expect(open.elapsedMs).toBeLessThan(6_000);
  }, 30_000);

  it('QUIRK-LAUNCH-2: a window still empty after 8 s → APP_NOT_FOUND saying the app has focus but no content yet', async () => {
    device.setLaunchDelay(8_000);
    device.setScreen('launcher');
    const open = await call('app_open', { package_name: 'com.example.notes' });
    report('QUIRK-LAUNCH-2 app_open, 8 s launch', open);
    expect(open.envelope.error?.code).toBe('APP_NOT_FOUND');
    expect(open.envelope.error?.message).toMatch(
      /com\.example\.notes was started and has focus, but its window still showed no content after 6 s/,
    );
    expect(open.envelope.evidence?.artifact_id).toMatch(/-failure-app-open\.png$/);
    expect(open.elapsedMs).toBeGreaterThanOrEqual(5_500);
    // Real clock: it gives up at its own 6 s, before the 8 s launch would have shown content; 9 s leaves 3 s
    // for the failure screenshot and a loaded runner, and still tells a wait for the launch apart.
    expect(open.elapsedMs).toBeLessThan(9_000);
  }, 30_000);

  // --- 9. A past ANR is printed first -------------------------------------------------------

  it('QUIRK-ANR-1: after an ANR, dumpsys window starts with its frozen state; ui_get_tree, app_open and the acting tools read the live one', async () => {
    // The ANR happens on the form (keyboard open, another package, landscape); then the user moves on.
    device.setScreen('quirks_form');
    device.recordAnr({ landscape: true });
    device.setScreen('settings_home');
    const window = await rawText(['shell', 'dumpsys', 'window']);
    expect(window.startsWith('\nWINDOW MANAGER LAST ANR (dumpsys window lastanr)\n  ANR time: ')).toBe(true);
    const frozen = window.slice(0, window.indexOf('WINDOW MANAGER POLICY STATE'));
    expect(frozen).toMatch(/Application at fault: ActivityRecord\{\S+ u0 com\.example\.quirks\/\.FormActivity t\d+\}/);
    expect(frozen).toMatch(/Last ANR continued\nWINDOW MANAGER DISPLAY CONTENTS \(dumpsys window displays\)\n/);
    expect(frozen).toContain('cur=2400x1080');
    expect(frozen).toMatch(/InsetsSource id=3 type=ime frame=\[0,456\]\[2400,1080\] visible=true/);
    // The first mCurrentFocus of the output is the frozen one; the live one comes after.
    expect(/mCurrentFocus=Window\{\S+ u0 ([^/]+)\//.exec(window)?.[1]).toBe('com.example.quirks');
    expect(window.slice(frozen.length)).toMatch(/mCurrentFocus=Window\{\S+ u0 com\.android\.settings\//);

    const status = await call('emulator_get_status');
    expect(status.envelope.ok, JSON.stringify(status.envelope.error)).toBe(true);
    const tree = await call('ui_get_tree');
    report('QUIRK-ANR-1 ui_get_tree with a past ANR', tree);
    expect(tree.envelope.ok, JSON.stringify(tree.envelope.error)).toBe(true);
    expect(tree.envelope.data).toMatchObject({
      foreground_package: 'com.android.settings',
      screen: { width: 1080, height: 2400 },
    });
    expect((tree.envelope.data.keyboard as { open?: boolean } | undefined)?.open ?? false).toBe(false);
    expect((tree.envelope.data.actions as Entry[]).some((a) => a.covered_by_keyboard)).toBe(false);

    // app_open's check reads the live focus (the frozen one would keep saying com.example.quirks for 6 s).
    const open = await call('app_open', { package_name: 'com.example.notes' });
    report('QUIRK-ANR-1 app_open with a past ANR', open);
    expect(open.envelope, JSON.stringify(open.envelope.error)).toMatchObject({
      ok: true,
      data: { opened_package: 'com.example.notes', foreground_package: 'com.example.notes' },
    });

    // The other way round: no keyboard at the time of the ANR, the keyboard open now.
    device.clearAnr();
    device.setScreen('settings_home');
    device.recordAnr();
    device.setScreen('quirks_form');
    expect(await rawText(['shell', 'dumpsys', 'window'])).toMatch(
      /Last ANR continued[\s\S]*type=ime frame=\[0,1517\]\[1080,2400\] visible=false[\s\S]*WINDOW MANAGER POLICY STATE[\s\S]*type=ime frame=\[0,1517\]\[1080,2400\] visible=true/,
    );
    const typing = await call('ui_get_tree');
    expect(typing.envelope.ok, JSON.stringify(typing.envelope.error)).toBe(true);
    expect(typing.envelope.data).toMatchObject({
      foreground_package: 'com.example.quirks',
      keyboard: { open: true, top: 1517 },
    });
    expect((typing.envelope.data.actions as Entry[]).find((a) => nameOf(a) === 'Send')?.covered_by_keyboard).toBe(true);
    const scrolled = await call('ui_scroll', { direction: 'up' });
    expect(scrolled.envelope.data).toMatchObject({ foreground_package: 'com.example.quirks' });
  }, 60_000);

  // --- 10. Back is not synchronous -------------------------------------------------------------

  /** The focused window's package (or null) and the focused app's, from the live display contents. */
  const liveFocus = (text: string): { window: string | null; app: string | null } => {
    const live = text.slice(text.indexOf('WINDOW MANAGER DISPLAY CONTENTS'));
    const window = /mCurrentFocus=(?:null|Window\{\S+ u0 ([^/]+)\/)/.exec(live);
    return { window: window?.[1] ?? null, app: /mFocusedApp=ActivityRecord\{\S+ u0 ([^/]+)\//.exec(live)?.[1] ?? null };
  };

  it('QUIRK-BACK-1: after Back the window focus lags (old window, then none); device_back reports the package Back returned to', async () => {
    const launcher = 'com.google.android.apps.nexuslauncher';
    // Raw: the key returns at once, and for a while no window has focus while the launcher is already the focused app.
    device.setBackFocusLag({ staleMs: 0, noFocusMs: 3_000 });
    device.setScreen('settings_apps');
    await raw(['shell', 'input', 'keyevent', 'KEYCODE_BACK']);
    expect(device.currentScreen().package).toBe(launcher);
    expect(liveFocus(await rawText(['shell', 'dumpsys', 'window']))).toEqual({ window: null, app: launcher });

    // Through the real Appium, in a flow (the read follows the key at once, as it does on a phone).
    device.setBackFocusLag({ staleMs: 120, noFocusMs: 600 });
    device.setScreen('settings_apps');
    const opened = await call('ui_session_open');
    expect(opened.envelope.ok, JSON.stringify(opened.envelope.error)).toBe(true);
    const sessionId = String(opened.envelope.data.session_id);
    try {
      const since = lastSeq();
      const back = await call('device_back', { session_id: sessionId });
      report('QUIRK-BACK-1 device_back with the focus lagging', back);
      expect(back.envelope.ok, JSON.stringify(back.envelope.error)).toBe(true);
      expect(back.envelope.data).toEqual({
        back_to_package: launcher,
        foreground_package: launcher,
        after: expect.objectContaining({ read: expect.stringMatching(/^r/) as unknown }) as unknown,
      });
      const entries = device.log().filter((e) => e.seq > since);
      expect(
        entries.filter((e) => e.kind === 'uia2' && /^POST \/session\/[^/]+\/back -> 200$/.test(e.detail)),
      ).toHaveLength(1);
      // The harness read the package in front before the key, then the window state after it.
      const reads = entries.filter((e) => e.kind === 'shell' && e.detail.endsWith('dumpsys window'));
      expect(reads.length).toBeGreaterThanOrEqual(2);
      expect(device.currentScreen().package).toBe(launcher);
    } finally {
      expect((await call('ui_session_close', { session_id: sessionId })).envelope.ok).toBe(true);
    }
  }, 90_000);

  // --- text fields as real devices report them --------------------------------

  /** The raw page source through the real Appium, in a session of its own (closed before returning). */
  async function rawPageSource(): Promise<string> {
    const driver = await openRawSession({ appiumPort: Number(new URL(appium.url).port), serial, adbPort: adb.port });
    try {
      return await driver.getPageSource();
    } finally {
      await driver.deleteSession().catch(() => undefined);
    }
  }

  type FieldEntry = Entry & { readonly role?: string; readonly empty?: true; readonly disambiguated?: true };
  const inputs = (answer: ToolAnswer): FieldEntry[] =>
    (answer.envelope.data.actions as FieldEntry[]).filter((a) => a.role === 'input');
  const HOLDER = { input_hint: 'Name', within: { content_desc: 'Account holder' } };
  const CONTACT = { input_hint: 'Name', within: { content_desc: 'Emergency contact' } };

  it('QUIRK-HINT-1: an empty field reports its hint as its text; the harness says it is empty and offers a selector that still finds it after typing', async () => {
    await warmLeaseEnded();
    device.setScreen('settings_add_account');
    // Raw, through the real adb: every empty field's text is its hint.
    const dump = await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty']);
    expect(dump.match(/text="Name" resource-id="" class="android\.widget\.EditText"[^>]*hint="Name"/g)).toHaveLength(2);
    expect(dump).toMatch(/text="Email" resource-id="com\.android\.settings:id\/account_email"/);
    // Raw, through the real Appium: the same, and UiAutomator2 says showing-hint.
    expect(await rawPageSource()).toMatch(/text="Email"[^>]*hint="Email"[^>]*showing-hint="true"/);

    const before = await call('ui_get_tree');
    report('QUIRK-HINT-1 ui_get_tree, empty form', before);
    expect(inputs(before)).toEqual([
      expect.objectContaining({ ...HOLDER, empty: true, disambiguated: true }),
      expect.objectContaining({ ...CONTACT, empty: true, disambiguated: true }),
      expect.objectContaining({ id: 'account_email', label: 'Email', empty: true }),
      expect.objectContaining({ input_hint: 'Password', empty: true }),
    ]);
    // Never the text that is only the hint.
    expect(JSON.stringify(before.envelope.data.actions)).not.toMatch(/"text":"(Name|Email|Password)"/);

    const typed = await call('ui_type_text', { selector: HOLDER, text: 'Ada' });
    report('QUIRK-HINT-1 ui_type_text into the account holder', typed);
    expect(typed.envelope.ok, JSON.stringify(typed.envelope.error)).toBe(true);
    await warmLeaseEnded();
    // Raw: the text is what was typed now, and the hint attribute stayed.
    expect(await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty'])).toMatch(
      /text="Ada" resource-id="" class="android\.widget\.EditText"[^>]*hint="Name"/,
    );

    const after = await call('ui_get_tree');
    const [holder, contact] = inputs(after);
    expect(holder).toMatchObject({ ...HOLDER, label: 'Ada' });
    expect(holder).not.toHaveProperty('empty');
    expect(contact).toMatchObject({ ...CONTACT, empty: true });
    // The same selector still finds the field through the real Appium (by its hint attribute).
    const since = lastSeq();
    const tap = await call('ui_tap', { selector: HOLDER });
    report('QUIRK-HINT-1 ui_tap after typing', tap);
    expect(tap.envelope.ok, JSON.stringify(tap.envelope.error)).toBe(true);
    expect(tap.envelope.data.element_label).toBe('Ada');
    const clicks = device.log().filter((e) => e.seq > since && e.kind === 'click');
    expect(clicks.map((c) => c.detail).join('\n')).toMatch(/element=holder_name/);
  }, 90_000);

  it('QUIRK-PASSWORD-1: a password field reports bullets (plain text on some views); the harness never repeats either, in the summary, the raw XML, messages or logs', async () => {
    const SECRET = 'hunter2-secret';
    const BULLETS = '\u2022'.repeat(SECRET.length);
    // The main harness's warm session would hold the device lock for it.
    await warmLeaseEnded();
    // A harness of its own at debug level: not even its debug lines may carry the secret.
    const loud = await startHarness(harnessEnv({ ANDROID_MCP_LOG_LEVEL: 'debug', ANDROID_MCP_ACTION_TIMEOUT: '30' }));
    try {
      const ask = (tool: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> => loud.call(tool, args);
      device.setScreen('settings_add_account');
      const typed = await ask('ui_type_text', { selector: { input_hint: 'Password' }, text: SECRET });
      report('QUIRK-PASSWORD-1 ui_type_text into the password field', typed);
      expect(typed.envelope.ok, JSON.stringify(typed.envelope.error)).toBe(true);
      await warmLeaseEnded();
      // Raw, stock behaviour: one bullet per character.
      expect(await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty'])).toContain(`text="${BULLETS}"`);
      // The worst case: a view that exposes the plain text, through adb and through Appium.
      device.setPasswordText('plain');
      expect(await rawText(['exec-out', 'uiautomator', 'dump', '/dev/tty'])).toMatch(
        new RegExp(`text="${SECRET}" [^>]*password="true"`),
      );
      expect(await rawPageSource()).toContain(`text="${SECRET}"`);

      const answers: ToolAnswer[] = [];
      for (const args of [{}, { include_raw: true }]) {
        const tree = await ask('ui_get_tree', args);
        report(`QUIRK-PASSWORD-1 ui_get_tree ${JSON.stringify(args)}`, tree);
        expect(tree.envelope.ok, JSON.stringify(tree.envelope.error)).toBe(true);
        expect(inputs(tree).find((a) => a.input_hint === 'Password')).toEqual(
          expect.objectContaining({ input_hint: 'Password' }),
        );
        answers.push(tree);
      }
      const rawXml = String(answers[1]!.envelope.data.ui_tree);
      expect(rawXml).toMatch(/text="\[hidden password\]" [^>]*password="true"/);

      // Not found: the offers name the field by its hint.
      const missing = await ask('ui_tap', { selector: { text: 'Log in' } });
      report('QUIRK-PASSWORD-1 ui_tap not found', missing);
      expect(missing.envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
      expect(missing.envelope.error?.message).toContain("'Password' (input)");
      answers.push(missing);
      // The device shows the secret as text, yet a text selector never reaches a password field.
      const probe = await ask('ui_tap', { selector: { text_contains: 'hunter2' } });
      expect(probe.envelope.error?.code).toBe('UI_ELEMENT_NOT_FOUND');
      // A tap on the field names it by its hint, not by what it holds.
      const tap = await ask('ui_tap', { selector: { input_hint: 'Password' } });
      expect(tap.envelope.ok, JSON.stringify(tap.envelope.error)).toBe(true);
      expect(tap.envelope.data.element_label).toBe('Password');
      answers.push(tap);
      // Through a flow (the page source path) too.
      const opened = await ask('ui_session_open');
      const sessionId = String(opened.envelope.data.session_id);
      try {
        const viaFlow = await ask('ui_get_tree', { session_id: sessionId, include_raw: true });
        expect(viaFlow.envelope.ok, JSON.stringify(viaFlow.envelope.error)).toBe(true);
        expect(String(viaFlow.envelope.data.ui_tree)).toContain('showing-hint');
        answers.push(viaFlow);
      } finally {
        expect((await ask('ui_session_close', { session_id: sessionId })).envelope.ok).toBe(true);
      }

      for (const answer of answers) {
        expect(JSON.stringify(answer.envelope)).not.toContain(SECRET);
        expect(JSON.stringify(answer.envelope)).not.toContain(BULLETS);
      }
      const log = loud.stderr();
      expect(log).toContain('"level":20');
      expect(log).not.toContain(SECRET);
    } finally {
      await loud.close();
    }
  }, 120_000);
});

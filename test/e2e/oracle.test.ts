/**
 * The oracle of the contract, end to end: an MCP client over real stdio → `node dist/index.js`
 * → the real adb → a real Appium 3 + UiAutomator2 → the virtual device (default), or a real
 * emulator with ANDROID_MCP_E2E_TARGET=emulator. One test per row, named after it; each checks
 * the envelopes AND, on the virtual device, the device's own log (what really reached it).
 * Then the action ceiling for real (a hung click, ANDROID_MCP_ACTION_TIMEOUT=2).
 *
 * One private adb server, one device and one Appium for the whole file; the main harness
 * process is shared by the rows, a second one runs with a 2 s ceiling, and short-lived ones
 * carry refused configurations. docs/internals/verification.md explains each row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_DEFAULTS } from '../../src/config.js';
import { TOOL_NAMES } from '../../src/mcp/tools/index.js';
import type { DeviceLogEntry } from '../../packages/virtual-device/src/contracts.js';
import type { ClickRecord, VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { describeWithAdb } from '../support/adbServer.js';
import { sleep } from '../support/processes.js';
import { pixelsDiffer, readEvidence } from './support/evidence.js';
import { startHarness, type HarnessProcess, type ToolAnswer, type WireEnvelope } from './support/harnessClient.js';
import { ON_EMULATOR, formatLog, logWindow, startStack, type E2eStack, type LogWindow } from './support/stack.js';
import {
  boxOf,
  isReady,
  selectorOf,
  keyboardOpen,
  nameOf,
  pointInside,
  roleOf,
  shows,
  type WireAction,
  type WireSelector,
  type WireSummary,
} from './support/summary.js';
import { DEFAULT_TOOL_NAMES } from '../support/defaultTools.js';

/** Why a row is skipped against a real emulator (shown in the test name). */
const NEEDS_FAULTS = '[skipped on a real emulator: needs fault injection]';
const NEEDS_SCREEN = '[skipped on a real emulator: needs a scripted screen]';
const vdOnly = (reason: string): string => (ON_EMULATOR ? ` ${reason}` : '');

/** The package FLOW-APP-1 opens: the scenario's Notes app, or any launchable app on an emulator. */
const APP_PACKAGE = process.env.ANDROID_MCP_E2E_APP || (ON_EMULATOR ? 'com.android.settings' : 'com.example.notes');
const SETTINGS = 'com.android.settings';

/**
 * Shell commands the four observers may send (the closed adb list, read-only entries), as the device logs
 * them. The closed list grew by two read-only entries the observers use: `dumpsys power` (issue
 * 12, whether the screen is awake, in `emulator_get_status`) and `getprop` with no argument (issue
 * 15, the device's identity for its lock, read once per device). Both change nothing.
 */
const READ_ONLY_SHELL =
  /^(?:shell_v2|shell|exec): (?:getprop(?: '?(?:sys\.boot_completed|ro\.build\.version\.release|ro\.product\.model)'?)?|pm '?list'? '?packages'?|wm '?density'?|dumpsys '?(?:window|power)'?|uiautomator '?dump'? '?\/dev\/tty'?|screencap(?: '?-p'?)?)$/;

/** Every acting tool answers the screen it left (docs/reference/contract.md §2, "The screen after an action"): a read, whole or a diff. */
const AFTER: unknown = expect.objectContaining({ read: expect.stringMatching(/^r[0-9a-z]+$/) as unknown });

let stack: E2eStack;
let harness: HarnessProcess;
let shortCeiling: HarnessProcess | null = null;

function device(): VirtualDevice {
  if (!stack.device) throw new Error('this check needs the virtual device');
  return stack.device;
}

/** What the harness and the device said, for failure messages. */
function context(answer?: ToolAnswer, entries?: readonly DeviceLogEntry[]): string {
  const parts: string[] = [];
  if (answer) parts.push(`envelope: ${JSON.stringify(answer.envelope).slice(0, 1500)}`);
  if (entries) parts.push(`device log:\n${formatLog(entries).slice(-4000)}`);
  return parts.join('\n');
}

/** The short-ceiling harness's stderr, the device log and where Appium's log is, for a failure nobody can rerun at will. */
function diagnostics(short: HarnessProcess, window: LogWindow): string {
  return [
    `short-ceiling harness stderr (tail):\n${short.stderr().slice(-30_000)}`,
    `device log:\n${formatLog(window.since()).slice(-12_000)}`,
    `Appium log: ${stack.appium.logFile}`,
  ].join('\n');
}

function expectOk(answer: ToolAnswer, entries?: readonly DeviceLogEntry[]): WireEnvelope {
  expect(answer.envelope.ok, context(answer, entries)).toBe(true);
  return answer.envelope;
}

function expectError(answer: ToolAnswer, code: string): WireEnvelope {
  expect(answer.envelope.ok, context(answer)).toBe(false);
  expect(answer.envelope.error?.code, context(answer)).toBe(code);
  return answer.envelope;
}

/** With the bounds (include_bounds): the oracle checks each click against the rectangle the summary advertised. */
async function tree(h: HarnessProcess, args: Record<string, unknown> = {}): Promise<WireSummary> {
  const answer = await h.call('ui_get_tree', { include_bounds: true, ...args });
  return expectOk(answer).data as unknown as WireSummary;
}

/** The entry the summary offers for a label (the model's way to name a target: no coordinates). */
function offered(summary: WireSummary, label: string | RegExp): WireAction {
  const entry = summary.actions.find((a) => (typeof label === 'string' ? nameOf(a) === label : label.test(nameOf(a))));
  if (!entry) throw new Error(`the summary offers no ${String(label)}: ${summary.actions.map(nameOf).join(' | ')}`);
  return entry;
}

function inside(click: ClickRecord, entry: WireAction): boolean {
  return pointInside(click.x, click.y, entry);
}

/** Polls GET /appium/sessions until it equals `expected` (the harness closes abandoned sessions behind its answer). */
async function sessionsSettle(expected: readonly string[], timeoutMs = 10_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ids = await stack.appium.sessionIds();
    if (JSON.stringify([...ids].sort()) === JSON.stringify([...expected].sort()) || Date.now() > deadline) return ids;
    await sleep(250);
  }
}

/**
 * The lease of the session a harness keeps after an action without session_id (
 * ANDROID_MCP_WARM_SESSION_TIMEOUT, 30 s by default): short here, so a row can wait it out.
 */
const WARM_LEASE_S = 3;

/** Waits until Appium holds `expected` again: every warm session's lease has run out. */
async function warmLeasesEnded(expected: readonly string[] = []): Promise<void> {
  const left = await sessionsSettle(expected, (WARM_LEASE_S + 7) * 1000);
  expect(left, 'a kept per-action session outlived its lease').toEqual(expected);
}

/** The second harness: same stack, ANDROID_MCP_ACTION_TIMEOUT=2. */
async function shortCeilingHarness(): Promise<HarnessProcess> {
  // Debug level: an unexpected answer from this process is then explained by its own log (see diagnostics()).
  shortCeiling ??= await startHarness(
    stack.harnessEnv({
      ANDROID_MCP_ACTION_TIMEOUT: '2',
      ANDROID_MCP_LOG_LEVEL: 'debug',
      ANDROID_MCP_WARM_SESSION_TIMEOUT: String(WARM_LEASE_S),
    }),
  );
  return shortCeiling;
}

/** Brings Settings to its home screen: scripted on the virtual device, `app_open` on an emulator. */
async function settingsHome(): Promise<void> {
  if (stack.device) {
    stack.device.setScreen('settings_home');
    return;
  }
  expectOk(await harness.call('app_open', { package_name: SETTINGS }));
}

describeWithAdb(`oracle on the ${ON_EMULATOR ? 'real emulator' : 'virtual device'}`, () => {
  beforeAll(async () => {
    stack = await startStack({ label: 'oracle' });
    harness = await startHarness(stack.harnessEnv({ ANDROID_MCP_WARM_SESSION_TIMEOUT: String(WARM_LEASE_S) }));
  }, 120_000);

  afterAll(async () => {
    await shortCeiling?.close();
    await harness?.close();
    await stack?.stop();
  }, 60_000);

  it('CONTRACT-STDIO-1: a real MCP client over real stdio sees exactly the twelve names and gets a structured status', async () => {
    const listed = await harness.client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    for (const tool of listed.tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.title, tool.name).toBeTruthy();
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.outputSchema, tool.name).toBeTruthy();
      const observer = ['emulator_get_status', 'ui_get_tree', 'screen_capture', 'app_list_installed'].includes(
        tool.name,
      );
      expect(tool.annotations?.readOnlyHint ?? false, tool.name).toBe(observer);
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
    const status = expectOk(await harness.call('emulator_get_status'));
    expect(status.evidence).toBeNull();
    expect(status.data.udid).toBe(stack.serial);
    expect(status.data.android_version).toMatch(/^\d+(\.\d+)*$/);
    expect(typeof status.data.model).toBe('string');
    expect(status.data.appium_version).toMatch(/^3\./);
    if (stack.device) {
      expect(status.data.android_version).toBe('14');
      expect(status.data.model).toBe('Virtual Pixel 7');
    }
  });

  it('INV-OBS-1: observing changes nothing on screen and opens no Appium session', async () => {
    await settingsHome();
    const sessionsBefore = await stack.appium.sessionIds();
    const vd = stack.device;
    const before = vd
      ? { screen: vd.currentScreen(), xml: vd.dumpXml(), png: vd.screenshotPng(), ime: vd.imeVisible() }
      : null;
    const treeBefore = vd ? null : await tree(harness);
    const window = vd ? logWindow(vd) : null;

    const answers = [
      await harness.call('emulator_get_status'),
      await harness.call('ui_get_tree'),
      await harness.call('ui_get_tree', { include_raw: true }),
      await harness.call('screen_capture'),
      await harness.call('app_list_installed'),
    ];
    const entries = window?.since() ?? [];
    for (const answer of answers) expectOk(answer, entries);
    const raw = answers[2]?.envelope.data.ui_tree;
    expect(typeof raw === 'string' && raw.includes('<hierarchy')).toBe(true);
    expect(answers[1]?.envelope.data.ui_tree).toBeUndefined();
    // No rectangle in the answer unless asked for (include_bounds), on actions and scrollables alike.
    const plain = answers[1]!.envelope.data as unknown as WireSummary;
    expect(plain.actions.length).toBeGreaterThan(0);
    expect([...plain.actions, ...(plain.scrollables ?? [])].filter((e) => e.bounds !== undefined)).toEqual([]);
    readEvidence(stack.evidenceDir, answers[3]!.envelope, 'screen');
    const packages = answers[4]?.envelope.data.packages as string[];
    expect(packages).toContain(SETTINGS);
    expect([...packages].sort()).toEqual(packages);
    expect(answers[4]?.envelope.data.count).toBe(packages.length);

    expect(await stack.appium.sessionIds()).toEqual(sessionsBefore);
    if (vd && before && window) {
      // The device saw only the read-only adb list: no input, no click, no UIA2 request,
      // no instrumentation, no screen change, nothing installed or pushed.
      const log = formatLog(entries);
      expect(
        entries.filter((e) => ['click', 'input', 'uia2', 'screen', 'abb', 'sync', 'tcp'].includes(e.kind)),
        log,
      ).toEqual([]);
      const shells = entries.filter((e) => e.kind === 'shell');
      expect(shells.length, log).toBeGreaterThan(0);
      for (const entry of shells) expect(entry.detail, log).toMatch(READ_ONLY_SHELL);
      expect(log).not.toMatch(/am instrument|input |monkey/);
      expect(vd.currentScreen()).toEqual(before.screen);
      expect(vd.dumpXml()).toBe(before.xml);
      expect(vd.screenshotPng().equals(before.png)).toBe(true);
      expect(vd.imeVisible()).toBe(before.ime);
      expect(vd.uia2SessionCount()).toBe(0);
      expect(vd.instrumentationRunning()).toBe(false);
    } else {
      const treeAfter = await tree(harness);
      expect(treeAfter.foreground_package).toBe(treeBefore?.foreground_package);
      expect(treeAfter.actions.map(nameOf)).toEqual(treeBefore?.actions.map(nameOf));
    }

    // After an action without session_id its session is kept for the lease. Observing
    // meanwhile reads through it (no dump, which would break it), opens no session, changes nothing.
    expectOk(await harness.call('ui_tap', { selector: selectorOf(offered(await tree(harness), 'Apps')) }));
    const kept = await stack.appium.sessionIds();
    expect(kept).toHaveLength(sessionsBefore.length + 1);
    const keptScreen = vd ? { screen: vd.currentScreen(), xml: vd.dumpXml() } : null;
    const keptWindow = vd ? logWindow(vd) : null;
    const whileKept = [
      await harness.call('ui_get_tree'),
      await harness.call('screen_capture'),
      await harness.call('app_list_installed'),
    ];
    const keptEntries = keptWindow?.since() ?? [];
    for (const answer of whileKept) expectOk(answer, keptEntries);
    expect(await stack.appium.sessionIds()).toEqual(kept);
    if (vd && keptScreen) {
      const log = formatLog(keptEntries);
      expect(
        keptEntries.filter((e) => ['click', 'input', 'screen', 'abb', 'sync', 'tcp'].includes(e.kind)),
        log,
      ).toEqual([]);
      // The driver is only read (the page source), never asked to act.
      for (const entry of keptEntries.filter((e) => e.kind === 'uia2')) expect(entry.detail, log).toMatch(/^GET /);
      expect(log).not.toMatch(/uiautomator dump|am instrument|input |monkey/);
      expect(vd.currentScreen()).toEqual(keptScreen.screen);
      expect(vd.dumpXml()).toBe(keptScreen.xml);
    }
    // The lease ends by itself: no session is left, nothing holds UiAutomation.
    await warmLeasesEnded();
    if (vd) {
      expect(vd.uia2SessionCount()).toBe(0);
      expect(vd.instrumentationRunning()).toBe(false);
    }
  });

  it('INV-SAFE-1: a non-emulator serial or a non-loopback Appium is refused with a typed error; nothing reaches the device or Appium', async () => {
    const sessionsBefore = await stack.appium.sessionIds();
    const everyTool: [string, Record<string, unknown>][] = [
      ['emulator_get_status', {}],
      ['ui_get_tree', {}],
      ['screen_capture', {}],
      ['app_list_installed', {}],
      ['app_open', { package_name: SETTINGS }],
      ['ui_session_open', {}],
      ['ui_session_close', { session_id: 'a'.repeat(32) }],
      ['ui_tap', { selector: { text: 'Apps' } }],
      ['ui_type_text', { selector: { input_hint: 'Search' }, text: 'Battery' }],
      ['ui_scroll', { direction: 'down' }],
      ['device_back', {}],
      ['settings_open_apps', {}],
    ];
    // Every tool that reads Appium or changes the screen: app_open and settings_open_apps act
    // through adb, but an unsafe Appium configuration refuses every mutating tool. The three
    // observers that only read through adb are the rest of the default catalogue.
    const adbOnlyObservers = new Set(['ui_get_tree', 'screen_capture', 'app_list_installed']);
    const appiumTools = new Set(DEFAULT_TOOL_NAMES.filter((name) => !adbOnlyObservers.has(name)));
    // A serial that is not emulator-N and not opted in: on the virtual device it is the very
    // serial that works elsewhere in this file, so a leak would show in its log.
    const refusedSerial = ON_EMULATOR ? '127.0.0.1:5555' : stack.serial;
    // 0.0.0.0 and https on the test Appium's own port would reach it if the guard let them through.
    const appiumPort = stack.appium.port;
    const configurations: {
      name: string;
      env: Record<string, string>;
      tools: [string, Record<string, unknown>][];
      code: string;
    }[] = [
      {
        name: `serial ${refusedSerial} without opt-in`,
        env: { ANDROID_UDID: refusedSerial, ANDROID_MCP_ALLOW_SERIALS: '' },
        tools: everyTool,
        code: 'EMULATOR_UNAVAILABLE',
      },
      {
        name: 'physical-looking serial',
        env: { ANDROID_UDID: 'R58M41ABCDE', ANDROID_MCP_ALLOW_SERIALS: stack.device ? stack.serial : '' },
        tools: everyTool,
        code: 'EMULATOR_UNAVAILABLE',
      },
      ...[
        'http://192.0.2.10:4723',
        `http://0.0.0.0:${appiumPort}`,
        `https://127.0.0.1:${appiumPort}`,
        `http://127.0.0.1.nip.io:${appiumPort}`,
      ].map((url) => ({
        name: `Appium at ${url}`,
        env: { APPIUM_URL: url },
        tools: everyTool.filter(([tool]) => appiumTools.has(tool)),
        code: 'APPIUM_UNAVAILABLE',
      })),
    ];
    for (const configuration of configurations) {
      const refused = await startHarness(stack.harnessEnv(configuration.env));
      try {
        const window = stack.device ? logWindow(stack.device) : null;
        for (const [tool, args] of configuration.tools) {
          const answer = await refused.call(tool, args);
          expectError(answer, configuration.code);
          expect(answer.envelope.evidence, `${configuration.name}: ${tool}`).toBeNull();
          // Real clock (the harness is its own process): refused by the configuration check, before any adb call or
          // connect (192.0.2.10 would hang to the connect ceiling); 3 s is room for a loaded runner.
          expect(answer.elapsedMs, `${configuration.name}: ${tool} answered at once`).toBeLessThan(3000);
        }
        if (window) expect(formatLog(window.since()), `${configuration.name}: the device saw nothing`).toBe('');
      } finally {
        await refused.close();
      }
      expect(await stack.appium.sessionIds(), `${configuration.name}: Appium got no session`).toEqual(sessionsBefore);
    }
  });

  it('INV-CONC-1: two simultaneous operations never share the device: the second gets EMULATOR_BUSY', async () => {
    await warmLeasesEnded();
    await settingsHome();
    const vd = stack.device;
    if (!vd) {
      // Real device: both requests leave together; the first one holds the gate for the whole
      // uiautomator dump (seconds), the second is refused at once.
      const [first, second] = await Promise.all([harness.call('ui_get_tree'), harness.call('screen_capture')]);
      expectOk(first!);
      expectError(second!, 'EMULATOR_BUSY');
      // Real clock, relative only: refused while the first call's dump (seconds) held the gate; no fixed margin.
      expect(second!.elapsedMs).toBeLessThan(first!.elapsedMs);
      return;
    }
    // The first call's dump is held 1.5 s on the device; the others arrive while it runs.
    vd.injectFault({ kind: 'slow', delayMs: 1500, target: 'shell', match: 'uiautomator' });
    const window = logWindow(vd);
    try {
      // Not queued is an order, not a duration: each refusal arrives while the first call is still out.
      let firstAnswered = false;
      const first = harness.call('ui_get_tree').finally(() => (firstAnswered = true));
      await sleep(300);
      const whileFirstOut = (pending: Promise<ToolAnswer>): Promise<[ToolAnswer, boolean]> =>
        pending.then((answer) => [answer, !firstAnswered]);
      const answers = await Promise.all([
        whileFirstOut(harness.call('screen_capture')),
        whileFirstOut(harness.call('ui_tap', { selector: { text: 'Apps' } })),
        whileFirstOut(harness.call('ui_session_open')),
      ]);
      const firstAnswer = await first;
      const entries = window.since();
      expectOk(firstAnswer, entries);
      for (const [refused, beforeFirst] of answers) {
        expectError(refused, 'EMULATOR_BUSY');
        expect(beforeFirst, 'refused at once, not queued behind the first call').toBe(true);
        expect(refused.envelope.error?.message).toMatch(/ui_get_tree|busy|another/i);
      }
      // Only the first operation reached the device: its dump, density and window reads.
      const log = formatLog(entries);
      expect(
        entries.filter((e) => ['click', 'input', 'uia2', 'screen', 'abb', 'sync', 'tcp'].includes(e.kind)),
        log,
      ).toEqual([]);
      expect(log).not.toMatch(/screencap|am instrument/);
      expect(
        entries.filter((e) => e.kind === 'shell' && e.detail.includes('uiautomator')),
        log,
      ).toHaveLength(1);
    } finally {
      vd.clearFaults();
    }

    // Inside a flow too: a second call with the same session_id while a tap is on the device.
    const open = expectOk(await harness.call('ui_session_open'));
    const sessionId = open.data.session_id as string;
    vd.injectFault({ kind: 'slow', delayMs: 1500, target: 'uia2', match: '/click' });
    vd.clearLog();
    try {
      const tap = harness.call('ui_tap', { selector: { text: 'Network & internet' }, session_id: sessionId });
      await sleep(500);
      const scroll = await harness.call('ui_scroll', { direction: 'down', session_id: sessionId });
      const tapAnswer = await tap;
      expectOk(tapAnswer, vd.logEntries());
      expectError(scroll, 'EMULATOR_BUSY');
      expect(vd.clicks()).toHaveLength(1);
      expect(vd.clicks().filter((c) => c.source === 'w3c-actions')).toHaveLength(0);
    } finally {
      vd.clearFaults();
      expectOk(await harness.call('ui_session_close', { session_id: sessionId }));
    }

    // The session kept after an action holds the device for other processes until its
    // lease ends; they get EMULATOR_BUSY naming this one, at once, and the device once it ended.
    vd.setScreen('settings_home');
    const other = await shortCeilingHarness();
    expectOk(await harness.call('ui_tap', { selector: { text: 'Apps' } }));
    const refused = await other.call('ui_get_tree');
    expectError(refused, 'EMULATOR_BUSY');
    // Real clock (another process): the lock's answer, where waiting for the device would last the 3 s lease
    // (WARM_LEASE_S); the bound is the lease itself, as 1 s took 1.1 s on a loaded 2-core runner.
    expect(refused.elapsedMs, 'refused at once, not queued').toBeLessThan(WARM_LEASE_S * 1000);
    expect(refused.envelope.error?.message).toContain(`pid ${harness.pid}`);
    expect(refused.envelope.error?.message).toMatch(/ANDROID_MCP_WARM_SESSION_TIMEOUT/);
    await warmLeasesEnded();
    expectOk(await other.call('ui_get_tree'));
  });

  it('SEQ-EVID-1: two consecutive captures give two distinct artifact ids, both files present', async () => {
    const first = expectOk(await harness.call('screen_capture'));
    const second = expectOk(await harness.call('screen_capture'));
    const a = readEvidence(stack.evidenceDir, first, 'screen');
    const b = readEvidence(stack.evidenceDir, second, 'screen');
    expect(a.artifactId).not.toBe(b.artifactId);
    expect(first.operation_id).not.toBe(second.operation_id);
    for (const [envelope, file] of [
      [first, a],
      [second, b],
    ] as const) {
      expect(envelope.data).toEqual({ captured: true, width: file.width, height: file.height });
    }
    // The model also gets the picture, scaled to at most 1568 px and under 1 MB.
    const answer = await harness.call('screen_capture');
    const image = answer.result.content.find((c) => c.type === 'image');
    expect(image?.type === 'image' && image.mimeType).toBe('image/png');
    if (image?.type === 'image') expect(Buffer.from(image.data, 'base64').length).toBeLessThan(1_000_000);
  });

  it('FLOW-NAV-1: settings_open_apps reaches Settings → Apps (its title, found once All apps shows) with evidence', async () => {
    const window = stack.device ? logWindow(stack.device) : null;
    if (stack.device) stack.device.setScreen('launcher');
    const answer = await harness.call('settings_open_apps');
    const envelope = expectOk(answer, window?.since());
    expect(envelope.data).toEqual({ screen_marker: 'Apps', after: AFTER });
    readEvidence(stack.evidenceDir, envelope, 'settings-apps');
    const summary = await tree(harness);
    expect(summary.foreground_package).toBe(SETTINGS);
    expect(shows(summary, 'All apps'), JSON.stringify(summary)).toBe(true);
    if (window && stack.device) {
      const entries = window.since();
      const log = formatLog(entries);
      expect(
        entries.filter((e) => e.kind === 'shell' && e.detail.includes('am start')).map((e) => e.detail),
        log,
      ).toEqual(['shell_v2: am start -W -S -a android.settings.APPLICATION_SETTINGS']);
      expect(
        entries.filter((e) => e.kind === 'click' || e.kind === 'input' || e.kind === 'uia2'),
        log,
      ).toEqual([]);
      expect(stack.device.currentScreen().screenId).toBe('settings_apps');
    }
  });

  it('FLOW-UI-1: app_open → ui_tap → ui_scroll → device_back move through Settings with no coordinates, one evidence file per action', async () => {
    const window = stack.device ? logWindow(stack.device) : null;
    const opened = expectOk(await harness.call('app_open', { package_name: SETTINGS }));
    expect(opened.data).toEqual({ opened_package: SETTINGS, foreground_package: SETTINGS, after: AFTER });
    const home = await tree(harness);
    const apps = offered(home, 'Apps');
    const tapped = expectOk(await harness.call('ui_tap', { selector: selectorOf(apps) }), window?.since());
    expect(tapped.data).toMatchObject({
      target: selectorOf(apps),
      element_label: 'Apps',
      foreground_package: SETTINGS,
    });
    expect(boxOf(apps).width).toBeGreaterThan(0);
    const scrolled = expectOk(await harness.call('ui_scroll', { direction: 'down' }));
    // moved: whether the list's content changed (Settings → Apps fits on one screen of the virtual device).
    expect(scrolled.data).toEqual({
      direction: 'down',
      moved: expect.any(Boolean),
      foreground_package: SETTINGS,
      after: AFTER,
    });
    if (stack.device) expect(scrolled.data.moved).toBe(false);
    const back = expectOk(await harness.call('device_back'));
    expect(back.data).toEqual({ back_to_package: SETTINGS, foreground_package: SETTINGS, after: AFTER });

    const files = [
      readEvidence(stack.evidenceDir, opened, 'app-open'),
      readEvidence(stack.evidenceDir, tapped, 'ui-tap'),
      readEvidence(stack.evidenceDir, scrolled, 'ui-scroll'),
      readEvidence(stack.evidenceDir, back, 'device-back'),
    ];
    expect(new Set(files.map((f) => f.artifactId)).size).toBe(4);
    // The names carry the capture's microsecond: sorted, they are in the order of the actions.
    expect([...files.map((f) => f.artifactId)].sort()).toEqual(files.map((f) => f.artifactId));
    // Navigation shows: Settings home and Settings → Apps are different pictures.
    expect(pixelsDiffer(files[0]!.bytes, files[1]!.bytes)).toBe(true);
    const after = await tree(harness);
    expect(shows(after, 'Apps'), JSON.stringify(after)).toBe(true);

    if (window && stack.device) {
      const entries = window.since();
      const log = formatLog(entries);
      // Exactly one tap, inside the bounds the summary advertised; one swipe; one back key.
      const clicks = entries.filter((e) => e.kind === 'click');
      expect(clicks, log).toHaveLength(1);
      const click = stack.device.clicks().at(-1)!;
      expect(inside(click, apps), `click ${click.x},${click.y} inside ${JSON.stringify(apps.bounds)}`).toBe(true);
      expect(
        entries.filter((e) => e.kind === 'input' && / swipe /.test(e.detail)),
        log,
      ).toHaveLength(1);
      expect(
        entries.filter((e) => e.kind === 'uia2' && /^POST \/session\/[^/]+\/back -> 200$/.test(e.detail)),
        log,
      ).toHaveLength(1);
      const screens = entries.filter((e) => e.kind === 'screen').map((e) => e.detail);
      expect(
        screens.some((s) => s.includes('[settings_home]')),
        log,
      ).toBe(true);
      expect(
        screens.some((s) => s.includes('[settings_apps]')),
        log,
      ).toBe(true);
      expect(stack.device.currentScreen().screenId).toBe('settings_home');
    }
  });

  it('REF-STALE-1: a ref taps exactly its element; after the navigation it caused, the same ref is STALE_REF and taps nothing', async () => {
    expectOk(await harness.call('app_open', { package_name: SETTINGS }));
    const home = await tree(harness);
    const apps = offered(home, 'Apps');
    expect(apps.ref, JSON.stringify(apps)).toMatch(/^e[0-9a-z]+$/);
    const window = stack.device ? logWindow(stack.device) : null;
    const clicksBefore = stack.device?.clicks().length ?? 0;
    const tapped = expectOk(await harness.call('ui_tap', { selector: { ref: apps.ref } }), window?.since());
    expect(tapped.data).toMatchObject({
      target: { ref: apps.ref },
      element_label: 'Apps',
      foreground_package: SETTINGS,
    });
    if (stack.device) {
      const clicks = stack.device.clicks().slice(clicksBefore);
      expect(clicks, formatLog(window!.since())).toHaveLength(1);
      expect(inside(clicks[0]!, apps), JSON.stringify(clicks[0])).toBe(true);
    }
    // The tap navigated: whatever stands at the old place now, the old ref must not touch it.
    const after = await tree(harness);
    expect(
      after.actions.some((a) => a.ref === apps.ref),
      JSON.stringify(after.actions.slice(0, 5)),
    ).toBe(false);
    const staleWindow = stack.device ? logWindow(stack.device) : null;
    const clicksBeforeStale = stack.device?.clicks().length ?? 0;
    const stale = expectError(await harness.call('ui_tap', { selector: { ref: apps.ref } }), 'STALE_REF');
    expect(stale.error?.message).toMatch(/^The screen changed since ui_get_tree gave ref e[0-9a-z]+: read it again/);
    expect(stale.evidence?.artifact_id).toMatch(/-failure-ui-tap\.png$/);
    if (stack.device) {
      const entries = staleWindow!.since();
      expect(stack.device.clicks().slice(clicksBeforeStale), formatLog(entries)).toEqual([]);
      expect(
        entries.filter((e) => e.kind === 'click' || e.kind === 'input'),
        formatLog(entries),
      ).toEqual([]);
    }
    expectOk(await harness.call('device_back'));
  });

  it('FLOW-TEXT-1: ui_tap then ui_type_text with {input_hint: "Search"} puts the text in a real field', async () => {
    await settingsHome();
    const home = await tree(harness);
    const search = offered(home, /^Search/);
    expectOk(await harness.call('ui_tap', { selector: selectorOf(search) }));
    const typed = expectOk(await harness.call('ui_type_text', { selector: { input_hint: 'Search' }, text: 'Battery' }));
    expect(typed.data).toMatchObject({ target: { input_hint: 'Search' }, characters_sent: 7 });
    readEvidence(stack.evidenceDir, typed, 'ui-type');
    const after = await tree(harness);
    const field = after.actions.find((a) => roleOf(a) === 'input');
    expect(field, JSON.stringify(after.actions)).toBeTruthy();
    expect(shows(after, 'Battery'), JSON.stringify(after)).toBe(true);
    if (stack.device) {
      const node = stack.device.nodes().find((n) => n.className.endsWith('EditText'));
      expect(node?.text).toBe('Battery');
      expect(node?.hint).toBe('Search settings');
    }
  });

  it('FLOW-TEXT-REFUSE-1: ui_type_text on a target that is not a text field is refused before anything touches it', async () => {
    await settingsHome();
    const search = offered(await tree(harness), /^Search/);
    expectOk(await harness.call('ui_tap', { selector: selectorOf(search) }));
    const onSearch = await tree(harness);
    // The search screen's Up button (a person would call it "Navigate up"); on an emulator any entry that is not a field.
    const button =
      onSearch.actions.find((a) => nameOf(a) === 'Navigate up') ??
      onSearch.actions.find((a) => roleOf(a) !== 'input' && selectorOf(a) !== undefined);
    expect(button, JSON.stringify(onSearch.actions)).toBeTruthy();
    const window = stack.device ? logWindow(stack.device) : null;
    const clicksBefore = stack.device?.clicks().length ?? 0;
    for (const target of [selectorOf(button!), { ref: button!.ref }]) {
      const refused = expectError(
        await harness.call('ui_type_text', { selector: target, text: 'hi' }),
        'UI_ELEMENT_NOT_EDITABLE',
      );
      expect(refused.error?.message).toMatch(
        /^The element matched by .+ is a [\w.$]+, not a text field, so ui_type_text did not touch it: nothing was tapped or typed\. Type into one of the screen's input fields instead: \{"ref":"e[0-9a-z]+"\} '/,
      );
      if (stack.device)
        expect(refused.error?.message).toContain(
          'is a android.widget.ImageButton, not a text field, so ui_type_text did not touch it: nothing was tapped or typed. Type into one of the screen\'s input fields instead: {"ref":"',
        );
      if (stack.device) expect(refused.error?.message).toMatch(/\{"ref":"e[0-9a-z]+"\} 'Search settings'\.$/);
    }
    // Still on the search screen: the refused target was not pressed.
    const after = await tree(harness);
    expect(after.foreground_package).toBe(onSearch.foreground_package);
    expect(
      after.actions.some((a) => roleOf(a) === 'input'),
      JSON.stringify(after.actions),
    ).toBe(true);
    if (window && stack.device) {
      const entries = window.since();
      const log = formatLog(entries);
      expect(stack.device.clicks().slice(clicksBefore), log).toEqual([]);
      expect(
        entries.filter(
          (e) => e.kind === 'click' || e.kind === 'long-click' || e.kind === 'input' || e.kind === 'screen',
        ),
        log,
      ).toEqual([]);
      expect(
        entries.filter((e) => e.kind === 'uia2' && /\/(?:click|value|clear|actions|touch|gestures)/.test(e.detail)),
        log,
      ).toEqual([]);
      expect(stack.device.currentScreen().screenId).toBe('settings_search');
    }
    expectOk(await harness.call('device_back'));
  });

  it('FLOW-CHAIN-1: ui_session_open → ui_tap → ui_type_text → ui_session_close keeps focus and field state and releases the driver', async () => {
    await warmLeasesEnded();
    await settingsHome();
    const sessionsBefore = await stack.appium.sessionIds();
    const home = await tree(harness);
    const search = offered(home, /^Search/);
    const window = stack.device ? logWindow(stack.device) : null;

    const open = expectOk(await harness.call('ui_session_open'));
    const sessionId = open.data.session_id as string;
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{24,128}$/);
    expect(open.data.idle_timeout_seconds).toBe(CONFIG_DEFAULTS.sessionIdleTimeoutSeconds);
    expect(await stack.appium.sessionIds()).toHaveLength(sessionsBefore.length + 1);

    expectOk(await harness.call('ui_tap', { selector: selectorOf(search), session_id: sessionId }));
    const typed = expectOk(
      await harness.call('ui_type_text', { selector: { input_hint: 'Search' }, text: 'Wi-Fi', session_id: sessionId }),
    );
    expect(typed.data.characters_sent).toBe(5);
    // Read through the flow's own driver: the field still holds the text and keeps focus.
    const during = await tree(harness, { session_id: sessionId });
    expect(shows(during, 'Wi-Fi'), JSON.stringify(during)).toBe(true);
    // A headless AVD with a hardware keyboard may keep the IME hidden; the scenario always shows it.
    if (stack.device) expect(keyboardOpen(during)).toBe(true);
    // Without the id, the flow owns the device.
    expectError(await harness.call('ui_tap', { selector: selectorOf(search) }), 'EMULATOR_BUSY');

    expect(expectOk(await harness.call('ui_session_close', { session_id: sessionId })).data).toEqual({ closed: true });
    expect(await sessionsSettle(sessionsBefore)).toEqual(sessionsBefore);
    expectError(
      await harness.call('ui_tap', { selector: selectorOf(search), session_id: sessionId }),
      'INVALID_UI_SESSION',
    );

    if (window && stack.device) {
      const entries = window.since();
      const log = formatLog(entries);
      // One session, one instrumentation for the whole chain; focus stayed on the field.
      expect(
        entries.filter((e) => e.kind === 'uia2' && /^POST \/session -> 200$/.test(e.detail)),
        log,
      ).toHaveLength(1);
      expect(
        entries.filter((e) => e.kind === 'shell' && /am instrument: .* started/.test(e.detail)),
        log,
      ).toHaveLength(1);
      const field = stack.device.nodes().find((n) => n.className.endsWith('EditText'));
      expect(field?.text).toBe('Wi-Fi');
      expect(field?.focused).toBe(true);
      expect(stack.device.uia2SessionCount()).toBe(0);
    }
  });

  it.skipIf(ON_EMULATOR)(
    `FLOW-SEL-ALL-1: every enabled, unambiguous, uncovered selector the summary offers finds exactly one element on that same screen${vdOnly(NEEDS_SCREEN)}`,
    async () => {
      const vd = device();
      const open = expectOk(await harness.call('ui_session_open'));
      const sessionId = open.data.session_id as string;
      const failures: string[] = [];
      let tried = 0;
      try {
        for (const screen of [
          'launcher',
          'settings_home',
          'settings_network',
          'settings_apps',
          'all_apps',
          'app_info',
          'settings_accounts',
          'settings_add_account',
          'settings_search',
          'notes_main',
        ]) {
          vd.setScreen(screen, screen === 'app_info' ? { app: 'Notes' } : {});
          const summary = await tree(harness, { session_id: sessionId });
          const ready = summary.actions.filter(isReady);
          expect(ready.length, screen).toBeGreaterThan(0);
          for (const entry of ready) {
            vd.setScreen(screen, screen === 'app_info' ? { app: 'Notes' } : {});
            vd.clearLog();
            tried += 1;
            // observe: false: the row checks the find and the click; the screen after each tap (a page
            // source read per tap) is what FLOW-UI-1 and the other rows check.
            const answer = await harness.call('ui_tap', {
              selector: selectorOf(entry),
              session_id: sessionId,
              observe: false,
            });
            const finds = vd.logEntries().filter((e) => e.kind === 'uia2' && e.detail.startsWith('find '));
            const clicks = vd.clicks();
            const what = `${screen} ${JSON.stringify(selectorOf(entry))}`;
            if (!answer.envelope.ok)
              failures.push(`${what}: ${answer.envelope.error?.code} ${answer.envelope.error?.message}`);
            else if (finds.length !== 1 || !/-> 1 element\(s\)$/.test(finds[0]!.detail))
              failures.push(`${what}: finds ${finds.map((f) => f.detail).join('; ')}`);
            else if (clicks.length !== 1 || !inside(clicks[0]!, entry))
              failures.push(`${what}: clicks ${JSON.stringify(clicks)} vs bounds ${JSON.stringify(boxOf(entry))}`);
          }
        }
      } finally {
        expectOk(await harness.call('ui_session_close', { session_id: sessionId }));
      }
      expect(failures, `${failures.length} of ${tried} selectors failed`).toEqual([]);
      expect(tried).toBeGreaterThan(40);
    },
  );

  it.skipIf(ON_EMULATOR)(
    `CONTRACT-SEL-CTX-1: repeated labels are told apart only by a semantic ancestor that leaves one target; otherwise ambiguous${vdOnly(NEEDS_SCREEN)}`,
    async () => {
      const vd = device();
      // Two profiles, each with a Save button and an Account name field: the profile's content-desc tells them apart.
      vd.setScreen('settings_accounts');
      const accounts = await tree(harness);
      const saves = accounts.actions.filter((a) => nameOf(a) === 'Save');
      expect(saves).toHaveLength(2);
      const expectedSaves: WireSelector[] = [
        { text: 'Save', within: { content_desc: 'Personal profile' } },
        { text: 'Save', within: { content_desc: 'Work profile' } },
      ];
      expect(saves.map((s) => selectorOf(s))).toEqual(expectedSaves);
      for (const save of saves) {
        expect(save.disambiguated).toBe(true);
        expect(save.ambiguous).toBeUndefined();
      }
      const fields = accounts.actions.filter((a) => roleOf(a) === 'input');
      expect(fields).toHaveLength(2);
      for (const field of fields) expect(selectorOf(field)?.within, JSON.stringify(field)).toBeTruthy();
      // Unique labels need no context.
      for (const entry of accounts.actions.filter((a) => nameOf(a) !== 'Save' && roleOf(a) !== 'input'))
        expect(selectorOf(entry)?.within).toBeUndefined();

      // The within selector lands on the Work profile's button, and only there.
      vd.clearLog();
      expectOk(await harness.call('ui_type_text', { selector: selectorOf(fields[1]!), text: 'Ada' }));
      expectOk(await harness.call('ui_tap', { selector: selectorOf(saves[1]!) }));
      const clicks = vd.clicks().filter((c) => c.source === 'uia2-click');
      expect(clicks.at(-1)?.element?.key).toBe('work_save');
      const after = await tree(harness);
      expect(shows(after, 'Work profile saved: Ada'), JSON.stringify(after)).toBe(true);
      expect(after.texts.some((t) => t.startsWith('Personal profile saved'))).toBe(false);

      // Two `Clock` rows with nothing semantic around them: ambiguous, never a coin toss.
      vd.setScreen('all_apps');
      const all = await tree(harness);
      const clocks = all.actions.filter((a) => nameOf(a) === 'Clock');
      expect(clocks).toHaveLength(2);
      for (const clock of clocks) {
        expect(clock.ambiguous).toBe(true);
        expect(clock.disambiguated).toBeUndefined();
        // No selector names it alone, so none is offered: its ref does.
        expect(selectorOf(clock)).toBeUndefined();
        expect(clock.ref).toMatch(/^e[0-9a-z]+$/);
      }
      expect(all.actions.find((a) => nameOf(a) === 'Calendar')?.ambiguous).toBeUndefined();
    },
  );

  it.skipIf(ON_EMULATOR)(
    `TAP-AMBIGUOUS-1: a selector whose matches press two elements is refused with each one's ref before anything reaches the device; a listed ref then taps exactly its row${vdOnly(NEEDS_SCREEN)}`,
    async () => {
      const vd = device();
      /** Nothing pressed, typed or navigated since `window` opened: finds and page sources only. */
      const nothingPressed = (window: LogWindow, screenId: string): void => {
        const entries = window.since();
        const log = formatLog(entries);
        expect(
          entries.filter(
            (e) => e.kind === 'click' || e.kind === 'long-click' || e.kind === 'input' || e.kind === 'screen',
          ),
          log,
        ).toEqual([]);
        expect(
          entries.filter((e) => e.kind === 'uia2' && /\/(?:click|value|clear|actions|touch|gestures)/.test(e.detail)),
          log,
        ).toEqual([]);
        // The count went through the driver's own find, all matches at once.
        expect(
          entries.some((e) => e.kind === 'uia2' && /^POST \/session\/[^/]+\/elements -> 200$/.test(e.detail)),
          log,
        ).toBe(true);
        expect(vd.currentScreen().screenId).toBe(screenId);
      };
      const refsIn = (message: string | undefined): string[] =>
        [...(message ?? '').matchAll(/\{"ref":"(e[0-9a-z]+)"\}/g)].map((m) => m[1]!);

      // All apps: the summary marks both `Clock` rows ambiguous; a tap by that text is refused, not guessed.
      vd.setScreen('all_apps');
      const all = await tree(harness);
      const clocks = all.actions.filter((a) => nameOf(a) === 'Clock');
      expect(clocks.map((c) => c.ambiguous)).toEqual([true, true]);
      for (const [tool, args, evidence] of [
        ['ui_tap', {}, 'ui-tap'],
        ['ui_tap', { long_press: true }, 'ui-long-press'],
        ['ui_type_text', { text: 'hi' }, 'ui-type'],
      ] as const) {
        const window = logWindow(vd);
        const refused = expectError(
          await harness.call(tool, { selector: { text: 'Clock' }, ...args }),
          'UI_ELEMENT_AMBIGUOUS',
        );
        expect(refused.error?.message).toMatch(
          /^\{"text":"Clock"\} matches 2 different elements on this screen, so acting on it would be a coin toss: nothing was tapped or typed\. Send the one you mean by its ref/,
        );
        expect(refused.error?.message).toContain(`'Clock' (with '21.45 MB')`);
        expect(refused.error?.message).toContain(`'Clock' (with '8.12 MB')`);
        // The refs are the summary's own: the same element keeps its ref.
        expect(refsIn(refused.error?.message)).toEqual(clocks.map((c) => c.ref));
        expect(refused.evidence?.artifact_id).toMatch(new RegExp(`-failure-${evidence}\\.png$`));
        nothingPressed(window, 'all_apps');
      }
      // A listed ref taps exactly its row, and only it.
      const second = clocks[1]!;
      const clicksBefore = vd.clicks().length;
      expectOk(await harness.call('ui_tap', { selector: { ref: second.ref } }));
      const clicks = vd.clicks().slice(clicksBefore);
      expect(clicks).toHaveLength(1);
      expect(inside(clicks[0]!, second), JSON.stringify(clicks[0])).toBe(true);
      expect(vd.currentScreen().screenId).toBe('app_info');

      // The search field holding "storage" and the "Storage" row both contain "torage": refused,
      // each with the within that leaves it alone.
      vd.setScreen('settings_search');
      expectOk(await harness.call('ui_type_text', { selector: { input_hint: 'Search' }, text: 'storage' }));
      const results = await tree(harness);
      const field = results.actions.find((a) => roleOf(a) === 'input')!;
      const storage = offered(results, 'Storage');
      const window = logWindow(vd);
      const refused = expectError(
        await harness.call('ui_tap', { selector: { text_contains: 'torage' } }),
        'UI_ELEMENT_AMBIGUOUS',
      );
      const message = refused.error?.message ?? '';
      expect(refsIn(message)).toEqual([field.ref, storage.ref]);
      expect(message).toContain(
        `{"ref":"${storage.ref}"} 'Storage' (with 'Settings'), or {"text_contains":"torage","within":{`,
      );
      nothingPressed(window, 'settings_search');
      expect(vd.nodes().find((n) => n.className.endsWith('EditText'))?.text).toBe('storage');
      // The within the message gives names the row alone: it taps the row.
      const within = /\{"ref":"[^"]+"\} 'Storage' \(with 'Settings'\), or (\{.*?\}\})/.exec(message)?.[1];
      expect(within, message).toBeTruthy();
      const rowClicks = vd.clicks().length;
      expectOk(await harness.call('ui_tap', { selector: JSON.parse(within!) as Record<string, unknown> }));
      const rowClick = vd.clicks().slice(rowClicks);
      expect(rowClick).toHaveLength(1);
      expect(inside(rowClick[0]!, storage), JSON.stringify(rowClick[0])).toBe(true);
    },
  );

  it.skipIf(ON_EMULATOR)(
    `FLOW-LONG-1: ui_tap with long_press: true long-clicks the advertised row (held past the long-press timeout) and its context action shows${vdOnly(NEEDS_SCREEN)}`,
    async () => {
      const vd = device();
      vd.setScreen('notes_history');
      const before = await tree(harness);
      const ideas = offered(before, /^Ideas/);
      const archived = offered(before, /^Archived/);
      // The long-clickable-only row is advertised as long-press; the rows with a tap too stay buttons.
      expect(roleOf(archived)).toBe('long-press');
      expect(roleOf(ideas)).toBe('button');
      const window = logWindow(vd);
      const pressed = expectOk(
        await harness.call('ui_tap', { selector: selectorOf(ideas), long_press: true }),
        window.since(),
      );
      expect(pressed.data).toMatchObject({
        target: selectorOf(ideas),
        long_press: true,
        foreground_package: 'com.example.notes',
      });
      readEvidence(stack.evidenceDir, pressed, 'ui-long-press');
      const entries = window.since();
      const log = formatLog(entries);
      // Exactly one long click, inside the advertised bounds, and no plain click.
      expect(
        entries.filter((e) => e.kind === 'long-click'),
        log,
      ).toHaveLength(1);
      expect(
        entries.filter((e) => e.kind === 'click'),
        log,
      ).toEqual([]);
      expect(
        entries.some(
          (e) => e.kind === 'uia2' && /^POST \/session\/[^/]+\/appium\/gestures\/long_click -> 200$/.test(e.detail),
        ),
        log,
      ).toBe(true);
      const press = vd.clicks().at(-1)!;
      expect(press).toMatchObject({ gesture: 'long-click', source: 'uia2-long-click' });
      expect(press.heldMs).toBeGreaterThan(400);
      expect(inside(press, ideas), log).toBe(true);
      const after = await tree(harness);
      expect(shows(after, 'Selected: Ideas (Delete, Share)'), JSON.stringify(after)).toBe(true);
      // The long-press entry is honest: it long-clicks too.
      expectOk(await harness.call('ui_tap', { selector: selectorOf(archived), long_press: true }));
      expect(shows(await tree(harness), 'Restored: Archived')).toBe(true);
      // A plain tap on the row is a click, never a long click.
      const tapWindow = logWindow(vd);
      expectOk(await harness.call('ui_tap', { selector: selectorOf(ideas) }));
      expect(tapWindow.since().filter((e) => e.kind === 'long-click')).toEqual([]);
      expect(vd.clicks().at(-1)?.gesture).toBe('click');
    },
  );

  it.skipIf(ON_EMULATOR)(
    `SEL-HAND-1: hand-written selectors (text_starts_with, content_desc_contains, class_name + checked, resource_id_matches, instance) each tap the right element${vdOnly(NEEDS_SCREEN)}`,
    async () => {
      const vd = device();
      const tap = async (selector: Record<string, unknown>): Promise<ClickRecord> => {
        const window = logWindow(vd);
        const answer = expectOk(await harness.call('ui_tap', { selector }), window.since());
        expect(answer.data).toMatchObject({ target: selector });
        const clicks = window.since().filter((e) => e.kind === 'click');
        expect(clicks, formatLog(window.since())).toHaveLength(1);
        return vd.clicks().at(-1)!;
      };
      vd.setScreen('settings_home');
      const network = await tap({ text_starts_with: 'Network &' });
      expect(network.element?.description).toContain('Network & internet');
      expect(vd.currentScreen().screenId).toBe('settings_network');
      // The Wi-Fi switch is on: class_name + checked names it; the tap reaches its row and turns it off.
      const on = await tap({ class_name: 'android.widget.Switch', checked: true });
      expect(on.element?.key).toBe('wifi_switch');
      expect(vd.nodes().find((n) => n.resourceId === 'android:id/switch_widget')?.checked).toBe(false);
      // Now only checked: false finds it, through a UiSelector regex over the whole id.
      expectError(
        await harness.call('ui_tap', { selector: { resource_id_matches: '.*:id/switch_widget', checked: true } }),
        'UI_ELEMENT_NOT_FOUND',
      );
      const off = await tap({ resource_id_matches: 'android:id/switch_[a-z]+', checked: false });
      expect(off.element?.key).toBe('wifi_switch');
      // A part of the content-desc: the toolbar's up button.
      await tap({ content_desc_contains: 'Navigate' });
      expect(vd.currentScreen().screenId).toBe('settings_home');
      // instance picks the n-th of several matches (0-based, document order): the two Clock rows.
      vd.setScreen('all_apps');
      const first = await tap({ text: 'Clock', instance: 0 });
      vd.setScreen('all_apps');
      const second = await tap({ text: 'Clock', instance: 1 });
      expect(first.element?.description).toContain('Clock');
      expect(second.element?.description).toContain('Clock');
      expect(second.element!.bounds.top).toBeGreaterThan(first.element!.bounds.top);
      vd.setScreen('all_apps');
      expectError(await harness.call('ui_tap', { selector: { text: 'Clock', instance: 2 } }), 'UI_ELEMENT_NOT_FOUND');
    },
    120_000,
  );

  it('FLOW-APP-1: a declared launchable package opens and is observable', async () => {
    // A session kept from an earlier row would be closed by app_open first (UIA2 entries in its window).
    await warmLeasesEnded();
    const listed = expectOk(await harness.call('app_list_installed'));
    expect(listed.data.packages as string[]).toContain(APP_PACKAGE);
    const window = stack.device ? logWindow(stack.device) : null;
    if (stack.device) stack.device.setScreen('launcher');
    const opened = expectOk(await harness.call('app_open', { package_name: APP_PACKAGE }), window?.since());
    expect(opened.data).toEqual({ opened_package: APP_PACKAGE, foreground_package: APP_PACKAGE, after: AFTER });
    readEvidence(stack.evidenceDir, opened, 'app-open');
    const summary = await tree(harness);
    expect(summary.foreground_package).toBe(APP_PACKAGE);
    expect(summary.texts.length + summary.actions.length).toBeGreaterThan(0);
    // A package that is not installed is refused with the typed error, not a hang.
    expectError(await harness.call('app_open', { package_name: 'com.example.not.installed' }), 'APP_NOT_FOUND');
    if (window && stack.device) {
      const entries = window.since();
      const log = formatLog(entries);
      expect(log).toContain(
        `cmd package resolve-activity --brief -a android.intent.action.MAIN -c android.intent.category.LAUNCHER ${APP_PACKAGE}`,
      );
      expect(log).toContain(`am start -W -n ${APP_PACKAGE}/`);
      expect(stack.device.currentScreen().package).toBe(APP_PACKAGE);
      expect(
        entries.filter((e) => e.kind === 'click' || e.kind === 'input' || e.kind === 'uia2'),
        log,
      ).toEqual([]);
    }
  });

  describe('scrolling in any direction, in any container', () => {
    const CALENDAR = 'com.google.android.calendar';
    // The calendar's own ids come as `id` (the bare name), expanded by ui_scroll with the package in front.
    const STRIP = { id: 'day_strip' };
    const SCHEDULE = { id: 'schedule' };
    const TASKS = { id: 'task_list' };
    const offsetOf = (key: string): number => device().ui.current().scroll.get(key) ?? 0;
    const days = (summary: WireSummary): string[] => summary.actions.map(nameOf).filter((n) => /^Dec \d+$/.test(n));
    const swipes = (entries: readonly DeviceLogEntry[]): string[] =>
      entries.filter((e) => e.kind === 'input' && / swipe /.test(e.detail)).map((e) => e.detail);
    /** The x and y where each swipe went down and where it lifted, from the device's own line. */
    const ends = (line: string): [number, number, number, number] => {
      const m = /swipe \((\d+),(\d+)\)->\((\d+),(\d+)\)/.exec(line);
      if (!m) throw new Error(`not a swipe line: ${line}`);
      return [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
    };

    it.skipIf(ON_EMULATOR)(
      `SCROLL-H-1: ui_scroll right pages the Calendar day strip until moved: false at its end, showing every day on the way; left brings it back; the vertical lists never move${vdOnly(NEEDS_SCREEN)}`,
      async () => {
        const d = device();
        d.setScreen('calendar_main');
        const first = await tree(harness);
        // The summary names the containers, which way each scrolls, and where.
        expect(first.scrollables, JSON.stringify(first.scrollables)).toEqual([
          { selector: STRIP, bounds: [0, 252, 1080, 210], orientation: 'horizontal' },
          // Vertical, the common case, goes unsaid.
          { selector: SCHEDULE, bounds: [0, 580, 1080, 920] },
          { selector: TASKS, bounds: [0, 1600, 1080, 674] },
        ]);
        expect(days(first)).toContain('Dec 1');
        expect(days(first)).not.toContain('Dec 14');
        const window = logWindow(d);
        const opened = expectOk(await harness.call('ui_session_open'));
        const sessionId = String(opened.data.session_id);
        const seen = new Set(days(first));
        const page = async (direction: 'left' | 'right'): Promise<boolean[]> => {
          const moved: boolean[] = [];
          for (let i = 0; i < 12 && moved.at(-1) !== false; i++) {
            const answer = expectOk(
              await harness.call('ui_scroll', { direction, session_id: sessionId }),
              window.since(),
            );
            expect(answer.data).toEqual({
              direction,
              moved: expect.any(Boolean),
              foreground_package: CALENDAR,
              after: AFTER,
            });
            readEvidence(stack.evidenceDir, answer, 'ui-scroll');
            moved.push(answer.data.moved as boolean);
            for (const day of days(await tree(harness, { session_id: sessionId }))) seen.add(day);
          }
          return moved;
        };
        try {
          const right = await page('right');
          // A page at a time: several moves, then the end says so.
          expect(right.length, JSON.stringify(right)).toBeGreaterThan(2);
          expect(right.at(-1)).toBe(false);
          expect(right.slice(0, -1).every(Boolean), JSON.stringify(right)).toBe(true);
          // No day was skipped: consecutive pages overlap.
          expect([...seen].sort(), [...seen].join(', ')).toEqual(
            Array.from({ length: 14 }, (_, i) => `Dec ${i + 1}`).sort(),
          );
          const atEnd = await tree(harness, { session_id: sessionId });
          expect(days(atEnd)).toContain('Dec 14');
          expect(days(atEnd)).not.toContain('Dec 1');
          expect(offsetOf('day_strip')).toBe(2448);

          const left = await page('left');
          expect(left.at(-1)).toBe(false);
          expect(left.slice(0, -1).every(Boolean), JSON.stringify(left)).toBe(true);
          const back = await tree(harness, { session_id: sessionId });
          expect(days(back)).toContain('Dec 1');
          expect(offsetOf('day_strip')).toBe(0);
        } finally {
          expectOk(await harness.call('ui_session_close', { session_id: sessionId }));
        }
        const entries = window.since();
        const log = formatLog(entries);
        const lines = swipes(entries);
        expect(lines.length, log).toBeGreaterThan(5);
        for (const line of lines) {
          // Over the strip, sideways at its middle height, clear of both side edges (56 dp = 147 px), never flinging.
          expect(line, log).toMatch(/ over day_strip: .*no fling$/);
          const [x1, y1, x2, y2] = ends(line);
          expect([y1, y2]).toEqual([357, 357]);
          for (const x of [x1, x2]) expect(x >= 147 && x < 933, line).toBe(true);
        }
        expect(
          entries.filter((e) => e.kind === 'click'),
          log,
        ).toEqual([]);
        expect([offsetOf('schedule'), offsetOf('task_list')]).toEqual([0, 0]);
      },
    );

    it.skipIf(ON_EMULATOR)(
      `SCROLL-NAMED-1: a selector from scrollables scrolls that container (a list in a bottom sheet) and no other, to moved: false at its end; without one, down scrolls the largest vertical list; a non-scrolling or sideways-only target is refused, nothing swiped${vdOnly(NEEDS_SCREEN)}`,
      async () => {
        const d = device();
        d.setScreen('calendar_main');
        const summary = await tree(harness);
        const tasks = summary.scrollables?.find((s) => JSON.stringify(s.selector) === JSON.stringify(TASKS));
        expect(tasks, JSON.stringify(summary.scrollables)).toBeDefined();
        const window = logWindow(d);

        // The named list, although the schedule is larger: one page, then its end.
        const named: boolean[] = [];
        for (let i = 0; i < 6 && named.at(-1) !== false; i++) {
          const answer = expectOk(
            await harness.call('ui_scroll', { direction: 'down', selector: tasks!.selector }),
            window.since(),
          );
          expect(answer.data).toEqual({
            direction: 'down',
            target: TASKS,
            moved: expect.any(Boolean),
            foreground_package: CALENDAR,
            after: AFTER,
          });
          named.push(answer.data.moved as boolean);
        }
        expect(named.at(-1)).toBe(false);
        expect(named.slice(0, -1).every(Boolean) && named.length >= 2, JSON.stringify(named)).toBe(true);
        expect(offsetOf('task_list')).toBe(826);
        expect(offsetOf('schedule')).toBe(0);
        expect(shows(await tree(harness), 'Clean the oven')).toBe(true);
        for (const line of swipes(window.since())) expect(line).toMatch(/ over task_list: /);

        // No selector: the main container for down is the largest vertical list, the schedule.
        const main = expectOk(await harness.call('ui_scroll', { direction: 'down' }));
        expect(main.data).toEqual({ direction: 'down', moved: true, foreground_package: CALENDAR, after: AFTER });
        expect(offsetOf('schedule')).toBeGreaterThan(0);
        expect(offsetOf('task_list')).toBe(826);
        // A row names the list that holds it: up on a task scrolls the task list back.
        const row = expectOk(
          await harness.call('ui_scroll', { direction: 'up', selector: { text: 'Clean the oven' } }),
        );
        expect(row.data.moved).toBe(true);
        expect(offsetOf('task_list')).toBeLessThan(826);

        // Refused, typed, with failure evidence and no swipe: a title outside every list, and a vertical list asked to go right.
        const swipesBefore = swipes(window.since()).length;
        const title = expectError(
          await harness.call('ui_scroll', { direction: 'down', selector: { text: 'Tasks' } }),
          'UI_ELEMENT_NOT_FOUND',
        );
        expect(title.error?.message).toContain(
          "The element matched by text 'Tasks' is a android.widget.TextView 'Tasks': it does not scroll and no container around it does, so nothing was swiped.",
        );
        expect(title.error?.message).toContain(`${JSON.stringify(STRIP)} (horizontal, bounds [0,252,1080,210])`);
        readEvidence(stack.evidenceDir, title, 'failure-ui-scroll');
        const sideways = expectError(
          await harness.call('ui_scroll', { direction: 'right', selector: TASKS }),
          'UI_ELEMENT_NOT_FOUND',
        );
        expect(sideways.error?.message).toMatch(
          /is in a vertical container .*which cannot scroll right; nothing was swiped\. Send up or down for it/,
        );
        expect(swipes(window.since()).length, formatLog(window.since())).toBe(swipesBefore);
        expect(offsetOf('day_strip')).toBe(0);
      },
    );

    it.skipIf(ON_EMULATOR)(
      `SCROLL-H-NONE-1: left on a screen where nothing scrolls sideways is refused with what does scroll, and swipes nothing${vdOnly(NEEDS_SCREEN)}`,
      async () => {
        const d = device();
        d.setScreen('all_apps');
        const window = logWindow(d);
        const refused = expectError(await harness.call('ui_scroll', { direction: 'left' }), 'UI_ELEMENT_NOT_FOUND');
        expect(refused.error?.message).toMatch(
          /^Nothing on this screen scrolls sideways, so ui_scroll left did not swipe\. Scrollable containers here: \{"id":"apps_list"\} \(vertical/,
        );
        expect(swipes(window.since()), formatLog(window.since())).toEqual([]);
      },
    );
  });

  it.skipIf(ON_EMULATOR)(
    `INV-SESSION-1: Appium's session count is the same before and after a batch with successes, failures and timeouts${vdOnly(NEEDS_FAULTS)}`,
    async () => {
      const vd = device();
      const short = await shortCeilingHarness();
      // Rows before this one may leave a warm session kept for its lease: start from none.
      await warmLeasesEnded();
      const before = await stack.appium.sessionIds();
      const window = logWindow(vd);
      const outcomes: string[] = [];
      const messages: string[] = [];
      const note = (answer: ToolAnswer): void => {
        outcomes.push(answer.envelope.ok ? 'ok' : String(answer.envelope.error?.code));
        messages.push(
          `${answer.envelope.tool} (${answer.elapsedMs} ms): ${answer.envelope.ok ? 'ok' : `${answer.envelope.error?.code} ${answer.envelope.error?.message}`}`,
        );
      };

      vd.setScreen('settings_home');
      // Successes: warm sessions and a flow.
      note(await harness.call('ui_tap', { selector: { text: 'Apps' } }));
      note(await harness.call('device_back'));
      const flow = await harness.call('ui_session_open');
      note(flow);
      const sessionId = flow.envelope.data.session_id as string;
      note(await harness.call('ui_scroll', { direction: 'down', session_id: sessionId }));
      // Failures: refused while the flow owns the device, unknown id, element not found (after the find wait, 2 s in the suites).
      note(await harness.call('ui_tap', { selector: { text: 'Apps' } }));
      note(await harness.call('ui_session_close', { session_id: sessionId }));
      note(await harness.call('ui_tap', { selector: { text: 'Apps' }, session_id: 'Z'.repeat(32) }));
      note(await harness.call('ui_tap', { selector: { text: 'No such row on this screen' } }));
      // Not found is the driver's answer, not its failure: that session is kept for the lease.
      expect(await stack.appium.sessionIds(), messages.join('\n')).toHaveLength(before.length + 1);
      await warmLeasesEnded(before);
      // The instrumentation crashes on start (the driver may recover by starting it again, or fail).
      vd.setScreen('settings_home');
      vd.injectFault({ kind: 'instrumentation-crash', when: 'next-start' });
      note(await harness.call('ui_tap', { selector: { text: 'Apps' } }));
      vd.clearFaults();
      // The crash leaves the device dumpable again (read through the warm session if the driver recovered).
      note(await harness.call('ui_get_tree'));
      // This process's warm session holds the device for the other one until its lease ends.
      await warmLeasesEnded(before);
      // Timeouts (2 s ceiling): a hung click in a warm session and in a flow, a hung swipe.
      vd.setScreen('settings_home');
      vd.injectFault({ kind: 'hung', target: 'uia2', match: '/click' });
      note(await short.call('ui_tap', { selector: { text: 'Apps' } }));
      const shortFlow = await short.call('ui_session_open');
      note(shortFlow);
      note(
        await short.call('ui_tap', {
          selector: { text: 'Apps' },
          session_id: shortFlow.envelope.data.session_id as string,
        }),
      );
      vd.clearFaults();
      vd.injectFault({ kind: 'hung', target: 'uia2', match: '/actions' });
      note(await short.call('ui_scroll', { direction: 'down' }));
      vd.clearFaults();
      // The other process closes its abandoned sessions behind its answers (and holds the
      // machine-wide device lock meanwhile); then this process acts again.
      await sessionsSettle(before);
      vd.setScreen('settings_home');
      note(await harness.call('ui_tap', { selector: { text: 'Apps' } }));
      // That action's session is kept for the lease, then closed by the harness's own timer.
      expect(await stack.appium.sessionIds(), messages.join('\n')).toHaveLength(before.length + 1);

      if (outcomes.includes('INTERNAL_ERROR')) {
        // An untyped answer is a defect whose cause only the servers' logs show: keep them.
        process.stderr.write(
          `[INV-SESSION-1] INTERNAL_ERROR in the batch:\n${messages.join('\n')}\n${diagnostics(short, window)}\n`,
        );
      }
      expect(outcomes.filter((o) => o === 'ok').length, messages.join('\n')).toBeGreaterThanOrEqual(5);
      expect(outcomes, messages.join('\n')).toEqual(
        expect.arrayContaining(['EMULATOR_BUSY', 'INVALID_UI_SESSION', 'UI_ELEMENT_NOT_FOUND', 'OPERATION_TIMEOUT']),
      );
      expect(outcomes.filter((o) => o === 'OPERATION_TIMEOUT').length, messages.join('\n')).toBe(3);
      process.stderr.write(`[INV-SESSION-1] batch:\n${messages.join('\n')}\n`);
      const after = await sessionsSettle(before);
      expect(after, `sessions left behind after:\n${messages.join('\n')}`).toEqual(before);
      // Nothing holds UiAutomation any more: a plain dump works again.
      expectOk(await harness.call('ui_get_tree'));
      expect(vd.instrumentationRunning()).toBe(false);

      // A server that exits while it keeps a session: SIGTERM closes it (shutdown); after SIGKILL
      // nothing of the harness runs, and Appium's newCommandTimeout (the longer of the lease and the
      // action ceiling, plus 30 s) drops it. Either way the device lock is free again afterwards.
      for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
        const doomed = await startHarness(
          stack.harnessEnv({
            ANDROID_MCP_ACTION_TIMEOUT: '2',
            ANDROID_MCP_WARM_SESSION_TIMEOUT: '1',
            ANDROID_MCP_LOG_LEVEL: 'debug',
          }),
        );
        vd.setScreen('settings_home');
        expectOk(await doomed.call('ui_tap', { selector: { text: 'Apps' } }));
        expect(await stack.appium.sessionIds(), signal).toHaveLength(before.length + 1);
        process.kill(doomed.pid, signal);
        const limit = signal === 'SIGTERM' ? 6_000 : (Math.max(1, 2) + 30 + 10) * 1000;
        const left = await sessionsSettle(before, limit);
        await doomed.close();
        expect(left, `a session outlived a ${signal}ed server`).toEqual(before);
        vd.setScreen('settings_home');
        expectOk(await harness.call('ui_tap', { selector: { text: 'Apps' } }));
        await warmLeasesEnded();
      }
    },
    180_000,
  );

  describe('the action ceiling for real', () => {
    it.skipIf(ON_EMULATOR)(
      `a hung click with ANDROID_MCP_ACTION_TIMEOUT=2 returns OPERATION_TIMEOUT within the ceiling + 2 s, the next call is accepted, the UI session is voided and Appium keeps no session${vdOnly(NEEDS_FAULTS)}`,
      async () => {
        const vd = device();
        const short = await shortCeilingHarness();
        await warmLeasesEnded();
        const before = await stack.appium.sessionIds();
        vd.setScreen('settings_home');
        const open = expectOk(await short.call('ui_session_open'));
        const sessionId = open.data.session_id as string;
        vd.injectFault({ kind: 'hung', target: 'uia2', match: '/click' });
        const window = logWindow(vd);
        try {
          const timedOut = await short.call('ui_tap', { selector: { text: 'Apps' }, session_id: sessionId });
          expectError(timedOut, 'OPERATION_TIMEOUT');
          // Real clock (the harness is its own process): the 2 s ceiling's answer, where the hung click never
          // answers; the 2 s over it are room for the session's deletion on a loaded runner.
          expect(timedOut.elapsedMs, 'answered within the ceiling + 2 s').toBeLessThan(2000 + 2000);
          expect(timedOut.elapsedMs).toBeGreaterThanOrEqual(1900);
          expect(timedOut.envelope.error?.message).toMatch(/ANDROID_MCP_ACTION_TIMEOUT/);
          expect(timedOut.envelope.error?.message).toMatch(/ui_session_open/);
          // The click really hung on the device.
          expect(formatLog(window.since())).toMatch(/hung \(injected\)/);
          // The gate is free: the next call is accepted at once.
          const next = await short.call('emulator_get_status');
          expectOk(next);
          // Real clock: under one more 2 s ceiling, which a gate still held by the hung call would cost it.
          expect(next.elapsedMs).toBeLessThan(2000);
          // The flow used at the time is void.
          expectError(
            await short.call('ui_scroll', { direction: 'down', session_id: sessionId }),
            'INVALID_UI_SESSION',
          );
          expectError(await short.call('ui_session_close', { session_id: sessionId }), 'INVALID_UI_SESSION');
          // The abandoned session is closed by the harness, not left to Appium's newCommandTimeout (the flow lease + 30 s).
          const after = await sessionsSettle(before, 8_000);
          expect(after, formatLog(window.since())).toEqual(before);

          // The same for a warm session, one kept from the call before: starting a session is bounded by the
          // connect ceiling (an instrumentation start, seconds), not by the action's, so it is not timed here.
          vd.clearFaults();
          vd.setScreen('settings_home');
          expectOk(await short.call('ui_tap', { selector: { text: 'Apps' } }));
          vd.setScreen('settings_home');
          vd.injectFault({ kind: 'hung', target: 'uia2', match: '/click' });
          const single = await short.call('ui_tap', { selector: { text: 'Apps' } });
          expectError(single, 'OPERATION_TIMEOUT');
          // Real clock: the action ceiling's answer as above (2 s), with the same 2 s of room.
          expect(single.elapsedMs).toBeLessThan(2000 + 2000);
          expect(await sessionsSettle(before, 8_000)).toEqual(before);
        } finally {
          vd.clearFaults();
        }
        // Once the fault is gone the same server acts again.
        vd.setScreen('settings_home');
        expectOk(await short.call('ui_tap', { selector: { text: 'Apps' } }));
        expect(await sessionsSettle(before)).toEqual(before);
      },
    );
  });
});

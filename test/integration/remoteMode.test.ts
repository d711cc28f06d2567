/**
 * On the real stack: the built harness in remote mode (ANDROID_MCP_REMOTE=1) with NO adb
 * on its PATH (a temporary PATH holding only node), talking to a real Appium 3 bound to a virtual
 * device on a private adb server. Credentials ride in APPIUM_URL's userinfo (Appium ignores the
 * header) so the test can check that they never reach stderr, an envelope or an artifact.
 *
 * - ui_get_tree, a tap, screen_capture (evidence), app_open (mobile: activateApp, which runs
 *   `cmd package resolve-activity --brief <pkg>` on the device) all answer, through the session;
 * - app_install is NOT_AVAILABLE_REMOTELY;
 * - the warm session ends after its lease, and on SIGTERM: Appium holds none afterwards.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { startHarness, type HarnessProcess, type WireEnvelope } from '../e2e/support/harnessClient.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { expectEvidence } from '../support/evidenceShape.js';
import { startAppium, type RunningAppium } from '../support/appium.js';
import { attachDeviceToAdb, type AttachedDevice } from '../support/deviceOnAdb.js';
import { awaitExitOrKill } from '../support/processes.js';
import { settledValue } from '../support/settle.js';
import { ensureBuilt } from '../support/rawServer.js';

const KEY = 'k3y-remote-9d2f7a61';
const LEASE_SECONDS = 3;

function data(envelope: WireEnvelope): Record<string, unknown> {
  expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
  return envelope.data;
}

function noSessionWithin(appium: RunningAppium, ms: number): Promise<string[]> {
  return settledValue(
    () => appium.sessionIds(),
    (ids) => ids.length === 0,
    ms,
  );
}

describeWithAdb('remote mode: no adb on the harness PATH, a real Appium', () => {
  let adb: PrivateAdbServer;
  let appium: RunningAppium;
  let harness: HarnessProcess;
  let attached: AttachedDevice;
  let scratch: string;
  const device = VirtualDevice.withDefaultScenario({ serialNumber: 'R58MREMOTE1' });
  const answers: WireEnvelope[] = [];

  const envFor = (): Record<string, string> => {
    const url = new URL(appium.url);
    url.username = 'tester';
    url.password = KEY;
    return {
      // Only node: an adb call from the harness could not even start.
      PATH: join(scratch, 'bin'),
      HOME: scratch,
      ANDROID_MCP_REMOTE: '1',
      APPIUM_URL: url.toString(),
      // The remote Appium's own adb is the private server; ANDROID_UDID unset: the endpoint picks.
      ANDROID_MCP_APPIUM_CAPS: JSON.stringify({ 'appium:adbPort': adb.port }),
      ANDROID_MCP_WARM_SESSION_TIMEOUT: String(LEASE_SECONDS),
      ANDROID_MCP_LOCK_DIR: join(scratch, 'locks'),
      ANDROID_MCP_ARTIFACTS_DIR: join(scratch, 'artifacts'),
      ANDROID_MCP_TOOLSETS: 'all',
      ANDROID_MCP_LOG_LEVEL: 'debug',
    };
  };

  const elapsed: Record<string, number[]> = {};
  const call = async (tool: string, args: Record<string, unknown> = {}): Promise<WireEnvelope> => {
    const { envelope, elapsedMs } = await harness.call(tool, args);
    answers.push(envelope);
    (elapsed[tool] ??= []).push(elapsedMs);
    return envelope;
  };

  beforeAll(async () => {
    ensureBuilt();
    scratch = mkdtempSync(join(tmpdir(), 'amh-remote-'));
    const bin = join(scratch, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    adb = await startAdbServer();
    attached = await attachDeviceToAdb(device, adb);
    appium = await startAppium({ adbPort: adb.port });
    harness = await startHarness(envFor());
  }, 180_000);

  afterAll(async () => {
    await harness?.close();
    await appium?.stop();
    await attached?.stop().catch(() => undefined);
    await adb?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  it('reads, taps, captures and opens an app through the session; app_install is NOT_AVAILABLE_REMOTELY; the lease ends the session', async () => {
    const tree = data(await call('ui_get_tree'));
    expect(JSON.stringify(tree)).toContain('Settings');
    const sessionsWhileKept = await appium.sessionIds();
    expect(sessionsWhileKept).toHaveLength(1);
    data(await call('ui_get_tree'));
    // What observing costs here: the first read opens the session, the next one reuses it.
    process.stderr.write(
      `[remote-mode] ui_get_tree: first (opens the session) ${elapsed.ui_get_tree?.[0]} ms, second ${elapsed.ui_get_tree?.[1]} ms\n`,
    );

    const clicksBefore = device.logEntries().filter((entry) => entry.kind === 'click').length;
    data(await call('ui_tap', { selector: { text: 'Settings' } }));
    expect(device.logEntries().filter((entry) => entry.kind === 'click').length).toBe(clicksBefore + 1);
    // One session served the read and the tap.
    expect(await appium.sessionIds()).toEqual(sessionsWhileKept);

    const capture = await call('screen_capture');
    expect(data(capture)).toMatchObject({ captured: true });
    expectEvidence(capture.evidence, 'screen', (id) => existsSync(join(scratch, 'artifacts', id)));

    const opened = data(await call('app_open', { package_name: 'com.android.settings' }));
    expect(opened).toMatchObject({ opened_package: 'com.android.settings' });
    expect(
      device
        .logEntries()
        .some(
          (entry) => entry.kind === 'service' && entry.detail.includes('resolve-activity --brief com.android.settings'),
        ),
    ).toBe(true);

    // Settings through mobile: startActivity; stop and clear through terminateApp and clearApp.
    expect(data(await call('settings_open_apps'))).toBeTruthy();
    expect(device.currentScreen().package).toBe('com.android.settings');
    data(await call('app_stop', { package_name: 'com.android.settings' }));
    data(await call('app_clear_data', { package_name: 'com.android.settings' }));
    const sent = device
      .logEntries()
      .filter((entry) => entry.kind === 'service')
      .map((entry) => entry.detail);
    expect(
      sent.some(
        (detail) => detail.includes('am start-activity') && detail.includes('android.settings.APPLICATION_SETTINGS'),
      ),
    ).toBe(true);
    expect(sent.some((detail) => detail.includes('am force-stop com.android.settings'))).toBe(true);
    expect(sent.some((detail) => detail.includes('pm clear com.android.settings'))).toBe(true);

    const install = await call('app_install', { apk: 'app.apk' });
    expect(install.error?.code).toBe('NOT_AVAILABLE_REMOTELY');

    const list = await call('device_list');
    expect(list.error?.code).toBe('NOT_AVAILABLE_REMOTELY');

    // The driver's mobile: deepLink would put the link on the far shell unquoted: refused, nothing started.
    const link = await call('app_open_link', { url: 'notes://history' });
    expect(link.error?.code).toBe('NOT_AVAILABLE_REMOTELY');
    expect(device.logEntries().some((entry) => entry.detail.includes('android.intent.action.VIEW'))).toBe(false);

    const status = data(await call('emulator_get_status'));
    expect(status).toMatchObject({ android_version: '14' });

    // The warm session ends by its lease, with nobody calling.
    expect(await noSessionWithin(appium, (LEASE_SECONDS + 10) * 1000)).toEqual([]);
  }, 240_000);

  it('SIGTERM closes the warm session; the key was in no log line, envelope or artifact', async () => {
    data(await call('ui_get_tree'));
    expect(await appium.sessionIds()).toHaveLength(1);
    process.kill(harness.pid, 'SIGTERM');
    await awaitExitOrKill(harness.pid, 8_000, 100);
    expect(await appium.sessionIds()).toEqual([]);

    const stderr = harness.stderr();
    expect(stderr).toContain('remote mode');
    expect(stderr).not.toContain(KEY);
    expect(JSON.stringify(answers)).not.toContain(KEY);
    const artifacts = join(scratch, 'artifacts');
    // The evidence and the run's trace (traces/<name>/trace.jsonl and its linked evidence).
    const files = readdirSync(artifacts, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(files.some((entry) => entry.name === 'trace.jsonl')).toBe(true);
    for (const entry of files) {
      expect(entry.name).not.toContain(KEY);
      expect(readFileSync(join(entry.parentPath, entry.name)).toString('latin1')).not.toContain(KEY);
    }
  }, 60_000);
});

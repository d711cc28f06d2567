import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEvidence } from '../../../support/evidenceShape.js';
import { buildHarness } from '../../../support/fakes/harness.js';
import { makeApkFolder, SETTINGS_APK, type ApkFolderFixture } from '../../../support/apkFixtures.js';

describe('app_install (toolset apps)', () => {
  let fixture: ApkFolderFixture;
  beforeAll(() => {
    fixture = makeApkFolder();
  });
  afterAll(() => fixture.remove());

  it('installs the checked bytes, reports package, version and whether it replaced one, with evidence', async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'], apkDir: fixture.dir });
    const fresh = await h.envelope('app_install', { apk: 'settings.apk', observe: false });
    expect(fresh).toMatchObject({
      ok: true,
      data: {
        installed_package: 'io.appium.settings',
        version_name: '8.0.9',
        version_code: 191,
        replaced: false,
        foreground_package: 'com.android.settings',
      },
    });
    expectEvidence(fresh.evidence, 'app-install', (id) => h.store.files.has(id));
    expect(h.device.calls).toEqual(['listPackages', 'installApk', 'getWindowState', 'screencap']);
    // adb was given a private copy holding exactly the file's bytes, removed afterwards.
    const [install] = h.device.installs;
    expect(install?.bytes?.equals(readFileSync(SETTINGS_APK))).toBe(true);
    expect(install?.hostPath.startsWith(fixture.dir)).toBe(false);
    expect(JSON.stringify(fresh)).not.toContain(install?.hostPath ?? '');

    h.device.packages.push('io.appium.settings');
    const again = await h.envelope('app_install', { apk: 'settings.apk' });
    expect(again.data).toMatchObject({ replaced: true });
    // By default the answer carries the screen it left, read as ui_get_tree would (no flow: a dump).
    expect((again.data as { after?: { read?: string } }).after?.read).toMatch(/^r[0-9a-z]+$/);
    expect(h.device.calls.slice(-3)).toEqual(['getWindowState', 'getDensity', 'dumpUi']);
  });

  it("a flow blocks it without session_id (EMULATOR_BUSY, nothing sent); with the flow's id it installs inside the flow", async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'], apkDir: fixture.dir });
    const sessionId = ((await h.envelope('ui_session_open', {})).data as { session_id: string }).session_id;
    expect((await h.envelope('app_install', { apk: 'settings.apk' })).error?.code).toBe('EMULATOR_BUSY');
    expect(h.device.installs).toEqual([]);
    expect(await h.envelope('app_install', { apk: 'settings.apk', session_id: sessionId })).toMatchObject({
      ok: true,
      data: { installed_package: 'io.appium.settings' },
    });
    expect(h.device.installs).toHaveLength(1);
    expect((await h.envelope('ui_session_close', { session_id: sessionId })).ok).toBe(true);
  });

  it("maps the device's refusal to APP_INSTALL_FAILED with failure evidence", async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'], apkDir: fixture.dir });
    h.device.installOutput =
      'Performing Streamed Install\nadb: failed to install /tmp/x/base.apk: Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: Existing package io.appium.settings signatures do not match newer version; ignoring!]';
    const refused = await h.envelope('app_install', { apk: 'settings.apk' });
    expect(refused.error?.code).toBe('APP_INSTALL_FAILED');
    expect(refused.error?.message).toMatch(/signed with another key/);
    expect(refused.error?.message).not.toContain('/tmp/');
    expectEvidence(refused.evidence, 'failure-app-install', (id) => h.store.files.has(id));
  });

  it('validation, then guards, then the folder check: nothing reaches the device for a refused file', async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'], apkDir: fixture.dir });
    for (const apk of ['text.apk', 'nomanifest.apk', 'out.apk', 'fifo.apk']) {
      expect((await h.envelope('app_install', { apk })).error?.code, apk).toBe('INVALID_ARGUMENT');
    }
    expect(h.device.calls).toEqual([]);
    const badSerial = buildHarness({ toolsets: ['core', 'apps'], apkDir: fixture.dir, udid: 'bad-serial' });
    expect((await badSerial.envelope('app_install', { apk: '../x.apk' })).error?.code).toBe('INVALID_ARGUMENT');
    expect((await badSerial.envelope('app_install', { apk: 'settings.apk' })).error?.code).toBe('EMULATOR_UNAVAILABLE');
    expect(badSerial.device.calls).toEqual([]);
  });

  it('without ANDROID_MCP_APK_DIR it is refused, saying how to set it', async () => {
    const h = buildHarness({ toolsets: ['core', 'apps'] });
    const refused = await h.envelope('app_install', { apk: 'settings.apk' });
    expect(refused.error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/Set ANDROID_MCP_APK_DIR/),
    });
    expect(h.device.calls).toEqual([]);
  });
});

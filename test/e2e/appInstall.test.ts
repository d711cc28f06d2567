/**
 * app_install end to end: first what the virtual device's package manager answers
 * the real Debian adb client (a streamed install over abb_exec), then the harness over real
 * stdio (the built bin) with ANDROID_MCP_TOOLSETS=apps and ANDROID_MCP_APK_DIR set to a temp
 * folder holding real APKs from node_modules and hostile files. Real Appium runs beside it.
 * Virtual device only: the raw answers and the downgrade depend on what it has installed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';
import {
  makeApkFolder,
  RENAMED_PACKAGE,
  SETTINGS_APK,
  storedZip,
  type ApkFolderFixture,
} from '../support/apkFixtures.js';
import { ensureBuilt } from '../support/rawServer.js';
import { startHarness, type HarnessProcess, type ToolAnswer, type WireEnvelope } from './support/harnessClient.js';
import { ON_EMULATOR, startStack, type E2eStack } from './support/stack.js';

const SETTINGS_HELPER = 'io.appium.settings';

let stack: E2eStack;
let harness: HarnessProcess;
let fixture: ApkFolderFixture;
let raw: string;

function ok(answer: ToolAnswer): WireEnvelope {
  expect(answer.envelope.ok, JSON.stringify(answer.envelope.error)).toBe(true);
  return answer.envelope;
}

describeWithAdb('app_install through the real adb on the virtual device', () => {
  beforeAll(async () => {
    ensureBuilt();
    fixture = makeApkFolder();
    raw = mkdtempSync(join(tmpdir(), 'apk-raw-'));
    stack = await startStack({ label: 'app-install' });
    harness = await startHarness(
      stack.harnessEnv({
        ANDROID_MCP_TOOLSETS: 'apps',
        ANDROID_MCP_APK_DIR: fixture.dir,
        ANDROID_MCP_WARM_SESSION_TIMEOUT: '0',
      }),
    );
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
    fixture?.remove();
    if (raw) rmSync(raw, { recursive: true, force: true });
  }, 60_000);

  it.skipIf(ON_EMULATOR)(
    'raw: adb streams the APK over abb_exec and the device judges it as pm does',
    async () => {
      const device = stack.device!;
      const packagesBefore = (await stack.adb(['shell', 'pm', 'list', 'packages'])).stdout.toString();
      const text = join(raw, 'text.apk');
      writeFileSync(text, 'not an apk\n');
      const refused = await stack.adb(['install', '-r', text]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /^adb: failed to install .*text\.apk: Failure \[INSTALL_PARSE_FAILED_NOT_APK: Failed to parse \/data\/app\/vmdl\d+\.tmp\/base\.apk: Failed to load asset path/m,
      );
      const bare = join(raw, 'bare.apk');
      writeFileSync(bare, storedZip('classes.dex', Buffer.from('dex')));
      expect((await stack.adb(['install', '-r', bare])).stderr).toMatch(
        /Failure \[INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION: .*AndroidManifest\.xml\]/,
      );
      // adb 29 sends `package install -r -S <size>` over abb_exec, the bytes after it.
      const entries = device
        .logEntries()
        .filter((e) => e.kind === 'abb')
        .map((e) => e.detail);
      expect(entries).toContain(`install package install -r -S 11 (11 bytes)`);
      // Chrome at versionCode 191 over the device's 612000000: a downgrade, refused without -d.
      expect((await stack.adb(['install', '-r', join(fixture.dir, 'chrome.apk')])).stderr).toMatch(
        /Failure \[INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code 191 is older than current 612000000\]/,
      );
      // Nothing of those was installed.
      expect((await stack.adb(['shell', 'pm', 'list', 'packages'])).stdout.toString()).toBe(packagesBefore);
    },
    60_000,
  );

  it.skipIf(ON_EMULATOR)(
    'raw: an unsigned APK is refused; a package the scenario models comes back with its behaviour',
    async () => {
      const unsigned = await stack.adb(['install', '-r', join(fixture.dir, 'unsigned.apk')]);
      expect(unsigned.stderr).toMatch(
        /Failure \[INSTALL_PARSE_FAILED_NO_CERTIFICATES: Failed to collect certificates from \/data\/app\/vmdl\d+\.tmp\/base\.apk: Attempt to get length of null array\]/,
      );
      // adb 29 uninstalls through `cmd package`; the real APK brings io.appium.settings back as it was (a trampoline).
      expect((await stack.adb(['uninstall', SETTINGS_HELPER])).stdout.toString()).toContain('Success');
      const install = await stack.adb(['install', '-r', SETTINGS_APK]);
      expect(install.stdout.toString()).toMatch(/^Success/m);
      const resolved = await stack.adb([
        'shell',
        'cmd',
        'package',
        'resolve-activity',
        '--brief',
        '-a',
        'android.intent.action.MAIN',
        '-c',
        'android.intent.category.LAUNCHER',
        SETTINGS_HELPER,
      ]);
      expect(resolved.stdout.toString()).toContain(`${SETTINGS_HELPER}/.Settings`);
      expect((await stack.adb(['shell', 'dumpsys', 'package', SETTINGS_HELPER])).stdout.toString()).toMatch(
        /versionCode=191 .*\n[\s\S]*versionName=8\.0\.9/,
      );
    },
    60_000,
  );

  it.skipIf(ON_EMULATOR)(
    'installs an APK: then app_list_installed lists it and app_open opens it; again, it replaces it',
    async () => {
      const device = stack.device!;
      expect(ok(await harness.call('app_list_installed')).data.packages).not.toContain(RENAMED_PACKAGE);
      const installed = ok(await harness.call('app_install', { apk: 'hello.apk' }, 60_000));
      expect(installed.data).toMatchObject({
        installed_package: RENAMED_PACKAGE,
        version_name: '8.0.9',
        version_code: 191,
        replaced: false,
      });
      expect(installed.evidence?.artifact_id).toMatch(/-app-install\.png$/);
      expect(JSON.stringify(installed)).not.toContain(fixture.dir);
      const streamed = device
        .logEntries()
        .filter((e) => e.kind === 'abb' && e.detail.startsWith('install package install -r -S '));
      expect(streamed.at(-1)?.detail).toBe(
        `install package install -r -S ${installed.data.size_bytes} (${installed.data.size_bytes} bytes)`,
      );

      expect(ok(await harness.call('app_list_installed')).data.packages).toContain(RENAMED_PACKAGE);
      const opened = ok(await harness.call('app_open', { package_name: RENAMED_PACKAGE }, 60_000));
      expect(opened.data).toMatchObject({ opened_package: RENAMED_PACKAGE, foreground_package: RENAMED_PACKAGE });
      expect(device.currentScreen().package).toBe(RENAMED_PACKAGE);

      const again = ok(await harness.call('app_install', { apk: 'hello.apk' }, 60_000));
      expect(again.data).toMatchObject({ installed_package: RENAMED_PACKAGE, replaced: true });
      // Installing over a package kills it, as on Android: its screen left.
      expect(again.data.foreground_package).not.toBe(RENAMED_PACKAGE);

      const helper = ok(await harness.call('app_install', { apk: 'settings.apk' }, 60_000));
      expect(helper.data).toMatchObject({ installed_package: SETTINGS_HELPER, version_code: 191, replaced: true });
    },
    120_000,
  );

  it.skipIf(ON_EMULATOR)(
    "the device's refusal is APP_INSTALL_FAILED with what to do; refused files never reach adb",
    async () => {
      const downgrade = await harness.call('app_install', { apk: 'chrome.apk' }, 60_000);
      expect(downgrade.envelope.error?.code).toBe('APP_INSTALL_FAILED');
      expect(downgrade.envelope.error?.message).toMatch(
        /INSTALL_FAILED_VERSION_DOWNGRADE .*a newer version of com\.android\.chrome is installed/,
      );
      expect(downgrade.envelope.error?.message).not.toMatch(/\/tmp\//);
      expect(downgrade.envelope.evidence?.artifact_id).toMatch(/-failure-app-install\.png$/);

      const unsigned = await harness.call('app_install', { apk: 'unsigned.apk' }, 60_000);
      expect(unsigned.envelope.error?.code).toBe('APP_INSTALL_FAILED');
      expect(unsigned.envelope.error?.message).toMatch(/INSTALL_PARSE_FAILED_NO_CERTIFICATES .*not signed/);

      const before = stack.device!.logEntries().length;
      for (const apk of [
        'text.apk',
        'nomanifest.apk',
        'out.apk',
        'outdir/settings.apk',
        '../elsewhere/settings.apk',
        '/etc/passwd',
        'x\u0000.apk',
      ]) {
        expect((await harness.call('app_install', { apk })).envelope.error?.code, apk).toBe('INVALID_ARGUMENT');
      }
      expect(
        stack
          .device!.logEntries()
          .slice(before)
          .map((e) => `${e.kind} ${e.detail}`),
      ).toEqual([]);
    },
    60_000,
  );
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readApkManifest } from '../../../src/infrastructure/apk/apkManifest.js';
import { detectHelperVersions } from '../../../packages/virtual-device/src/device/helperVersions.js';
import {
  installStreamedApk,
  type PackageInstallTarget,
} from '../../../packages/virtual-device/src/device/packageInstaller.js';
import {
  HELPER_VERSION_CODES,
  platformPackages,
} from '../../../packages/virtual-device/src/scenario/defaultScenario.js';
import type { PackageSpec, ScreenSpec } from '../../../packages/virtual-device/src/scenario/model.js';
import {
  renamedSettingsApk,
  SETTINGS_APK,
  storedZip,
  UIA2_SERVER_APK,
  UIA2_TEST_APK,
} from '../../support/apkFixtures.js';

function target(
  packages: PackageSpec[] = [],
  known: PackageSpec[] = packages,
): PackageInstallTarget & { screens: ScreenSpec[]; stopped: string[] } {
  const screens: ScreenSpec[] = [];
  const stopped: string[] = [];
  return {
    installed: new Map(packages.map((p) => [p.name, p])),
    known: new Map(known.map((p) => [p.name, p])),
    addScreen: (s) => screens.push(s),
    stopPackage: (p) => stopped.push(p),
    screens,
    stopped,
  };
}

const install = (apk: Buffer, t: PackageInstallTarget, extra: string[] = []) =>
  installStreamedApk(['package', 'install', '-r', ...extra, '-S', String(apk.length)], apk, t, 7);

describe("the virtual device's package manager", () => {
  it("the preinstalled helpers carry the versionCodes their real APKs declare (so Appium's install -r is no downgrade)", async () => {
    const versions = detectHelperVersions();
    for (const [file, name] of [
      [SETTINGS_APK, 'io.appium.settings'],
      [UIA2_SERVER_APK, 'io.appium.uiautomator2.server'],
      [UIA2_TEST_APK, 'io.appium.uiautomator2.server.test'],
    ] as const) {
      const facts = await readApkManifest(readFileSync(file));
      const spec = platformPackages(versions).find((p) => p.name === name);
      expect(spec?.versionCode, `${name}: update HELPER_VERSION_CODES to ${JSON.stringify(HELPER_VERSION_CODES)}`).toBe(
        facts.versionCode ?? 0,
      );
    }
  });

  it('refuses what Android refuses, with its status lines', async () => {
    const t = target([
      { name: 'com.android.chrome', versionCode: 612_000_000, launcher: { activity: '.Main', screen: 'chrome' } },
    ]);
    expect(await install(Buffer.from('text'), t)).toBe(
      'Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse /data/app/vmdl7.tmp/base.apk: Failed to load asset path /data/app/vmdl7.tmp/base.apk]\n',
    );
    expect(await install(storedZip('classes.dex', Buffer.from('x')), t)).toBe(
      'Failure [INSTALL_PARSE_FAILED_UNEXPECTED_EXCEPTION: Failed to parse /data/app/vmdl7.tmp/base.apk: AndroidManifest.xml]\n',
    );
    expect(await install(renamedSettingsApk('org.example.hello1', false), t)).toMatch(
      /^Failure \[INSTALL_PARSE_FAILED_NO_CERTIFICATES: /,
    );
    expect(await install(renamedSettingsApk('com.android.chrome', true), t)).toBe(
      'Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code 191 is older than current 612000000]\n',
    );
    expect(await install(renamedSettingsApk('com.android.chrome', true), t, ['-d'])).toBe('Success\n');
    expect(t.stopped).toEqual(['com.android.chrome']);
  });

  it('a new package gets its launcher screen; a scenario package comes back as the scenario models it', async () => {
    const t = target(
      [],
      [{ name: 'io.appium.settings', versionCode: 1, launcher: { activity: '.Settings', screen: '' } }],
    );
    expect(await install(renamedSettingsApk('org.example.hello1', true), t)).toBe('Success\n');
    expect(t.installed.get('org.example.hello1')).toMatchObject({
      versionCode: 191,
      versionName: '8.0.9',
      launcher: { activity: 'org.example.hello1.Settings', screen: 'apk:org.example.hello1' },
    });
    expect(t.screens.map((s) => s.id)).toEqual(['apk:org.example.hello1']);
    expect(await install(readFileSync(SETTINGS_APK), t)).toBe('Success\n');
    expect(t.installed.get('io.appium.settings')).toMatchObject({
      versionCode: 191,
      launcher: { activity: '.Settings', screen: '' },
    });
    expect(t.screens).toHaveLength(1);
  });
});

import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApkRelativePath } from '../../../../src/domain/apk/apkArgument.js';
import { isPlainHostApkPath } from '../../../../src/infrastructure/adb/AdbDeviceGateway.js';
import { LocalApkFolder } from '../../../../src/infrastructure/apk/LocalApkFolder.js';
import { makeApkFolder, SETTINGS_APK, UIA2_TEST_APK, type ApkFolderFixture } from '../../../support/apkFixtures.js';

const rel = (p: string) => p as ApkRelativePath;

describe('LocalApkFolder: the allowed folder, checked and read once', () => {
  let fixture: ApkFolderFixture;
  beforeAll(() => {
    fixture = makeApkFolder();
  });
  afterAll(() => fixture.remove());

  it('reads package and version from a real APK and hands over a private copy of exactly its bytes', async () => {
    const prepared = await new LocalApkFolder(fixture.dir).prepare(rel('settings.apk'));
    expect(prepared).toMatchObject({
      packageName: 'io.appium.settings',
      versionName: '8.0.9',
      versionCode: 191,
      sizeBytes: statSync(SETTINGS_APK).size,
    });
    expect(isPlainHostApkPath(prepared.hostPath)).toBe(true);
    expect(prepared.hostPath.startsWith(fixture.dir)).toBe(false);
    expect(readFileSync(prepared.hostPath).equals(readFileSync(SETTINGS_APK))).toBe(true);
    expect(statSync(prepared.hostPath).mode & 0o777).toBe(0o600);
    await prepared.release();
    expect(existsSync(prepared.hostPath)).toBe(false);
  });

  it('a file replaced in the folder after the check does not change what adb is given (no TOCTOU)', async () => {
    const original = readFileSync(`${fixture.dir}/builds/server.apk`);
    const prepared = await new LocalApkFolder(fixture.dir).prepare(rel('builds/server.apk'));
    writeFileSync(`${fixture.dir}/builds/server.apk`, 'swapped after the check');
    try {
      expect(readFileSync(prepared.hostPath).equals(original)).toBe(true);
    } finally {
      writeFileSync(`${fixture.dir}/builds/server.apk`, original);
      await prepared.release();
    }
  });

  it('a manifest without versionCode answers null, not NaN', async () => {
    const folder = new LocalApkFolder(UIA2_TEST_APK.slice(0, UIA2_TEST_APK.lastIndexOf('/')));
    const prepared = await folder.prepare(rel('appium-uiautomator2-server-debug-androidTest.apk'));
    expect(prepared).toMatchObject({
      packageName: 'io.appium.uiautomator2.server.test',
      versionCode: null,
      versionName: null,
    });
    await prepared.release();
  });

  it.each([
    ['text.apk', /not an APK \(not a zip file\)/],
    ['nomanifest.apk', /no readable AndroidManifest\.xml/],
    ['empty.apk', /is empty/],
    ['dir.apk', /not a regular file/],
    ['fifo.apk', /not a regular file/],
    ['out.apk', /leads outside the APK folder/],
    ['outdir/settings.apk', /leads outside the APK folder/],
    ['passwd.apk', /leads outside the APK folder/],
    ['missing.apk', /does not exist in the APK folder/],
  ])('refuses %s with INVALID_ARGUMENT before anything else', async (name, message) => {
    const refusal = new LocalApkFolder(fixture.dir).prepare(rel(name));
    await expect(refusal).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message });
    await expect(refusal).rejects.not.toMatchObject({ message: expect.stringContaining(fixture.dir) });
  });

  it('refuses a file over the size bound, an unset folder (saying how to set it) and a folder that is gone', async () => {
    await expect(new LocalApkFolder(fixture.dir, 1024).prepare(rel('settings.apk'))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: /larger than/,
    });
    await expect(new LocalApkFolder(null).prepare(rel('settings.apk'))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: /Set ANDROID_MCP_APK_DIR/,
    });
    await expect(new LocalApkFolder(`${fixture.dir}-gone`).prepare(rel('settings.apk'))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: /does not exist or is not a folder/,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { parseApkArgument } from '../../../../src/domain/apk/apkArgument.js';
import { findInstallRefusal, installRefusedError } from '../../../../src/domain/apk/installFailure.js';

describe('app_install apk argument', () => {
  it('accepts a file name or a relative path inside the folder, ending .apk', () => {
    for (const ok of ['app-debug.apk', 'builds/app-debug.APK', 'a b/c (1).apk', 'ünï.apk', '-r.apk'])
      expect(parseApkArgument(ok)).toBe(ok);
  });

  it('refuses traversal, absolute paths, NUL and controls, other names and types, typed INVALID_ARGUMENT', () => {
    const refused: unknown[] = [
      '../x.apk',
      'a/../../x.apk',
      '..\\x.apk',
      '/etc/passwd',
      '/tmp/x.apk',
      '\\\\srv\\x.apk',
      'C:\\x.apk',
      'c:x.apk',
      '~/x.apk',
      'file:///x.apk',
      'x.apk\u0000',
      'x\u0000.apk',
      'x\n.apk',
      'x\u202e.apk',
      'x.apk/',
      'a//b.apk',
      'x.zip',
      'x',
      '',
      ' ',
      'x.apk; reboot',
      'A'.repeat(600) + '.apk',
      3,
      null,
      undefined,
      [],
      {},
    ];
    for (const value of refused) {
      let code: string | undefined;
      try {
        parseApkArgument(value);
      } catch (error) {
        code = (error as { code?: string }).code;
        expect((error as Error).message).toMatch(/Invalid apk: .*ANDROID_MCP_APK_DIR/);
      }
      expect(code, JSON.stringify(value)).toBe('INVALID_ARGUMENT');
    }
  });
});

describe("install refusals: the device's Failure line mapped to what to do", () => {
  it("reads the bracket of adb's error line, never the host path before it", () => {
    const stderr =
      'adb: failed to install /tmp/android-mcp-apk-Ab12/base.apk: Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Downgrade detected: Update version code 191 is older than current 612000000]\n';
    const refusal = findInstallRefusal(stderr);
    expect(refusal).toEqual({
      reason: 'INSTALL_FAILED_VERSION_DOWNGRADE',
      detail: 'Downgrade detected: Update version code 191 is older than current 612000000',
    });
    const error = installRefusedError('io.appium.settings', refusal);
    expect(error.code).toBe('APP_INSTALL_FAILED');
    expect(error.message).toMatch(
      /^The device refused to install io\.appium\.settings: INSTALL_FAILED_VERSION_DOWNGRADE \(Downgrade detected.*newer version of io\.appium\.settings is installed/,
    );
    expect(error.message).not.toContain('/tmp');
  });

  it('names signatures, storage, SDK, parse failures, unknown reasons and a missing status line', () => {
    const msg = (line: string) => installRefusedError('com.x', findInstallRefusal(line)).message;
    expect(
      msg(
        'Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: Existing package com.x signatures do not match newer version; ignoring!]',
      ),
    ).toMatch(/signed with another key/);
    expect(msg('Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]')).toMatch(
      /INSTALL_FAILED_INSUFFICIENT_STORAGE; the device does not have enough free storage/,
    );
    expect(msg('Failure [INSTALL_FAILED_OLDER_SDK: Requires newer sdk version #34 (current version is #30)]')).toMatch(
      /newer Android version/,
    );
    expect(msg('Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse /data/app/vmdl1.tmp/base.apk]')).toMatch(
      /could not read the APK/,
    );
    expect(msg('Failure [INSTALL_FAILED_WEIRD_NEW_THING]')).toMatch(/INSTALL_FAILED_WEIRD_NEW_THING; see the reason/);
    expect(findInstallRefusal('adb: connect error for write: closed')).toBeNull();
    expect(installRefusedError('com.x', null).message).toMatch(/did not confirm the install of com\.x/);
  });
});

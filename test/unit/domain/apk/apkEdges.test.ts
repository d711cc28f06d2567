import { describe, expect, it } from 'vitest';
import { parseApkArgument } from '../../../../src/domain/apk/apkArgument.js';
import { findInstallRefusal, installRefusedError } from '../../../../src/domain/apk/installFailure.js';
import { HarnessError } from '../../../../src/domain/errors.js';

const USAGE =
  'Give the file name of an APK inside the folder ANDROID_MCP_APK_DIR names (e.g. "app-debug.apk" or "builds/app-debug.apk"): a relative path, no "..", ending in .apk.';

function problemOf(raw: unknown): string {
  try {
    parseApkArgument(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    const { message } = error as HarnessError;
    expect(message.endsWith(`. ${USAGE}`)).toBe(true);
    return message.slice('Invalid apk: '.length, -(USAGE.length + 2));
  }
  throw new Error(`expected a refusal of ${JSON.stringify(raw)}`);
}

describe('app_install apk argument: each refusal says what is wrong', () => {
  it.each([
    [undefined, 'the "apk" argument is missing'],
    [null, 'the "apk" argument is missing'],
    [3, 'got a number, not a string'],
    [['x.apk'], 'got an array, not a string'],
    [' \t', 'it is empty'],
    ['x'.repeat(509) + '.apk', 'it is longer than 512 characters'],
    ['/tmp/x.apk', "'/tmp/x.apk' is absolute"],
    ['\\x.apk', "'\\x.apk' is absolute"],
    ['~x.apk', "'~x.apk' is absolute"],
    ['C:x.apk', "'C:x.apk' is absolute"],
    ['content://x/y.apk', "'content://x/y.apk' is absolute"],
    ['a/../x.apk', 'it contains ".." (the file must be inside the folder)'],
    ['a\\..\\x.apk', 'it contains ".." (the file must be inside the folder)'],
    ['a//x.apk', 'it contains an empty path segment'],
    // A scheme after the start is no URL: its `//` is an empty segment.
    ['dir/a://x.apk', 'it contains an empty path segment'],
    ['a\\\\x.apk', 'it contains an empty path segment'],
    ['x.apk.zip', "'x.apk.zip' does not end in .apk"],
  ])('%j: %s', (raw, problem) => {
    expect(problemOf(raw)).toBe(problem);
  });

  it('512 characters are accepted; a name that only starts like a drive or scheme is relative', () => {
    const longest = 'x'.repeat(508) + '.apk';
    expect(parseApkArgument(longest)).toBe(longest);
    for (const ok of ['ab:c.apk', 'x~.apk', 'a.b/c..d.apk', 'dir/x.apk']) expect(parseApkArgument(ok)).toBe(ok);
  });

  it('every control and bidi range is refused at both ends; its neighbours are not', () => {
    for (const cp of [0x00, 0x1f, 0x7f, 0x9f, 0x202a, 0x202e, 0x2066, 0x2069, 0xd800, 0xdfff]) {
      expect(problemOf(`a${String.fromCharCode(cp)}.apk`), cp.toString(16)).toBe(
        'it contains a control or bidi character',
      );
    }
    for (const cp of [0x20, 0x7e, 0xa0, 0x2029, 0x202f, 0x2065, 0x206a, 0xe000]) {
      const name = `a${String.fromCharCode(cp)}.apk`;
      expect(parseApkArgument(name), cp.toString(16)).toBe(name);
    }
  });
});

describe('install refusals: every remedy', () => {
  const said = (reason: string, pkg = 'com.x') => installRefusedError(pkg, { reason, detail: '' }).message;

  it.each([
    [
      'INSTALL_FAILED_VERSION_DOWNGRADE',
      'a newer version of com.x is installed and Android refuses a downgrade. Install an APK with a versionCode at least the installed one, or uninstall com.x on the device first (its data is lost).',
    ],
    [
      'INSTALL_FAILED_UPDATE_INCOMPATIBLE',
      'com.x is installed signed with another key (signatures differ). Uninstall it on the device first (its data is lost), or sign the APK with the same key.',
    ],
    [
      'INSTALL_FAILED_INSUFFICIENT_STORAGE',
      "the device does not have enough free storage. Free some space on it (or wipe the emulator's data), then retry.",
    ],
    [
      'INSTALL_FAILED_OLDER_SDK',
      'the APK needs a newer Android version than the device runs (its minSdkVersion). Use a newer emulator image or build for this API level.',
    ],
    [
      'INSTALL_FAILED_DEPRECATED_SDK_VERSION',
      'the APK targets an Android version too old for this device (its targetSdkVersion). Rebuild it with a newer targetSdkVersion.',
    ],
    [
      'INSTALL_FAILED_NO_MATCHING_ABIS',
      "the APK has native code for another CPU (ABI) than the device. Build it for the device's ABI (an x86_64 emulator needs x86_64 libraries).",
    ],
    [
      'INSTALL_FAILED_TEST_ONLY',
      'the APK is marked android:testOnly (an Android Studio "Run" build), which app_install does not allow. Build it with assembleDebug or assembleRelease.',
    ],
    [
      'INSTALL_PARSE_FAILED_NO_CERTIFICATES',
      'the APK is not signed (or its signature is broken). Sign it (a debug build is signed automatically), then retry.',
    ],
    [
      'INSTALL_FAILED_USER_RESTRICTED',
      'the device refused installs over USB (a user or policy restriction, e.g. "Install via USB" switched off). Allow it on the device, then retry.',
    ],
    [
      'INSTALL_FAILED_DUPLICATE_PERMISSION',
      'another installed app already defines one of its permissions. Uninstall that app on the device, then retry.',
    ],
    [
      'INSTALL_FAILED_CONFLICTING_PROVIDER',
      'another installed app already uses one of its content provider authorities. Uninstall that app on the device, then retry.',
    ],
    [
      'INSTALL_PARSE_FAILED_NOT_APK',
      'the device could not read the APK. Rebuild it and check that the file is complete, then retry.',
    ],
    ['INSTALL_FAILED_ABORTED', 'see the reason above; fix it on the device or in the APK, then retry.'],
  ])('%s', (reason, why) => {
    expect(said(reason)).toBe(`The device refused to install com.x: ${reason}; ${why}`);
  });

  it('the detail is shown cut and escaped; an empty detail adds nothing', () => {
    const error = installRefusedError('com.x', { reason: 'INSTALL_FAILED_ABORTED', detail: `a\n${'d'.repeat(200)}` });
    expect(error.message).toBe(
      `The device refused to install com.x: INSTALL_FAILED_ABORTED (a\\u000a${'d'.repeat(158)}…); see the reason above; fix it on the device or in the APK, then retry.`,
    );
  });

  it('no status line: the device did not confirm', () => {
    const error = installRefusedError('com.x', null);
    expect(error.code).toBe('APP_INSTALL_FAILED');
    expect(error.message).toBe(
      'The device did not confirm the install of com.x (no Success, no Failure line). Check it with app_list_installed, then retry.',
    );
  });

  it('the Failure bracket: a code without detail, a detail trimmed, nothing else', () => {
    expect(findInstallRefusal('Failure [INSTALL_FAILED_TEST_ONLY]')).toEqual({
      reason: 'INSTALL_FAILED_TEST_ONLY',
      detail: '',
    });
    expect(findInstallRefusal('Failure [X_1:   spaced  ]')).toEqual({ reason: 'X_1', detail: 'spaced' });
    expect(findInstallRefusal('Success')).toBeNull();
    expect(findInstallRefusal('Failure [lowercase]')).toBeNull();
  });
});

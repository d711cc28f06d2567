/**
 * The closed adb list's refusals, beyond AdbDeviceGateway.test.ts (which holds the list itself): each
 * entry that takes a value refuses a bad one with its code and words, the log read's exact bounds, and
 * the APK path's anchors at both ends (mutation testing found them unwatched:
 * docs/internals/verification.md, "Mutation testing").
 */
import { describe, expect, it } from 'vitest';
import type { PackageName } from '../../../src/domain/validation.js';
import { ADB_COMMANDS, APP_LOG_READ_MAX, isPlainHostApkPath } from '../../../src/infrastructure/adb/adbCommands.js';
import { HarnessError } from '../../../src/domain/errors.js';

const pkg = (s: string) => s as PackageName;

function refusal(build: () => unknown): { code: string; message: string } {
  try {
    build();
  } catch (error) {
    if (error instanceof HarnessError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('no refusal: an argv was built');
}

describe('each value-taking entry refuses with its code and says why', () => {
  it.each([
    [
      'screencapDisplay',
      () => ADB_COMMANDS.screencapDisplay('1;reboot'),
      'EVIDENCE_WRITE_FAILED',
      'The display id the device reported is not a plain number; it is not used.',
    ],
    [
      'resolveLauncherActivity',
      () => ADB_COMMANDS.resolveLauncherActivity(pkg('a;reboot')),
      'INVALID_PACKAGE',
      'The package name is not valid.',
    ],
    [
      'startActivity',
      () => ADB_COMMANDS.startActivity('com.x/.M;reboot'),
      'APP_NOT_FOUND',
      'The launcher activity the device reported is not a plain pkg/activity name; it is not started.',
    ],
    [
      'openLink',
      () => ADB_COMMANDS.openLink('https://example.com' as never, pkg('a;reboot')),
      'INVALID_PACKAGE',
      'The package name is not valid.',
    ],
    ['forceStop', () => ADB_COMMANDS.forceStop(pkg('a;reboot')), 'INVALID_PACKAGE', 'The package name is not valid.'],
    ['clearData', () => ADB_COMMANDS.clearData(pkg('a;reboot')), 'INVALID_PACKAGE', 'The package name is not valid.'],
    [
      'install',
      () => ADB_COMMANDS.install('/tmp/x;reboot.apk'),
      'INTERNAL_ERROR',
      'The APK copy has an unexpected path; it is not given to adb.',
    ],
    [
      'appLog',
      () => ADB_COMMANDS.appLog(4321, 0),
      'INVALID_ARGUMENT',
      'The pid or line count is not a plain number in range; logcat is not run.',
    ],
  ])('%s', (_name, build, code, message) => {
    expect(refusal(build)).toEqual({ code, message });
  });
});

describe('the log read', () => {
  it(`reads 1 to ${APP_LOG_READ_MAX} lines, both ends included`, () => {
    expect(ADB_COMMANDS.appLog(4321, 1).slice(-2)).toEqual(['1', '--pid=4321']);
    expect(ADB_COMMANDS.appLog(4321, APP_LOG_READ_MAX)).toContain(String(APP_LOG_READ_MAX));
    expect(() => ADB_COMMANDS.appLog(4321, APP_LOG_READ_MAX + 1)).toThrow(HarnessError);
  });
});

describe('the APK path given to adb install', () => {
  it('is anchored at both ends: absolute from the first character, .apk as the last', () => {
    expect(isPlainHostApkPath('/tmp/android-mcp-apk-Ab_1/base.apk')).toBe(true);
    for (const bad of ['tmp/android-mcp-apk-Ab_1/base.apk', 'x/tmp/base.apk', '/tmp/base.apk.sh', '/tmp/base.apk/x'])
      expect(isPlainHostApkPath(bad), bad).toBe(false);
  });
});

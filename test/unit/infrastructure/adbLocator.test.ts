import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { locateAdb } from '../../../src/infrastructure/adb/adbLocator.js';

const only =
  (...present: string[]) =>
  (p: string) =>
    present.includes(p);

describe('locateAdb', () => {
  it('prefers ANDROID_HOME over ANDROID_SDK_ROOT over PATH', () => {
    const env = { ANDROID_HOME: '/sdk/home', ANDROID_SDK_ROOT: '/sdk/root', PATH: '/usr/local/bin:/usr/bin' };
    const all = only('/sdk/home/platform-tools/adb', '/sdk/root/platform-tools/adb', '/usr/bin/adb');
    expect(locateAdb(env, all, 'linux')).toEqual({ path: '/sdk/home/platform-tools/adb', source: 'ANDROID_HOME' });
    expect(locateAdb(env, only('/sdk/root/platform-tools/adb', '/usr/bin/adb'), 'linux')).toEqual({
      path: '/sdk/root/platform-tools/adb',
      source: 'ANDROID_SDK_ROOT',
    });
    expect(locateAdb(env, only('/usr/bin/adb'), 'linux')).toEqual({ path: '/usr/bin/adb', source: 'PATH' });
  });

  it('walks PATH in order and skips empty or relative entries', () => {
    const env = { PATH: ':.:bin:/opt/a:/opt/b' };
    expect(locateAdb(env, only('/opt/a/adb', '/opt/b/adb', 'bin/adb', 'adb'), 'linux')).toEqual({
      path: '/opt/a/adb',
      source: 'PATH',
    });
    expect(locateAdb(env, only('bin/adb', 'adb'), 'linux')).toBeNull();
  });

  it('returns null when adb is nowhere', () => {
    expect(locateAdb({ ANDROID_HOME: '/sdk', PATH: '/usr/bin' }, () => false, 'linux')).toBeNull();
    expect(locateAdb({}, () => true, 'linux')).toBeNull();
  });

  it('looks for adb.exe on win32, in Path as well as PATH', () => {
    const env = { ANDROID_HOME: 'C:\\Android\\Sdk', Path: 'C:\\Windows;C:\\tools' };
    expect(locateAdb(env, only('C:\\Android\\Sdk\\platform-tools\\adb.exe'), 'win32')).toEqual({
      path: 'C:\\Android\\Sdk\\platform-tools\\adb.exe',
      source: 'ANDROID_HOME',
    });
    expect(locateAdb(env, only('C:\\tools\\adb.exe'), 'win32')).toEqual({ path: 'C:\\tools\\adb.exe', source: 'PATH' });
  });

  // Debian's adb package installs here; elsewhere the check is reported as skipped, never passed.
  const debianAdb = '/usr/lib/android-sdk/platform-tools/adb';
  it.skipIf(!existsSync(debianAdb))(
    `finds the real adb on this machine through ANDROID_HOME (skipped when ${debianAdb} is not installed)`,
    () => {
      expect(locateAdb({ ANDROID_HOME: '/usr/lib/android-sdk', PATH: '' })).toEqual({
        path: debianAdb,
        source: 'ANDROID_HOME',
      });
    },
  );
});

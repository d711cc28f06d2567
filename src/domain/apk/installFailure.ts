/**
 * What the device's package manager said when it refused an install, in words a model can act
 * on. PackageManagerShellCommand answers `Success` or `Failure [CODE: detail]` (adb prints the
 * latter after "adb: failed to install <file>:"; only the bracket is read, so no host path
 * reaches the answer).
 */
import { HarnessError } from '../errors.js';
import { safePreview } from '../tree/nodeFacts.js';

const FAILURE = /Failure \[([A-Z][A-Z0-9_]*)(?::\s*([^\]\r\n]*))?\]/;

export interface InstallRefusal {
  /** `INSTALL_FAILED_VERSION_DOWNGRADE`, …; `UNKNOWN` when the device printed no Failure line. */
  readonly reason: string;
  readonly detail: string;
}

/** The refusal in adb's output, or null when it holds none. */
export function findInstallRefusal(output: string): InstallRefusal | null {
  const m = FAILURE.exec(output);
  return m ? { reason: m[1] ?? 'UNKNOWN', detail: (m[2] ?? '').trim() } : null;
}

/** What to do next, per reason: the ones testers meet (AOSP PackageManager's INSTALL_* constants). */
const REMEDIES: Readonly<Record<string, (pkg: string) => string>> = Object.freeze({
  INSTALL_FAILED_VERSION_DOWNGRADE: (pkg) =>
    `a newer version of ${pkg} is installed and Android refuses a downgrade. Install an APK with a versionCode at least the installed one, or uninstall ${pkg} on the device first (its data is lost).`,
  INSTALL_FAILED_UPDATE_INCOMPATIBLE: (pkg) =>
    `${pkg} is installed signed with another key (signatures differ). Uninstall it on the device first (its data is lost), or sign the APK with the same key.`,
  INSTALL_FAILED_INSUFFICIENT_STORAGE: () =>
    "the device does not have enough free storage. Free some space on it (or wipe the emulator's data), then retry.",
  INSTALL_FAILED_OLDER_SDK: () =>
    'the APK needs a newer Android version than the device runs (its minSdkVersion). Use a newer emulator image or build for this API level.',
  INSTALL_FAILED_DEPRECATED_SDK_VERSION: () =>
    'the APK targets an Android version too old for this device (its targetSdkVersion). Rebuild it with a newer targetSdkVersion.',
  INSTALL_FAILED_NO_MATCHING_ABIS: () =>
    "the APK has native code for another CPU (ABI) than the device. Build it for the device's ABI (an x86_64 emulator needs x86_64 libraries).",
  INSTALL_FAILED_TEST_ONLY: () =>
    'the APK is marked android:testOnly (an Android Studio "Run" build), which app_install does not allow. Build it with assembleDebug or assembleRelease.',
  INSTALL_PARSE_FAILED_NO_CERTIFICATES: () =>
    'the APK is not signed (or its signature is broken). Sign it (a debug build is signed automatically), then retry.',
  INSTALL_FAILED_USER_RESTRICTED: () =>
    'the device refused installs over USB (a user or policy restriction, e.g. "Install via USB" switched off). Allow it on the device, then retry.',
  INSTALL_FAILED_DUPLICATE_PERMISSION: () =>
    'another installed app already defines one of its permissions. Uninstall that app on the device, then retry.',
  INSTALL_FAILED_CONFLICTING_PROVIDER: () =>
    'another installed app already uses one of its content provider authorities. Uninstall that app on the device, then retry.',
});

/** APP_INSTALL_FAILED saying what the device refused and what to do; never a host path. */
export function installRefusedError(pkg: string, refusal: InstallRefusal | null): HarnessError {
  if (refusal === null) {
    return new HarnessError(
      'APP_INSTALL_FAILED',
      `The device did not confirm the install of ${pkg} (no Success, no Failure line). Check it with app_list_installed, then retry.`,
    );
  }
  const remedy = REMEDIES[refusal.reason];
  const detail = refusal.detail ? ` (${safePreview(refusal.detail, 160)})` : '';
  const why = remedy
    ? remedy(pkg)
    : refusal.reason.startsWith('INSTALL_PARSE_FAILED')
      ? 'the device could not read the APK. Rebuild it and check that the file is complete, then retry.'
      : 'see the reason above; fix it on the device or in the APK, then retry.';
  return new HarnessError(
    'APP_INSTALL_FAILED',
    `The device refused to install ${pkg}: ${refusal.reason}${detail}; ${why}`,
  );
}

/**
 * app_install's `apk` argument: a file name or a relative path inside the folder the
 * user allowed (ANDROID_MCP_APK_DIR). Only its shape is judged here, before the guards; whether
 * it exists, is a regular file inside the folder and is a real APK is judged by the ApkFolder.
 */
import { HarnessError } from '../errors.js';
import { safePreview } from '../tree/nodeFacts.js';

/** A relative path that passed parseApkArgument: no `..`, not absolute, no control characters, ends `.apk`. */
export type ApkRelativePath = string & { readonly __brand: 'ApkRelativePath' };

/** Far beyond any real file name below a folder, small enough to stay out of every message. */
export const APK_ARGUMENT_MAX = 512;

const USAGE =
  'Give the file name of an APK inside the folder ANDROID_MCP_APK_DIR names (e.g. "app-debug.apk" or "builds/app-debug.apk"): a relative path, no "..", ending in .apk.';

function refuse(problem: string): HarnessError {
  return new HarnessError('INVALID_ARGUMENT', `Invalid apk: ${problem}. ${USAGE}`);
}

export function parseApkArgument(raw: unknown): ApkRelativePath {
  if (raw === undefined || raw === null) throw refuse('the "apk" argument is missing');
  if (typeof raw !== 'string') throw refuse(`got ${Array.isArray(raw) ? 'an array' : `a ${typeof raw}`}, not a string`);
  if (raw.trim() === '') throw refuse('it is empty');
  if (raw.length > APK_ARGUMENT_MAX) throw refuse(`it is longer than ${APK_ARGUMENT_MAX} characters`);
  // NUL would cut the path in every C API adb uses; other controls and bidi characters hide what the path says.
  if (
    [...raw].some((ch) => {
      const cp = ch.codePointAt(0) ?? 0;
      return (
        cp <= 0x1f ||
        (cp >= 0x7f && cp <= 0x9f) ||
        (cp >= 0x202a && cp <= 0x202e) ||
        (cp >= 0x2066 && cp <= 0x2069) ||
        (cp >= 0xd800 && cp <= 0xdfff)
      );
    })
  ) {
    throw refuse('it contains a control or bidi character');
  }
  // Absolute in POSIX or Windows spelling, a URL, or the home directory: all point outside the folder.
  if (/^[/\\~]/.test(raw) || /^[A-Za-z]:/.test(raw) || /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(raw))
    throw refuse(`'${safePreview(raw, 40)}' is absolute`);
  const segments = raw.split(/[/\\]/);
  if (segments.some((s) => s === '..')) throw refuse('it contains ".." (the file must be inside the folder)');
  if (segments.some((s) => s === '')) throw refuse('it contains an empty path segment');
  // adb install refuses any other name itself ("filename doesn't end .apk"); say so before anything runs.
  if (!/\.apk$/i.test(raw)) throw refuse(`'${safePreview(raw, 40)}' does not end in .apk`);
  return raw as ApkRelativePath;
}

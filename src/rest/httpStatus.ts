import type { ErrorCode } from '../domain/errors.js';

/**
 * The HTTP status of a REST answer whose envelope failed (docs/reference/contract.md, "The REST mirror").
 * A Record over every code, so a new code cannot be added without deciding its status here.
 */
export const STATUS_BY_ERROR_CODE: Readonly<Record<ErrorCode, number>> = Object.freeze({
  // The request itself is wrong: fix it, do not retry it as is.
  INVALID_SELECTOR: 400,
  INVALID_TEXT: 400,
  INVALID_PACKAGE: 400,
  INVALID_SCROLL_DIRECTION: 400,
  INVALID_ARGUMENT: 400,
  // What the request names is not there.
  INVALID_UI_SESSION: 404,
  UI_ELEMENT_NOT_FOUND: 404,
  APP_NOT_FOUND: 404,
  ARTIFACT_NOT_FOUND: 404,
  // The element is there and cannot take what was asked (text into a button): send another one.
  UI_ELEMENT_NOT_EDITABLE: 422,
  // The device is someone else's right now, or the screen moved on since the tree was read: read, then retry.
  EMULATOR_BUSY: 409,
  STALE_REF: 409,
  // The selector names several elements: send one of the refs the message lists.
  UI_ELEMENT_AMBIGUOUS: 409,
  // Several devices and the call named none: say which, by a UI session's session_id.
  DEVICE_AMBIGUOUS: 409,
  // The screen is locked or asleep: a person must unlock it (WebDAV's Locked, the literal case).
  DEVICE_LOCKED: 423,
  // The harness could not reach what it drives.
  EMULATOR_UNAVAILABLE: 503,
  APPIUM_UNAVAILABLE: 503,
  UI_TREE_UNAVAILABLE: 503,
  // A goal task without a model endpoint configured (docs/reference/contract.md, "Goal tasks"): the server cannot serve it as set up.
  MODEL_UNAVAILABLE: 503,
  // Remote mode: the tool needs local adb, which this server does not have for the device.
  NOT_AVAILABLE_REMOTELY: 501,
  // The device's package manager refused the APK (no REST route installs yet; the table is total).
  APP_INSTALL_FAILED: 422,
  // The device was reached but did not do what it was asked.
  SETTINGS_FOREGROUND_FAILED: 502,
  UI_ACTION_FAILED: 502,
  OPERATION_TIMEOUT: 504,
  EVIDENCE_WRITE_FAILED: 500,
  INTERNAL_ERROR: 500,
});

export function statusForEnvelope(envelope: {
  readonly ok: boolean;
  readonly error: { readonly code: ErrorCode } | null;
}): number {
  if (envelope.ok || envelope.error === null) return 200;
  return STATUS_BY_ERROR_CODE[envelope.error.code];
}

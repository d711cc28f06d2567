/**
 * The closed set of error codes a client can receive (docs/reference/contract.md, "Error codes"). Every
 * failure that crosses the MCP boundary is one of these.
 */
export const ERROR_CODES = [
  'EMULATOR_UNAVAILABLE',
  'APPIUM_UNAVAILABLE',
  'EMULATOR_BUSY',
  /** Several allowed devices are online and the call did not say which: the message lists them. */
  'DEVICE_AMBIGUOUS',
  'INVALID_UI_SESSION',
  'UI_ELEMENT_NOT_FOUND',
  /**
   * A selector whose matches would press more than one element (a coin toss): nothing was pressed
   * or typed; the message lists each candidate with its ref and, where one exists, the `within` that
   * leaves it alone (docs/reference/contract.md, "One element or none").
   */
  'UI_ELEMENT_AMBIGUOUS',
  /**
   * ui_type_text found its element, and it cannot take text: it is no text field (a button, a
   * row), or the field refused the text (read-only, disabled). Nothing was typed; the message
   * names the screen's input fields by their refs.
   */
  'UI_ELEMENT_NOT_EDITABLE',
  'UI_TREE_UNAVAILABLE',
  /**
   * The device's UiAutomator2 server answered that it could not perform the action (HTTP 500
   * `unknown error`: the gesture was not injected, e.g. a system window refused it). The session is sound.
   */
  'UI_ACTION_FAILED',
  'INVALID_SELECTOR',
  'INVALID_TEXT',
  'INVALID_PACKAGE',
  'INVALID_SCROLL_DIRECTION',
  /** An optional argument of the wrong type that has no code of its own (`include_raw: "yes"`). */
  'INVALID_ARGUMENT',
  /** A ref whose element is no longer the one ui_get_tree advertised: nothing was done. */
  'STALE_REF',
  'APP_NOT_FOUND',
  /**
   * An artifact id of the issued shape that names no evidence file (never written, or removed: the
   * retention bound removes the oldest). A read only: GET /artifacts/{id} and the artifact:// resource.
   */
  'ARTIFACT_NOT_FOUND',
  /** app_install: the device's package manager refused the APK (INSTALL_FAILED_*, INSTALL_PARSE_FAILED_*). */
  'APP_INSTALL_FAILED',
  'SETTINGS_FOREGROUND_FAILED',
  /**
   * The lock screen is up or the display is off, so a launch or an action would happen
   * behind it (or nowhere). Nothing was done; the person at the device unlocks or wakes it.
   */
  'DEVICE_LOCKED',
  'OPERATION_TIMEOUT',
  /** A goal task needs a model endpoint and none is configured: nothing was started. */
  'MODEL_UNAVAILABLE',
  /**
   * Remote mode (ANDROID_MCP_REMOTE=1): the tool needs adb on this machine (install,
   * logcat, the device list) and the device is behind a WebDriver endpoint. Nothing was sent.
   */
  'NOT_AVAILABLE_REMOTELY',
  'EVIDENCE_WRITE_FAILED',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * A failure the harness understands. `message` is shown to the model as is, so it
 * must never contain a stack trace or a host path, and should say what to do next.
 * `cause` is kept for the stderr log only.
 */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isHarnessError(value: unknown): value is HarnessError {
  return value instanceof HarnessError;
}

/**
 * The system's code of a failed call (`ENOENT`, `EEXIST`, `ECONNREFUSED`), or of the error it
 * wraps: fetch and webdriverio put the socket's error in `cause`.
 */
export function systemErrorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } } | null | undefined;
  const code = e?.code ?? e?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

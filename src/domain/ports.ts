/**
 * The ports: what the application needs from the outside world, stated in the
 * domain's own words. Adapters in src/infrastructure implement them; unit tests
 * use in-memory fakes.
 */
import type { AutomationEndpointStatus } from './automationEndpoint.js';
import type { ApkRelativePath } from './apk/apkArgument.js';
import type { Wakefulness, WindowState } from './tree/screen.js';
import type { SwipePath } from './gestures/scrollGesture.js';
import type { Point, Rect } from './tree/uiNode.js';
import type { OcrLine } from './visual/visualEntries.js';
import type { PackageName } from './validation.js';
import type { DeviceFacts } from './devices/identity.js';
import type { LinkUri } from './links/linkUri.js';
import type { StoredEvidence } from './evidence/retention.js';

/** Time is a dependency so tests can move it by hand. */
export interface Clock {
  /** Wall-clock time. */
  now(): Date;
  /**
   * Wall-clock time in whole microseconds since the Unix epoch (a safe integer until the year
   * 2255), for evidence names: the seed's names carry microseconds, so name order is time order.
   */
  epochMicros(): number;
  /** Monotonic milliseconds, used for deadlines and leases. */
  monotonicMs(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  sleep(ms: number): Promise<void>;
}
export interface TimerHandle {
  readonly __timer: unique symbol;
}

export interface RandomSource {
  /** A uuid v4 string. */
  uuid(): string;
  /**
   * A call's operation id: OPERATION_ID_LENGTH characters of lowercase Crockford base32 (60 random
   * bits). A model reads it in every answer, so it is short; it only ties a call to the log and the
   * trace, and 60 bits keep the ids of the processes sharing one log apart.
   */
  operationId(): string;
  /** n cryptographically random URL-safe characters ([A-Za-z0-9_-]). */
  token(length: number): string;
}

/**
 * Read-only ADB, plus two launches (an app, the Settings screen). Exactly the closed list:
 * an adapter must not offer anything else.
 */
export interface DeviceGateway {
  /** `adb get-state`: resolves 'device' when usable, else throws EMULATOR_UNAVAILABLE. */
  getState(): Promise<string>;
  getAndroidVersion(): Promise<string>;
  getModel(): Promise<string>;
  listPackages(): Promise<string[]>;
  /** Effective density in dpi (an override wins). */
  getDensity(): Promise<number>;
  getWindowState(): Promise<WindowState>;
  /** `dumpsys power`'s `mWakefulness`; null when the device does not print it. */
  getWakefulness(): Promise<Wakefulness | null>;
  /** Raw XML from `uiautomator dump /dev/tty`, trimmed to `<?xml … </hierarchy>`. */
  dumpUi(): Promise<string>;
  /** PNG bytes from `screencap -p`. */
  screencap(): Promise<Buffer>;
  /** `pkg/activity` of the single launcher activity, or null when there is none or several. */
  resolveLauncherActivity(pkg: PackageName): Promise<string | null>;
  /** `am start -W -n <component>`. */
  startActivity(component: string): Promise<void>;
  /** `am start -W -S -a android.settings.APPLICATION_SETTINGS`. */
  startApplicationSettings(): Promise<void>;
  /**
   * `am start -W -a android.intent.action.VIEW -d '<uri>' [<pkg>]` (app_open_link): the link
   * single-quoted for the device's shell, the package (when given) as the intent's package.
   */
  openLink(uri: LinkUri, pkg: PackageName | null): Promise<LinkStart>;
  /** `am force-stop <pkg>` (app_stop). */
  forceStop(pkg: PackageName): Promise<void>;
  /** `pm clear <pkg>` (app_clear_data); false when the device answered `Failed`. */
  clearData(pkg: PackageName): Promise<boolean>;
  /**
   * `adb install -r <hostPath>` (app_install): adb streams the host file to the
   * device's package manager. `hostPath` is a PreparedApk's private copy, never model text.
   */
  installApk(hostPath: string): Promise<InstallOutcome>;
  /** `ps -A -o PID,NAME`: every process and its name (app_logs). */
  listProcesses(): Promise<readonly { readonly pid: number; readonly name: string }[]>;
  /** `logcat -d -v threadtime -v year -v UTC -t <lines> --pid=<pid>`: the text as printed (app_logs). */
  readAppLog(pid: number, lines: number): Promise<string>;
  /** `logcat -b crash -d …`: the crash buffer as printed (app_crashes). */
  readCrashLog(): Promise<string>;
  /** `logcat -b events -d … -s am_anr`: the ANR entries as printed (app_crashes). */
  readAnrEvents(): Promise<string>;
}

/**
 * What `am start` said about a VIEW intent: started (with the `pkg/activity` it printed, when it
 * printed one), or no activity handles it (`unable to resolve Intent`).
 */
export type LinkStart =
  { readonly kind: 'started'; readonly component: string | null } | { readonly kind: 'unresolved' };

/** What the device's package manager answered: `Success`, or the whole text it printed instead. */
export type InstallOutcome = { readonly ok: true } | { readonly ok: false; readonly output: string };

/** An APK checked and read from the allowed folder, copied where nobody else can change it. */
export interface PreparedApk {
  readonly packageName: PackageName;
  readonly versionName: string | null;
  readonly versionCode: number | null;
  readonly sizeBytes: number;
  /** The private copy adb is given (a host path: never shown to the model). */
  readonly hostPath: string;
  /** Removes the private copy. */
  release(): Promise<void>;
}

/** The folder the user allowed for app_install (ANDROID_MCP_APK_DIR). */
export interface ApkFolder {
  /** Throws INVALID_ARGUMENT when the path leads outside the folder, is no regular file, is too large or is no APK. */
  prepare(relativePath: ApkRelativePath): Promise<PreparedApk>;
}

/** How the server locates an element; built by the domain, never taken from the caller. */
export interface Locator {
  /** `-android uiautomator` only for `resource_id_matches` (a regex: XPath 1.0 has none). */
  readonly using: 'id' | 'accessibility id' | 'xpath' | '-android uiautomator';
  readonly value: string;
}

export interface ElementRef {
  readonly id: string;
}

/**
 * How a set-text ended. `refused`: the element was there and said no (UiAutomator2's HTTP 400
 * `invalid element state`: ACTION_SET_TEXT returned false), which is not the same as not found.
 */
export type TypeOutcome = 'typed' | 'refused';

/** The two orientations WebDriver names. */
export type DisplayOrientation = 'PORTRAIT' | 'LANDSCAPE';

/** One Appium session. Every method is bounded by the caller's ceiling, not here. */
export interface AutomationSession {
  readonly id: string;
  /** Polls until found or `timeoutMs` passes; null when nothing matched. */
  findElement(locator: Locator, timeoutMs: number): Promise<ElementRef | null>;
  /**
   * Every element the locator finds, in the driver's order (document order), polling until at least
   * one is found or `timeoutMs` passes; empty when nothing matched. A selector's action counts its
   * matches this way, through the very find its press uses (docs/reference/contract.md, "One element or none").
   */
  findElements(locator: Locator, timeoutMs: number): Promise<readonly ElementRef[]>;
  /** First non-empty of text, content-desc, hint (what the summary calls the label). */
  elementLabel(element: ElementRef): Promise<string>;
  elementText(element: ElementRef): Promise<string>;
  /**
   * The element's class and bounds (`[l,t][r,b]`, '' when the driver has none): enough to find
   * it again in a page source read right after (ui_scroll's named container).
   */
  elementPlace(
    element: ElementRef,
  ): Promise<{ readonly className: string; readonly bounds: string; readonly packageName?: string }>;
  /**
   * Where a press lands: the element's bounds ('' when the driver has none) and its window's
   * package, without the class a press does not need (one request less per tap).
   */
  elementBounds(element: ElementRef): Promise<{ readonly bounds: string; readonly packageName?: string }>;
  /** Whether the element has input focus (its `focused` attribute). */
  isFocused(element: ElementRef): Promise<boolean>;
  click(element: ElementRef): Promise<void>;
  /** A long click on the element's centre, held for `holdMs` (the driver's long-click gesture). */
  longClick(element: ElementRef, holdMs: number): Promise<void>;
  /** Replace the element's text with `text`; `refused` when the element does not take text. */
  typeText(element: ElementRef, text: string): Promise<TypeOutcome>;
  /** One finger along `path` (W3C touch actions), lifted at its end. */
  swipe(path: SwipePath): Promise<void>;
  /**
   * One finger down at `point`, held `holdMs` (0: a tap), then up (W3C touch actions). Only for a
   * point the harness computed inside an element's bounds, never one a model sent.
   */
  pressAt(point: Point, holdMs: number): Promise<void>;
  windowSize(): Promise<{ width: number; height: number }>;
  back(): Promise<void>;
  /** One Android key event (KeyEvent code) through the driver: `mobile: pressKey` (device_key). */
  pressKey(keycode: number): Promise<void>;
  /** Pulls the notification shade down: the driver's `mobile: openNotifications` (UiDevice.openNotification). */
  openNotifications(): Promise<void>;
  /** Turns the screen: the WebDriver orientation endpoint (the server's SetOrientation, a rotation of 0 or 270). */
  setOrientation(orientation: DisplayOrientation): Promise<void>;
  pageSource(): Promise<string>;
  screenshot(): Promise<Buffer>;
  /**
   * One of the driver's own `mobile:` commands (remote mode): only the closed list
   * DRIVER_DEVICE_COMMANDS, with the arguments each takes. The answer is the driver's `value`,
   * unchecked: the caller parses it.
   */
  execute<C extends DriverDeviceCommand>(command: C, args: DriverDeviceCommandArgs[C]): Promise<unknown>;
  close(): Promise<void>;
}

/**
 * The closed list of `mobile:` commands remote mode sends, each with the arguments it
 * takes, as appium-android-driver's execute-method-map names them (docs/internals/device-quirks.md,
 * "Remote mode: the driver's commands"). Nothing else is ever sent through `execute`: no
 * `mobile: shell`, no text a model wrote, no coordinates.
 */
export interface DriverDeviceCommandArgs {
  readonly 'mobile: getCurrentPackage': Record<string, never>;
  readonly 'mobile: getCurrentActivity': Record<string, never>;
  readonly 'mobile: isLocked': Record<string, never>;
  readonly 'mobile: isKeyboardShown': Record<string, never>;
  readonly 'mobile: getDisplayDensity': Record<string, never>;
  readonly 'mobile: deviceInfo': Record<string, never>;
  readonly 'mobile: listApps': Record<string, never>;
  readonly 'mobile: queryAppState': { readonly appId: PackageName };
  readonly 'mobile: activateApp': { readonly appId: PackageName };
  readonly 'mobile: terminateApp': { readonly appId: PackageName };
  readonly 'mobile: clearApp': { readonly appId: PackageName };
  /**
   * Only the harness's own intents: the Settings action of settings_open_apps, or a component the
   * driver resolved.
   */
  readonly 'mobile: startActivity':
    | { readonly action: 'android.settings.APPLICATION_SETTINGS'; readonly wait: true; readonly stop: true }
    | { readonly component: string; readonly wait: true };
}
export type DriverDeviceCommand = keyof DriverDeviceCommandArgs;
export const DRIVER_DEVICE_COMMANDS: readonly DriverDeviceCommand[] = Object.freeze([
  'mobile: getCurrentPackage',
  'mobile: getCurrentActivity',
  'mobile: isLocked',
  'mobile: isKeyboardShown',
  'mobile: getDisplayDensity',
  'mobile: deviceInfo',
  'mobile: listApps',
  'mobile: queryAppState',
  'mobile: activateApp',
  'mobile: terminateApp',
  'mobile: clearApp',
  'mobile: startActivity',
]);

/**
 * Where remote mode's device gateway finds a session to observe through: the UI session's
 * or the kept one when either lives, else a kept one opened for it (src/application/sessions/ObserverSessions.ts).
 */
export interface DriverSessionSource {
  withSession<T>(body: (session: AutomationSession) => Promise<T>): Promise<T>;
}

/** What a new session is asked to survive. */
export interface SessionOptions {
  /**
   * How long the driver must keep the session alive without receiving a command (Appium's
   * `newCommandTimeout`). The driver drops an idle session after this on its own, which is the
   * last net for a session the harness could not close; it must not drop one the harness holds.
   */
  readonly idleTimeoutMs: number;
  /**
   * The longest the UiAutomator2 server may wait for the screen to idle before a page source,
   * find or after a click (its `waitForIdleTimeout` setting). Chosen so that this wait plus the
   * server's own 10 s wait for the window's root stays inside one action ceiling (idleWaitBudget.ts).
   */
  readonly waitForIdleTimeoutMs?: number;
  /**
   * How long the harness keeps this session without use before it closes it itself (the UI session's
   * idle lease, the kept session's lease): what another process is told of the device's hold (`held_by.until`).
   */
  readonly leaseMs?: number;
  /**
   * The session is the one kept after an action without a UI session: it gives the device up when
   * another process asks for it (the lock's ask, FileDeviceLock), by calling this while no call uses it.
   */
  readonly onAsked?: () => void;
}

export interface AutomationGateway {
  /** GET /status: Appium or a Selenium Grid in front of it; throws APPIUM_UNAVAILABLE with a remedy when unreachable or neither. */
  status(): Promise<AutomationEndpointStatus>;
  /** Creates a session with the contract's capabilities and the idle timeout asked for. */
  openSession(options: SessionOptions): Promise<AutomationSession>;
  /** Session ids Appium currently holds (GET /appium/sessions). */
  listSessionIds(): Promise<string[]>;
}

/** Files under the evidence directory. Names are bare file names, never paths. */
export interface EvidenceStore {
  /**
   * Creates the file exclusively; rejects with code 'EEXIST' when that file already exists, and
   * only then: a directory that cannot be made because a file stands in its way rejects with 'ENOTDIR'.
   */
  createExclusive(name: string, bytes: Buffer): Promise<void>;
  /** Reads a file directly inside the evidence directory, or null when absent. */
  read(name: string): Promise<Buffer | null>;
}

/** The evidence directory's listing and removal, for the retention bound (domain/evidence/retention.ts). */
export interface EvidenceDirectory {
  /**
   * Every regular file directly inside the directory whose name is an evidence id, with its size
   * (no symlink, no folder, nothing else is ever listed, so nothing else is ever removed); [] when
   * the directory does not exist yet.
   */
  list(): Promise<StoredEvidence[]>;
  /** Removes one evidence file; false when it was already gone. */
  remove(name: string): Promise<boolean>;
}

/**
 * What each harness process sharing one evidence directory holds (its open sessions' evidence and
 * what its running calls wrote), so that no process removes a file another live one still holds.
 */
export interface EvidenceHoldBoard {
  /** Replaces this process's entry with `names`; none: its entry goes. */
  publish(names: readonly string[]): Promise<void>;
  /** What other live processes hold; the entries of processes that are gone are tidied away. */
  heldByOthers(): Promise<ReadonlySet<string>>;
}

export interface PngInfo {
  readonly width: number;
  readonly height: number;
  /** True when every pixel has the same RGBA value. */
  readonly uniform: boolean;
}

/** A capture's facts and its preview, from one decode. */
export interface PngPreview {
  readonly info: PngInfo;
  /** A PNG whose longest side is ≤ maxSide and whose size is < maxBytes. */
  readonly image: Buffer;
}

export interface ImageTools {
  /** Decodes a PNG; throws when the bytes are not a PNG. */
  inspect(png: Buffer): PngInfo;
  /** A PNG whose longest side is ≤ maxSide and whose size is < maxBytes. */
  downscale(png: Buffer, maxSide: number, maxBytes: number): Buffer;
  /** inspect and downscale at once, decoding the PNG once; throws when the bytes are not a PNG. */
  preview(png: Buffer, maxSide: number, maxBytes: number): PngPreview;
}

/**
 * Text read from a screenshot's pixels, for visual refs (docs/reference/summary.md, "Visual refs").
 * Asked only for the regions the tree leaves unexposed; an engine that is not installed says so
 * rather than throwing, and the summary says what to install.
 */
export interface TextRecognizer {
  read(png: Buffer, regions: readonly Rect[]): Promise<TextRecognition>;
  /** Ends whatever the engine keeps running (its worker), at shutdown; a later read starts it again. */
  close(): void;
}

export type TextRecognition =
  | { readonly kind: 'read'; readonly lines: readonly OcrLine[] }
  | { readonly kind: 'unavailable'; readonly remedy: string };

/** A digest of the pixels inside a box of a PNG: equal digests, same pixels (a visual ref's staleness). */
export interface PixelDigest {
  digest(png: Buffer, box: Rect): string;
}

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** One line of `adb devices -l` (device_list). */
export interface ListedDevice {
  /** As adb printed it, checked against a plain serial pattern. */
  readonly serial: string;
  /** `device`, `offline`, `unauthorized`, `no permissions`, `recovery`, … as adb says. */
  readonly state: string;
  /** The `model:` field adb prints, or null. */
  readonly model: string | null;
}

/** Every device the adb server sees; read-only (device_list). */
export interface DeviceDirectory {
  list(): Promise<readonly ListedDevice[]>;
  /**
   * One `getprop` (every property) on `serial`: its identity (the lock's key), Android version and
   * model. Only asked of devices the guard allows; throws EMULATOR_UNAVAILABLE when the
   * device does not answer.
   */
  facts(serial: string): Promise<DeviceFacts>;
  /** Who holds the cross-process lock of the device with this identity key now (a live process), or null. */
  holderOf(identityKey: string): DeviceHolder | null;
}

/**
 * Who holds a device's cross-process lock (`held_by` of emulator_get_status and device_list): the
 * process, what it runs (`kind` 'operation': a tool call, until it answers; 'session': an Appium
 * session kept between calls), since when, and until when the hold lasts unless it is used again
 * (a session's lease end, ISO; null for an operation, which ends when the call answers).
 */
export interface DeviceHolder {
  readonly pid: number;
  readonly tool: string;
  readonly kind: 'operation' | 'session';
  readonly since: string;
  readonly until: string | null;
}

/** What a hold on the device is for, written into the cross-process lock for EMULATOR_BUSY messages. */
export interface DeviceLockActivity {
  /** The tool running (`ui_tap`), or what keeps the device between calls (`an open Appium session`). */
  readonly tool: string;
  /** The operation id, or the Appium session id for a session hold. */
  readonly operationId: string;
  /** 'operation' while a tool call runs; 'session' while an Appium session opened by this process lives (a UI session). */
  readonly kind: 'operation' | 'session';
  /** A session hold: how long the session lives after the last call that used it (the record's `until`). */
  readonly leaseMs?: number;
  /** A hold that gives the device up when another process asks (the kept session): called then, while no operation runs. */
  readonly onAsked?: () => void;
}

/**
 * One owner of the device across every harness process on this machine: the
 * in-process DeviceGate cannot see another MCP client's server. Holds are re-entrant
 * within one process: the first hold takes the lock, the last release gives it back.
 * Synchronous on purpose: taken before the first await of an operation, and given back
 * from a process 'exit' handler, where nothing asynchronous runs.
 */
export interface DeviceLock {
  /** Takes a hold, or throws EMULATOR_BUSY naming the holding process; the function given back releases it (idempotent). */
  hold(activity: DeviceLockActivity): () => void;
}

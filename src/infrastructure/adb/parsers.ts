/**
 * Pure parsers for the text adb returns. Every one accepts `\n` and `\r\n` (devices without
 * shell_v2 answer through a PTY that turns `\n` into `\r\n`) and tolerates extra lines, since
 * vendors and Android versions add fields freely. Which versions are covered: docs/internals/android-versions.md.
 */
import type { Rect } from '../../domain/tree/uiNode.js';
import type { ImeState, ScreenLock, SystemBars, Wakefulness, WindowState } from '../../domain/tree/screen.js';

const PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*$/;
/** `pkg/.Activity` or `pkg/full.Activity`; `$` is refused because the device shell would expand it. */
const COMPONENT =
  /^([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*)\/(\.?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)$/;

export function splitLines(text: string): string[] {
  return text.split(/\r?\n|\r/);
}

export function isValidComponent(component: string): boolean {
  return COMPONENT.test(component);
}

/** A physical display id as `screencap -d` takes it: digits only (it reaches the device's shell). */
export function isValidDisplayId(id: string): boolean {
  return /^[0-9]{1,20}$/.test(id);
}

export function isValidPackageName(name: string): boolean {
  return PACKAGE.test(name);
}

/** `getprop x` prints the value and a newline (empty when unset). */
export function parseGetprop(text: string): string {
  return text.replace(/\r/g, '').trim();
}

/** `pm list packages`: `package:com.x` lines → sorted, unique names. Other lines are ignored. */
export function parsePackageList(text: string): string[] {
  const names = new Set<string>();
  for (const line of splitLines(text)) {
    const match = /^package:(\S+)\s*$/.exec(line.trim());
    if (match?.[1] && PACKAGE.test(match[1])) names.add(match[1]);
  }
  return [...names].sort();
}

/**
 * `wm density`: `Physical density: 420` and, when overridden, `Override density: 480`.
 * The override wins; otherwise the last `density: N` line. null when there is none.
 */
export function parseDensity(text: string): number | null {
  let physical: number | null = null;
  let override: number | null = null;
  let last: number | null = null;
  for (const line of splitLines(text)) {
    const match = /^\s*(?:(physical|override)\s+)?density:\s*(\d+)\s*$/i.exec(line);
    if (!match?.[2]) continue;
    const value = Number(match[2]);
    if (!(value > 0)) continue;
    const kind = match[1]?.toLowerCase();
    if (kind === 'override') override = value;
    else if (kind === 'physical') physical = value;
    last = value;
  }
  return override ?? last ?? physical;
}

const RECT = String.raw`\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]`;

function rectFrom(match: RegExpExecArray, offset: number): Rect {
  return {
    left: Number(match[offset]),
    top: Number(match[offset + 1]),
    right: Number(match[offset + 2]),
    bottom: Number(match[offset + 3]),
  };
}

function hasArea(rect: Rect): boolean {
  return rect.right > rect.left && rect.bottom > rect.top;
}

const NO_IME: ImeState = Object.freeze({ visible: false, frame: null });

/**
 * The first visible frame of an `InsetsSource` line of these types (API 30+), `'hidden'` when such
 * lines exist but none is visible with an area, null when there is no such line (an older layout).
 * The IME and the system bars are read alike.
 */
function insetsFrame(lines: readonly string[], types: string): Rect | 'hidden' | null {
  const pattern = new RegExp(
    String.raw`InsetsSource\s+(?:id=\S+\s+)?type=(?:${types})\s+frame=${RECT}.*?\bvisible=(true|false)`,
  );
  let seen = false;
  for (const line of lines) {
    const match = pattern.exec(line);
    if (!match) continue;
    seen = true;
    const frame = rectFrom(match, 1);
    if (match[5] === 'true' && hasArea(frame)) return frame;
  }
  return seen ? 'hidden' : null;
}

/**
 * API 30–33 `InsetsSource type=ITYPE_IME frame=[…][…] … visible=true` and
 * API 34+ `InsetsSource id=… type=ime frame=[…][…] … visible=true`, in the controller's
 * InsetsState and in `InsetsSourceProvider … mSource=InsetsSource …`. null when no such line exists.
 */
function imeFromInsets(lines: readonly string[]): ImeState | null {
  const frame = insetsFrame(lines, 'ime|ITYPE_IME');
  if (frame === null) return null;
  return frame === 'hidden' ? NO_IME : { visible: true, frame };
}

/** What a `Window #N Window{… u0 <title>}:` block of `dumpsys window windows` says about its frame. */
interface WindowBlock {
  readonly frame: Rect | null;
  /** It has a surface, its view is VISIBLE (`mViewVisibility=0x0`) and, where printed, `isVisible=true`. */
  readonly shown: boolean;
  /** The top of `mGivenVisibleInsets` (else of content insets): the transparent part above an IME's keys. */
  readonly insetTop: number;
}

/**
 * The first window block whose title matches, read up to the next window block or section.
 * AOSP's WindowState prints `Window{<hash> u<user> <title>}`; vivo's builds print
 * `Window{<process>:<hash> u<user> <title> type=<n> }` (a real Android 14 dump in
 * test/fixtures/adb-outputs). The frame is `mFrame=[…][…]` up to Android 11 and the `frame=` of
 * the `Frames: parent=… display=… frame=[…][…]` line from Android 12 (the real dumps there too).
 */
function windowBlock(lines: readonly string[], title: string): WindowBlock | null {
  const header = new RegExp(
    String.raw`^\s*Window #\d+ Window\{(?:[A-Za-z0-9_.]+:)?[0-9a-f]+ u\d+ ${title}(?: type=\d+ ?)?\}:`,
  );
  const start = lines.findIndex((l) => header.test(l));
  if (start < 0) return null;
  let frame: Rect | null = null;
  let hasSurface = false;
  let viewVisible = false;
  let isVisible: boolean | null = null;
  let insetTop = 0;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^\s*Window #\d+ Window\{/.test(line) || /^\S/.test(line)) break;
    const frameMatch = new RegExp(String.raw`^\s*(?:mFrame=|Frames: .*?\bframe=)${RECT}`).exec(line);
    if (frameMatch) frame = rectFrom(frameMatch, 1);
    if (/\bmHasSurface=true\b/.test(line)) hasSurface = true;
    if (/\bmViewVisibility=0x0\b/.test(line)) viewVisible = true;
    const visibleMatch = /^\s*isVisible=(true|false)\b/.exec(line);
    if (visibleMatch) isVisible = visibleMatch[1] === 'true';
    const insetsMatch = new RegExp(String.raw`mGivenContentInsets=${RECT}\s+mGivenVisibleInsets=${RECT}`).exec(line);
    if (insetsMatch) insetTop = Number(insetsMatch[6]) || Number(insetsMatch[2]) || 0;
  }
  return { frame, shown: hasSurface && viewVisible && isVisible !== false, insetTop };
}

/**
 * API 28/29: no IME insets source; the input method is a window block
 * `Window #N Window{… u0 InputMethod}:` whose `mFrame=` is its frame, shown as `windowBlock` says.
 * The part of the window above the keys is excluded through `mGivenVisibleInsets` (or content insets).
 */
function imeFromWindowBlock(lines: readonly string[]): ImeState | null {
  const block = windowBlock(lines, 'InputMethod');
  if (!block) return null;
  const { frame, shown, insetTop } = block;
  if (!frame || !shown) return NO_IME;
  const visibleFrame: Rect = { ...frame, top: Math.min(frame.bottom, frame.top + Math.max(0, insetTop)) };
  return hasArea(visibleFrame) ? { visible: true, frame: visibleFrame } : NO_IME;
}

/**
 * One system bar, as each version reports it: API 34+ `InsetsSource id=… type=navigationBars
 * frame=[…][…] visible=true` (`statusBars`), API 30–33 `InsetsSource type=ITYPE_NAVIGATION_BAR …`
 * (`ITYPE_STATUS_BAR`), API 28–29 the bar's own window block (`NavigationBar`, `NavigationBar0` from
 * Android 10, `StatusBar`) and its `mFrame`. null when the bar is hidden or not reported.
 */
function barOf(lines: readonly string[], types: string, windowTitle: string): Rect | null {
  const frame = insetsFrame(lines, types);
  if (frame === 'hidden') return null;
  if (frame !== null) return frame;
  const block = windowBlock(lines, windowTitle);
  return block?.shown && block.frame && hasArea(block.frame) ? block.frame : null;
}

function systemBarsOf(lines: readonly string[]): SystemBars {
  return {
    status: barOf(lines, 'statusBars|ITYPE_STATUS_BAR', 'StatusBar'),
    navigation: barOf(lines, 'navigationBars|ITYPE_NAVIGATION_BAR', String.raw`NavigationBar\d*`),
  };
}

/** The status and navigation bars' frames from the live sections of `dumpsys window`. */
export function parseSystemBars(text: string): SystemBars {
  return systemBarsOf(liveWindowLines(text));
}

function imeOf(lines: readonly string[]): ImeState {
  return imeFromInsets(lines) ?? imeFromWindowBlock(lines) ?? NO_IME;
}

export function parseIme(text: string): ImeState {
  return imeOf(liveWindowLines(text));
}

/** A top-level section header of `dumpsys window`: `WINDOW MANAGER POLICY STATE (dumpsys window policy)`. */
const WINDOW_SECTION = /^WINDOW MANAGER [A-Z][A-Z ]*\(dumpsys window [a-z-]+\)\s*$/;
const LAST_ANR_SECTION = /^WINDOW MANAGER LAST ANR\b/;
const LAST_ANR_CONTINUED = /^Last ANR continued\s*$/;

/**
 * The lines of `dumpsys window` without the `WINDOW MANAGER LAST ANR` section.
 * WindowManagerService prints that section first; after an ANR (for two hours) it holds a copy of
 * the window manager's state at that moment: the window list with its own `mCurrentFocus` and
 * InputMethod window, then `Last ANR continued` and the display contents with their own header,
 * `cur=` and IME InsetsSource lines. Every value after it is the live one, so the copy is cut out:
 * from its header to the first section header after the frozen display contents' one.
 */
export function liveWindowLines(text: string): string[] {
  const lines = splitLines(text);
  const start = lines.findIndex((l) => LAST_ANR_SECTION.test(l));
  if (start < 0) return lines;
  const continued = lines.findIndex((l, i) => i > start && LAST_ANR_CONTINUED.test(l));
  let from = start + 1;
  if (continued >= 0) {
    // The frozen copy's own `WINDOW MANAGER DISPLAY CONTENTS` header belongs to the copy.
    const frozenHeader = lines.findIndex((l, i) => i > continued && WINDOW_SECTION.test(l));
    from = frozenHeader >= 0 ? frozenHeader + 1 : continued + 1;
  }
  const live = lines.findIndex((l, i) => i >= from && WINDOW_SECTION.test(l));
  return live < 0 ? lines.slice(0, start) : [...lines.slice(0, start), ...lines.slice(live)];
}

/**
 * The focused app: `mCurrentFocus=Window{… u0 pkg/act}` when the focused window belongs to an
 * activity, else `mFocusedApp=… pkg/…` (ActivityRecord on API 29+, AppWindowToken on 28).
 * Windows without a component (StatusBar, PopupWindow:…, null) fall through to mFocusedApp.
 */
export function parseForegroundPackage(text: string): string | null {
  return foregroundOf(liveWindowLines(text))?.package ?? null;
}

/**
 * The focused component from the live lines, its activity fully qualified (`.Settings` of
 * `com.android.settings` is `com.android.settings.Settings`), so the two lines' spellings agree.
 */
export function parseForegroundComponent(text: string): { package: string; activity: string } | null {
  return foregroundOf(liveWindowLines(text));
}

function foregroundOf(lines: readonly string[]): { package: string; activity: string } | null {
  const fromLine = (prefix: RegExp): { package: string; activity: string } | null => {
    for (const line of lines) {
      if (!prefix.test(line)) continue;
      const match = /\su\d+\s+([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)*)\/([^\s}]+)/.exec(line);
      if (match?.[1] && match[2]) {
        const activity = match[2].startsWith('.') ? `${match[1]}${match[2]}` : match[2];
        return { package: match[1], activity };
      }
    }
    return null;
  };
  return fromLine(/^\s*mCurrentFocus=/) ?? fromLine(/^\s*mFocusedApp=/);
}

/**
 * The logical size the dump's coordinates use (rotation included): `DisplayFrames w=1080 h=2400`,
 * else `cur=1080x2400`, else `mDisplayInfo … real 1080 x 2400`, else `init=1080x2400`.
 */
export function parseDisplaySize(text: string): { width: number; height: number } | null {
  return displaySizeOf(liveWindowLines(text));
}

function displaySizeOf(lines: readonly string[]): { width: number; height: number } | null {
  const text = lines.join('\n');
  const candidates = [
    /DisplayFrames\b[^\n]*?\bw=(\d+)\s+h=(\d+)/,
    /\bcur=(\d+)x(\d+)\b/,
    /\breal (\d+) x (\d+)\b/,
    /\binit=(\d+)x(\d+)\b/,
  ];
  for (const pattern of candidates) {
    const match = pattern.exec(text);
    if (match) {
      const width = Number(match[1]);
      const height = Number(match[2]);
      if (width > 0 && height > 0) return { width, height };
    }
  }
  return null;
}

/** System UI: it owns the keyguard's window (`NotificationShade` on API 31+, `StatusBar` before). */
export const SYSTEM_UI_PACKAGE = 'com.android.systemui';

/** The value of the first `name=true|false` in the lines (glued forms such as `mAwake=truemScreenOnEarly=` included). */
function flag(lines: readonly string[], name: RegExp): boolean | null {
  const pattern = new RegExp(String.raw`(?:^|[\s{])${name.source}=(true|false)`);
  for (const line of lines) {
    const match = pattern.exec(line);
    if (match) return match[1] === 'true';
  }
  return null;
}

/**
 * Whether the keyguard is up and the display on, from every form Android versions print
 * (docs/internals/device-quirks.md): `isKeyguardShowing=` (DisplayPolicy, API 30+), the policy's
 * `KeyguardServiceDelegate` `showing=`/`occluded=` and `KeyguardStateMonitor mIsShowing=` (API 24+),
 * `mShowingLockscreen=`/`mDreamingLockscreen=` (older releases), a focused `Keyguard` window (older
 * still). A focus on `NotificationShade` or `StatusBar` alone is not a lock: the pulled-down
 * notification shade has it too. An activity shown over the keyguard (`occluded=true`) is usable.
 */
function lockOf(lines: readonly string[]): ScreenLock {
  const text = lines.join('\n');
  const delegate = /KeyguardServiceDelegate\n((?:[ \t]+.*\n?)*)/.exec(text)?.[1] ?? '';
  const showing =
    flag(lines, /isKeyguardShowing/) === true ||
    /^\s*showing=true\s*$/m.test(delegate) ||
    /KeyguardStateMonitor\s+mIsShowing=true/.test(text) ||
    flag(lines, /mShowingLockscreen/) === true ||
    flag(lines, /mDreamingLockscreen/) === true ||
    /^\s*mCurrentFocus=Window\{\S+ u\d+ Keyguard\b/m.test(text);
  const occluded = /^\s*occluded=true\s*$/m.test(delegate) || flag(lines, /mKeyguardOccluded/) === true;
  const screenState = /^\s*screenState=SCREEN_STATE_(ON|OFF)\b/m.exec(delegate)?.[1];
  const awake =
    flag(lines, /mAwake/) ?? flag(lines, /mScreenOnFully/) ?? (screenState === undefined ? null : screenState === 'ON');
  return { locked: showing && !occluded, awake };
}

/** The lock screen and the display from one `dumpsys window` (its live sections). */
export function parseScreenLock(text: string): ScreenLock {
  return lockOf(liveWindowLines(text));
}

/**
 * Foreground, keyboard, display size and lock from one `dumpsys window`, all from its live
 * sections. While the keyguard is up the app named by `mFocusedApp` is behind the lock screen, not
 * in front: the foreground is System UI then (its window has the focus), with no activity. The
 * system bars too (edge-to-edge apps).
 */
export function parseWindowState(text: string): WindowState {
  const lines = liveWindowLines(text);
  const lock = lockOf(lines);
  const foreground = lock.locked ? null : foregroundOf(lines);
  return {
    foregroundPackage: lock.locked ? SYSTEM_UI_PACKAGE : (foreground?.package ?? null),
    foregroundActivity: foreground?.activity ?? null,
    ime: imeOf(lines),
    displaySize: displaySizeOf(lines),
    lock,
    systemBars: systemBarsOf(lines),
    density: densityOf(lines),
  };
}

/**
 * The default display's density from the window dump, so that a screen read needs no `wm density`
 * of its own. DisplayContent.dump prints `init=WxH Ndpi`, then ` base=WxH Mdpi` when `wm size` or
 * `wm density` overrides the panel (M is what `wm density` calls the override, the density apps
 * are laid out with); the global configuration (`mGlobalConfiguration={… Ndpi …}`) carries the
 * same density where the display section is absent. Null when neither is printed.
 */
function densityOf(lines: readonly string[]): number | null {
  for (const line of lines) {
    const display = /\binit=\d+x\d+ (\d+)dpi(?: base=\d+x\d+ (\d+)dpi)?/.exec(line);
    if (display) return positive(display[2] ?? display[1]);
  }
  for (const line of lines) {
    const global = /\bmGlobalConfiguration=\{[^}]*?\s(\d+)dpi\s/.exec(line);
    if (global) return positive(global[1]);
  }
  return null;
}

function positive(digits: string | undefined): number | null {
  const value = Number(digits);
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** `dumpsys power`: `mWakefulness=Awake|Asleep|Dreaming|Dozing` (some builds print `getWakefulnessLocked()=`); null when absent. */
export function parseWakefulness(text: string): Wakefulness | null {
  const match = /^\s*(?:mWakefulness|getWakefulnessLocked\(\))=(Awake|Asleep|Dreaming|Dozing)\s*$/m.exec(
    text.replace(/\r/g, ''),
  );
  return (match?.[1] as Wakefulness | undefined) ?? null;
}

/** Android's ResolverActivity: several activities matched, so there is no single launcher. */
const RESOLVER = /^android\/(com\.android\.internal\.app\.)?ResolverActivity$/;

/**
 * `cmd package resolve-activity --brief …`: a `priority=… preferredOrder=…` line then the
 * component, or `No activity found`. Returns the component as printed (`pkg/.Act` is what
 * `am start -n` accepts) when it is valid and belongs to `pkg`; else null.
 */
export function parseResolveActivity(text: string, pkg: string): string | null {
  const lines = splitLines(text)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  if (lines.some((l) => /^No activity found/i.test(l))) return null;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (RESOLVER.test(line)) return null;
    const match = COMPONENT.exec(line);
    if (match) return match[1] === pkg ? line : null;
  }
  return null;
}

/** `am start` reports failures on stdout: `Error: …`, `Error type 3`, `Exception occurred …`. */
export function findAmStartError(text: string): string | null {
  for (const line of splitLines(text)) {
    const trimmed = line.trim();
    if (/^(Error( type \d+)?:?|Exception occurred|java\.lang\.\w+Exception)/.test(trimmed)) return trimmed;
  }
  return null;
}

/**
 * `dumpsys display`: the physical id of the display that is on, from the first
 * `DisplayDeviceInfo{"…": uniqueId="local:<id>", … state ON, …}` line (a folded or opened
 * foldable lists both panels; the one in use is ON). null when no local display is on.
 */
export function parseActiveDisplayId(text: string): string | null {
  for (const line of splitLines(text)) {
    if (!/^\s*DisplayDeviceInfo\{/.test(line)) continue;
    const id = /uniqueId="local:(\d+)"/.exec(line)?.[1];
    const state = /,\s*state\s+([A-Z_]+)/.exec(line)?.[1];
    if (id !== undefined && state === 'ON' && isValidDisplayId(id)) return id;
  }
  return null;
}

/** A process as `ps -A -o PID,NAME` lists it (app_logs). */
export interface ProcessEntry {
  readonly pid: number;
  readonly name: string;
}

/**
 * toybox ps (ps.c): a header `  PID NAME`, then the pid right-aligned in 5 columns and NAME,
 * the process's argv[0], which for an app is its process name (`com.example` or `com.example:remote`).
 */
export function parseProcessList(text: string): ProcessEntry[] {
  const out: ProcessEntry[] = [];
  for (const line of splitLines(text)) {
    const m = /^\s*(\d{1,9})\s+(\S+)\s*$/.exec(line);
    if (m) out.push({ pid: Number(m[1]), name: m[2] ?? '' });
  }
  return out;
}

/** A pid as ps printed it, re-checked before it goes into an argv: digits only, no leading zero. */
export function isValidPid(pid: number): boolean {
  return Number.isSafeInteger(pid) && pid > 0 && pid < 4_194_305;
}

/**
 * `getprop` with no argument, as Android's toolbox prints it: one `[name]: [value]` per line.
 * Lines of another shape (a value with a newline in it continues on the next line) are skipped.
 */
export function parsePropertyListing(text: string): Map<string, string> {
  const props = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\[([^\]]+)\]: \[(.*)\]$/.exec(line.trim());
    if (match?.[1] !== undefined && match[2] !== undefined) props.set(match[1], match[2]);
  }
  return props;
}

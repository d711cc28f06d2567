/**
 * `dumpsys window` in the layout of the device's API level: the display contents (insets, display
 * policy, focus), the window list, the policy and keyguard state, and the frozen copy of the last ANR.
 */
import { NAVIGATION_BAR_HEIGHT, STATUS_BAR_HEIGHT, shortActivity } from '../../scenario/model.js';
import type { ForegroundInfo } from '../../device/ui.js';
import { NOTIFICATION_SHADE_SCREEN_ID } from '../../scenario/notificationShade.js';
import { appHeight, displayFacts, keyguardWindowTitle, type WindowFacts } from '../../device/windowState.js';
import { PHYSICAL_DENSITY } from '../../device/system.js';
import type { CommandIo } from '../interpreter.js';
import type { ShellDevice } from '../context.js';

/** API level from ro.build.version.sdk (34 when unset or unreadable). */
export function sdkOf(device: ShellDevice): number {
  const sdk = Number.parseInt(device.system.props.get('ro.build.version.sdk') ?? '', 10);
  return Number.isInteger(sdk) && sdk > 0 ? sdk : 34;
}

/** The window manager's state now (what a frozen ANR copy is taken from). */
export function liveWindowFacts(device: ShellDevice): WindowFacts {
  const facts = windowFactsNow(device);
  return device.ui.isSecureScreen(facts.focusedApp.screenId) ? { ...facts, appSecure: true } : facts;
}

function windowFactsNow(device: ShellDevice): WindowFacts {
  const fg = device.ui.foreground();
  const transit = device.focusInTransit();
  const { width, height } = device.ui.displaySize();
  const base = {
    sdk: sdkOf(device),
    density: device.system.density(),
    physicalDensity: PHYSICAL_DENSITY,
    display: displayFacts(width, height, device.ui.displayRotation()),
    imeVisible: device.ui.imeVisible(),
    keyguard: device.traits.locked,
    awake: device.traits.asleep === false,
  };
  // io.appium.settings's trampoline activity, started by the first session after boot, holds the focus for a moment.
  const helper = device.settingsHelperInFront();
  if (helper) return { ...base, focus: helper, focusedApp: helper };
  // Right after Back the old window can still hold focus (and its activity still be the focused app);
  // a shade Back just closed is System UI's window, over the activity that stayed resumed.
  if (transit?.phase === 'stale' && transit.previous.screenId === NOTIFICATION_SHADE_SCREEN_ID) {
    return { ...base, systemWindow: 'NotificationShade', focus: null, focusedApp: device.ui.resumedActivity() };
  }
  if (transit?.phase === 'stale') return { ...base, focus: transit.previous, focusedApp: transit.previous };
  // The pulled-down shade: System UI's NotificationShade window has the focus, the activity behind stays resumed.
  const shade = device.ui.systemWindow();
  if (shade !== null) return { ...base, systemWindow: shade, focus: null, focusedApp: device.ui.resumedActivity() };
  // While a slow app's first window is still being drawn, or Back's new window cannot take focus yet, no window has it.
  const noFocus = transit?.phase === 'none' || device.launchInProgress() !== null;
  return { ...base, focus: noFocus ? null : fg, focusedApp: fg };
}

const activityRecord = (app: ForegroundInfo): string =>
  `ActivityRecord{4c1b7a5 u0 ${app.package}/${shortActivity(app.package, app.activity)} t42}`;
const appWindow = (app: ForegroundInfo): string => `Window{8d0a2f1 u0 ${app.package}/${app.activity}}`;
const systemUiWindow = (title: string): string => `Window{5e0c2a1 u0 ${title}}`;

/**
 * `DisplayPolicy.dump` (API 30+; read in aosp-mirror/platform_frameworks_base
 * `services/core/java/com/android/server/wm/DisplayPolicy.java`): the power and keyguard state the
 * window manager keeps per display. Before API 30 PhoneWindowManager prints these (policySection).
 */
function displayPolicyLines(facts: WindowFacts): string {
  const on = facts.awake;
  const shade = facts.sdk >= 31 ? `      mExpandedPanel=${systemUiWindow('NotificationShade')}\n` : '';
  return (
    '    DisplayPolicy\n' +
    '      mCarDockEnablesAccelerometer=true mDeskDockEnablesAccelerometer=true\n' +
    '      mDockMode=EXTRA_DOCK_STATE_UNDOCKED mLidState=LID_ABSENT\n' +
    `      mAwake=${on} mScreenOnEarly=${on} mScreenOnFully=${on}\n` +
    `      mKeyguardDrawComplete=${on} mWindowManagerDrawComplete=${on}\n` +
    '      mHdmiPlugged=false\n' +
    '      mShowingDream=false mDreamingLockscreen=false\n' +
    `      mStatusBar=${systemUiWindow('StatusBar')}\n` +
    shade +
    `      isKeyguardShowing=${facts.keyguard}\n`
  );
}

function focusLines(facts: WindowFacts, indent: string): string {
  const record = activityRecord(facts.focusedApp);
  // API 28 wraps the record in the window token; 29+ prints the record itself.
  const focusedApp = facts.sdk <= 28 ? `AppWindowToken{41c8a07 token=Token{d0f3a46 ${record}}}` : record;
  // The keyguard's window takes the focus; the resumed activity behind it stays the focused app.
  const focus = facts.keyguard
    ? systemUiWindow(keyguardWindowTitle(facts.sdk))
    : facts.systemWindow !== undefined
      ? systemUiWindow(facts.systemWindow)
      : facts.focus
        ? appWindow(facts.focus)
        : 'null';
  return `${indent}mCurrentFocus=${focus}\n${indent}mFocusedApp=${focusedApp}\n`;
}

function frameText([l, t, r, b]: readonly [number, number, number, number]): string {
  return `[${l},${t}][${r},${b}]`;
}

/**
 * The IME in the controller's InsetsState, as each version prints it (fixtures of the same
 * formats: test/unit/infrastructure/fixtures/dumpsys-window-api*.txt):
 * API 34+ `InsetsSource id=3 type=ime frame=… visibleFrame=… visible=… flags=…`,
 * API 31–33 `InsetsSource type=ITYPE_IME frame=… visibleFrame=… visible=…`,
 * API 30 `InsetsSource type=ITYPE_IME frame=… visible=…`. API 28–29 have no insets controller.
 */
function insetsLines(facts: WindowFacts): string {
  const { sdk, imeVisible: ime } = facts;
  const { width, height } = facts.display;
  const frame = frameText(facts.display.imeFrame);
  const bars = (status: string, nav: string, suffix: string, statusSide = '', navSide = ''): string =>
    `        InsetsSource ${status} frame=[0,0][${width},${STATUS_BAR_HEIGHT}] visible=true${suffix}${statusSide}\n` +
    `        InsetsSource ${nav} frame=[0,${height - NAVIGATION_BAR_HEIGHT}][${width},${height}] visible=true${suffix}${navSide}\n`;
  if (sdk >= 34) {
    // Android 15 (API 35) added each source's side hint and bounding rects to the line.
    const side = (hint: string): string => (sdk >= 35 ? ` sideHint=${hint} boundingRects=null` : '');
    return (
      '    InsetsStateController\n' +
      '      InsetsState\n' +
      `        mDisplayFrame=[0,0][${width},${height}]\n` +
      bars('id=27 type=statusBars', 'id=d6370001 type=navigationBars', ' flags=', side('TOP'), side('BOTTOM')) +
      `        InsetsSource id=3 type=ime frame=${frame} visible=${ime} flags=${side('BOTTOM')}\n`
    );
  }
  const visibleFrame = sdk >= 31 ? ` visibleFrame=${frame}` : '';
  const imeLine = `InsetsSource type=ITYPE_IME frame=${frame}${visibleFrame} visible=${ime}`;
  return (
    '  InsetsStateController\n' +
    '    InsetsState\n' +
    (sdk >= 31 ? `      mDisplayFrame=Rect(0, 0 - ${width}, ${height})\n` : '') +
    bars('type=ITYPE_STATUS_BAR', 'type=ITYPE_NAVIGATION_BAR', '').replace(/^ {8}/gm, '      ') +
    `      ${imeLine}\n` +
    '    ITYPE_IME -> Window{e3f0c12 u0 InputMethod}\n' +
    '      InsetsSourceProvider\n' +
    `        mSource=${imeLine}\n` +
    '        mFrozen=false\n'
  );
}

/** `RootWindowContainer.dumpDisplayContents`, header included (a frozen ANR copy repeats it). */
function displaysSection(facts: WindowFacts): string {
  const { sdk, density, physicalDensity } = facts;
  const { width, height, rotation } = facts.display;
  const app = appHeight(facts.display);
  const size = rotation % 2 === 1 ? `${height}x${width}` : `${width}x${height}`;
  // DisplayContent.dump: `base=` only when `wm size` or `wm density` overrides the panel's own values.
  const base = density !== physicalDensity ? ` base=${size} ${density}dpi` : '';
  const head =
    'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n' +
    `  Display: mDisplayId=0${sdk >= 31 ? ' rootTasks=3' : sdk >= 29 ? ' stacks=2' : ''}\n` +
    `    init=${size} ${physicalDensity}dpi${base} cur=${width}x${height} app=${width}x${app} rng=1080x1017-2274x2211\n` +
    `    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,${width},${height}))\n`;
  if (sdk < 34) {
    return (
      head +
      '\n' +
      `  DisplayFrames w=${width} h=${height} r=${rotation}\n` +
      `    mStable=[0,${STATUS_BAR_HEIGHT}][${width},${app}]\n` +
      '\n' +
      (sdk >= 30 ? `${insetsLines(facts)}\n` : '') +
      (sdk >= 30 ? displayPolicyLines(facts) : '') +
      focusLines(facts, '  ') +
      '  mInputMethodWindow=Window{e3f0c12 u0 InputMethod}\n' +
      '\n'
    );
  }
  return (
    head +
    `    mDisplayInfo=DisplayInfo{"Built-in Screen", displayId 0, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, FLAG_TRUSTED, real ${width} x ${height}, largest app 2400 x 2274, smallest app 1080 x 1017, appMode ${width} x ${app}, mode 1, defaultMode 1, rotation ${rotation}, state ON}\n` +
    displayPolicyLines(facts) +
    focusLines(facts, '    ') +
    `    mInputMethodWindow=Window{e3f0c12 u0 InputMethod}\n` +
    insetsLines(facts) +
    '\n'
  );
}

/**
 * The input method's window block. On API 28–29 this is the only place the keyboard shows:
 * the window spans from above the keys (`mFrame`), `mGivenVisibleInsets` gives the
 * transparent part on top, and it is shown when it has a surface and its view is VISIBLE.
 */
function imeWindowBlock(facts: WindowFacts): string {
  const ime = facts.imeVisible;
  if (facts.sdk > 29) {
    return `  Window #0 Window{e3f0c12 u0 InputMethod}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{9a8b7c6 1024:u0a10133} mClient=android.os.BinderProxy@1f2e3d4\n    mViewVisibility=${ime ? '0x0' : '0x8'} mHaveFrame=true mObscured=false\n`;
  }
  const [l, t, r, b] = facts.display.imeFrame;
  const transparentTop = 126;
  return (
    '  Window #0 Window{e3f0c12 u0 InputMethod}:\n' +
    '    mDisplayId=0 stackId=0 mSession=Session{9a8b7c6 1024:u0a10133} mClient=android.os.BinderProxy@1f2e3d4\n' +
    '    mOwnerUid=10133 mShowToOwnerOnly=true package=com.google.android.inputmethod.latin appop=NONE\n' +
    '    mAttrs=WM.LayoutParams{(0,0)(fillxwrap) gr=#50 sim=#120 ty=INPUT_METHOD fmt=TRANSPARENT wanim=0x1030056\n' +
    '      fl=NOT_FOCUSABLE LAYOUT_IN_SCREEN SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS}\n' +
    `    Requested w=${r - l} h=${b - t + transparentTop} mLayoutSeq=212\n` +
    '    mIsImWindow=true mIsWallpaper=false mIsFloatingLayer=true mWallpaperVisible=false\n' +
    `    mViewVisibility=${ime ? '0x0' : '0x8'} mHaveFrame=true mObscured=false\n` +
    '    mSeq=0 mSystemUiVisibility=0x0\n' +
    `    mGivenContentInsets=[0,${transparentTop}][0,0] mGivenVisibleInsets=[0,${transparentTop}][0,0]\n` +
    `    mHasSurface=${ime} isReadyForDisplay()=true mWindowRemovalAllowed=false\n` +
    `    mFrame=[${l},${t - transparentTop}][${r},${b}] last=[${l},${t - transparentTop}][${r},${b}]\n` +
    '    isOnScreen=true\n' +
    `    isVisible=${ime}\n`
  );
}

/**
 * System UI's bar windows, on top of the list. On API 28–29 their `mFrame` is the only place the
 * bars show (API 30+ also print them as InsetsSource lines, which readers prefer). The navigation
 * bar's title gained the display id in Android 10 (`NavigationBar0`).
 */
function barWindowBlocks(facts: WindowFacts): string {
  const { width, height } = facts.display;
  const block = (n: number, title: string, type: string, frame: string, h: number): string =>
    `  Window #${n} ${systemUiWindow(title)}:\n` +
    `    mDisplayId=0 ${facts.sdk >= 29 ? 'rootTaskId' : 'stackId'}=0 mSession=Session{6d2e0f3 1288:u0a10030} mClient=android.os.BinderProxy@7e3f1a4\n` +
    '    mOwnerUid=10030 mShowToOwnerOnly=false package=com.android.systemui appop=NONE\n' +
    `    mAttrs=WM.LayoutParams{(0,0)(fillx${h}) ty=${type} fmt=TRANSLUCENT}\n` +
    '    mViewVisibility=0x0 mHaveFrame=true mObscured=false\n' +
    '    mHasSurface=true isReadyForDisplay()=true mWindowRemovalAllowed=false\n' +
    `    mFrame=${frame} last=${frame}\n` +
    '    isOnScreen=true\n' +
    '    isVisible=true\n';
  return (
    block(
      3,
      facts.sdk >= 29 ? 'NavigationBar0' : 'NavigationBar',
      'NAVIGATION_BAR',
      frameText([0, height - NAVIGATION_BAR_HEIGHT, width, height]),
      NAVIGATION_BAR_HEIGHT,
    ) + block(2, 'StatusBar', 'STATUS_BAR', frameText([0, 0, width, STATUS_BAR_HEIGHT]), STATUS_BAR_HEIGHT)
  );
}

/**
 * `PhoneWindowManager.dump` with `KeyguardServiceDelegate.dump` (AOSP
 * `services/core/java/com/android/server/policy/`). Before API 30 the policy itself printed
 * `mAwake=` glued to `mScreenOnEarly=` (no space between them, as the source prints it), the dream
 * flags and the status bar window; from API 30 those live in DisplayPolicy (displayPolicyLines).
 * The keyguard modelled is a PIN one: while it shows, input is restricted.
 */
function policySection(facts: WindowFacts): string {
  const on = facts.awake;
  const showing = facts.keyguard;
  const legacy =
    facts.sdk < 30
      ? `    mAwake=${on}mScreenOnEarly=${on} mScreenOnFully=${on}\n` +
        `    mKeyguardDrawComplete=${on} mWindowManagerDrawComplete=${on}\n` +
        '    mShowingDream=false mDreamingLockscreen=false mDreamingSleepToken=null\n' +
        `    mStatusBar=${systemUiWindow('StatusBar')} isStatusBarKeyguard=${showing}\n`
      : '';
  return (
    'WINDOW MANAGER POLICY STATE (dumpsys window policy)\n' +
    '    mSystemReady=true mSystemBooted=true\n' +
    '    mCameraLensCoverState=LENS_COVER_ABSENT\n' +
    '    mWakeGestureEnabledSetting=true\n' +
    legacy +
    '    mOrientationListener=OrientationListener{enabled=true}\n' +
    '    KeyguardServiceDelegate\n' +
    `      showing=${showing}\n` +
    `      inputRestricted=${showing}\n` +
    '      occluded=false\n' +
    `      secure=${showing}\n` +
    '      dreaming=false\n' +
    '      systemIsReady=true\n' +
    '      deviceHasKeyguard=true\n' +
    '      enabled=true\n' +
    '      offReason=OFF_BECAUSE_OF_USER\n' +
    '      currentUser=0\n' +
    '      bootCompleted=true\n' +
    `      screenState=${on ? 'SCREEN_STATE_ON' : 'SCREEN_STATE_OFF'}\n` +
    `      interactiveState=${on ? 'INTERACTIVE_STATE_AWAKE' : 'INTERACTIVE_STATE_SLEEP'}\n` +
    '      KeyguardStateMonitor\n' +
    `        mIsShowing=${showing}\n` +
    '        mSimSecure=false\n' +
    `        mInputRestricted=${showing}\n` +
    '        mTrusted=false\n' +
    '        mCurrentUserId=0\n' +
    '\n'
  );
}

/**
 * The activity window's WindowManager.LayoutParams (`mAttrs=` of WindowState.dump, its toString):
 * `fl=` names the set flags by ViewDebug.flagsToString in bit order, so FLAG_SECURE (0x2000) prints
 * `SECURE` between LAYOUT_IN_SCREEN (0x100) and LAYOUT_INSET_DECOR (0x10000).
 */
function appAttrsLine(facts: WindowFacts): string {
  const secure = facts.appSecure === true ? ' SECURE' : '';
  return (
    '    mAttrs=WM.LayoutParams{(0,0)(fillxfill) sim={adjust=resize forwardNavigation} ty=BASE_APPLICATION wanim=0x10302f8\n' +
    `      fl=LAYOUT_IN_SCREEN${secure} LAYOUT_INSET_DECOR SPLIT_TOUCH HARDWARE_ACCELERATED DRAWS_SYSTEM_BAR_BACKGROUNDS}\n`
  );
}

/** `dumpWindowsNoHeaderLocked`: the window list and the focus, without the section header. */
function windowsBody(facts: WindowFacts): string {
  const app = appWindow(facts.focusedApp);
  return (
    barWindowBlocks(facts) +
    imeWindowBlock(facts) +
    `  Window #1 ${app}:\n    mDisplayId=0 rootTaskId=42 mSession=Session{5d6e7f8 2000:u0a10160} mClient=android.os.BinderProxy@2c3d4e5\n` +
    appAttrsLine(facts) +
    '    mViewVisibility=0x0 mHaveFrame=true mObscured=false\n' +
    '\n' +
    focusLines(facts, '  ') +
    `  mInputMethodTarget=${app}\n` +
    `  mInputMethodInputTarget=${app}\n` +
    '  mHighResSnapshotScale=0.8\n' +
    '  mInTouchMode=true\n' +
    '  mBlurEnabled=true\n' +
    '  mLastDisplayFreezeDuration=0 due to new-config\n' +
    '  mDisableSecureWindows=false\n' +
    '  mHasPermanentDpad=false\n' +
    '  mTopFocusedDisplayId=0\n' +
    '  mDisplayFrozen=false windowsAreFocusable=true\n' +
    '  mAnimationScale=1.0\n'
  );
}

function windowsSection(facts: WindowFacts): string {
  return `WINDOW MANAGER WINDOWS (dumpsys window windows)\n${windowsBody(facts)}`;
}

/** `DateFormat.getDateTimeInstance()` in en-US, in the device's time zone (Etc/UTC). */
const anrTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });

/**
 * `dumpLastANRLocked`. After an ANR, `saveANRStateLocked` kept: the time, the application and
 * window at fault and the reason, the window list (`dumpWindowsNoHeaderLocked`), a
 * `Last ANR continued` line and the display contents with their own header, all as they were then.
 */
function lastAnrSection(device: ShellDevice): string {
  const head = 'WINDOW MANAGER LAST ANR (dumpsys window lastanr)\n';
  const anr = device.lastAnr();
  if (!anr) return `${head}  <no ANR has occurred since boot>\n`;
  const app = anr.application;
  return (
    head +
    `  ANR time: ${anrTimeFormat.format(new Date(anr.atMs))}\n` +
    `  Application at fault: ${activityRecord(app)}\n` +
    `  Window at fault: ${app.package}/${app.activity}\n` +
    `  Reason: ${anr.reason}\n` +
    '\n' +
    windowsBody(anr.facts) +
    '\n' +
    'Last ANR continued\n' +
    displaysSection(anr.facts)
  );
}

export function dumpsysWindow(io: CommandIo, device: ShellDevice, args: readonly string[]): number {
  const section = args[0];
  const facts = (): WindowFacts => liveWindowFacts(device);
  if (section === 'displays' || section === 'd') io.out(displaysSection(facts()));
  else if (section === 'windows' || section === 'w') io.out(windowsSection(facts()));
  else if (section === 'policy' || section === 'p') io.out(policySection(facts()));
  else if (section === 'lastanr' || section === 'l') io.out(lastAnrSection(device));
  // doDump: a blank line, the last ANR (frozen, when there was one) first, then the live sections.
  else if (section === undefined || section === '-a')
    io.out(
      `\n${lastAnrSection(device)}\n${policySection(facts())}${displaysSection(facts())}${windowsSection(facts())}`,
    );
  else io.out(`Unknown window dump command: ${section}\n`);
  return 0;
}

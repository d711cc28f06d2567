/** `dumpsys` services, with the lines Appium and the harness parse, in API 34's layout. */
import { IME_FRAME, NAVIGATION_BAR_HEIGHT, SCREEN_HEIGHT, SCREEN_WIDTH, STATUS_BAR_HEIGHT, shortActivity } from '../../scenario/model.js';
import type { CommandIo } from '../interpreter.js';
import type { CommandTable, ShellDevice } from '../context.js';

function focusLines(device: ShellDevice, indent: string): string {
  const fg = device.ui.foreground();
  return `${indent}mCurrentFocus=Window{8d0a2f1 u0 ${fg.package}/${fg.activity}}\n${indent}mFocusedApp=ActivityRecord{4c1b7a5 u0 ${fg.package}/${shortActivity(fg.package, fg.activity)} t42}\n`;
}

function insetsLines(device: ShellDevice): string {
  const ime = device.ui.imeVisible();
  const [l, t, r, b] = IME_FRAME;
  return (
    '    InsetsStateController\n' +
    '      InsetsState\n' +
    '        mDisplayFrame=[0,0][1080,2400]\n' +
    `        InsetsSource id=27 type=statusBars frame=[0,0][${SCREEN_WIDTH},${STATUS_BAR_HEIGHT}] visible=true flags=\n` +
    `        InsetsSource id=d6370001 type=navigationBars frame=[0,${SCREEN_HEIGHT - NAVIGATION_BAR_HEIGHT}][${SCREEN_WIDTH},${SCREEN_HEIGHT}] visible=true flags=\n` +
    `        InsetsSource id=3 type=ime frame=[${l},${t}][${r},${b}] visible=${ime} flags=\n`
  );
}

function displaysSection(device: ShellDevice): string {
  const density = device.system.density();
  return (
    'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n' +
    '  Display: mDisplayId=0 rootTasks=3\n' +
    `    init=${SCREEN_WIDTH}x${SCREEN_HEIGHT} ${density}dpi cur=${SCREEN_WIDTH}x${SCREEN_HEIGHT} app=${SCREEN_WIDTH}x${SCREEN_HEIGHT - NAVIGATION_BAR_HEIGHT} rng=1080x1017-2274x2211\n` +
    `    deferred=false mLayoutNeeded=false mTouchExcludeRegion=SkRegion((0,0,${SCREEN_WIDTH},${SCREEN_HEIGHT}))\n` +
    '    mDisplayInfo=DisplayInfo{"Built-in Screen", displayId 0, FLAG_SECURE, FLAG_SUPPORTS_PROTECTED_BUFFERS, FLAG_TRUSTED, real 1080 x 2400, largest app 2400 x 2274, smallest app 1080 x 1017, appMode 1080 x 2274, mode 1, defaultMode 1, rotation 0, state ON}\n' +
    focusLines(device, '    ') +
    `    mInputMethodWindow=Window{e3f0c12 u0 InputMethod}\n` +
    insetsLines(device) +
    '\n'
  );
}

function policySection(): string {
  return (
    'WINDOW MANAGER POLICY STATE (dumpsys window policy)\n' +
    '    mSystemReady=true mSystemBooted=true\n' +
    '    mCameraLensCoverState=LENS_COVER_ABSENT\n' +
    '    mWakeGestureEnabledSetting=true\n' +
    '    mKeyguardDrawComplete=true mWindowManagerDrawComplete=true\n' +
    '    mScreenOnEarly=true mScreenOnFully=true\n' +
    '    mOrientationListener=OrientationListener{enabled=true}\n' +
    '    KeyguardServiceDelegate\n' +
    '      showing=false\n' +
    '      inputRestricted=false\n' +
    '      secure=false\n' +
    '      dreaming=false\n' +
    '      systemIsReady=true\n' +
    '      deviceHasKeyguard=true\n' +
    '      enabled=true\n' +
    '      offReason=OFF_BECAUSE_OF_USER\n' +
    '      currentUser=0\n' +
    '      bootCompleted=true\n' +
    '      screenState=SCREEN_STATE_ON\n' +
    '      interactiveState=INTERACTIVE_STATE_AWAKE\n' +
    '      KeyguardStateMonitor\n' +
    '        mIsShowing=false\n' +
    '        mSimSecure=false\n' +
    '        mInputRestricted=false\n' +
    '        mTrusted=false\n' +
    '        mCurrentUserId=0\n' +
    '\n'
  );
}

function windowsSection(device: ShellDevice): string {
  const fg = device.ui.foreground();
  const ime = device.ui.imeVisible();
  return (
    'WINDOW MANAGER WINDOWS (dumpsys window windows)\n' +
    `  Window #0 Window{e3f0c12 u0 InputMethod}:\n    mDisplayId=0 rootTaskId=1 mSession=Session{9a8b7c6 1024:u0a10133} mClient=android.os.BinderProxy@1f2e3d4\n    mViewVisibility=${ime ? '0x0' : '0x8'} mHaveFrame=true mObscured=false\n` +
    `  Window #1 Window{8d0a2f1 u0 ${fg.package}/${fg.activity}}:\n    mDisplayId=0 rootTaskId=42 mSession=Session{5d6e7f8 2000:u0a10160} mClient=android.os.BinderProxy@2c3d4e5\n    mViewVisibility=0x0 mHaveFrame=true mObscured=false\n` +
    '\n' +
    focusLines(device, '  ') +
    `  mInputMethodTarget=Window{8d0a2f1 u0 ${fg.package}/${fg.activity}}\n` +
    `  mInputMethodInputTarget=Window{8d0a2f1 u0 ${fg.package}/${fg.activity}}\n` +
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

function dumpsysWindow(io: CommandIo, device: ShellDevice, args: readonly string[]): number {
  const section = args[0];
  if (section === 'displays') io.out(displaysSection(device));
  else if (section === 'windows') io.out(windowsSection(device));
  else if (section === 'policy') io.out(policySection());
  else if (section === undefined || section === '-a') io.out(`WINDOW MANAGER LAST ANR (dumpsys window lastanr)\n  <no ANR has occurred since boot>\n\n${policySection()}${displaysSection(device)}${windowsSection(device)}`);
  else io.out(`Unknown window dump command: ${section}\n`);
  return 0;
}

function dumpsysActivity(io: CommandIo, device: ShellDevice, args: readonly string[]): number {
  const [section, filter] = args;
  if (section === 'services') {
    const wantsHelper = filter === undefined || 'io.appium.settings'.startsWith(filter.split('/')[0] ?? '');
    const service = filter?.includes('/') ? filter : 'io.appium.settings/.ForegroundService';
    io.out('ACTIVITY MANAGER SERVICES (dumpsys activity services)\n');
    if (device.system.settingsHelperForeground && wantsHelper && !service.includes('recorder')) {
      io.out(`  User 0 active services:\n  * ServiceRecord{d0e2b8c u0 ${service}}\n    intent={cmp=${service}}\n    packageName=io.appium.settings\n    processName=io.appium.settings\n    baseDir=/data/app/~~V1rtua1Dev1ce==/io.appium.settings-1/base.apk\n    dataDir=/data/user/0/io.appium.settings\n    app=ProcessRecord{1a2b3c4 3100:io.appium.settings/u0a190}\n    isForeground=true foregroundId=1 foregroundNoti=Notification(channel=main_channel shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x62 color=0x00000000 vis=PRIVATE)\n    createTime=-5m12s345ms startingBgTimeout=--\n    lastActivity=-5m12s345ms restartTime=-5m12s345ms createdFromFg=true\n    startRequested=true delayedStop=false stopIfKilled=false callStart=true lastStartId=1\n\n`);
    } else io.out('  (nothing)\n');
    return 0;
  }
  const fg = device.ui.foreground();
  const record = `ActivityRecord{4c1b7a5 u0 ${fg.package}/${shortActivity(fg.package, fg.activity)} t42}`;
  if (section === 'activities' || section === 'a' || section === undefined || section === 'top' || section === 'recents') {
    io.out(`ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from top to bottom):\n  * Task{a1b2c3d #42 type=standard A=10160:${fg.package} U=0 visible=true visibleRequested=true mode=fullscreen translucent=false sz=1}\n    topResumedActivity=${record}\n    * Hist  #0: ${record}\n\n  ResumedActivity: ${record}\n  mFocusedApp=${record}\n  mResumedActivity: ${record}\n`);
    return 0;
  }
  if (section === 'processes' || section === 'p') {
    for (const p of device.system.processes(device.ui.packagesInStack())) io.out(`    *APP* UID 10160 ProcessRecord{1234567 ${p.pid}:${p.name}/u0a160}\n`);
    return 0;
  }
  io.out(`ACTIVITY MANAGER ${section.toUpperCase()} (dumpsys activity ${section})\n`);
  return 0;
}

export function registerDumpsys(table: CommandTable, device: ShellDevice): void {
  table.set('dumpsys', (io) => {
    const [service, ...args] = io.argv.slice(1);
    switch (service) {
      case 'window':
        return dumpsysWindow(io, device, args);
      case 'activity':
        return dumpsysActivity(io, device, args);
      case 'package': {
        const pkg = table.get('__dumpsys_package');
        return pkg ? pkg({ ...io, argv: ['__dumpsys_package', args[0] ?? ''] }) : 0;
      }
      case 'power':
        io.out('POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n  mWakefulness=Awake\n  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=1\n  mBatteryLevel=100\n  mStayOn=false\n  mProximityPositive=false\n  mBootCompleted=true\n  mSystemReady=true\n  mHalAutoSuspendModeEnabled=false\n  mHalInteractiveModeEnabled=true\n  mWakeLockSummary=0x0\n  mUserActivitySummary=0x1\n  mRequestWaitForNegativeProximity=false\n  mSandmanScheduled=false\n  mDisplayReady=true\n  mHoldingWakeLockSuspendBlocker=false\n  mHoldingDisplaySuspendBlocker=true\n  Display Power: state=ON\n');
        return 0;
      case 'deviceidle': {
        if (args[0] === 'whitelist') {
          for (const a of args.slice(1)) {
            if (a.startsWith('+')) io.out(`Added: ${a.slice(1)}\n`);
            else if (a.startsWith('-')) io.out(`Removed: ${a.slice(1)}\n`);
          }
          if (args.length === 1) io.out('system-excidle,com.android.providers.downloads,10036\n');
          return 0;
        }
        io.out('  mLightEnabled=true  mDeepEnabled=true\n  mForceIdle=false\n  mScreenOn=true\n  mScreenLocked=false\n  mState=ACTIVE mLightState=ACTIVE\n');
        return 0;
      }
      case 'input_method': {
        const ime = device.ui.imeVisible();
        io.out(`Current Input Method Manager state:\n  mCurMethodId=com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n  mCurFocusedWindowSoftInputMode=STATE_UNSPECIFIED|ADJUST_RESIZE\n  mInputShown=${ime}\n  mIsInputViewShown=${ime}\n  mSystemReady=true mInteractive=true\n`);
        return 0;
      }
      case 'display':
        io.out(`DISPLAY MANAGER (dumpsys display)\n  mOnlyCore=false\n  mSafeMode=false\n  mPendingTraversal=false\n  mViewports=[DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='local:4619827259835644672', physicalPort=0, orientation=0, logicalFrame=Rect(0, 0 - ${SCREEN_WIDTH}, ${SCREEN_HEIGHT}), physicalFrame=Rect(0, 0 - ${SCREEN_WIDTH}, ${SCREEN_HEIGHT}), deviceWidth=${SCREEN_WIDTH}, deviceHeight=${SCREEN_HEIGHT}}]\n\nDisplay Devices: size=1\n  DisplayDeviceInfo{"Built-in Screen": uniqueId="local:4619827259835644672", ${SCREEN_WIDTH} x ${SCREEN_HEIGHT}, modeId 1, density ${device.system.density()}, state ON}\n    mScreenState=ON\n`);
        return 0;
      case 'battery':
        io.out('Current Battery Service state:\n  AC powered: true\n  USB powered: false\n  Wireless powered: false\n  status: 2\n  health: 2\n  present: true\n  level: 100\n  scale: 100\n  voltage: 5000\n  temperature: 250\n  technology: Li-ion\n');
        return 0;
      case undefined:
        io.out('Currently running services:\n  activity\n  battery\n  deviceidle\n  display\n  input_method\n  package\n  power\n  window\n');
        return 0;
      default:
        io.out(`Can't find service: ${service}\n`);
        return 0;
    }
  });
}

/** `dumpsys` services, with the lines Appium and the harness parse; `dumpsys window` is in dumpsysWindow.ts. */
import { shortActivity } from '../../scenario/model.js';
import type { CommandIo } from '../interpreter.js';
import type { CommandTable, ShellDevice } from '../context.js';
import { dumpsysWindow } from './dumpsysWindow.js';

function dumpsysActivity(io: CommandIo, device: ShellDevice, args: readonly string[]): number {
  const [section, filter] = args;
  if (section === 'services') {
    const wantsHelper = filter === undefined || 'io.appium.settings'.startsWith(filter.split('/')[0] ?? '');
    const service = filter?.includes('/') ? filter : 'io.appium.settings/.ForegroundService';
    io.out('ACTIVITY MANAGER SERVICES (dumpsys activity services)\n');
    if (device.system.settingsHelperForeground && wantsHelper && !service.includes('recorder')) {
      io.out(
        `  User 0 active services:\n  * ServiceRecord{d0e2b8c u0 ${service}}\n    intent={cmp=${service}}\n    packageName=io.appium.settings\n    processName=io.appium.settings\n    baseDir=/data/app/~~V1rtua1Dev1ce==/io.appium.settings-1/base.apk\n    dataDir=/data/user/0/io.appium.settings\n    app=ProcessRecord{1a2b3c4 3100:io.appium.settings/u0a190}\n    isForeground=true foregroundId=1 foregroundNoti=Notification(channel=main_channel shortcut=null contentView=null vibrate=null sound=null defaults=0x0 flags=0x62 color=0x00000000 vis=PRIVATE)\n    createTime=-5m12s345ms startingBgTimeout=--\n    lastActivity=-5m12s345ms restartTime=-5m12s345ms createdFromFg=true\n    startRequested=true delayedStop=false stopIfKilled=false callStart=true lastStartId=1\n\n`,
      );
    } else io.out('  (nothing)\n');
    return 0;
  }
  const fg = device.ui.foreground();
  const record = `ActivityRecord{4c1b7a5 u0 ${fg.package}/${shortActivity(fg.package, fg.activity)} t42}`;
  if (
    section === 'activities' ||
    section === 'a' ||
    section === undefined ||
    section === 'top' ||
    section === 'recents'
  ) {
    io.out(
      `ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\nDisplay #0 (activities from top to bottom):\n  * Task{a1b2c3d #42 type=standard A=10160:${fg.package} U=0 visible=true visibleRequested=true mode=fullscreen translucent=false sz=1}\n    topResumedActivity=${record}\n    * Hist  #0: ${record}\n\n  ResumedActivity: ${record}\n  mFocusedApp=${record}\n  mResumedActivity: ${record}\n`,
    );
    return 0;
  }
  if (section === 'processes' || section === 'p') {
    for (const p of device.system.processes(device.ui.packagesInStack()))
      io.out(`    *APP* UID 10160 ProcessRecord{1234567 ${p.pid}:${p.name}/u0a160}\n`);
    return 0;
  }
  io.out(`ACTIVITY MANAGER ${section.toUpperCase()} (dumpsys activity ${section})\n`);
  return 0;
}

/**
 * `dumpsys display`: one `DisplayDeviceInfo{…}` line per physical display, with its
 * `uniqueId="local:<physical id>"` (what `screencap -d` takes) and its power `state`,
 * then the device's `mState=`; logical displays follow with their `mDisplayId`.
 */
function displayDump(device: ShellDevice): string {
  const displays = device.traits.displays;
  const density = device.system.density();
  const viewports = displays
    .filter((d) => d.state === 'ON')
    .map(
      (d, i) =>
        `DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=${i}, uniqueId='local:${d.physicalId}', physicalPort=${i}, orientation=0, logicalFrame=Rect(0, 0 - ${d.width}, ${d.height}), physicalFrame=Rect(0, 0 - ${d.width}, ${d.height}), deviceWidth=${d.width}, deviceHeight=${d.height}}`,
    )
    .join(', ');
  let text = `DISPLAY MANAGER (dumpsys display)\n  mOnlyCore=false\n  mSafeMode=false\n  mPendingTraversal=false\n  mViewports=[${viewports}]\n\nDisplay Devices: size=${displays.length}\n`;
  displays.forEach((d, port) => {
    text +=
      `  DisplayDeviceInfo{"${d.name}": uniqueId="local:${d.physicalId}", ${d.width} x ${d.height}, modeId 1, defaultModeId 1, density ${density}, ${density}.0 x ${density}.0 dpi, touch INTERNAL, rotation 0, type INTERNAL, address {port=${port}}, state ${d.state}, committedState ${d.state}, FLAG_ALLOWED_TO_BE_DEFAULT_DISPLAY, FLAG_ROTATES_WITH_CONTENT, FLAG_SECURE}\n` +
      `    mAdapter=LocalDisplayAdapter\n    mUniqueId=local:${d.physicalId}\n    mPhysicalDisplayId=${d.physicalId}\n    mState=${d.state}\n`;
  });
  text += `\nLogical Displays: size=1\n  Display 0:\n    mDisplayId=0\n    mPrimaryDisplayDevice=${device.traits.activeDisplay().name}\n    mBaseDisplayInfo=DisplayInfo{"${device.traits.activeDisplay().name}", displayId 0, real ${device.traits.activeDisplay().width} x ${device.traits.activeDisplay().height}, state ON}\n`;
  return text;
}

/**
 * `PowerManagerService.dumpInternal`: `mWakefulness=` is `PowerManagerInternal.wakefulnessToString`
 * (Awake, Asleep, Dreaming, Dozing). The asleep trait prints Asleep or Dozing.
 */
function powerDump(device: ShellDevice): string {
  const sleep = device.traits.asleep;
  const wakefulness = sleep === 'dozing' ? 'Dozing' : sleep === 'asleep' ? 'Asleep' : 'Awake';
  const display = sleep === 'dozing' ? 'DOZE' : sleep === 'asleep' ? 'OFF' : 'ON';
  return (
    'POWER MANAGER (dumpsys power)\n\nPower Manager State:\n  mDirty=0x0\n' +
    `  mWakefulness=${wakefulness}\n` +
    '  mWakefulnessChanging=false\n  mIsPowered=true\n  mPlugType=1\n  mBatteryLevel=100\n  mStayOn=false\n  mProximityPositive=false\n  mBootCompleted=true\n  mSystemReady=true\n  mHalAutoSuspendModeEnabled=false\n' +
    `  mHalInteractiveModeEnabled=${sleep === false}\n` +
    '  mWakeLockSummary=0x0\n  mUserActivitySummary=0x1\n  mRequestWaitForNegativeProximity=false\n  mSandmanScheduled=false\n  mDisplayReady=true\n  mHoldingWakeLockSuspendBlocker=false\n' +
    `  mHoldingDisplaySuspendBlocker=${sleep === false}\n` +
    `  Display Power: state=${display}\n`
  );
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
        io.out(powerDump(device));
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
        io.out(
          '  mLightEnabled=true  mDeepEnabled=true\n  mForceIdle=false\n  mScreenOn=true\n  mScreenLocked=false\n  mState=ACTIVE mLightState=ACTIVE\n',
        );
        return 0;
      }
      case 'input_method': {
        const ime = device.ui.imeVisible();
        io.out(
          `Current Input Method Manager state:\n  mCurMethodId=com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n  mCurFocusedWindowSoftInputMode=STATE_UNSPECIFIED|ADJUST_RESIZE\n  mInputShown=${ime}\n  mIsInputViewShown=${ime}\n  mSystemReady=true mInteractive=true\n`,
        );
        return 0;
      }
      case 'display':
        io.out(displayDump(device));
        return 0;
      case 'battery':
        io.out(
          'Current Battery Service state:\n  AC powered: true\n  USB powered: false\n  Wireless powered: false\n  status: 2\n  health: 2\n  present: true\n  level: 100\n  scale: 100\n  voltage: 5000\n  temperature: 250\n  technology: Li-ion\n',
        );
        return 0;
      case undefined:
        io.out(
          'Currently running services:\n  activity\n  battery\n  deviceidle\n  display\n  input_method\n  package\n  power\n  window\n',
        );
        return 0;
      default:
        io.out(`Can't find service: ${service}\n`);
        return 0;
    }
  });
}

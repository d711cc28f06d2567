import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { VirtualDevice } from '../../src/device/VirtualDevice.js';
import { sh, shBytes } from './helpers.js';

const newDevice = (): VirtualDevice => VirtualDevice.withDefaultScenario({ instrumentationStartupMs: 5 });

describe('shell emulator', () => {
  it('answers getprop for one key and for all', async () => {
    const d = newDevice();
    expect((await sh(d, 'getprop ro.build.version.sdk')).stdout).toBe('34\n');
    expect((await sh(d, 'getprop sys.boot_completed')).stdout).toBe('1\n');
    expect((await sh(d, 'getprop')).stdout).toContain('[ro.build.version.release]: [14]\n');
  });

  it('keeps settings and reports unknown commands as sh does (exit 127, logged)', async () => {
    const d = newDevice();
    await sh(d, 'settings put global hidden_api_policy 1');
    expect((await sh(d, 'settings get global hidden_api_policy')).stdout).toBe('1\n');
    expect(
      (await sh(d, 'settings delete global hidden_api_policy; settings get global hidden_api_policy')).stdout,
    ).toBe('Deleted 1 rows\nnull\n');
    const unknown = await sh(d, 'frobnicate --now');
    expect(unknown).toEqual({
      stdout: '',
      stderr: '/system/bin/sh: frobnicate: inaccessible or not found\n',
      code: 127,
    });
    expect(d.log().some((e) => e.kind === 'unknown-command' && e.detail.startsWith('frobnicate'))).toBe(true);
  });

  it('evaluates [ and test for real, with && and ||', async () => {
    const d = newDevice();
    expect((await sh(d, `[ -e '/data/local/tmp/mock_apps.json' ] && echo __PASS__`)).stdout).toBe('');
    await sh(d, `echo '["io.appium.settings"]' > /data/local/tmp/mock_apps.json`);
    expect((await sh(d, `[ -e '/data/local/tmp/mock_apps.json' ] && echo __PASS__`)).stdout).toBe('__PASS__\n');
    expect((await sh(d, 'cat /data/local/tmp/mock_apps.json')).stdout).toBe('["io.appium.settings"]\n');
    expect((await sh(d, 'test -d /sdcard || echo no')).stdout).toBe('');
    expect((await sh(d, 'rm /data/local/tmp/mock_apps.json && test -f /data/local/tmp/mock_apps.json')).code).toBe(1);
  });

  it('starts activities with -W output, errors for unknown classes, and implicit intents', async () => {
    const d = newDevice();
    const started = await sh(d, 'am start -W -n com.android.settings/.Settings');
    expect(started.stdout).toMatch(
      /^Starting: Intent \{ cmp=com.android.settings\/.Settings \}\nStatus: ok\nLaunchState: COLD\nActivity: com.android.settings\/.Settings\nTotalTime: \d+\nWaitTime: \d+\nComplete\n$/,
    );
    expect(d.currentScreen()).toEqual({
      package: 'com.android.settings',
      activity: 'com.android.settings.Settings',
      screenId: 'settings_home',
    });
    expect((await sh(d, 'am start -n com.android.settings/.Nope')).stdout).toContain(
      'Error: Activity class {com.android.settings/.Nope} does not exist.',
    );
    await sh(d, 'am start -W -S -a android.settings.APPLICATION_SETTINGS');
    expect(d.currentScreen().screenId).toBe('settings_apps');
    expect(d.nodes().some((n) => n.text === 'All apps')).toBe(true);
  });

  it("opens VIEW links by the packages' link filters; a trailing bare name is the intent's package, as Intent.parseCommandArgs reads it", async () => {
    const d = newDevice();
    const notes = await sh(
      d,
      "am start -W -a android.intent.action.VIEW -d 'notes://history?tab=1&x=$HOME' com.example.notes",
    );
    expect(notes.stdout).toMatch(
      /^Starting: Intent \{ act=android.intent.action.VIEW dat=notes:\/\/history\?tab=1&x=\$HOME pkg=com.example.notes \}\nStatus: ok\nLaunchState: COLD\nActivity: com.example.notes\/.HistoryActivity\n/,
    );
    expect(d.currentScreen().screenId).toBe('notes_history');
    await sh(d, "am start -W -a android.intent.action.VIEW -d 'https://example.com/a?b=c'");
    expect(d.currentScreen().package).toBe('com.android.chrome');
    // A package that declares no filter for the link, an unknown scheme, a host the filter does not name: nothing starts.
    for (const line of [
      "am start -W -a android.intent.action.VIEW -d 'https://example.com/' com.example.notes",
      "am start -W -a android.intent.action.VIEW -d 'myapp://x'",
      "am start -W -a android.intent.action.VIEW -d 'notes://elsewhere'",
    ]) {
      const refused = await sh(d, line);
      expect(refused.stderr, line).toMatch(
        /^Error: Activity not started, unable to resolve Intent \{ act=android.intent.action.VIEW dat=.* flg=0x10000000 \}\n$/,
      );
      expect(d.currentScreen().package).toBe('com.android.chrome');
    }
  });

  it('resolves launcher activities and lists packages', async () => {
    const d = newDevice();
    const resolve = (pkg: string) =>
      sh(
        d,
        `cmd package resolve-activity --brief -a android.intent.action.MAIN -c android.intent.category.LAUNCHER ${pkg}`,
      );
    expect((await resolve('com.example.notes')).stdout).toBe(
      'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\ncom.example.notes/.MainActivity\n',
    );
    expect((await resolve('io.appium.uiautomator2.server')).stdout).toBe('No activity found\n');
    const third = (await sh(d, 'pm list packages -3')).stdout;
    expect(third).toContain('package:com.example.notes\n');
    expect(third).not.toContain('com.android.settings');
    expect((await sh(d, 'pm list instrumentation')).stdout).toBe(
      'instrumentation:io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner (target=io.appium.uiautomator2.server)\n',
    );
    expect((await sh(d, 'dumpsys package io.appium.uiautomator2.server')).stdout).toMatch(
      /Package \[io\.appium\.uiautomator2\.server\] \(\w+\):\n[\s\S]*versionName=\d+\.\d+\.\d+/,
    );
  });

  it('reports density overrides and screen size like wm', async () => {
    const d = newDevice();
    expect((await sh(d, 'wm density')).stdout).toBe('Physical density: 420\n');
    await sh(d, 'wm density 480');
    expect((await sh(d, 'wm density')).stdout).toBe('Physical density: 420\nOverride density: 480\n');
    expect((await sh(d, 'wm size')).stdout).toBe('Physical size: 1080x2400\n');
  });

  it('prints the focused window and the IME inset in dumpsys window', async () => {
    const d = newDevice();
    await sh(d, 'am start -W -n com.android.settings/.Settings');
    const before = (await sh(d, 'dumpsys window')).stdout;
    expect(before).toContain('mCurrentFocus=Window{8d0a2f1 u0 com.android.settings/com.android.settings.Settings}');
    expect(before).toContain('mFocusedApp=ActivityRecord{4c1b7a5 u0 com.android.settings/.Settings t42}');
    expect(before).toMatch(/type=ime frame=\[0,1517\]\[1080,2400\] visible=false/);
    await sh(d, 'input tap 540 493');
    expect(d.currentScreen().screenId).toBe('settings_search');
    expect((await sh(d, 'dumpsys window')).stdout).toMatch(
      /InsetsSource id=\w+ type=ime frame=\[0,1517\]\[1080,2400\] visible=true/,
    );
  });

  it('dumps the hierarchy to /dev/tty and to a file, as uiautomator spells it', async () => {
    const d = newDevice();
    const tty = await sh(d, 'uiautomator dump /dev/tty');
    expect(tty.stdout).toMatch(
      /^<\?xml version='1\.0' encoding='UTF-8' standalone='yes' \?><hierarchy rotation="0"><node index="0" text="" resource-id="" class="/,
    );
    expect(tty.stdout.endsWith('</hierarchy>UI hierchary dumped to: /dev/tty\n')).toBe(true);
    expect((await sh(d, 'uiautomator dump /sdcard/window_dump.xml')).stdout).toBe(
      'UI hierchary dumped to: /sdcard/window_dump.xml\n',
    );
    expect((await sh(d, 'cat /sdcard/window_dump.xml')).stdout).toContain('content-desc="Settings"');
  });

  it('holds one UiAutomation at a time: dumps fail while the UIA2 instrumentation runs', async () => {
    const d = newDevice();
    const abort = new AbortController();
    const instrument = sh(
      d,
      'am instrument -w -e disableAnalytics true io.appium.uiautomator2.server.test/androidx.test.runner.AndroidJUnitRunner',
      abort.signal,
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(d.instrumentationRunning()).toBe(true);
    expect((await sh(d, 'ps -A')).stdout).toMatch(/ io\.appium\.uiautomator2\.server\n/);
    const dump = await sh(d, 'uiautomator dump /dev/tty');
    expect(dump.code).toBe(1);
    expect(dump.stderr).toMatch(
      /UiAutomationService android\.accessibilityservice\.IAccessibilityServiceClient\$Stub\$Proxy@\w+already registered!/,
    );
    await sh(d, 'am force-stop io.appium.uiautomator2.server');
    const ended = await instrument;
    expect(ended.stdout).toContain('OK (1 test)');
    expect(d.instrumentationRunning()).toBe(false);
    expect((await sh(d, 'ps -A')).stdout).not.toContain('io.appium.uiautomator2.server');
    expect((await sh(d, 'uiautomator dump /dev/tty')).stdout).toContain('UI hierchary dumped to: /dev/tty');
  });

  it('keeps logcat running until the client goes away; -c clears', async () => {
    const d = newDevice();
    const abort = new AbortController();
    let done = false;
    const running = sh(d, `export ANDROID_LOG_TAGS=''; exec logcat -v threadtime`, abort.signal).then((r) => {
      done = true;
      return r;
    });
    await sh(d, 'am start -n com.android.settings/.Settings');
    await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(false);
    abort.abort();
    const result = await running;
    expect(result.stdout).toContain('ActivityTaskManager: START u0');
    expect((await sh(d, 'logcat -c; logcat -d')).stdout).toBe('');
  });

  it('captures PNG screenshots that change with the screen', async () => {
    const d = newDevice();
    const home = await shBytes(d, 'screencap -p');
    expect(home.subarray(1, 4).toString()).toBe('PNG');
    const png = PNG.sync.read(home);
    expect([png.width, png.height]).toEqual([1080, 2400]);
    await sh(d, 'am start -n com.android.settings/.Settings');
    expect((await shBytes(d, 'screencap -p')).equals(home)).toBe(false);
    d.injectFault({ kind: 'blank-screenshot' });
    const blank = PNG.sync.read(await shBytes(d, 'screencap -p'));
    expect(new Set(Array.from({ length: 1000 }, (_, i) => blank.data.readUInt32BE(i * 2_592 * 4))).size).toBe(1);
  });

  it('injects dump faults: null root n times, malformed and empty dumps', async () => {
    const d = newDevice();
    d.injectFault({ kind: 'null-root', times: 2 });
    expect((await sh(d, 'uiautomator dump /dev/tty')).stderr).toBe(
      'ERROR: null root node returned by UiTestAutomationBridge.\n',
    );
    expect((await sh(d, 'uiautomator dump /dev/tty')).stderr).toBe(
      'ERROR: null root node returned by UiTestAutomationBridge.\n',
    );
    expect((await sh(d, 'uiautomator dump /dev/tty')).stdout).toContain('</hierarchy>');
    // idle-state waits the dump's 10 s idle budget first: idleWaits.test.ts, on a stepping clock.
    d.injectFault({ kind: 'malformed-dump' });
    expect((await sh(d, 'uiautomator dump /dev/tty')).stdout).not.toContain('</hierarchy>');
    d.clearFaults();
    d.injectFault({ kind: 'empty-dump' });
    expect((await sh(d, 'uiautomator dump /dev/tty')).stdout).toContain('<hierarchy rotation="0" />');
  });

  it('slows and hangs shell commands on request, and goes offline', async () => {
    const d = newDevice();
    d.injectFault({ kind: 'slow', delayMs: 60, target: 'shell', match: 'getprop' });
    const t0 = Date.now();
    await sh(d, 'getprop ro.product.model');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
    d.injectFault({ kind: 'hung', target: 'shell', match: 'dumpsys' });
    const abort = new AbortController();
    let answered = false;
    const hung = sh(d, 'dumpsys window', abort.signal).then(() => (answered = true));
    await new Promise((r) => setTimeout(r, 30));
    expect(answered).toBe(false);
    abort.abort();
    await hung;
    d.injectFault({ kind: 'offline' });
    expect(d.isOnline()).toBe(false);
    d.clearFaults();
    expect(d.isOnline()).toBe(true);
  });
});

/**
 * Traits of the virtual device, in process: the `dumpsys window` layout of each API
 * level has the shape of the parser fixtures written from AOSP (so the device and the
 * harness's parsers cannot drift apart), two displays, slow launches, booting.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { extractPng } from '../../../src/infrastructure/adb/AdbDeviceGateway.js';
import { parseActiveDisplayId, parseWindowState } from '../../../src/infrastructure/adb/parsers.js';
import {
  FOLDABLE_DISPLAYS,
  VirtualDevice,
  type DeviceClock,
} from '../../../packages/virtual-device/src/device/index.js';
import { sh } from '../../../packages/virtual-device/test/unit/helpers.js';
import type { ShellIo } from '../../../packages/virtual-device/src/contracts.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string): string =>
  readFileSync(path.join(here, '..', 'infrastructure', 'fixtures', name), 'utf8');
const newDevice = (): VirtualDevice => VirtualDevice.withDefaultScenario();

/** A line's shape: numbers and hex ids become N, so only the layout is compared. */
const shape = (line: string): string =>
  line
    .trim()
    .replace(/\b[0-9a-f]{6,}\b/g, 'H')
    .replace(/-?\d+/g, 'N');
const imeLines = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) =>
      /InsetsSource\b.*type=(ime|ITYPE_IME)|mGivenVisibleInsets=|^\s*mFrame=|Window\{\S+ u0 InputMethod\}:/.test(l),
    )
    .map(shape);

async function execBytes(d: VirtualDevice, line: string): Promise<Buffer> {
  // exec: has no shell_v2 framing, so stderr arrives on the same stream, before the PNG.
  const out: Buffer[] = [];
  const io: ShellIo = {
    stdout: (c) => void out.push(Buffer.from(c)),
    stderr: (c) => void out.push(Buffer.from(c)),
    aborted: new AbortController().signal,
    onStdin: () => undefined,
  };
  await d.runShell(line, io, 'exec');
  return Buffer.concat(out);
}

const barLines = (text: string): string[] =>
  text
    .split('\n')
    .filter((l) =>
      /InsetsSource\b.*type=(statusBars|navigationBars|ITYPE_STATUS_BAR|ITYPE_NAVIGATION_BAR) |Window\{\S+ u0 (NavigationBar\d*|StatusBar)\}:/.test(
        l,
      ),
    )
    .map((l) => shape(l).replace(/NavigationBarN/, 'NavigationBar'));

// edge-to-edge apps draw under the bars; the harness reads their frames from here.
describe('dumpsys window per API level: the system bars', () => {
  it.each([
    [28, 'dumpsys-window-api28-bars.txt'],
    [29, 'dumpsys-window-api28-bars.txt'],
    [30, 'dumpsys-window-api30-ime.txt'],
    [33, 'dumpsys-window-api33-ime.txt'],
    [34, 'dumpsys-window-api34-ime.txt'],
    [35, 'dumpsys-window-api34-ime.txt'],
  ])('API %i prints the bars in the layout of %s, and the harness reads them', async (sdk, name) => {
    const d = newDevice();
    d.setSdk(sdk);
    const out = (await sh(d, 'dumpsys window')).stdout;
    // The fixture is Android 15's layout; Android 14 prints the same line without the side hint.
    const expected = barLines(
      sdk === 34 ? fixture(name).replace(/ sideHint=\w+ boundingRects=null/g, '') : fixture(name),
    );
    expect(expected.length).toBe(2);
    const fromDevice = new Set(barLines(out));
    for (const line of expected) expect(fromDevice, `missing a line shaped like: ${line}`).toContain(line);
    expect(parseWindowState(out).systemBars).toEqual({
      status: { left: 0, top: 0, right: 1080, bottom: 63 },
      navigation: { left: 0, top: 2274, right: 1080, bottom: 2400 },
    });
    if (sdk === 29) expect(out).toContain(' u0 NavigationBar0}:');
  });
});

describe('dumpsys window per API level (keyboard open on the search screen)', () => {
  it.each([
    [28, 'dumpsys-window-api28-ime.txt'],
    [30, 'dumpsys-window-api30-ime.txt'],
    [33, 'dumpsys-window-api33-ime.txt'],
  ])('API %i prints the IME in the layout of %s, and the harness reads top 1517', async (sdk, name) => {
    const d = newDevice();
    d.setSdk(sdk);
    d.setScreen('settings_search');
    const out = (await sh(d, 'dumpsys window')).stdout;
    const fromDevice = new Set(imeLines(out));
    const expected = imeLines(fixture(name));
    expect(expected.length).toBeGreaterThanOrEqual(2);
    for (const line of expected) expect(fromDevice, `missing a line shaped like: ${line}`).toContain(line);
    expect(parseWindowState(out).ime).toEqual({
      visible: true,
      frame: { left: 0, top: 1517, right: 1080, bottom: 2400 },
    });
    expect(parseWindowState(out).foregroundPackage).toBe('com.google.android.settings.intelligence');
  });

  it('API 34 keeps its InsetsSource id=… type=ime line; a closed IME reads as no keyboard on every level', async () => {
    const d = newDevice();
    d.setScreen('settings_search');
    expect((await sh(d, 'dumpsys window')).stdout).toMatch(
      /InsetsSource id=3 type=ime frame=\[0,1517\]\[1080,2400\] visible=true flags=/,
    );
    for (const sdk of [28, 30, 33, 34]) {
      d.setSdk(sdk);
      d.setScreen('settings_home');
      expect(parseWindowState((await sh(d, 'dumpsys window')).stdout).ime.visible).toBe(false);
    }
    d.resetTraits();
    expect((await sh(d, 'getprop ro.build.version.sdk')).stdout).toBe('34\n');
  });
});

describe('two displays', () => {
  it('screencap without -d warns and captures the first (off, black) panel; -d <id> captures the panel that is on', async () => {
    const d = newDevice();
    d.setDisplays(FOLDABLE_DISPLAYS);
    const warned = await execBytes(d, 'screencap -p');
    expect(warned.toString('latin1')).toMatch(
      /^\[Warning\] Multiple displays were found, but no display id was specified! Defaulting to the first display found/,
    );
    const outer = PNG.sync.read(extractPng(warned) as Buffer);
    expect([outer.width, outer.height]).toEqual([1080, 2092]);
    const id = parseActiveDisplayId((await sh(d, 'dumpsys display')).stdout);
    expect(id).toBe('4619827551948147201');
    const inner = await execBytes(d, `screencap -p -d ${id}`);
    expect(extractPng(inner)).toBe(inner);
    expect(PNG.sync.read(inner).height).toBe(2400);
    expect((await sh(d, 'screencap -p -d 42')).code).toBe(1);
    d.resetTraits();
    const single = await execBytes(d, 'screencap -p');
    expect(extractPng(single)).toBe(single);
  });
});

describe('slow cold launch and boot', () => {
  it('a cold start keeps the launcher in the dump and focus null for the delay; a warm one does not wait', async () => {
    const d = newDevice();
    d.setLaunchDelay(150);
    expect((await sh(d, 'am start -W -n com.example.notes/.MainActivity')).stdout).toContain('Status: ok');
    expect(d.currentScreen().screenId).toBe('notes_main');
    expect((await sh(d, 'uiautomator dump /dev/tty')).stdout).not.toContain('com.example.notes');
    expect((await sh(d, 'dumpsys window windows')).stdout).toContain('mCurrentFocus=null');
    await new Promise((r) => setTimeout(r, 200));
    expect((await sh(d, 'uiautomator dump /dev/tty')).stdout).toContain('package="com.example.notes"');
    await sh(d, 'am start -W -n com.android.settings/.Settings');
    await new Promise((r) => setTimeout(r, 200));
    await sh(d, 'am start -W -n com.example.notes/.MainActivity');
    expect((await sh(d, 'uiautomator dump /dev/tty')).stdout).toContain('package="com.example.notes"');
  });

  it('booting: sys.boot_completed unset until the delay has passed', async () => {
    const d = VirtualDevice.withDefaultScenario({ bootDelayMs: 100 });
    expect((await sh(d, 'getprop sys.boot_completed')).stdout).toBe('\n');
    expect((await sh(d, 'getprop init.svc.bootanim')).stdout).toBe('running\n');
    await new Promise((r) => setTimeout(r, 150));
    expect((await sh(d, 'getprop sys.boot_completed')).stdout).toBe('1\n');
  });

  it('density override option', async () => {
    const d = VirtualDevice.withDefaultScenario({ densityOverride: 480 });
    expect((await sh(d, 'wm density')).stdout).toBe('Physical density: 420\nOverride density: 480\n');
    // DisplayContent.dump: the panel's own density on `init=`, the override on `base=`.
    const window = (await sh(d, 'dumpsys window')).stdout;
    expect(window).toMatch(/^ {4}init=1080x2400 420dpi base=1080x2400 480dpi cur=1080x2400 /m);
    expect(parseWindowState(window).density).toBe(480);
    const plain = (await sh(VirtualDevice.withDefaultScenario(), 'dumpsys window')).stdout;
    expect(plain).toMatch(/^ {4}init=1080x2400 420dpi cur=1080x2400 /m);
  });
});

/** A device clock that moves only when the test says so. */
class ManualClock implements DeviceClock {
  ms = Date.UTC(2026, 10, 30, 16, 58, 41);
  nowMs(): number {
    return this.ms;
  }
  sleep(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }
}

/** The lines that give a `dumpsys window` with a LAST ANR copy its structure, in order. */
const anrStructure = (text: string): string[] =>
  text
    .split(/\r?\n/)
    .filter((l) =>
      /^WINDOW MANAGER |^Last ANR continued$|^ {2}(ANR time|Application at fault|Window at fault|Reason): /.test(l),
    )
    .map((l) => l.replace(/: .*$/, ':'));

describe('a past ANR is printed first', () => {
  it('recordAnr freezes the window state of that moment; the full dump prints it first, then the live sections', async () => {
    const d = newDevice();
    d.setScreen('settings_search');
    d.recordAnr({ landscape: true });
    d.setScreen('settings_home');
    const out = (await sh(d, 'dumpsys window')).stdout;
    expect(out.startsWith('\nWINDOW MANAGER LAST ANR (dumpsys window lastanr)\n  ANR time: ')).toBe(true);
    // The same sections in the same order as the fixture written from WindowManagerService.saveANRStateLocked.
    expect(anrStructure(out)).toEqual(anrStructure(fixture('dumpsys-window-api34-lastanr.txt')));
    const frozen = out.slice(0, out.indexOf('WINDOW MANAGER POLICY STATE'));
    expect(frozen).toMatch(
      /Application at fault: ActivityRecord\{\S+ u0 com\.google\.android\.settings\.intelligence\//,
    );
    expect(frozen).toMatch(/mCurrentFocus=Window\{\S+ u0 com\.google\.android\.settings\.intelligence\//);
    expect(frozen).toMatch(/InsetsSource id=3 type=ime frame=\[0,456\]\[2400,1080\] visible=true/);
    expect(frozen).toContain('cur=2400x1080');
    const live = out.slice(out.indexOf('WINDOW MANAGER POLICY STATE'));
    expect(live).toMatch(/mCurrentFocus=Window\{\S+ u0 com\.android\.settings\//);
    expect(live).toMatch(/type=ime frame=\[0,1517\]\[1080,2400\] visible=false/);
    expect(parseWindowState(out)).toEqual({
      foregroundPackage: 'com.android.settings',
      foregroundActivity: 'com.android.settings.Settings',
      ime: { visible: false, frame: null },
      displaySize: { width: 1080, height: 2400 },
      lock: { locked: false, awake: true },
      systemBars: {
        status: { left: 0, top: 0, right: 1080, bottom: 63 },
        navigation: { left: 0, top: 2274, right: 1080, bottom: 2400 },
      },
      density: 420,
    });
    // `dumpsys window lastanr` prints the section alone.
    const section = (await sh(d, 'dumpsys window lastanr')).stdout;
    expect(section).toBe(frozen.slice(1, -1));
    d.resetTraits();
    expect((await sh(d, 'dumpsys window lastanr')).stdout).toBe(
      'WINDOW MANAGER LAST ANR (dumpsys window lastanr)\n  <no ANR has occurred since boot>\n',
    );
  });

  it('API 28: the frozen copy holds the shown InputMethod window block; the harness reads the live, hidden one', async () => {
    const d = newDevice();
    d.setSdk(28);
    d.setScreen('settings_search');
    d.recordAnr();
    d.setScreen('settings_home');
    const out = (await sh(d, 'dumpsys window')).stdout;
    expect(out.indexOf('isVisible=true')).toBeLessThan(out.indexOf('Last ANR continued'));
    expect(out).toMatch(/Application at fault: ActivityRecord\{/);
    expect(parseWindowState(out)).toMatchObject({
      foregroundPackage: 'com.android.settings',
      ime: { visible: false, frame: null },
    });
  });

  it('the window manager forgets the ANR after two hours (LAST_ANR_LIFETIME_DURATION_MSECS)', async () => {
    const clock = new ManualClock();
    const d = VirtualDevice.withDefaultScenario({ clock });
    d.recordAnr({ reason: 'Input dispatching timed out (test)' });
    expect((await sh(d, 'dumpsys window l')).stdout).toContain('  Reason: Input dispatching timed out (test)\n');
    expect((await sh(d, 'dumpsys window l')).stdout).toContain('  ANR time: Nov 30, 2026');
    clock.ms += 2 * 60 * 60 * 1000 - 1;
    expect((await sh(d, 'dumpsys window l')).stdout).toContain('Application at fault');
    clock.ms += 1;
    expect((await sh(d, 'dumpsys window l')).stdout).toContain('<no ANR has occurred since boot>');
  });
});

describe('Back is not synchronous', () => {
  const focusOf = (text: string): { current: string; app: string } => ({
    current: /mCurrentFocus=(null|Window\{\S+ u0 ([^/]+)\/)/.exec(text)?.[2] ?? 'null',
    app: /mFocusedApp=ActivityRecord\{\S+ u0 ([^/]+)\//.exec(text)?.[1] ?? '?',
  });

  it('after a Back that navigates: the old window keeps focus, then none has it (the new activity is the focused app), then the new one', async () => {
    const clock = new ManualClock();
    const d = VirtualDevice.withDefaultScenario({ clock, backFocusLag: { staleMs: 100, noFocusMs: 400 } });
    d.setScreen('settings_apps');
    await sh(d, 'input keyevent KEYCODE_BACK');
    // The screen is the launcher's at once (the tree); only the window manager's focus lags.
    expect(d.currentScreen().package).toBe('com.google.android.apps.nexuslauncher');
    const launcher = 'com.google.android.apps.nexuslauncher';
    expect(focusOf((await sh(d, 'dumpsys window displays')).stdout)).toEqual({
      current: 'com.android.settings',
      app: 'com.android.settings',
    });
    clock.ms += 100;
    const gap = (await sh(d, 'dumpsys window')).stdout;
    expect(gap).toContain('mCurrentFocus=null');
    expect(focusOf(gap.slice(gap.indexOf('WINDOW MANAGER DISPLAY')))).toEqual({ current: 'null', app: launcher });
    clock.ms += 399;
    expect(focusOf((await sh(d, 'dumpsys window displays')).stdout).current).toBe('null');
    clock.ms += 1;
    expect(focusOf((await sh(d, 'dumpsys window displays')).stdout)).toEqual({ current: launcher, app: launcher });
  });

  it('the default lag is a few hundred ms; a Back that only hides the keyboard moves no focus; another navigation ends the lag', async () => {
    const clock = new ManualClock();
    const d = VirtualDevice.withDefaultScenario({ clock });
    d.setScreen('settings_search');
    expect(d.imeVisible()).toBe(true);
    await sh(d, 'input keyevent 4');
    expect(d.imeVisible()).toBe(false);
    expect(focusOf((await sh(d, 'dumpsys window displays')).stdout).current).toBe(
      'com.google.android.settings.intelligence',
    );
    await sh(d, 'input keyevent 4');
    expect(focusOf((await sh(d, 'dumpsys window displays')).stdout).current).toBe(
      'com.google.android.settings.intelligence',
    );
    clock.ms += 50;
    expect(focusOf((await sh(d, 'dumpsys window displays')).stdout).current).toBe('null');
    await sh(d, 'am start -W -n com.example.notes/.MainActivity');
    expect(focusOf((await sh(d, 'dumpsys window displays')).stdout).current).toBe('com.example.notes');
    d.setScreen('settings_apps');
    await sh(d, 'input keyevent 4');
    clock.ms += 300;
    expect(focusOf((await sh(d, 'dumpsys window displays')).stdout).current).toBe(
      'com.google.android.apps.nexuslauncher',
    );
  });

  it('setBackFocusLag({0, 0}) makes Back synchronous; resetTraits restores the default', async () => {
    const clock = new ManualClock();
    const d = VirtualDevice.withDefaultScenario({ clock });
    d.setBackFocusLag({ staleMs: 0, noFocusMs: 0 });
    d.setScreen('settings_apps');
    await sh(d, 'input keyevent 4');
    expect(focusOf((await sh(d, 'dumpsys window displays')).stdout).current).toBe(
      'com.google.android.apps.nexuslauncher',
    );
    d.resetTraits();
    d.setScreen('settings_apps');
    await sh(d, 'input keyevent 4');
    expect(focusOf((await sh(d, 'dumpsys window displays')).stdout).current).toBe('com.android.settings');
  });
});

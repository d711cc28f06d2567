import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  findAmStartError,
  isValidComponent,
  isValidDisplayId,
  parseActiveDisplayId,
  parseDensity,
  parseDisplaySize,
  parseForegroundPackage,
  parseGetprop,
  parseIme,
  parsePackageList,
  parseResolveActivity,
  parseSystemBars,
  parseWindowState,
  liveWindowLines,
  parseForegroundComponent,
} from '../../../src/infrastructure/adb/parsers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string): string => readFileSync(path.join(here, 'fixtures', name), 'utf8');

/** Every parser must give the same answer for LF and for CRLF (PTY) output. */
const ENDINGS = [
  ['LF', (s: string) => s.replace(/\r\n/g, '\n')],
  ['CRLF', (s: string) => s.replace(/\r?\n/g, '\r\n')],
] as const;

describe.each(ENDINGS)('parsers with %s line endings', (_name, eol) => {
  it('getprop: trims the value', () => {
    expect(parseGetprop(eol('14\n'))).toBe('14');
    expect(parseGetprop(eol('sdk_gphone64_x86_64\n'))).toBe('sdk_gphone64_x86_64');
    expect(parseGetprop(eol('\n'))).toBe('');
  });

  it('pm list packages: sorted, unique, noise ignored', () => {
    const out = eol(
      'package:com.android.settings\npackage:com.android.chrome\npackage:com.android.settings\n\nWARNING: linker: something\npackage:bad name\n',
    );
    expect(parsePackageList(out)).toEqual(['com.android.chrome', 'com.android.settings']);
    expect(parsePackageList(eol(''))).toEqual([]);
  });

  it('wm density: physical only, override wins, last density line wins', () => {
    expect(parseDensity(eol('Physical density: 420\n'))).toBe(420);
    expect(parseDensity(eol('Physical density: 420\nOverride density: 480\n'))).toBe(480);
    // Order does not matter for the override.
    expect(parseDensity(eol('Override density: 320\nPhysical density: 420\n'))).toBe(320);
    expect(parseDensity(eol('density: 160\n'))).toBe(160);
    expect(parseDensity(eol('Physical density: 0\n'))).toBeNull();
    expect(parseDensity(eol('no density here\n'))).toBeNull();
  });

  it('API 34+: InsetsSource id=… type=ime visible=true gives the frame', () => {
    const text = eol(fixture('dumpsys-window-api34-ime.txt'));
    expect(parseIme(text)).toEqual({ visible: true, frame: { left: 0, top: 1517, right: 1080, bottom: 2400 } });
  });

  it('API 34+: visible=false means no keyboard even with a frame', () => {
    expect(parseIme(eol(fixture('dumpsys-window-api34-noime.txt')))).toEqual({ visible: false, frame: null });
  });

  it('API 34+: only the InsetsSourceProvider mSource line is enough', () => {
    const text = eol(
      '  InsetsSourceProvider\n    mSource=InsetsSource id=3 type=ime frame=[0,1600][1080,2400] visible=true flags= sideHint=BOTTOM\n',
    );
    expect(parseIme(text)).toEqual({ visible: true, frame: { left: 0, top: 1600, right: 1080, bottom: 2400 } });
  });

  it('API 33: InsetsSource type=ITYPE_IME … visibleFrame … visible=true', () => {
    const text = eol(fixture('dumpsys-window-api33-ime.txt'));
    expect(parseIme(text)).toEqual({ visible: true, frame: { left: 0, top: 1402, right: 1080, bottom: 2340 } });
    expect(parseIme(text.replace(/visible=true\r?$/gm, 'visible=false'))).toEqual({ visible: false, frame: null });
  });

  it('API 30: InsetsSource type=ITYPE_IME frame=… visible=true', () => {
    const text = eol(fixture('dumpsys-window-api30-ime.txt'));
    expect(parseIme(text)).toEqual({ visible: true, frame: { left: 0, top: 1341, right: 1080, bottom: 2154 } });
    const hidden = text.replace(
      /type=ITYPE_IME frame=\[0,1341\]\[1080,2154\] visible=true/g,
      'type=ITYPE_IME frame=[0,0][0,0] visible=false',
    );
    expect(parseIme(hidden)).toEqual({ visible: false, frame: null });
  });

  it('a visible IME source with an empty frame is not a keyboard', () => {
    expect(parseIme(eol('      InsetsSource type=ITYPE_IME frame=[0,0][0,0] visible=true\n'))).toEqual({
      visible: false,
      frame: null,
    });
  });

  it('API 28: the InputMethod window block, minus the given visible insets above the keys', () => {
    const text = eol(fixture('dumpsys-window-api28-ime.txt'));
    expect(parseIme(text)).toEqual({ visible: true, frame: { left: 0, top: 1143, right: 1080, bottom: 1794 } });
  });

  it('API 28: a hidden input method window is no keyboard', () => {
    expect(parseIme(eol(fixture('dumpsys-window-api28-noime.txt')))).toEqual({ visible: false, frame: null });
  });

  it('no IME information at all means no keyboard', () => {
    expect(parseIme(eol('  mCurrentFocus=null\n'))).toEqual({ visible: false, frame: null });
  });

  it('foreground package from mCurrentFocus on every fixture', () => {
    expect(parseForegroundPackage(eol(fixture('dumpsys-window-api34-ime.txt')))).toBe('com.android.settings');
    expect(parseForegroundPackage(eol(fixture('dumpsys-window-api33-ime.txt')))).toBe('com.example.notes');
    expect(parseForegroundPackage(eol(fixture('dumpsys-window-api30-ime.txt')))).toBe('com.android.chrome');
    expect(parseForegroundPackage(eol(fixture('dumpsys-window-api28-ime.txt')))).toBe('com.android.settings');
  });

  it('foreground falls back to mFocusedApp when the focused window has no component', () => {
    expect(
      parseForegroundPackage(
        eol(
          '  mCurrentFocus=Window{1a2b3c u0 PopupWindow:4d5e6f}\n  mFocusedApp=ActivityRecord{8a1f u0 com.whatsapp/.HomeActivity t3}\n',
        ),
      ),
    ).toBe('com.whatsapp');
    expect(
      parseForegroundPackage(
        eol(
          '  mCurrentFocus=null\n  mFocusedApp=AppWindowToken{41c8 token=Token{d0f3 ActivityRecord{7b2e u0 com.android.vending/.AssetBrowserActivity t5}}}\n',
        ),
      ),
    ).toBe('com.android.vending');
    expect(parseForegroundPackage(eol('  mCurrentFocus=null\n  mFocusedApp=null\n'))).toBeNull();
  });

  it('display size: DisplayFrames, then cur=, then real, then init=', () => {
    expect(parseDisplaySize(eol(fixture('dumpsys-window-api34-ime.txt')))).toEqual({ width: 1080, height: 2400 });
    expect(parseDisplaySize(eol(fixture('dumpsys-window-api28-ime.txt')))).toEqual({ width: 1080, height: 1920 });
    expect(parseDisplaySize(eol('    init=1080x2400 420dpi cur=2400x1080 app=2337x1080\n'))).toEqual({
      width: 2400,
      height: 1080,
    });
    expect(
      parseDisplaySize(eol('mDisplayInfo=DisplayInfo{"Built-in Screen", real 1440 x 3120, rotation 0}\n')),
    ).toEqual({ width: 1440, height: 3120 });
    expect(parseDisplaySize(eol('    init=720x1280 320dpi\n'))).toEqual({ width: 720, height: 1280 });
    expect(parseDisplaySize(eol('nothing\n'))).toBeNull();
  });

  it('the focused activity is fully qualified whichever line names it (mCurrentFocus, else mFocusedApp)', () => {
    expect(
      parseForegroundComponent(
        eol('  mCurrentFocus=Window{5b2c9e1 u0 com.android.settings/com.android.settings.SubSettings}\n'),
      ),
    ).toEqual({
      package: 'com.android.settings',
      activity: 'com.android.settings.SubSettings',
    });
    expect(
      parseForegroundComponent(
        eol('  mCurrentFocus=null\n  mFocusedApp=ActivityRecord{8a1f3e2 u0 com.android.settings/.SubSettings t17}\n'),
      ),
    ).toEqual({
      package: 'com.android.settings',
      activity: 'com.android.settings.SubSettings',
    });
    expect(parseForegroundComponent(eol('  mCurrentFocus=Window{1 u0 StatusBar}\n'))).toBeNull();
  });

  it('window state combines the three', () => {
    expect(parseWindowState(eol(fixture('dumpsys-window-api34-noime.txt')))).toEqual({
      foregroundPackage: 'com.android.settings',
      foregroundActivity: 'com.android.settings.SubSettings',
      ime: { visible: false, frame: null },
      displaySize: { width: 1080, height: 2400 },
      lock: { locked: false, awake: null },
      systemBars: {
        status: { left: 0, top: 0, right: 1080, bottom: 136 },
        navigation: { left: 0, top: 2337, right: 1080, bottom: 2400 },
      },
      density: 420,
    });
  });

  // After an ANR, `dumpsys window` prints the window manager's state of that moment first.
  it('a past ANR (API 34): foreground, keyboard and display size come from the live sections, not the frozen copy', () => {
    const text = eol(fixture('dumpsys-window-api34-lastanr.txt'));
    // The frozen copy really says otherwise: notes in front, keyboard open, landscape.
    const frozen = text.slice(0, text.indexOf('WINDOW MANAGER POLICY STATE'));
    expect(frozen).toMatch(/mCurrentFocus=Window\{7c41b2e u0 com\.example\.notes\//);
    expect(frozen).toMatch(/type=ime frame=\[0,456\]\[2400,1080\].* visible=true/);
    expect(frozen).toContain('cur=2400x1080');
    expect(parseForegroundPackage(text)).toBe('com.android.settings');
    expect(parseIme(text)).toEqual({ visible: false, frame: null });
    expect(parseDisplaySize(text)).toEqual({ width: 1080, height: 2400 });
    expect(parseWindowState(text)).toEqual({
      foregroundPackage: 'com.android.settings',
      foregroundActivity: 'com.android.settings.SubSettings',
      ime: { visible: false, frame: null },
      displaySize: { width: 1080, height: 2400 },
      lock: { locked: false, awake: null },
      systemBars: {
        status: { left: 0, top: 0, right: 1080, bottom: 136 },
        navigation: { left: 0, top: 2337, right: 1080, bottom: 2400 },
      },
      density: 420,
    });
  });

  it('a past ANR (API 34) with the keyboard open now: the live IME frame, not the frozen landscape one', () => {
    const text = eol(fixture('dumpsys-window-api34-lastanr.txt'));
    const cut = text.indexOf('WINDOW MANAGER POLICY STATE');
    const open =
      text.slice(0, cut) +
      text
        .slice(cut)
        .replace(
          /(type=ime frame=\[0,1517\]\[1080,2400\] visibleFrame=\[0,1517\]\[1080,2400\]) visible=false/g,
          '$1 visible=true',
        );
    expect(parseIme(open)).toEqual({ visible: true, frame: { left: 0, top: 1517, right: 1080, bottom: 2400 } });
  });

  it('a past ANR (API 28): the live InputMethod window block (hidden), not the frozen one (shown), and the live size', () => {
    const text = eol(fixture('dumpsys-window-api28-lastanr.txt'));
    expect(text.indexOf('isVisible=true')).toBeLessThan(text.indexOf('Last ANR continued'));
    expect(parseWindowState(text)).toEqual({
      foregroundPackage: 'com.android.settings',
      foregroundActivity: 'com.android.settings.SubSettings',
      ime: { visible: false, frame: null },
      displaySize: { width: 1080, height: 1920 },
      lock: { locked: false, awake: null },
      systemBars: { status: null, navigation: null },
      density: 420,
    });
  });

  it('the LAST ANR section alone (`dumpsys window lastanr`) says nothing about now', () => {
    const text = eol(fixture('dumpsys-window-api34-lastanr.txt'));
    const only = text.slice(0, text.indexOf('WINDOW MANAGER POLICY STATE'));
    expect(parseWindowState(only)).toEqual({
      foregroundPackage: null,
      foregroundActivity: null,
      ime: { visible: false, frame: null },
      displaySize: null,
      lock: { locked: false, awake: null },
      // The frozen copy's landscape navigation bar ([0,1017][2400,1080]) is not now's.
      systemBars: { status: null, navigation: null },
      density: null,
    });
  });

  it("the density apps are laid out with: `base=` (a `wm density` override) over the panel's own `init=`", () => {
    const text = eol(fixture('dumpsys-window-api34-noime.txt'));
    expect(parseWindowState(text).density).toBe(420);
    // DisplayContent.dump prints ` base=WxH Mdpi` after `init=` when `wm size` or `wm density` overrides the panel.
    const overridden = text.replace('init=1080x2400 420dpi', 'init=1080x2400 420dpi base=1080x2400 560dpi');
    expect(parseWindowState(overridden).density).toBe(560);
    // No display section and no global configuration: unknown, so the reader asks `wm density`.
    expect(parseWindowState(text.replace(/init=\S+ \d+dpi/, 'init=?')).density).toBeNull();
  });

  it('no ANR since boot: the `<no ANR …>` section is cut and nothing else', () => {
    const text = eol(fixture('dumpsys-window-api34-noime.txt'));
    const live = liveWindowLines(text);
    expect(live[0]).toBe('WINDOW MANAGER POLICY STATE (dumpsys window policy)');
    expect(live.filter((l) => l.trim() !== '').at(-1)).toBe('    isVisible=false');
  });

  it('a LAST ANR section without `Last ANR continued` ends at the next section header', () => {
    const text = eol(
      'WINDOW MANAGER LAST ANR (dumpsys window lastanr)\n  ANR time: Nov 30, 2026 4:58:41 PM\n' +
        '  mCurrentFocus=Window{1 u0 com.old.app/com.old.app.Main}\n\n' +
        'WINDOW MANAGER WINDOWS (dumpsys window windows)\n  mCurrentFocus=Window{2 u0 com.live.app/com.live.app.Main}\n',
    );
    expect(parseForegroundPackage(text)).toBe('com.live.app');
  });

  // An edge-to-edge app draws under the bars, and a touch there goes to System UI.
  it('system bars on every layout: API 34 InsetsSource statusBars/navigationBars (gesture navigation: 24 dp)', () => {
    expect(parseSystemBars(eol(fixture('dumpsys-window-api34-ime.txt')))).toEqual({
      status: { left: 0, top: 0, right: 1080, bottom: 136 },
      navigation: { left: 0, top: 2337, right: 1080, bottom: 2400 },
    });
  });

  it('system bars: API 30–33 InsetsSource type=ITYPE_STATUS_BAR / ITYPE_NAVIGATION_BAR', () => {
    expect(parseSystemBars(eol(fixture('dumpsys-window-api33-ime.txt')))).toEqual({
      status: { left: 0, top: 0, right: 1080, bottom: 110 },
      navigation: { left: 0, top: 2205, right: 1080, bottom: 2340 },
    });
    expect(parseSystemBars(eol(fixture('dumpsys-window-api30-ime.txt')))).toEqual({
      status: { left: 0, top: 0, right: 1080, bottom: 80 },
      navigation: { left: 0, top: 2154, right: 1080, bottom: 2280 },
    });
  });

  it('system bars: API 28–29 NavigationBar / StatusBar window blocks (mFrame), NavigationBar0 from Android 10', () => {
    const text = eol(fixture('dumpsys-window-api28-bars.txt'));
    const bars = {
      status: { left: 0, top: 0, right: 1080, bottom: 63 },
      navigation: { left: 0, top: 1794, right: 1080, bottom: 1920 },
    };
    expect(parseSystemBars(text)).toEqual(bars);
    expect(parseWindowState(text).systemBars).toEqual(bars);
    expect(parseSystemBars(text.replace('u0 NavigationBar}', 'u0 NavigationBar0}'))).toEqual(bars);
    // The InputMethod block that follows is still read as before.
    expect(parseWindowState(text).ime).toEqual({ visible: false, frame: null });
    // A bar window without a surface (hidden: immersive mode) is no bar.
    const hidden = text.replace(/(u0 NavigationBar\}:[\s\S]*?)mHasSurface=true/, '$1mHasSurface=false');
    expect(parseSystemBars(hidden)).toEqual({ ...bars, navigation: null });
    expect(parseSystemBars(eol(fixture('dumpsys-window-api28-ime.txt')))).toEqual({ status: null, navigation: null });
  });

  it('system bars: a bar reported hidden (visible=false) or empty is no bar, and no later line brings it back', () => {
    const text = eol(fixture('dumpsys-window-api34-noime.txt')).replace(
      /(type=navigationBars frame=\S+) visible=true/,
      '$1 visible=false',
    );
    expect(parseSystemBars(text).navigation).toBeNull();
    expect(
      parseSystemBars(eol('        InsetsSource id=27 type=statusBars frame=[0,0][0,0] visible=true flags=\n')).status,
    ).toBeNull();
  });

  it('resolve-activity --brief: the component line, as printed', () => {
    const out = eol(
      'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\ncom.android.settings/.Settings\n',
    );
    expect(parseResolveActivity(out, 'com.android.settings')).toBe('com.android.settings/.Settings');
    const full = eol(
      'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false\ncom.example.app/com.example.app.MainActivity\n',
    );
    expect(parseResolveActivity(full, 'com.example.app')).toBe('com.example.app/com.example.app.MainActivity');
  });

  it('resolve-activity: none, several (ResolverActivity), foreign package or unsafe name → null', () => {
    expect(parseResolveActivity(eol('No activity found\n'), 'com.x')).toBeNull();
    expect(
      parseResolveActivity(
        eol('priority=0 preferredOrder=0\nandroid/com.android.internal.app.ResolverActivity\n'),
        'com.x',
      ),
    ).toBeNull();
    expect(parseResolveActivity(eol('priority=0\ncom.other/.Main\n'), 'com.x')).toBeNull();
    expect(parseResolveActivity(eol('priority=0\ncom.x/.Main$Inner\n'), 'com.x')).toBeNull();
    expect(parseResolveActivity(eol('priority=0\ncom.x/.Main;reboot\n'), 'com.x')).toBeNull();
  });

  it('am start errors are found; warnings and success are not errors', () => {
    expect(
      findAmStartError(
        eol(
          'Starting: Intent { cmp=com.x/.Main }\nError type 3\nError: Activity class {com.x/com.x.Main} does not exist.\n',
        ),
      ),
    ).toBe('Error type 3');
    expect(
      findAmStartError(
        eol(
          'Starting: Intent { act=android.settings.APPLICATION_SETTINGS }\nStatus: ok\nLaunchState: COLD\nActivity: com.android.settings/.Settings$ManageApplicationsActivity\nTotalTime: 811\nWaitTime: 815\nComplete\n',
        ),
      ),
    ).toBeNull();
    expect(
      findAmStartError(
        eol('Warning: Activity not started, its current task has been brought to the front\nStatus: ok\nComplete\n'),
      ),
    ).toBeNull();
  });
});

describe('component validation', () => {
  it.each(['com.x/.Main', 'com.x/com.x.ui.Main', 'a.b_c/.A1'])('accepts %s', (c) =>
    expect(isValidComponent(c)).toBe(true),
  );
  it.each([
    'com.x',
    'com.x/',
    '/.Main',
    'com.x/.Main; reboot',
    'com.x/.Main$Inner',
    'com.x/.Main a',
    '-n/.x',
    'com.x/../y',
    "com.x/'a'",
  ])('refuses %s', (c) => expect(isValidComponent(c)).toBe(false));
});

describe('parseActiveDisplayId (dumpsys display, several displays)', () => {
  it('picks the local display that is ON on a foldable, with LF and CRLF', () => {
    const text = fixture('dumpsys-display-foldable.txt');
    expect(parseActiveDisplayId(text)).toBe('4619827551948147201');
    expect(parseActiveDisplayId(text.replace(/\n/g, '\r\n'))).toBe('4619827551948147201');
  });

  it('ignores virtual displays and answers null when no local display is on', () => {
    const text = fixture('dumpsys-display-foldable.txt').replace(
      'state ON, committedState ON, frameRateOverride',
      'state OFF, committedState OFF, frameRateOverride',
    );
    expect(parseActiveDisplayId(text)).toBeNull();
    expect(parseActiveDisplayId('')).toBeNull();
  });

  it('accepts digits only as a display id', () => {
    expect(isValidDisplayId('0')).toBe(true);
    expect(isValidDisplayId('4619827551948147201')).toBe(true);
    for (const bad of ['', '-1', '1a', '1 2', '1;id', '$(id)', '123456789012345678901'])
      expect(isValidDisplayId(bad)).toBe(false);
  });
});

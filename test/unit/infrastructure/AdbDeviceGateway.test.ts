import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../../src/domain/errors.js';
import type { PackageName } from '../../../src/domain/validation.js';
import {
  ADB_COMMANDS,
  AdbDeviceGateway,
  extractPng,
  trimDump,
} from '../../../src/infrastructure/adb/AdbDeviceGateway.js';
import type { AdbResult, AdbRunner } from '../../../src/infrastructure/adb/AdbRunner.js';
import { FakeClock } from '../../support/FakeClock.js';
import { harnessError } from '../../support/harnessError.js';
import { silentLogger } from '../../support/fakes/silentLogger.js';

const PNG_SIG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const XML = `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"><node index="0" text="Apps" class="android.widget.TextView" bounds="[0,0][100,100]" /></hierarchy>`;

type Reply = Partial<AdbResult> | ((args: readonly string[]) => Partial<AdbResult>);

/** Records every argv and answers from a queue per command (the last answer repeats). */
class FakeRunner {
  readonly serial = 'emulator-5554';
  readonly calls: string[][] = [];
  private readonly replies = new Map<string, Reply[]>();

  on(args: readonly string[], ...replies: Reply[]): this {
    this.replies.set(args.join(' '), replies);
    return this;
  }

  async run(args: readonly string[]): Promise<AdbResult> {
    this.calls.push([...args]);
    const queue = this.replies.get(args.join(' '));
    if (!queue || queue.length === 0) throw new Error(`unexpected adb call: ${args.join(' ')}`);
    const reply = queue.length > 1 ? (queue.shift() as Reply) : (queue[0] as Reply);
    const value = typeof reply === 'function' ? reply(args) : reply;
    return { stdout: value.stdout ?? Buffer.alloc(0), stderr: value.stderr ?? '', exitCode: value.exitCode ?? 0 };
  }
}

const out = (text: string): Partial<AdbResult> => ({ stdout: Buffer.from(text) });

function gateway(runner: FakeRunner, clock = new FakeClock(), options = {}) {
  return new AdbDeviceGateway(runner as unknown as AdbRunner, clock, silentLogger, options);
}

const pkg = (s: string) => s as PackageName;

describe('ADB_COMMANDS: the closed adb list', () => {
  it('is exactly this list, frozen', () => {
    expect(Object.isFrozen(ADB_COMMANDS)).toBe(true);
    const fixed = Object.entries(ADB_COMMANDS)
      .filter(([, v]) => Array.isArray(v))
      .map(([k, v]) => [k, (v as readonly string[]).join(' ')]);
    expect(Object.fromEntries(fixed)).toEqual({
      getState: 'get-state',
      bootCompleted: 'shell getprop sys.boot_completed',
      androidVersion: 'shell getprop ro.build.version.release',
      sdkVersion: 'shell getprop ro.build.version.sdk',
      model: 'shell getprop ro.product.model',
      listPackages: 'shell pm list packages',
      density: 'shell wm density',
      dumpsysWindow: 'shell dumpsys window',
      dumpsysPower: 'shell dumpsys power',
      dumpUi: 'exec-out uiautomator dump /dev/tty',
      uia2ServerPid: 'shell pidof io.appium.uiautomator2.server',
      screencapRaw: 'exec-out screencap',
      screencap: 'exec-out screencap -p',
      displays: 'shell dumpsys display',
      startApplicationSettings: 'shell am start -W -S -a android.settings.APPLICATION_SETTINGS',
      listDevices: 'devices -l',
      processes: 'shell ps -A -o PID,NAME',
      crashLog: 'shell logcat -b crash -d -v threadtime -v year -v UTC',
      anrEvents: 'shell logcat -b events -d -v threadtime -v year -v UTC -s am_anr',
      allProperties: 'shell getprop',
    });
    for (const [, v] of fixed) expect(v).toBeTypeOf('string');
    for (const value of Object.values(ADB_COMMANDS))
      if (Array.isArray(value)) expect(Object.isFrozen(value)).toBe(true);
    expect(ADB_COMMANDS.resolveLauncherActivity(pkg('com.android.settings'))).toEqual([
      'shell',
      'cmd',
      'package',
      'resolve-activity',
      '--brief',
      '-a',
      'android.intent.action.MAIN',
      '-c',
      'android.intent.category.LAUNCHER',
      'com.android.settings',
    ]);
    expect(ADB_COMMANDS.forceStop(pkg('com.example.notes'))).toEqual([
      'shell',
      'am',
      'force-stop',
      'com.example.notes',
    ]);
    expect(ADB_COMMANDS.clearData(pkg('com.example.notes'))).toEqual(['shell', 'pm', 'clear', 'com.example.notes']);
    expect(() => ADB_COMMANDS.clearData(pkg('a;reboot'))).toThrow(/not valid/);
    // app_install: a host command on the private copy's absolute path, never an option or model text.
    expect(ADB_COMMANDS.install('/tmp/android-mcp-apk-Ab_1/base.apk')).toEqual([
      'install',
      '-r',
      '/tmp/android-mcp-apk-Ab_1/base.apk',
    ]);
    for (const bad of [
      'base.apk',
      '-r.apk',
      '/tmp/x/../../etc/x.apk',
      '/tmp/x y.apk',
      '/tmp/x;reboot.apk',
      '/tmp/x.zip',
      '/tmp/x\u0000.apk',
      '/tmp/$(id).apk',
    ]) {
      expect(() => ADB_COMMANDS.install(bad), bad).toThrow(HarnessError);
    }
    expect(Object.keys(ADB_COMMANDS)).toContain('install');
    expect(ADB_COMMANDS.startActivity('com.android.settings/.Settings')).toEqual([
      'shell',
      'am',
      'start',
      '-W',
      '-n',
      'com.android.settings/.Settings',
    ]);
    expect(ADB_COMMANDS.screencapDisplay('4619827551948147201')).toEqual([
      'exec-out',
      'screencap',
      '-d',
      '4619827551948147201',
    ]);
    expect(ADB_COMMANDS.screencapPngDisplay('4619827551948147201')).toEqual([
      'exec-out',
      'screencap',
      '-p',
      '-d',
      '4619827551948147201',
    ]);
    expect(ADB_COMMANDS.appLog(4321, 100)).toEqual([
      'shell',
      'logcat',
      '-d',
      '-v',
      'threadtime',
      '-v',
      'year',
      '-v',
      'UTC',
      '-t',
      '100',
      '--pid=4321',
    ]);
  });

  it.each([
    [0, 100],
    [-1, 100],
    [1.5, 100],
    [Number.NaN, 100],
    [4_194_305, 100],
    [4321, 0],
    [4321, 2_001],
    [4321, 1.5],
  ])('refuses the log read of pid %j, %j lines', (pid, lines) => {
    expect(() => ADB_COMMANDS.appLog(pid, lines)).toThrow(HarnessError);
  });

  it.each(['', '0x1', '1;reboot', '1 2', '-1', '$(id)', '1\n2', '123456789012345678901'])(
    'refuses the display id %j',
    (value) => {
      expect(() => ADB_COMMANDS.screencapDisplay(value)).toThrow(HarnessError);
      expect(() => ADB_COMMANDS.screencapPngDisplay(value)).toThrow(HarnessError);
    },
  );

  it.each([
    'com.x; rm -rf /',
    'com.x/../../etc',
    '-e',
    '--user 0',
    'com.x && whoami',
    'com.x\ncom.y',
    'com.android.settings/.Settings',
    '',
    '$(id)',
  ])('refuses the package %j before building any argv', (value) => {
    expect(() => ADB_COMMANDS.resolveLauncherActivity(pkg(value))).toThrow(HarnessError);
  });

  it.each(['com.x/.Main; reboot', 'com.x/.A$B', 'com.x', "com.x/.M'", 'com.x/.M\nreboot', '-n com.x/.M'])(
    'refuses the component %j',
    (value) => {
      expect(() => ADB_COMMANDS.startActivity(value)).toThrow(HarnessError);
    },
  );

  it('each gateway method issues exactly its closed-list argv', async () => {
    const runner = new FakeRunner()
      .on(ADB_COMMANDS.getState, out('device\n'))
      .on(ADB_COMMANDS.bootCompleted, out('1\n'))
      .on(ADB_COMMANDS.androidVersion, out('14\n'))
      .on(ADB_COMMANDS.model, out('sdk_gphone64_x86_64\n'))
      .on(ADB_COMMANDS.listPackages, out('package:b\npackage:a\n'))
      .on(ADB_COMMANDS.density, out('Physical density: 420\n'))
      .on(ADB_COMMANDS.dumpsysWindow, out('  mCurrentFocus=Window{1 u0 com.android.settings/.Settings}\n'))
      .on(ADB_COMMANDS.dumpUi, out(XML))
      .on(ADB_COMMANDS.screencapRaw, {
        stdout: rawFrame(2, 1, 1, [
          [9, 8, 7, 255],
          [1, 2, 3, 255],
        ]),
      })
      .on(
        ADB_COMMANDS.resolveLauncherActivity(pkg('com.android.settings')),
        out('priority=0\ncom.android.settings/.Settings\n'),
      )
      .on(ADB_COMMANDS.startActivity('com.android.settings/.Settings'), out('Status: ok\nComplete\n'))
      .on(ADB_COMMANDS.startApplicationSettings, out('Status: ok\nComplete\n'));
    const g = gateway(runner);
    const table: [() => Promise<unknown>, string[][]][] = [
      [() => g.getState(), [['get-state'], ['shell', 'getprop', 'sys.boot_completed']]],
      [() => g.getAndroidVersion(), [['shell', 'getprop', 'ro.build.version.release']]],
      [() => g.getModel(), [['shell', 'getprop', 'ro.product.model']]],
      [() => g.listPackages(), [['shell', 'pm', 'list', 'packages']]],
      [() => g.getDensity(), [['shell', 'wm', 'density']]],
      [() => g.getWindowState(), [['shell', 'dumpsys', 'window']]],
      [() => g.dumpUi(), [['exec-out', 'uiautomator', 'dump', '/dev/tty']]],
      [() => g.screencap(), [['exec-out', 'screencap']]],
      [
        () => g.resolveLauncherActivity(pkg('com.android.settings')),
        [
          [
            'shell',
            'cmd',
            'package',
            'resolve-activity',
            '--brief',
            '-a',
            'android.intent.action.MAIN',
            '-c',
            'android.intent.category.LAUNCHER',
            'com.android.settings',
          ],
        ],
      ],
      [
        () => g.startActivity('com.android.settings/.Settings'),
        [['shell', 'am', 'start', '-W', '-n', 'com.android.settings/.Settings']],
      ],
      [
        () => g.startApplicationSettings(),
        [['shell', 'am', 'start', '-W', '-S', '-a', 'android.settings.APPLICATION_SETTINGS']],
      ],
    ];
    for (const [call, expected] of table) {
      runner.calls.length = 0;
      await call();
      expect(runner.calls).toEqual(expected);
    }
  });

  it('returns parsed values', async () => {
    const runner = new FakeRunner()
      .on(ADB_COMMANDS.getState, out('device\r\n'))
      .on(ADB_COMMANDS.bootCompleted, out('1\r\n'))
      .on(ADB_COMMANDS.androidVersion, out('14\r\n'))
      .on(ADB_COMMANDS.listPackages, out('package:b\r\npackage:a\r\n'))
      .on(ADB_COMMANDS.density, out('Physical density: 420\r\nOverride density: 480\r\n'));
    const g = gateway(runner);
    expect(await g.getState()).toBe('device');
    expect(await g.getAndroidVersion()).toBe('14');
    expect(await g.listPackages()).toEqual(['a', 'b']);
    expect(await g.getDensity()).toBe(480);
  });

  it('diagnostics: ps is parsed host-side; logcat reads run their closed-list argv; a failed read is EMULATOR_UNAVAILABLE', async () => {
    const runner = new FakeRunner()
      .on(
        ADB_COMMANDS.processes,
        out(
          '  PID NAME\r\n    1 init\r\n 4321 com.example.app\r\n 4400 com.example.app:remote\r\n  812 [kthreadd] x\r\n',
        ),
      )
      .on(ADB_COMMANDS.appLog(4321, 50), out('2026-12-01 22:46:40.123 +0000  4321  4321 I Main    : hi\n'))
      .on(ADB_COMMANDS.crashLog, out('--------- beginning of crash\n'))
      .on(ADB_COMMANDS.anrEvents, { stdout: Buffer.alloc(0), stderr: 'logcat: error', exitCode: 1 });
    const g = gateway(runner);
    expect(await g.listProcesses()).toEqual([
      { pid: 1, name: 'init' },
      { pid: 4321, name: 'com.example.app' },
      { pid: 4400, name: 'com.example.app:remote' },
    ]);
    expect(await g.readAppLog(4321, 50)).toMatch(/I Main {4}: hi/);
    expect(await g.readCrashLog()).toBe('--------- beginning of crash\n');
    await expect(g.readAnrEvents()).rejects.toMatchObject({ code: 'EMULATOR_UNAVAILABLE' });
    expect(runner.calls.map((c) => c.join(' '))).toEqual([
      'shell ps -A -o PID,NAME',
      'shell logcat -d -v threadtime -v year -v UTC -t 50 --pid=4321',
      'shell logcat -b crash -d -v threadtime -v year -v UTC',
      'shell logcat -b events -d -v threadtime -v year -v UTC -s am_anr',
    ]);
  });
});

describe('getState', () => {
  it.each([
    ['unauthorized\n', 0, /USB debugging/],
    ['offline\n', 0, /offline/],
    ['recovery\n', 0, /recovery mode/],
    ['bootloader\n', 0, /bootloader mode/],
    ['', 1, /not ready/],
  ])('state %j is EMULATOR_UNAVAILABLE with its remedy', async (state, exitCode, remedy) => {
    const runner = new FakeRunner().on(ADB_COMMANDS.getState, { stdout: Buffer.from(state), exitCode });
    const error = await harnessError(gateway(runner).getState());
    expect(error.code).toBe('EMULATOR_UNAVAILABLE');
    expect(error.message).toMatch(remedy);
  });

  it('a device still booting is not ready', async () => {
    const runner = new FakeRunner()
      .on(ADB_COMMANDS.getState, out('device\n'))
      .on(ADB_COMMANDS.bootCompleted, out('\n'));
    const error = await harnessError(gateway(runner).getState());
    expect(error.code).toBe('EMULATOR_UNAVAILABLE');
    expect(error.message).toMatch(/still booting/);
  });
});

describe('dumpUi', () => {
  it('keeps <?xml … </hierarchy> and drops the trailing "UI hierchary dumped to" line', async () => {
    const runner = new FakeRunner().on(ADB_COMMANDS.dumpUi, out(`${XML}UI hierchary dumped to: /dev/tty\r\n`));
    expect(await gateway(runner).dumpUi()).toBe(XML);
  });

  it('keeps from <hierarchy when there is no XML declaration, and drops leading noise', () => {
    expect(
      trimDump('WARNING: linker\n<hierarchy rotation="0"><node/></hierarchy>\nUI hierchary dumped to: /dev/tty'),
    ).toBe('<hierarchy rotation="0"><node/></hierarchy>');
    expect(trimDump('no xml here')).toBeNull();
    expect(trimDump('</hierarchy><?xml')).toBeNull();
  });

  it('retries a transient null root node with the clock, then succeeds', async () => {
    const clock = new FakeClock();
    const runner = new FakeRunner().on(
      ADB_COMMANDS.dumpUi,
      out('ERROR: null root node returned by UiTestAutomationBridge.\n'),
      out('ERROR: null root node returned by UiTestAutomationBridge.\n'),
      out(`${XML}UI hierchary dumped to: /dev/tty\n`),
    );
    const pending = gateway(runner, clock, { dumpRetries: 3, dumpRetryDelayMs: 500 }).dumpUi();
    let settled = false;
    void pending.then(() => (settled = true));
    await clock.advance(499);
    expect(runner.calls).toHaveLength(1);
    expect(settled).toBe(false);
    await clock.advance(1);
    expect(runner.calls).toHaveLength(2);
    await clock.advance(500);
    expect(await pending).toBe(XML);
    expect(runner.calls).toHaveLength(3);
  });

  it('gives up after the bounded retries with UI_TREE_UNAVAILABLE', async () => {
    const clock = new FakeClock();
    const runner = new FakeRunner().on(
      ADB_COMMANDS.dumpUi,
      out('ERROR: null root node returned by UiTestAutomationBridge.\n'),
    );
    const pending = harnessError(gateway(runner, clock, { dumpRetries: 2, dumpRetryDelayMs: 100 }).dumpUi());
    await clock.advance(1_000);
    const error = await pending;
    expect(error.code).toBe('UI_TREE_UNAVAILABLE');
    expect(runner.calls).toHaveLength(3);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('does not retry "could not get idle state": a typed error with a hint', async () => {
    const runner = new FakeRunner().on(ADB_COMMANDS.dumpUi, out('ERROR: could not get idle state.\n'));
    const error = await harnessError(gateway(runner).dumpUi());
    expect(error.code).toBe('UI_TREE_UNAVAILABLE');
    expect(error.message).toMatch(/never became idle/);
    expect(runner.calls).toHaveLength(1);
  });

  it('an empty dump while the UiAutomator2 server runs (killed, exit 137) is not retried into "still starting": pidof names the server', async () => {
    const runner = new FakeRunner()
      .on(ADB_COMMANDS.dumpUi, { stdout: Buffer.alloc(0), stderr: '', exitCode: 137 })
      .on(ADB_COMMANDS.uia2ServerPid, out('4711\n'));
    const error = await harnessError(gateway(runner).dumpUi());
    expect(error.code).toBe('UI_TREE_UNAVAILABLE');
    expect(error.message).toBe(
      'The UI dump ended without output (killed, exit 137) while the UiAutomator2 server runs on the device (io.appium.uiautomator2.server, pid 4711): it holds UiAutomation, and Android lets one client register. That is most likely a running UiAutomator2/Appium session or another testing tool. Pass the session_id of your open UI session to ui_get_tree, or close the other session, then retry.',
    );
    expect(error.message).not.toMatch(/still starting/);
    expect(runner.calls.map((c) => c.join(' '))).toEqual([
      'exec-out uiautomator dump /dev/tty',
      'shell pidof io.appium.uiautomator2.server',
    ]);
    // Through exec-out the exit code is lost (adb reports 0): the same answer, without the code.
    const quiet = new FakeRunner()
      .on(ADB_COMMANDS.dumpUi, out(''))
      .on(ADB_COMMANDS.uia2ServerPid, out('4711 4712\r\n'));
    expect((await harnessError(gateway(quiet).dumpUi())).message).toMatch(
      /^The UI dump ended without output while the UiAutomator2 server runs on the device \(io\.appium\.uiautomator2\.server, pid 4711\)/,
    );
  });

  it('an empty dump without a UiAutomator2 server stays transient: asked once, then retried as before', async () => {
    const clock = new FakeClock();
    const runner = new FakeRunner()
      .on(ADB_COMMANDS.dumpUi, out(''))
      .on(ADB_COMMANDS.uia2ServerPid, { stdout: Buffer.alloc(0), exitCode: 1 });
    const pending = harnessError(gateway(runner, clock, { dumpRetries: 2, dumpRetryDelayMs: 100 }).dumpUi());
    await clock.advance(1_000);
    const error = await pending;
    expect(error.message).toMatch(/no UI hierarchy after 3 attempts \(the app may still be starting\)/);
    expect(runner.calls.map((c) => c[1])).toEqual(['uiautomator', 'pidof', 'uiautomator', 'uiautomator']);
  });

  it('names another UiAutomation client when the registration is taken', async () => {
    const runner = new FakeRunner().on(ADB_COMMANDS.dumpUi, {
      stdout: Buffer.from(
        'java.lang.IllegalStateException: UiAutomationService android.accessibilityservice.IAccessibilityServiceClient$Stub$Proxy@3e1d0a2 already registered!\n',
      ),
      exitCode: 1,
    });
    const error = await harnessError(gateway(runner).dumpUi());
    expect(error.code).toBe('UI_TREE_UNAVAILABLE');
    expect(error.message).toMatch(/another automation client holds UiAutomation/);
    expect(runner.calls).toHaveLength(1);
  });
});

describe('screencap', () => {
  const RED = [200, 10, 10, 255];
  const BLUE = [10, 10, 200, 255];

  it('encodes the raw frame here: the device never encodes a PNG', async () => {
    const runner = new FakeRunner().on(ADB_COMMANDS.screencapRaw, {
      stdout: rawFrame(2, 2, 1, [RED, BLUE, BLUE, RED]),
    });
    const png = await gateway(runner).screencap();
    const image = PNG.sync.read(png);
    expect([image.width, image.height]).toEqual([2, 2]);
    expect([...image.data.subarray(0, 8)]).toEqual([...RED, ...BLUE]);
    expect(runner.calls).toEqual([['exec-out', 'screencap']]);
  });

  it('cuts a warning printed before the frame (multi-display devices) when the display cannot be told', async () => {
    const warning = Buffer.from(
      '[Warning] Multiple displays were found, but no display id was specified! Defaulting to the first display found, however this default is not guaranteed to be consistent across captures. A display id should be specified.\nA display id can be specified with the [-d display-id] option.\nSee "dumpsys SurfaceFlinger --display-id" for valid display IDs.\n',
    );
    const runner = new FakeRunner()
      .on(ADB_COMMANDS.screencapRaw, { stdout: Buffer.concat([warning, rawFrame(1, 1, 1, [RED])]) })
      .on(ADB_COMMANDS.displays, { stdout: Buffer.from("Can't find service: display\n"), exitCode: 0 });
    const image = PNG.sync.read(await gateway(runner).screencap());
    expect([...image.data]).toEqual(RED);
  });

  const MULTI =
    '[Warning] Multiple displays were found, but no display id was specified! Defaulting to the first display found, however this default is not guaranteed to be consistent across captures. A display id should be specified.\n';
  const DISPLAYS =
    'Display Devices: size=2\n' +
    '  DisplayDeviceInfo{"Outer Display": uniqueId="local:4619827259835644672", 1080 x 2092, modeId 1, state OFF, committedState OFF, FLAG_SECURE}\n' +
    '    mState=OFF\n' +
    '  DisplayDeviceInfo{"Inner Display": uniqueId="local:4619827551948147201", 1080 x 2400, modeId 1, state ON, committedState ON, FLAG_SECURE}\n' +
    '    mState=ON\n';

  it('several displays: captures again with -d and the physical id of the display that is on', async () => {
    const runner = new FakeRunner()
      .on(ADB_COMMANDS.screencapRaw, { stdout: Buffer.concat([Buffer.from(MULTI), rawFrame(1, 1, 1, [RED])]) })
      .on(ADB_COMMANDS.displays, out(DISPLAYS.replace(/\n/g, '\r\n')))
      .on(ADB_COMMANDS.screencapDisplay('4619827551948147201'), { stdout: rawFrame(1, 1, 1, [BLUE]) });
    expect([...PNG.sync.read(await gateway(runner).screencap()).data]).toEqual(BLUE);
    expect(runner.calls).toEqual([
      ['exec-out', 'screencap'],
      ['shell', 'dumpsys', 'display'],
      ['exec-out', 'screencap', '-d', '4619827551948147201'],
    ]);
  });

  it('several displays but none on: keeps the default capture, warning cut', async () => {
    const noneOn = new FakeRunner()
      .on(ADB_COMMANDS.screencapRaw, { stdout: Buffer.concat([Buffer.from(MULTI), rawFrame(1, 1, 1, [RED])]) })
      .on(ADB_COMMANDS.displays, out(DISPLAYS.replace('state ON', 'state OFF')));
    expect([...PNG.sync.read(await gateway(noneOn).screencap()).data]).toEqual(RED);
    expect(noneOn.calls).toHaveLength(2);
  });

  it('reads the older 12-byte header, RGBX, BGRA and RGB_565 frames', async () => {
    const cases: [Buffer, number[]][] = [
      [rawFrame(1, 1, 1, [RED], 12), RED],
      [rawFrame(1, 1, 2, [[200, 10, 10, 0]]), RED],
      [rawFrame(1, 1, 5, [[10, 10, 200, 255]]), RED],
      // 0xF800: red at full scale, green and blue none.
      [Buffer.concat([header(1, 1, 4), Buffer.from([0x00, 0xf8])]), [255, 0, 0, 255]],
    ];
    for (const [frame, rgba] of cases) {
      const runner = new FakeRunner().on(ADB_COMMANDS.screencapRaw, { stdout: frame });
      expect([...PNG.sync.read(await gateway(runner).screencap()).data]).toEqual(rgba);
    }
  });

  it('a frame it does not know (another pixel format, a short read): the device PNG instead', async () => {
    const png = Buffer.concat([PNG_SIG, Buffer.from('x')]);
    for (const odd of [Buffer.concat([header(1, 1, 22), Buffer.alloc(8)]), rawFrame(2, 2, 1, [RED]).subarray(0, 20)]) {
      const runner = new FakeRunner()
        .on(ADB_COMMANDS.screencapRaw, { stdout: odd })
        .on(ADB_COMMANDS.dumpsysWindow, out('  mCurrentFocus=Window{1 u0 com.android.settings/.Settings}\n'))
        .on(ADB_COMMANDS.screencap, { stdout: png });
      expect((await gateway(runner).screencap()).equals(png)).toBe(true);
      expect(runner.calls.at(-1)).toEqual(['exec-out', 'screencap', '-p']);
    }
  });

  it('the device PNG path cuts text printed before the signature', () => {
    const png = Buffer.concat([PNG_SIG, Buffer.from('IHDR')]);
    expect(extractPng(png)).toBe(png);
    expect(extractPng(Buffer.concat([Buffer.from(MULTI), png]))?.equals(png)).toBe(true);
    expect(extractPng(Buffer.from('no image\n'))).toBeNull();
  });

  it('refuses output that is neither a frame nor a PNG with EVIDENCE_WRITE_FAILED', async () => {
    const notFound = { stdout: Buffer.from('screencap: not found\n'), exitCode: 127 };
    const runner = new FakeRunner()
      .on(ADB_COMMANDS.screencapRaw, notFound)
      .on(ADB_COMMANDS.dumpsysWindow, out('  mCurrentFocus=Window{1 u0 com.android.settings/.Settings}\n'))
      .on(ADB_COMMANDS.screencap, notFound);
    const error = await harnessError(gateway(runner).screencap());
    expect(error.code).toBe('EVIDENCE_WRITE_FAILED');
  });
});

/** screencap.cpp's raw header: width, height, pixel format, and (`size` 16, Android 9+) the colour space. */
function header(width: number, height: number, format: number, size = 16): Buffer {
  const h = Buffer.alloc(size);
  h.writeUInt32LE(width, 0);
  h.writeUInt32LE(height, 4);
  h.writeUInt32LE(format, 8);
  if (size === 16) h.writeUInt32LE(1, 12);
  return h;
}

function rawFrame(width: number, height: number, format: number, pixels: number[][], size = 16): Buffer {
  return Buffer.concat([header(width, height, format, size), Buffer.from(pixels.flat())]);
}

describe('launches', () => {
  it('resolveLauncherActivity returns the component, or null when none', async () => {
    const runner = new FakeRunner()
      .on(
        ADB_COMMANDS.resolveLauncherActivity(pkg('com.example.app')),
        out(
          'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\r\ncom.example.app/.MainActivity\r\n',
        ),
      )
      .on(ADB_COMMANDS.resolveLauncherActivity(pkg('com.missing')), out('No activity found\n'));
    const g = gateway(runner);
    expect(await g.resolveLauncherActivity(pkg('com.example.app'))).toBe('com.example.app/.MainActivity');
    expect(await g.resolveLauncherActivity(pkg('com.missing'))).toBeNull();
  });

  it('startActivity maps Error lines and non-zero exits to APP_NOT_FOUND', async () => {
    const runner = new FakeRunner().on(
      ADB_COMMANDS.startActivity('com.x/.Main'),
      out(
        'Starting: Intent { cmp=com.x/.Main }\nError type 3\nError: Activity class {com.x/com.x.Main} does not exist.\n',
      ),
      { stdout: Buffer.from('Starting: Intent { cmp=com.x/.Main }\n'), exitCode: 1 },
    );
    const g = gateway(runner);
    expect((await harnessError(g.startActivity('com.x/.Main'))).code).toBe('APP_NOT_FOUND');
    expect((await harnessError(g.startActivity('com.x/.Main'))).code).toBe('APP_NOT_FOUND');
  });

  it('startActivity refuses an unsafe component without calling adb', async () => {
    const runner = new FakeRunner();
    const error = await harnessError(gateway(runner).startActivity('com.x/.Main;reboot'));
    expect(error.code).toBe('APP_NOT_FOUND');
    expect(runner.calls).toHaveLength(0);
  });

  it('startApplicationSettings maps failures to SETTINGS_FOREGROUND_FAILED', async () => {
    const runner = new FakeRunner().on(
      ADB_COMMANDS.startApplicationSettings,
      out('Error: Activity not started, unable to resolve Intent { act=android.settings.APPLICATION_SETTINGS }\n'),
    );
    expect((await harnessError(gateway(runner).startApplicationSettings())).code).toBe('SETTINGS_FOREGROUND_FAILED');
  });

  it('a failing read is EMULATOR_UNAVAILABLE', async () => {
    const runner = new FakeRunner().on(ADB_COMMANDS.density, { stdout: Buffer.alloc(0), exitCode: 1 });
    expect((await harnessError(gateway(runner).getDensity())).code).toBe('EMULATOR_UNAVAILABLE');
  });

  it('installApk: Success on stdout is installed; anything else hands back what adb printed', async () => {
    const path = '/tmp/android-mcp-apk-Ab12cd/base.apk';
    const ok = new FakeRunner().on(ADB_COMMANDS.install(path), out('Performing Streamed Install\nSuccess\n'));
    expect(await gateway(ok).installApk(path)).toEqual({ ok: true });
    const stderr = `adb: failed to install ${path}: Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]\n`;
    const refused = new FakeRunner().on(ADB_COMMANDS.install(path), {
      stdout: Buffer.from('Performing Streamed Install\n'),
      stderr,
      exitCode: 1,
    });
    const answer = await gateway(refused).installApk(path);
    expect(answer.ok).toBe(false);
    expect(answer.ok ? '' : answer.output).toContain('Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]');
    expect(refused.calls).toEqual([['install', '-r', path]]);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkDependencies,
  checkNode,
  formatReport,
  hasUiAutomator2,
  runDoctor,
  type CheckResult,
  type DoctorOptions,
} from '../../../src/doctor/doctor.js';
import { parseJavaVersion } from '../../../src/doctor/javaVersion.js';
import type { ProcessOutcome, ProcessRunner } from '../../../src/doctor/processRunner.js';
import { findPackageRoot } from '../../../src/infrastructure/appium/appiumInstall.js';

const packageRoot = findPackageRoot(fileURLToPath(import.meta.url));

describe('parseJavaVersion', () => {
  const cases: Array<[string, string, number | null]> = [
    [
      'Oracle 8',
      'java version "1.8.0_381"\nJava(TM) SE Runtime Environment (build 1.8.0_381-b09)\nJava HotSpot(TM) 64-Bit Server VM',
      8,
    ],
    [
      'OpenJDK 17 (Debian)',
      'openjdk version "17.0.15" 2025-04-15\nOpenJDK Runtime Environment (build 17.0.15+6-Debian-1deb12u1)',
      17,
    ],
    ['OpenJDK 21, bare major', 'openjdk version "21" 2023-09-19\nOpenJDK Runtime Environment (build 21+35-2513)', 21],
    [
      'Oracle 21 LTS',
      'java version "21.0.2" 2024-01-16 LTS\nJava(TM) SE Runtime Environment (build 21.0.2+13-LTS-58)',
      21,
    ],
    [
      'IBM J9 8',
      'java version "1.8.0_361"\nJava(TM) SE Runtime Environment (build 8.0.8.0 - pxa6480sr8-20230314_01(SR8))\nIBM J9 VM (build 2.9, JRE 1.8.0 Linux amd64-64-Bit)',
      8,
    ],
    [
      'IBM Semeru 17',
      'openjdk version "17.0.8.1" 2023-08-24\nIBM Semeru Runtime Open Edition 17.0.8.1 (build 17.0.8.1+1)\nEclipse OpenJ9 VM 17.0.8.1',
      17,
    ],
    ['early access', 'openjdk version "22-ea" 2024-03-19\nOpenJDK Runtime Environment (build 22-ea+27-2262)', 22],
    [
      'java --version, Oracle',
      'java 21.0.2 2024-01-16 LTS\nJava(TM) SE Runtime Environment (build 21.0.2+13-LTS-58)',
      21,
    ],
    ['java --version, OpenJDK', 'openjdk 17.0.9 2023-10-17\nOpenJDK Runtime Environment Temurin-17.0.9+9', 17],
    [
      'a tool-options banner first',
      'Picked up JAVA_TOOL_OPTIONS: -Dfile.encoding=UTF8\nopenjdk version "11.0.20" 2023-07-18',
      11,
    ],
    ['Java 7', 'java version "1.7.0_80"', 7],
    ['not java at all', 'bash: java: command not found', null],
    ['empty', '', null],
  ];
  it.each(cases)('%s', (_label, output, major) => {
    const parsed = parseJavaVersion(output);
    expect(parsed?.major ?? null).toBe(major);
  });
  it('keeps the raw version string', () => {
    expect(parseJavaVersion('java version "1.8.0_381"')).toEqual({ major: 8, raw: '1.8.0_381' });
  });
});

describe('checkNode', () => {
  it.each([
    ['20.19.0', 'ok'],
    ['v20.20.2', 'ok'],
    ['22.1.0', 'ok'],
    ['20.18.9', 'miss'],
    ['18.20.4', 'miss'],
    ['garbage', 'miss'],
  ])('%s → %s', (version, status) => {
    expect(checkNode(version).status).toBe(status);
  });
});

describe('checkDependencies', () => {
  it('nothing installed: blocks, and the remedy names installs that work while the package is not on npm', () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'amh-doctor-deps-'));
    try {
      const result = checkDependencies(empty, false);
      expect(result.status).toBe('miss');
      expect(result.summary).toContain('@modelcontextprotocol/sdk');
      expect(result.remedy).toContain('npm ci');
      expect(result.remedy).toContain('npm install -g ./android-mcp-harness-<version>.tgz');
      // No npm release exists: a remedy of `npx -y android-mcp-harness@latest` would answer 404.
      expect(result.remedy).not.toMatch(/npx -y android-mcp-harness/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('everything installed next to the harness: ok, versions listed', () => {
    const result = checkDependencies(packageRoot, false);
    expect(result.status).toBe('ok');
    expect(result.summary).toMatch(/appium 3\.\d+\.\d+, appium-uiautomator2-driver \d+/);
  });
});

describe('hasUiAutomator2', () => {
  it('reads appium driver list --installed --json', () => {
    expect(hasUiAutomator2(JSON.stringify({ uiautomator2: { installed: true, version: '8.7.0' } }))).toBe(true);
    expect(hasUiAutomator2(JSON.stringify({ xcuitest: { installed: true } }))).toBe(false);
    expect(hasUiAutomator2('{}')).toBe(false);
    expect(hasUiAutomator2('not json')).toBe(false);
  });
});

// --- runDoctor with fakes at the process boundary ------------------------------------------------

interface Device {
  /** `adb devices -l` (default: this device online as emulator-5554). */
  listing?: string;
  state?: ProcessOutcome;
  props?: Record<string, string>;
  packages?: string[];
  launcher?: Record<string, string>;
}

const ok = (stdout: string, stderr = ''): ProcessOutcome => ({ exitCode: 0, stdout, stderr });
const ADB = '/sdk/platform-tools/adb';

class FakeRunner implements ProcessRunner {
  readonly calls: string[] = [];
  constructor(
    private readonly device: Device | null,
    private readonly java: ProcessOutcome = ok('', 'openjdk version "17.0.15" 2025-04-15'),
    private readonly driverList: string = JSON.stringify({ uiautomator2: { installed: true } }),
  ) {}
  run(file: string, args: readonly string[]): Promise<ProcessOutcome> {
    this.calls.push([file, ...args].join(' '));
    return Promise.resolve(this.answer(file, args));
  }
  private answer(file: string, args: readonly string[]): ProcessOutcome {
    if (file.endsWith('java')) return this.java;
    if (file === process.execPath) return ok(this.driverList);
    if (file !== ADB) return { exitCode: null, failure: 'not-found', stdout: '', stderr: '' };
    if (args[0] === 'version')
      return ok(
        'Android Debug Bridge version 1.0.41\nVersion 29.0.6-debian\nInstalled as /usr/lib/android-sdk/platform-tools/adb\n',
      );
    const device = this.device;
    if (args[0] === 'devices') {
      const listing = device
        ? (device.listing ??
          'emulator-5554          device product:sdk_gphone64 model:sdk_gphone64_x86_64 device:emu64 transport_id:1\n')
        : '';
      return ok(`List of devices attached\n${listing}\n`);
    }
    if (!device) return { exitCode: 1, stdout: '', stderr: "error: device 'emulator-5554' not found\n" };
    const rest = args.slice(2).join(' ');
    if (rest === 'get-state') return device.state ?? ok('device\n');
    const prop = /^shell getprop (\S+)$/.exec(rest)?.[1];
    if (prop) return ok(`${device.props?.[prop] ?? ''}\n`);
    if (rest === 'shell pm list packages') return ok((device.packages ?? []).map((p) => `package:${p}`).join('\n'));
    const resolve = /resolve-activity .* (\S+)$/.exec(rest)?.[1];
    if (resolve) {
      const activity = device.launcher?.[resolve];
      return activity
        ? ok(`priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n${activity}\n`)
        : ok('No activity found\n');
    }
    return { exitCode: 127, stdout: '', stderr: 'unexpected' };
  }
}

const bootedDevice: Device = {
  props: {
    'ro.build.version.release': '14',
    'ro.build.version.sdk': '34',
    'ro.product.model': 'sdk_gphone64_x86_64',
    'sys.boot_completed': '1',
  },
  packages: ['com.android.settings', 'com.example.notes', 'com.example.service'],
  launcher: {
    'com.android.settings': 'com.android.settings/.Settings',
    'com.example.notes': 'com.example.notes/.MainActivity',
  },
};

const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function options(
  overrides: Partial<DoctorOptions> & { envExtra?: NodeJS.ProcessEnv } = {},
): DoctorOptions & { runner: FakeRunner } {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'amh-doctor-'));
  scratch.push(cwd);
  const { envExtra, ...rest } = overrides;
  return {
    env: { ANDROID_HOME: '/sdk', PATH: '/usr/bin', ...envExtra },
    cwd,
    packageRoot,
    nodeVersion: '20.20.2',
    runner: new FakeRunner(bootedDevice),
    appiumStatus: () => Promise.resolve({ kind: 'appium', version: '3.8.0', ready: true }),
    tryManagedAppium: () => Promise.resolve({ version: '3.8.0' }),
    adbExists: (candidate) => candidate === ADB,
    ...rest,
  } as DoctorOptions & { runner: FakeRunner };
}

function byName(results: readonly CheckResult[]): Record<string, CheckResult> {
  return Object.fromEntries(results.map((r) => [r.name, r]));
}

describe('runDoctor', () => {
  it('runs every check in order, cheapest first, and passes on a ready setup', async () => {
    const results = await runDoctor(options({ targetPackage: 'com.example.notes' }));
    expect(results.map((r) => r.name)).toEqual([
      'node',
      'dependencies',
      'config',
      'evidence',
      'java',
      'adb',
      'serial',
      'device',
      'android',
      'app',
      'appium',
    ]);
    expect(results.filter((r) => r.status !== 'ok')).toEqual([]);
    const checks = byName(results);
    expect(checks.adb?.summary).toContain(
      '1.0.41 (29.0.6-debian) at /sdk/platform-tools/adb (found through ANDROID_HOME)',
    );
    expect(checks.android?.summary).toBe('Android 14 (API 34), boot completed');
    expect(checks.app?.summary).toContain('com.example.notes/.MainActivity');
    expect(formatReport(results).blocking).toBe(0);
  });

  it('without adb: one blocking line for adb, the device checks skipped, and the rest still checked', async () => {
    const opts = options({
      adbExists: () => false,
      targetPackage: 'com.example.notes',
      envExtra: { ANDROID_HOME: '/nowhere' },
    });
    const results = byName(await runDoctor(opts));
    expect(results.adb?.status).toBe('miss');
    expect(results.adb?.summary).toBe('adb not found in ANDROID_HOME/platform-tools, PATH');
    expect(results.adb?.remedy).toMatch(/ANDROID_HOME/);
    expect(results.adb?.remedy).toMatch(/Claude Desktop/);
    expect(results.device?.status).toBe('skipped');
    expect(results.android?.status).toBe('skipped');
    expect(results.app?.status).toBe('skipped');
    expect(results.appium?.status).toBe('ok');
    expect(results.java?.status).toBe('ok');
    expect(opts.runner.calls.some((c) => c.includes(' -s '))).toBe(false);
  });

  it("with no device: the device blocks with adb's own diagnosis as the remedy", async () => {
    const opts = options({ runner: new FakeRunner(null), envExtra: { ANDROID_UDID: 'emulator-5554' } });
    const results = byName(await runDoctor(opts));
    expect(results.device?.status).toBe('miss');
    expect(results.device?.summary).toBe("emulator-5554: error: device 'emulator-5554' not found");
    expect(results.device?.remedy).toMatch(/No device emulator-5554 is connected/);
    expect(results.android?.status).toBe('skipped');
  });

  it.each([
    [
      'unauthorized',
      "error: device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set",
      /accept the "Allow USB debugging" prompt/,
    ],
    ['offline', 'error: device offline', /is offline/],
  ])('a device that is %s gets the remedy that fits', async (_state, stderr, remedy) => {
    const device: Device = { ...bootedDevice, state: { exitCode: 1, stdout: '', stderr } };
    const results = byName(await runDoctor(options({ runner: new FakeRunner(device) })));
    expect(results.device?.status).toBe('miss');
    expect(results.device?.remedy).toMatch(remedy);
  });

  it('a device still booting is not ready', async () => {
    const device: Device = { ...bootedDevice, props: { ...bootedDevice.props, 'sys.boot_completed': '' } };
    const results = byName(
      await runDoctor(options({ runner: new FakeRunner(device), targetPackage: 'com.example.notes' })),
    );
    expect(results.device?.status).toBe('ok');
    expect(results.android?.status).toBe('miss');
    expect(results.android?.summary).toMatch(/still booting/);
    expect(results.app?.status).toBe('skipped');
  });

  it('a refused serial blocks and nothing is sent to any device', async () => {
    const opts = options({ envExtra: { ANDROID_UDID: '192.168.1.20:5555' } });
    const results = byName(await runDoctor(opts));
    expect(results.serial?.status).toBe('miss');
    expect(results.serial?.remedy).toMatch(/ANDROID_MCP_ALLOW_SERIALS/);
    expect(results.device?.status).toBe('skipped');
    expect(opts.runner.calls.filter((c) => c.includes(' -s '))).toEqual([]);
  });

  it('ANDROID_UDID unset: the one allowed device online is checked, whatever its number (no emulator-5554 assumed)', async () => {
    const listing =
      'emulator-5556          device product:sdk model:Pixel_7 transport_id:2\nR58M123ABC             device model:SM_G991B transport_id:3\n';
    const opts = options({ runner: new FakeRunner({ ...bootedDevice, listing }) });
    const results = byName(await runDoctor(opts));
    expect(results.serial).toMatchObject({
      status: 'ok',
      summary: 'ANDROID_UDID unset: emulator-5556, the one allowed device online',
    });
    expect(results.device?.summary).toMatch(/^emulator-5556 is online/);
    expect(opts.runner.calls.some((c) => c.includes('-s emulator-5554'))).toBe(false);
    // The refused serial was never contacted.
    expect(opts.runner.calls.some((c) => c.includes('-s R58M123ABC'))).toBe(false);
  });

  it('ANDROID_UDID unset: none online blocks listing what adb sees; several is advice naming them, device checks skipped', async () => {
    const none = byName(
      await runDoctor(
        options({
          runner: new FakeRunner({ ...bootedDevice, listing: 'emulator-5554          offline transport_id:1\n' }),
        }),
      ),
    );
    expect(none.serial?.status).toBe('miss');
    expect(none.serial?.summary).toContain('emulator-5554 (offline)');
    expect(none.device?.status).toBe('skipped');
    const two = 'emulator-5554          device transport_id:1\nemulator-5556          device transport_id:2\n';
    const several = byName(await runDoctor(options({ runner: new FakeRunner({ ...bootedDevice, listing: two }) })));
    expect(several.serial?.status).toBe('advisory');
    expect(several.serial?.summary).toContain('emulator-5554, emulator-5556');
    expect(several.serial?.summary).toContain('DEVICE_AMBIGUOUS');
    expect(several.device?.status).toBe('skipped');
  });

  it('remote mode: no adb is run, the endpoint is checked with the credentials, which the report never shows', async () => {
    const key = 'k3y-doctor-41f0';
    const asked: { url: string; authorization: string | undefined }[] = [];
    const opts = options({
      envExtra: { ANDROID_MCP_REMOTE: '1', APPIUM_URL: `https://tester:${key}@hub.example.com/wd/hub` },
      appiumStatus: (url, authorization) => {
        asked.push({ url, authorization });
        return Promise.resolve({ kind: 'appium', version: '3.8.0', ready: true });
      },
    });
    const results = await runDoctor(opts);
    const checks = byName(results);
    expect(opts.runner.calls.filter((c) => c.startsWith(ADB))).toEqual([]);
    for (const name of ['adb', 'serial', 'device', 'android', 'app']) expect(checks[name]?.status).toBe('skipped');
    expect(checks.appium).toMatchObject({ status: 'ok' });
    expect(checks.appium?.summary).toContain(
      'remote mode: Appium 3.8.0 answers at https://hub.example.com/wd/hub (credentials from APPIUM_URL userinfo)',
    );
    expect(asked).toEqual([
      {
        url: 'https://hub.example.com/wd/hub',
        authorization: `Basic ${Buffer.from(`tester:${key}`).toString('base64')}`,
      },
    ]);
    expect(formatReport(results).lines.join('\n')).not.toContain(key);
    // http beyond loopback is refused before any request.
    const plain = byName(
      await runDoctor(options({ envExtra: { ANDROID_MCP_REMOTE: '1', APPIUM_URL: 'http://hub.example.com' } })),
    );
    expect(plain.appium?.status).toBe('miss');
    expect(plain.appium?.remedy).toMatch(/must be https/);
  });

  it('an ANDROID_MCP_REMOTE the server would refuse is a blocking config line', async () => {
    const results = byName(await runDoctor(options({ envExtra: { ANDROID_MCP_REMOTE: 'yes' } })));
    expect(results.config?.status).toBe('miss');
    expect(results.config?.summary).toMatch(/ANDROID_MCP_REMOTE="yes" is not understood/);
  });

  it('a retention bound the server would refuse is a blocking config line, and the rest is still checked', async () => {
    const results = byName(await runDoctor(options({ envExtra: { ANDROID_MCP_ARTIFACTS_MAX_MB: '2GB' } })));
    expect(results.config?.status).toBe('miss');
    expect(results.config?.summary).toMatch(
      /^ANDROID_MCP_ARTIFACTS_MAX_MB="2GB" is not usable: give a number of megabytes/,
    );
    expect(results.evidence?.status).toBe('ok');
  });

  it('an allowed non-emulator serial passes the guard and says why', async () => {
    const results = byName(
      await runDoctor(
        options({ envExtra: { ANDROID_UDID: '127.0.0.1:5557', ANDROID_MCP_ALLOW_SERIALS: '127.0.0.1:5557' } }),
      ),
    );
    expect(results.serial?.status).toBe('ok');
    expect(results.serial?.summary).toMatch(/ALLOW_SERIALS/);
  });

  it('Java is advisory: missing or too old never blocks, but the advice is printed', async () => {
    for (const java of [
      { exitCode: null, failure: 'not-found', stdout: '', stderr: '' } as ProcessOutcome,
      ok('', 'java version "1.8.0_381"'),
    ]) {
      const results = await runDoctor(options({ runner: new FakeRunner(bootedDevice, java) }));
      const javaCheck = byName(results).java;
      expect(javaCheck?.status).toBe('advisory');
      const report = formatReport(results);
      expect(report.blocking).toBe(0);
      expect(report.lines.some((l) => l.startsWith('[--  ] java'))).toBe(true);
      expect(report.lines.some((l) => l.includes('(advice) java'))).toBe(true);
    }
  });

  it('uses JAVA_HOME/bin/java when JAVA_HOME is set', async () => {
    const opts = options({ envExtra: { JAVA_HOME: '/opt/jdk-21' } });
    await runDoctor(opts);
    expect(opts.runner.calls).toContain('/opt/jdk-21/bin/java -XX:-UsePerfData -version');
  });

  it('APPIUM_URL set: checks that server only, and blocks when it does not answer', async () => {
    let asked = '';
    let started = false;
    const results = byName(
      await runDoctor(
        options({
          envExtra: { APPIUM_URL: 'http://127.0.0.1:9' },
          appiumStatus: (url) => {
            asked = url;
            return Promise.resolve(null);
          },
          tryManagedAppium: () => {
            started = true;
            return Promise.resolve({ version: 'x' });
          },
        }),
      ),
    );
    expect(asked).toBe('http://127.0.0.1:9');
    expect(started).toBe(false);
    expect(results.appium?.status).toBe('miss');
    expect(results.appium?.remedy).toMatch(/unset APPIUM_URL/);
  });

  it('APPIUM_URL naming a Selenium Grid hub: ok when it is ready, blocking with a remedy when it is not', async () => {
    const grid = (ready: boolean, up: number) => ({
      kind: 'selenium-grid' as const,
      version: null,
      ready,
      message: ready ? 'Selenium Grid ready.' : 'Selenium Grid not ready.',
      gridVersion: '4.48.0',
      nodes: { total: 1, up, available: up },
      sessions: 0,
    });
    const run = async (ready: boolean, up: number) =>
      byName(
        await runDoctor(
          options({
            envExtra: { APPIUM_URL: 'http://127.0.0.1:4444' },
            appiumStatus: () => Promise.resolve(grid(ready, up)),
          }),
        ),
      );
    const ready = await run(true, 1);
    expect(ready.appium?.status).toBe('ok');
    expect(ready.appium?.summary).toBe(
      'Selenium Grid 4.48.0 at http://127.0.0.1:4444: ready, 1 node(s), 1 up, 1 available; Appium behind it of unknown version',
    );
    const down = await run(false, 0);
    expect(down.appium?.status).toBe('miss');
    expect(down.appium?.summary).toMatch(/not ready, 1 node\(s\), 0 up, 0 available/);
    expect(down.appium?.remedy).toMatch(/relay node/);
  });

  it('APPIUM_URL off this machine is refused before any request', async () => {
    let asked = false;
    const results = byName(
      await runDoctor(
        options({
          envExtra: { APPIUM_URL: 'http://10.0.0.5:4723' },
          appiumStatus: () => {
            asked = true;
            return Promise.resolve({ kind: 'appium', version: '3.8.0', ready: true });
          },
        }),
      ),
    );
    expect(results.appium?.status).toBe('miss');
    expect(asked).toBe(false);
  });

  it('APPIUM_URL written without a scheme (localhost:4723) is reported as written, with the fix', async () => {
    const results = byName(await runDoctor(options({ envExtra: { APPIUM_URL: 'localhost:4723' } })));
    expect(results.config?.summary).toContain('APPIUM_URL=localhost:4723');
    expect(results.appium?.status).toBe('miss');
    expect(results.appium?.summary).toBe('APPIUM_URL=localhost:4723 is refused by the Appium guard');
    expect(results.appium?.remedy).toBe(
      "APPIUM_URL 'localhost:4723' has no scheme. Write it as http://localhost:4723 (or unset it to let the harness start its own Appium).",
    );
  });

  it('without ANDROID_UDID the config row names no default device, and the remedy offers the built-in virtual device', async () => {
    const opts = options({ runner: new FakeRunner(null) });
    const results = byName(await runDoctor(opts));
    expect(results.config?.summary).toMatch(/^device: ANDROID_UDID unset \(found through adb, below\)/);
    expect(results.serial?.status).toBe('miss');
    expect(results.serial?.remedy).toContain(
      'the built-in virtual device (`npx -y android-mcp-virtual-device`, which adb lists as emulator-5554)',
    );
  });

  it('managed mode blocks when the driver is not listed or Appium does not start', async () => {
    const noDriver = byName(await runDoctor(options({ runner: new FakeRunner(bootedDevice, undefined, '{}') })));
    expect(noDriver.appium?.status).toBe('miss');
    expect(noDriver.appium?.summary).toMatch(/does not list the uiautomator2 driver/);

    const noStart = byName(
      await runDoctor(options({ tryManagedAppium: () => Promise.reject(new Error('exited with 1 before answering')) })),
    );
    expect(noStart.appium?.status).toBe('miss');
    expect(noStart.appium?.summary).toMatch(/did not start: exited with 1/);
  });

  it('an evidence folder that cannot be created blocks', async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'amh-doctor-'));
    scratch.push(cwd);
    writeFileSync(path.join(cwd, 'a-file'), 'x');
    const results = byName(
      await runDoctor(options({ cwd, envExtra: { ANDROID_MCP_ARTIFACTS_DIR: 'a-file/artifacts' } })),
    );
    expect(results.evidence?.status).toBe('miss');
    expect(results.evidence?.remedy).toMatch(/ANDROID_MCP_ARTIFACTS_DIR/);
  });

  it('a target app that is missing, not launchable or not a package name blocks', async () => {
    const missing = byName(await runDoctor(options({ targetPackage: 'com.example.absent' })));
    expect(missing.app?.status).toBe('miss');
    expect(missing.app?.summary).toMatch(/not installed/);
    const noLauncher = byName(await runDoctor(options({ targetPackage: 'com.example.service' })));
    expect(noLauncher.app?.summary).toMatch(/no single launcher activity/);
    const opts = options({ targetPackage: 'com.x; rm -rf /' });
    const hostile = byName(await runDoctor(opts));
    expect(hostile.app?.status).toBe('miss');
    expect(opts.runner.calls.some((c) => c.includes('rm -rf'))).toBe(false);
  });

  it('a nonsensical setting is reported, not silently defaulted', async () => {
    const results = byName(await runDoctor(options({ envExtra: { ANDROID_MCP_ACTION_TIMEOUT: 'soon' } })));
    expect(results.config?.status).toBe('miss');
    expect(results.config?.summary).toMatch(/ANDROID_MCP_ACTION_TIMEOUT/);
  });
});

describe('formatReport', () => {
  it('prints one marked line per check, then one remedy line per blocking check', () => {
    const { lines, blocking } = formatReport([
      { name: 'node', status: 'ok', summary: 'Node 20' },
      { name: 'adb', status: 'miss', summary: 'adb not found', remedy: 'Install platform-tools.' },
      { name: 'device', status: 'skipped', summary: 'skipped: needs adb' },
      { name: 'appium', status: 'miss', summary: 'no answer', remedy: 'Start Appium.' },
    ]);
    expect(blocking).toBe(2);
    expect(lines.slice(0, 4)).toEqual([
      '[ok  ] node    Node 20',
      '[MISS] adb     adb not found',
      '[--  ] device  skipped: needs adb',
      '[MISS] appium  no answer',
    ]);
    expect(lines.filter((l) => l.startsWith('  ') && !l.includes('(advice)'))).toEqual([
      '  adb: Install platform-tools.',
      '  appium: Start Appium.',
    ]);
  });
});

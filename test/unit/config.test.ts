import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, evidencePathPrefix, loadConfig } from '../../src/config.js';
import { checkAppiumUrl, checkSerial } from '../../src/domain/guards.js';
import { HarnessError } from '../../src/domain/errors.js';
import { locateAdb } from '../../src/infrastructure/adb/adbLocator.js';

function load(env: NodeJS.ProcessEnv) {
  const warnings: string[] = [];
  const config = loadConfig(env, (m) => warnings.push(m), '/work/project', '/home/alice');
  return { config, warnings };
}

describe('loadConfig', () => {
  it('gives the documented defaults with no variables and no warnings', () => {
    const { config, warnings } = load({});
    expect(config).toEqual({
      udid: 'emulator-5554',
      // Unset: the device is discovered; the serial above is only the fakes' default.
      udidExplicit: false,
      allowSerials: [],
      appiumUrl: 'http://127.0.0.1:4723',
      appiumUrlExplicit: false,
      sessionIdleTimeoutMs: 300_000,
      warmSessionTimeoutMs: 30_000,
      actionTimeoutMs: 90_000,
      findTimeoutMs: 10_000,
      connectTimeoutMs: 120_000,
      artifactsDir: path.resolve('/work/project', 'artifacts'),
      artifactsPathPrefix: 'artifacts/',
      artifactsRetention: { maxFiles: 500, maxBytes: 200 * 1024 * 1024 },
      logLevel: 'info',
      appiumExtraCapabilities: {},
      adbServerPort: null,
      toolsets: ['core'],
      apkDir: null,
      agentMaxSteps: 30,
      agentTimeoutMs: 600_000,
      model: null,
      remote: null,
      trace: { enabled: true, keep: 50, maxBytes: 500 * 1024 * 1024, name: null },
    });
    expect(warnings).toEqual([]);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads the trace switch and bounds, and refuses a trace name that is not a plain folder name', () => {
    expect(load({ ANDROID_MCP_TRACE: 'off' }).config.trace?.enabled).toBe(false);
    const { config, warnings } = load({
      ANDROID_MCP_TRACE_KEEP: '3',
      ANDROID_MCP_TRACE_MAX_MB: '1.5',
      ANDROID_MCP_TRACE_NAME: '20261207-flow-1',
    });
    expect(config.trace).toEqual({ enabled: true, keep: 3, maxBytes: 1_572_864, name: '20261207-flow-1' });
    expect(warnings).toEqual([]);
    const odd = load({ ANDROID_MCP_TRACE: 'maybe', ANDROID_MCP_TRACE_NAME: '../../etc' });
    expect(odd.config.trace).toMatchObject({ enabled: true, name: null });
    expect(odd.warnings).toHaveLength(2);
  });

  it('reads every variable', () => {
    const { config, warnings } = load({
      ANDROID_UDID: '127.0.0.1:40555',
      ANDROID_MCP_ALLOW_SERIALS: ' 127.0.0.1:40555 , ,emulator-x ',
      APPIUM_URL: 'http://localhost:4999/',
      ANDROID_MCP_SESSION_IDLE_TIMEOUT: '5',
      ANDROID_MCP_ACTION_TIMEOUT: '2.5',
      ANDROID_MCP_FIND_TIMEOUT: '1.5',
      ANDROID_MCP_CONNECT_TIMEOUT: '30',
      ANDROID_MCP_ARTIFACTS_DIR: 'out/evidence',
      ANDROID_MCP_LOG_LEVEL: 'debug',
      ANDROID_MCP_APPIUM_CAPS: '{"appium:systemPort":8210,"appium:skipServerInstallation":true}',
      ANDROID_ADB_SERVER_PORT: '15037',
      ANDROID_MCP_APK_DIR: ' builds/apk ',
      ANDROID_MCP_AGENT_MAX_STEPS: '12',
      ANDROID_MCP_AGENT_TIMEOUT: '90',
    });
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      udid: '127.0.0.1:40555',
      udidExplicit: true,
      allowSerials: ['127.0.0.1:40555', 'emulator-x'],
      appiumUrl: 'http://localhost:4999',
      appiumUrlExplicit: true,
      sessionIdleTimeoutMs: 5_000,
      actionTimeoutMs: 2_500,
      findTimeoutMs: 1_500,
      connectTimeoutMs: 30_000,
      artifactsDir: path.resolve('/work/project', 'out/evidence'),
      artifactsPathPrefix: 'out/evidence/',
      logLevel: 'debug',
      appiumExtraCapabilities: { 'appium:systemPort': 8210, 'appium:skipServerInstallation': true },
      adbServerPort: 15037,
      apkDir: path.resolve('/work/project', 'builds/apk'),
      agentMaxSteps: 12,
      agentTimeoutMs: 90_000,
    });
  });

  it('keeps an absolute artifacts directory as is', () => {
    expect(load({ ANDROID_MCP_ARTIFACTS_DIR: '/var/evidence' }).config.artifactsDir).toBe(
      path.resolve('/var/evidence'),
    );
  });

  it('names the artifacts directory as the user can open it (the flow command names each evidence file so)', () => {
    const prefix = (dir: string) => load({ ANDROID_MCP_ARTIFACTS_DIR: dir }).config.artifactsPathPrefix;
    // Below the working directory: relative to it, even when configured absolute.
    expect(prefix('/work/project/out/evidence')).toBe('out/evidence/');
    expect(prefix('./shots')).toBe('shots/');
    expect(prefix('.')).toBe('./');
    // Outside it (it used to say artifacts/ anyway): below home as ~/…, else absolute.
    expect(prefix('/home/alice/evidence')).toBe('~/evidence/');
    expect(prefix('../elsewhere')).toBe('/work/elsewhere/');
    expect(prefix('/var/evidence')).toBe('/var/evidence/');
    // A sibling whose name starts like the working directory is not below it.
    expect(prefix('/work/project-evidence')).toBe('/work/project-evidence/');
  });
});

describe('evidencePathPrefix', () => {
  it('does not call a directory relative to a working directory or home that is the file-system root', () => {
    // MCP clients often start servers in `/`; a path relative to it would look like a relative path.
    expect(evidencePathPrefix('/Users/alice/evidence', '/', '/Users/alice')).toBe('~/evidence/');
    expect(evidencePathPrefix('/srv/evidence', '/', '/')).toBe('/srv/evidence/');
    expect(evidencePathPrefix('/srv/evidence', '/', undefined)).toBe('/srv/evidence/');
    expect(evidencePathPrefix('/home/alice', '/work', '/home/alice')).toBe('~/');
    expect(evidencePathPrefix('/home/alice/..x/e', '/home/alice/..x', '/home/alice')).toBe('e/');
    expect(evidencePathPrefix('/home/alice/..x/e', '/work', '/home/alice')).toBe('~/..x/e/');
  });

  it('ANDROID_MCP_WARM_SESSION_TIMEOUT takes seconds, and 0 keeps no session between actions', () => {
    expect(load({ ANDROID_MCP_WARM_SESSION_TIMEOUT: '0' }).config.warmSessionTimeoutMs).toBe(0);
    expect(load({ ANDROID_MCP_WARM_SESSION_TIMEOUT: '12.5' }).config.warmSessionTimeoutMs).toBe(12_500);
    expect(load({ ANDROID_MCP_WARM_SESSION_TIMEOUT: '0' }).warnings).toEqual([]);
  });

  it('ANDROID_MCP_FLOW_IDLE_TIMEOUT is the older name of ANDROID_MCP_SESSION_IDLE_TIMEOUT', () => {
    expect(load({ ANDROID_MCP_FLOW_IDLE_TIMEOUT: '45' }).config.sessionIdleTimeoutMs).toBe(45_000);
    const same = load({ ANDROID_MCP_FLOW_IDLE_TIMEOUT: '45', ANDROID_MCP_SESSION_IDLE_TIMEOUT: ' 45 ' });
    expect(same.config.sessionIdleTimeoutMs).toBe(45_000);
    expect(same.warnings).toEqual([]);
    expect(
      load({ ANDROID_MCP_FLOW_IDLE_TIMEOUT: '', ANDROID_MCP_SESSION_IDLE_TIMEOUT: '20' }).config.sessionIdleTimeoutMs,
    ).toBe(20_000);
    const nonsense = load({ ANDROID_MCP_FLOW_IDLE_TIMEOUT: 'soon' });
    expect(nonsense.config.sessionIdleTimeoutMs).toBe(300_000);
    expect(nonsense.warnings).toEqual(['ANDROID_MCP_FLOW_IDLE_TIMEOUT="soon" is not usable; using the default 300.']);
  });

  it('both names of the idle lease set to different values refuse the start', () => {
    expect(() => load({ ANDROID_MCP_FLOW_IDLE_TIMEOUT: '45', ANDROID_MCP_SESSION_IDLE_TIMEOUT: '60' })).toThrow(
      ConfigError,
    );
    expect(() => load({ ANDROID_MCP_FLOW_IDLE_TIMEOUT: '45', ANDROID_MCP_SESSION_IDLE_TIMEOUT: '60' })).toThrow(
      'ANDROID_MCP_SESSION_IDLE_TIMEOUT="60" and its older name ANDROID_MCP_FLOW_IDLE_TIMEOUT="45" disagree: set only ANDROID_MCP_SESSION_IDLE_TIMEOUT.',
    );
  });

  it.each([
    ['ANDROID_MCP_SESSION_IDLE_TIMEOUT', 'abc', 'sessionIdleTimeoutMs', 300_000],
    ['ANDROID_MCP_SESSION_IDLE_TIMEOUT', '-5', 'sessionIdleTimeoutMs', 300_000],
    ['ANDROID_MCP_WARM_SESSION_TIMEOUT', '-1', 'warmSessionTimeoutMs', 30_000],
    ['ANDROID_MCP_WARM_SESSION_TIMEOUT', 'soon', 'warmSessionTimeoutMs', 30_000],
    ['ANDROID_MCP_ACTION_TIMEOUT', '0', 'actionTimeoutMs', 90_000],
    ['ANDROID_MCP_ACTION_TIMEOUT', 'Infinity', 'actionTimeoutMs', 90_000],
    ['ANDROID_MCP_CONNECT_TIMEOUT', '1e9', 'connectTimeoutMs', 120_000],
    ['ANDROID_MCP_FIND_TIMEOUT', '-1', 'findTimeoutMs', 10_000],
    ['ANDROID_MCP_FIND_TIMEOUT', '61', 'findTimeoutMs', 10_000],
    ['ANDROID_MCP_FIND_TIMEOUT', 'soon', 'findTimeoutMs', 10_000],
    ['ANDROID_MCP_LOG_LEVEL', 'loud', 'logLevel', 'info'],
    ['ANDROID_ADB_SERVER_PORT', '99999', 'adbServerPort', null],
    ['ANDROID_ADB_SERVER_PORT', '50.5', 'adbServerPort', null],
    ['APPIUM_URL', 'not a url', 'appiumUrl', 'http://127.0.0.1:4723'],
  ] as const)('%s=%j falls back to its default with a warning', (name, value, key, expected) => {
    const { config, warnings } = load({ [name]: value });
    expect(config[key]).toBe(expected);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(name);
  });

  it('ANDROID_MCP_FIND_TIMEOUT=0 is one look, without a warning', () => {
    const { config, warnings } = load({ ANDROID_MCP_FIND_TIMEOUT: '0' });
    expect(config.findTimeoutMs).toBe(0);
    expect(warnings).toEqual([]);
  });

  it('treats blank values as unset, silently', () => {
    const { config, warnings } = load({ ANDROID_UDID: '  ', APPIUM_URL: '', ANDROID_MCP_LOG_LEVEL: ' ' });
    expect(config.udid).toBe('emulator-5554');
    expect(config.appiumUrlExplicit).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('an MCP Bundle setting left empty arrives as "" and means unset: ANDROID_UDID, APPIUM_URL, ANDROID_MCP_TOOLSETS, ANDROID_HOME', () => {
    // manifest.json gives every optional setting the default "", so Claude Desktop passes "" for one left alone.
    const empty = { ANDROID_HOME: '', ANDROID_UDID: '', APPIUM_URL: '', ANDROID_MCP_TOOLSETS: '' };
    const { config, warnings } = load(empty);
    expect(config).toEqual(load({}).config);
    expect(config).toMatchObject({
      udidExplicit: false,
      appiumUrl: 'http://127.0.0.1:4723',
      appiumUrlExplicit: false,
      toolsets: ['core'],
    });
    expect(warnings).toEqual([]);
    // An empty ANDROID_HOME is skipped: adb is looked for on PATH, never at "platform-tools/adb" (relative to the working directory).
    expect(
      locateAdb({ ...empty, PATH: '/usr/bin' }, (p) => p === '/usr/bin/adb' || p === 'platform-tools/adb', 'linux'),
    ).toEqual({ path: '/usr/bin/adb', source: 'PATH' });
  });

  it('keeps a non-loopback APPIUM_URL: the guard refuses it per call, not the config', () => {
    const { config } = load({ APPIUM_URL: 'http://10.0.0.5:4723' });
    expect(config.appiumUrl).toBe('http://10.0.0.5:4723');
    expect(config.appiumUrlExplicit).toBe(true);
  });

  it('an unusable APPIUM_URL counts as not set (managed Appium may start)', () => {
    expect(load({ APPIUM_URL: '::::' }).config.appiumUrlExplicit).toBe(false);
  });

  it('extra capabilities cannot override the contract five, nor adbPort when the port is set', () => {
    const { config, warnings } = load({
      ANDROID_ADB_SERVER_PORT: '15037',
      ANDROID_MCP_APPIUM_CAPS: JSON.stringify({
        platformName: 'iOS',
        'appium:automationName': 'Espresso',
        'appium:udid': 'other',
        'appium:noReset': false,
        'appium:newCommandTimeout': 0,
        'appium:adbPort': 5037,
        browserName: 'chrome',
        'appium:systemPort': 8211,
      }),
    });
    expect(config.appiumExtraCapabilities).toEqual({ 'appium:systemPort': 8211 });
    expect(warnings).toHaveLength(7);
  });

  it('a newCommandTimeout in ANDROID_MCP_APPIUM_CAPS is refused with the variables that set it instead', () => {
    const { config, warnings } = load({ ANDROID_MCP_APPIUM_CAPS: '{"appium:newCommandTimeout":600}' });
    expect(config.appiumExtraCapabilities).toEqual({});
    expect(warnings).toEqual([
      "ANDROID_MCP_APPIUM_CAPS: 'appium:newCommandTimeout' is ignored; the harness derives it from ANDROID_MCP_SESSION_IDLE_TIMEOUT and ANDROID_MCP_ACTION_TIMEOUT (the longer plus 30 s): set those instead.",
    ]);
  });

  it.each(['not json', '[1,2]', '"text"', '42', 'null'])(
    'ANDROID_MCP_APPIUM_CAPS=%s is ignored with a warning',
    (value) => {
      const { config, warnings } = load({ ANDROID_MCP_APPIUM_CAPS: value });
      expect(config.appiumExtraCapabilities).toEqual({});
      expect(warnings).toHaveLength(1);
    },
  );
});

describe('checkSerial', () => {
  it.each(['emulator-5554', 'emulator-5556', 'emulator-0'])('accepts the emulator serial %s', (s) => {
    expect(() => checkSerial(s, [])).not.toThrow();
  });

  it.each([
    'R58M123ABC',
    '127.0.0.1:5555',
    'emulator-',
    'emulator-55a4',
    'xemulator-5554',
    'emulator-5554 ',
    'emulator-5554\n',
    '',
  ])('refuses %j unless allow-listed', (s) => {
    let error: unknown;
    try {
      checkSerial(s, ['something-else']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('EMULATOR_UNAVAILABLE');
    expect((error as HarnessError).message).toMatch(/ANDROID_MCP_ALLOW_SERIALS/);
  });

  it('accepts an explicitly allowed serial, exactly', () => {
    expect(() => checkSerial('127.0.0.1:40555', ['127.0.0.1:40555'])).not.toThrow();
    expect(() => checkSerial('127.0.0.1:4055', ['127.0.0.1:40555'])).toThrow(HarnessError);
    expect(() => checkSerial('', [''])).toThrow(HarnessError);
  });
});

describe('checkAppiumUrl', () => {
  it('host:port without a scheme is refused as written, with the URL to write instead', () => {
    expect(() => checkAppiumUrl('localhost:4723')).toThrow(
      "APPIUM_URL 'localhost:4723' has no scheme. Write it as http://localhost:4723 (or unset it to let the harness start its own Appium).",
    );
    expect(() => checkAppiumUrl('127.0.0.1:4723/wd/hub')).toThrow("APPIUM_URL '127.0.0.1:4723/wd/hub' has no scheme.");
  });

  it.each([
    'http://127.0.0.1:4723',
    'http://localhost:4723',
    'http://[::1]:4723',
    'http://127.0.0.1:4723/wd/hub',
    'http://LOCALHOST:4723',
  ])('accepts %s', (url) => {
    expect(checkAppiumUrl(url)).toBeInstanceOf(URL);
  });

  it.each(['http://127.0.0.1:4444', 'http://localhost:4444/wd/hub'])(
    'accepts a local Selenium Grid hub, %s, as loopback http',
    (url) => {
      expect(checkAppiumUrl(url).href).toBe(new URL(url).href);
    },
  );

  it.each([
    'https://127.0.0.1:4723',
    'http://10.0.0.5:4723',
    'http://0.0.0.0:4723',
    'http://127.0.0.2:4723',
    'http://localhost.evil.com:4723',
    'http://127.0.0.1.nip.io:4723',
    'http://[::2]:4723',
    'ws://127.0.0.1:4723',
    'file:///etc/passwd',
    'not a url',
    '',
  ])('refuses %j with APPIUM_UNAVAILABLE', (url) => {
    let error: unknown;
    try {
      checkAppiumUrl(url);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('APPIUM_UNAVAILABLE');
  });
});

/**
 * Remote mode on the fakes: the configuration (switch, https,
 * credentials), the redaction of every credential form, the lock key, and the driver-backed device
 * gateway wired by the container with a fake session (no adb anywhere).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, REMOTE_DEFAULT_DEVICE, type HarnessConfig } from '../../../src/config.js';
import { createContainer } from '../../../src/container.js';
import { checkAppiumUrl } from '../../../src/domain/guards.js';
import { HarnessError } from '../../../src/domain/errors.js';
import { DRIVER_DEVICE_COMMANDS } from '../../../src/domain/ports.js';
import { Secret } from '../../../src/domain/secret.js';
import { STATUS_BY_ERROR_CODE } from '../../../src/rest/httpStatus.js';
import { createLogger } from '../../../src/infrastructure/logging/logger.js';
import { redactingLogger } from '../../../src/infrastructure/logging/redactingLogger.js';
import { remoteIdentity } from '../../../src/infrastructure/remote/remoteIdentity.js';
import { buildCapabilities } from '../../../src/infrastructure/appium/capabilities.js';
import {
  WebdriverAutomationGateway,
  type DriverLike,
} from '../../../src/infrastructure/appium/WebdriverAutomationGateway.js';
import { PngImageTools } from '../../../src/infrastructure/png/PngImageTools.js';
import { FakeClock } from '../../support/FakeClock.js';
import { FakeAutomation } from '../../support/fakes/FakeAutomation.js';
import { drive, envelopeOf, testConfig } from '../../support/fakes/harness.js';
import { makePng } from '../../support/fakes/images.js';
import { MemoryEvidenceStore } from '../../support/fakes/MemoryEvidenceStore.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';
import { SeededRandom } from '../../support/fakes/SeededRandom.js';
import { launcherDump } from '../../support/fakes/screens.js';
import { VirtualDevice } from '../../../packages/virtual-device/src/device/VirtualDevice.js';
import { sh } from '../../../packages/virtual-device/test/unit/helpers.js';

const KEY = 'sk-remote-5f3a9c1e7b';
const USER = 'alice';

function load(env: Record<string, string>): { config: HarnessConfig; warnings: string[] } {
  const warnings: string[] = [];
  const config = loadConfig(env, (message) => warnings.push(message), '/work', '/home/u');
  return { config, warnings };
}

describe('remote mode: configuration', () => {
  it('is off unless ANDROID_MCP_REMOTE is 1 or true; 0, false and unset leave it off; anything else refuses to start', () => {
    expect(load({}).config.remote).toBeNull();
    expect(load({ ANDROID_MCP_REMOTE: '0' }).config.remote).toBeNull();
    expect(load({ ANDROID_MCP_REMOTE: 'false' }).config.remote).toBeNull();
    expect(
      load({ ANDROID_MCP_REMOTE: '1', APPIUM_URL: 'https://hub.example.com/wd/hub' }).config.remote,
    ).not.toBeNull();
    expect(
      load({ ANDROID_MCP_REMOTE: 'true', APPIUM_URL: 'https://hub.example.com/wd/hub' }).config.remote,
    ).not.toBeNull();
    for (const value of ['yes', 'on', '2', 'TRUE ish']) {
      expect(() => load({ ANDROID_MCP_REMOTE: value, APPIUM_URL: 'https://hub.example.com' })).toThrow(ConfigError);
    }
    expect(() => load({ ANDROID_MCP_REMOTE: 'yes' })).toThrow(/set it to 1 \(or true\)/);
  });

  it('needs APPIUM_URL (no managed Appium without adb), and takes no emulator-5554 when ANDROID_UDID is unset', () => {
    expect(() => load({ ANDROID_MCP_REMOTE: '1' })).toThrow(/needs APPIUM_URL/);
    const { config } = load({ ANDROID_MCP_REMOTE: '1', APPIUM_URL: 'https://hub.example.com' });
    expect(config.udid).toBe(REMOTE_DEFAULT_DEVICE);
    expect(config.remote?.udid).toBeNull();
    const named = load({
      ANDROID_MCP_REMOTE: '1',
      APPIUM_URL: 'https://hub.example.com',
      ANDROID_UDID: 'R58M123ABC',
    }).config;
    expect(named.remote?.udid).toBe('R58M123ABC');
    // appium:udid only when named: the endpoint picks otherwise.
    expect(buildCapabilities({ udid: null, idleTimeoutMs: 60_000 })).not.toHaveProperty('appium:udid');
    expect(buildCapabilities({ udid: 'R58M123ABC', idleTimeoutMs: 60_000 })['appium:udid']).toBe('R58M123ABC');
  });

  it('turns URL userinfo into Basic auth and takes it out of the URL; outside remote mode drops it with a warning', () => {
    const remote = load({ ANDROID_MCP_REMOTE: '1', APPIUM_URL: `https://${USER}:${KEY}@hub.example.com/wd/hub` });
    expect(remote.config.appiumUrl).toBe('https://hub.example.com/wd/hub');
    expect(remote.config.remote?.authorization?.reveal()).toBe(
      `Basic ${Buffer.from(`${USER}:${KEY}`).toString('base64')}`,
    );
    expect(remote.config.remote?.authorizationSource).toBe('APPIUM_URL userinfo');
    expect(JSON.stringify(remote.config)).not.toContain(KEY);
    expect(remote.warnings.join('\n')).not.toContain(KEY);

    const local = load({ APPIUM_URL: `http://${USER}:${KEY}@127.0.0.1:4723` });
    expect(local.config.appiumUrl).toBe('http://127.0.0.1:4723');
    expect(local.config.remote).toBeNull();
    expect(local.warnings.some((w) => /carries credentials.*dropped/.test(w))).toBe(true);
    expect(local.warnings.join('\n')).not.toContain(KEY);
    // Not a URL at all: the warning shows it without userinfo.
    const broken = load({ APPIUM_URL: `https://${USER}:${KEY}@ho st` });
    expect(broken.warnings.join('\n')).not.toContain(KEY);
  });

  it('ANDROID_MCP_REMOTE_AUTHORIZATION is the header as given (and wins over userinfo); ignored outside remote mode', () => {
    const both = load({
      ANDROID_MCP_REMOTE: '1',
      APPIUM_URL: `https://${USER}:other@hub.example.com`,
      ANDROID_MCP_REMOTE_AUTHORIZATION: `Bearer ${KEY}`,
    });
    expect(both.config.remote?.authorization?.reveal()).toBe(`Bearer ${KEY}`);
    expect(both.warnings.some((w) => /header is sent/.test(w))).toBe(true);
    const local = load({ ANDROID_MCP_REMOTE_AUTHORIZATION: `Bearer ${KEY}` });
    expect(local.config.remote).toBeNull();
    expect(local.warnings.some((w) => /ignored outside remote mode/.test(w))).toBe(true);
  });

  it("accepts a farm's vendor capabilities only in remote mode, and counts their keys' values as secrets", () => {
    const caps = JSON.stringify({
      'bstack:options': { userName: USER, accessKey: KEY, deviceName: 'Google Pixel 8' },
      'appium:platformVersion': '14',
    });
    const remote = load({
      ANDROID_MCP_REMOTE: '1',
      APPIUM_URL: 'https://hub.example.com',
      ANDROID_MCP_APPIUM_CAPS: caps,
    });
    expect(remote.config.appiumExtraCapabilities).toHaveProperty('bstack:options');
    expect(remote.config.remote?.secrets.map((s) => s.reveal())).toContain(KEY);
    const local = load({ ANDROID_MCP_APPIUM_CAPS: caps });
    expect(local.config.appiumExtraCapabilities).not.toHaveProperty('bstack:options');
    expect(local.warnings.some((w) => /bstack:options.*ANDROID_MCP_REMOTE=1/.test(w))).toBe(true);
  });

  it('the guard: remote mode takes https anywhere and http on loopback only; outside it, loopback http only', () => {
    expect(checkAppiumUrl('https://hub.example.com/wd/hub', true).hostname).toBe('hub.example.com');
    expect(checkAppiumUrl('http://127.0.0.1:4444', true).port).toBe('4444');
    for (const url of ['http://hub.example.com', 'http://10.0.0.5:4444', 'ws://hub.example.com']) {
      expect(() => checkAppiumUrl(url, true)).toThrow(/must be https/);
    }
    expect(() => checkAppiumUrl('https://hub.example.com')).toThrow(/ANDROID_MCP_REMOTE=1/);
  });

  it("the guard's refusal shows the endpoint's origin and path only: a signed URL's query never reaches the answer", () => {
    for (const remote of [true, false]) {
      try {
        checkAppiumUrl(`http://hub.example.com/wd/hub?accessKey=${KEY}&x=1`, remote);
        expect.unreachable('refused');
      } catch (error) {
        expect(String((error as Error).message)).toContain('http://hub.example.com/wd/hub');
        expect(String((error as Error).message)).not.toContain(KEY);
        expect(String((error as Error).message)).not.toContain('accessKey');
      }
    }
  });

  it('NOT_AVAILABLE_REMOTELY is a closed-list code answered as REST 501', () => {
    expect(STATUS_BY_ERROR_CODE.NOT_AVAILABLE_REMOTELY).toBe(501);
    expect(DRIVER_DEVICE_COMMANDS).not.toContain('mobile: shell');
  });
});

describe('remote mode: redaction', () => {
  it('hides every form of the key, URL userinfo and query values in messages and fields (deeply), in the real JSON logger', () => {
    const lines: string[] = [];
    const sink = { write: (chunk: string) => void lines.push(String(chunk)) } as unknown as NodeJS.WritableStream;
    const basic = Buffer.from(`${USER}:${KEY}`).toString('base64');
    const logger = redactingLogger(createLogger({ level: 'debug', destination: sink }), [
      new Secret(KEY),
      new Secret(`${USER}:${KEY}`),
      new Secret(basic),
    ]);
    logger.warn(`request to https://${USER}:${KEY}@hub.example.com/wd/hub failed`, {
      cause: new Error(`401 for Basic ${basic}`),
      nested: { url: `https://hub.example.com/status?access_key=${encodeURIComponent(KEY)}x&user=${USER}` },
      list: [`key=${KEY}`],
    });
    const out = lines.join('');
    expect(out).not.toContain(KEY);
    expect(out).not.toContain(basic);
    expect(out).not.toContain(encodeURIComponent(KEY));
    expect(out).toContain('[redacted]');
    expect(out).toContain('hub.example.com');
  });
});

describe('remote mode: the lock key', () => {
  it('is the endpoint host, the udid and a short capability hash: no local adb identity, no capability value', () => {
    const caps = { 'bstack:options': { accessKey: KEY, deviceName: 'Pixel 8' } };
    const a = remoteIdentity('https://hub.example.com/wd/hub', null, caps);
    expect(a.key).toMatch(/^remote:hub\.example\.com\/-\/[0-9a-f]{8}$/);
    expect(a.key).not.toContain(KEY);
    expect(a.source).toBe('remote');
    // Same request in another key order: same lock; another device or endpoint: another lock.
    expect(
      remoteIdentity('https://hub.example.com/other', null, {
        'bstack:options': { deviceName: 'Pixel 8', accessKey: KEY },
      }).key,
    ).toBe(a.key);
    expect(
      remoteIdentity('https://hub.example.com/wd/hub', null, {
        'bstack:options': { accessKey: KEY, deviceName: 'Pixel 9' },
      }).key,
    ).not.toBe(a.key);
    expect(remoteIdentity('https://hub.example.com:8443/wd/hub', null, caps).key).not.toBe(a.key);
    expect(remoteIdentity('https://hub.example.com/wd/hub', 'R58M', caps).key).toContain('/R58M/');
  });
});

function remoteHarness(overrides: Partial<HarnessConfig> = {}) {
  const clock = new FakeClock();
  const automation = new FakeAutomation();
  automation.screenshotPng = makePng(54, 120);
  automation.driverAnswers = {
    'mobile: getCurrentPackage': 'com.android.settings',
    'mobile: getCurrentActivity': '.Settings',
    'mobile: isKeyboardShown': false,
    'mobile: isLocked': false,
    'mobile: getDisplayDensity': 420,
    'mobile: deviceInfo': { platformVersion: '14', model: 'Pixel 8' },
    'mobile: listApps': {
      'com.android.settings': { packageName: 'com.android.settings' },
      'com.example.notes': { packageName: 'com.example.notes' },
    },
    'mobile: queryAppState': 1,
  };
  const logger = new RecordingLogger();
  const store = new MemoryEvidenceStore();
  const basic = Buffer.from(`${USER}:${KEY}`).toString('base64');
  const config = testConfig({
    udid: REMOTE_DEFAULT_DEVICE,
    udidExplicit: false,
    appiumUrl: 'https://hub.example.com/wd/hub',
    warmSessionTimeoutMs: 30_000,
    remote: {
      authorization: new Secret(`Basic ${basic}`),
      authorizationSource: 'APPIUM_URL userinfo',
      udid: null,
      secrets: [new Secret(KEY), new Secret(basic)],
    },
    toolsets: ['core', 'apps', 'device', 'diagnostics'],
    ...overrides,
  });
  const container = createContainer(config, {
    clock,
    random: new SeededRandom(3),
    logger,
    automation,
    evidenceStore: store,
    imageTools: new PngImageTools(),
    deviceLock: null,
    env: {},
  });
  const envelope = async (tool: string, args: Record<string, unknown> = {}) =>
    envelopeOf(await drive(clock, container.server.callTool(tool, args)));
  return { clock, automation, logger, store, container, envelope };
}

describe('remote mode: the driver-backed gateway through the container (fake session, no adb)', () => {
  it('an http endpoint beyond this machine is refused for observers too: nothing is opened, no credential is sent', async () => {
    const h = remoteHarness({ appiumUrl: 'http://hub.example.com/wd/hub' });
    for (const tool of [
      'ui_get_tree',
      'screen_capture',
      'app_open',
      'app_list_installed',
      'emulator_get_status',
      'ui_tap',
    ]) {
      const args: Record<string, unknown> =
        tool === 'app_open'
          ? { package_name: 'com.android.settings' }
          : tool === 'ui_tap'
            ? { selector: { text: 'Settings' } }
            : {};
      const answer = await h.envelope(tool, args);
      expect(answer.ok, tool).toBe(false);
      expect(answer.error?.code, tool).toBe('APPIUM_UNAVAILABLE');
    }
    expect(h.automation.sessions).toHaveLength(0);
  });

  it('the WebDriver gateway itself refuses an http endpoint beyond this machine in remote mode, before any request', async () => {
    let created = 0;
    const gateway = new WebdriverAutomationGateway({
      url: 'http://hub.example.com/wd/hub',
      udid: null,
      connectTimeoutMs: 1000,
      authorization: new Secret('Basic eA=='),
      logger: new RecordingLogger(),
      remote: async () => {
        created += 1;
        throw new Error('must not be called');
      },
    } as unknown as ConstructorParameters<typeof WebdriverAutomationGateway>[0]);
    await expect(
      gateway.openSession({ idleTimeoutMs: 1000 } as Parameters<typeof gateway.openSession>[0]),
    ).rejects.toThrow(/must be https/);
    await expect(gateway.status()).rejects.toThrow(/must be https/);
    expect(created).toBe(0);
  });

  it('ui_get_tree opens one warm session and reads page source, window and density through it; the lease closes it', async () => {
    const h = remoteHarness();
    const tree = await h.envelope('ui_get_tree');
    expect(tree.ok).toBe(true);
    expect(h.automation.sessions).toHaveLength(1);
    const session = h.automation.sessions[0]!;
    expect(session.calls).toContain('pageSource');
    expect(session.executed.map((e) => e.command)).toEqual(
      expect.arrayContaining(['mobile: getCurrentPackage', 'mobile: getDisplayDensity', 'mobile: isLocked']),
    );
    // A second observer reuses it: never a second session.
    expect((await h.envelope('screen_capture')).ok).toBe(true);
    expect(h.automation.sessions).toHaveLength(1);
    expect(session.calls).toContain('screenshot');
    await h.clock.advance(31_000);
    expect(session.closed).toBe(true);
    expect(h.automation.open.size).toBe(0);
  });

  it("each read renews the warm session's lease; during a flow, observers read through the flow's session (never a second one)", async () => {
    const h = remoteHarness();
    expect((await h.envelope('ui_get_tree')).ok).toBe(true);
    const kept = h.automation.sessions[0]!;
    await h.clock.advance(20_000);
    expect((await h.envelope('screen_capture')).ok).toBe(true);
    await h.clock.advance(20_000);
    // 40 s after the open, 20 s after the last read: still kept.
    expect(kept.closed).toBe(false);
    await h.clock.advance(11_000);
    expect(kept.closed).toBe(true);

    const flow = await h.envelope('ui_session_open');
    const sessionId = (flow.data as { session_id: string }).session_id;
    const flowSession = h.automation.sessions[1]!;
    expect((await h.envelope('ui_get_tree', { session_id: sessionId })).ok).toBe(true);
    expect((await h.envelope('screen_capture')).ok).toBe(true);
    expect(h.automation.sessions).toHaveLength(2);
    expect(flowSession.calls).toEqual(expect.arrayContaining(['pageSource', 'screenshot']));
    expect((await h.envelope('ui_session_close', { session_id: sessionId })).ok).toBe(true);
    expect(h.automation.open.size).toBe(0);
  });

  it('app_open activates through mobile: activateApp after queryAppState; an absent package is APP_NOT_FOUND', async () => {
    const h = remoteHarness();
    h.automation.driverAnswers['mobile: getCurrentPackage'] = 'com.example.notes';
    h.automation.source = launcherDump('com.example.notes');
    const opened = await h.envelope('app_open', { package_name: 'com.example.notes' });
    expect(opened.ok).toBe(true);
    const sent = h.automation.sessions.flatMap((s) => s.executed);
    expect(sent).toContainEqual({ command: 'mobile: activateApp', args: { appId: 'com.example.notes' } });
    h.automation.driverAnswers['mobile: queryAppState'] = 0;
    const missing = await h.envelope('app_open', { package_name: 'com.example.absent' });
    expect(missing.error?.code).toBe('APP_NOT_FOUND');
  });

  it('adb-only tools answer NOT_AVAILABLE_REMOTELY saying what to use instead; no screenshot evidence for the refusal', async () => {
    const h = remoteHarness();
    const install = await h.envelope('app_install', { apk: 'app.apk' });
    expect(install.error?.code).toBe('NOT_AVAILABLE_REMOTELY');
    expect(install.error?.message).toMatch(/appium:app/);
    expect(h.automation.sessions).toHaveLength(0);
    const list = await h.envelope('device_list');
    expect(list.error?.code).toBe('NOT_AVAILABLE_REMOTELY');
    expect(list.error?.message).toMatch(/emulator_get_status/);
    const crashes = await h.envelope('app_crashes', { package_name: 'com.example.notes' });
    expect(crashes.error?.code).toBe('NOT_AVAILABLE_REMOTELY');
    expect(crashes.evidence ?? null).toBeNull();
  });

  it("a farm's device named by ANDROID_UDID passes the device guard without ANDROID_MCP_ALLOW_SERIALS; another name is refused", async () => {
    const base = remoteHarness().container.config.remote!;
    const h = remoteHarness({ udid: 'R58M123ABC', udidExplicit: true, remote: { ...base, udid: 'R58M123ABC' } });
    expect((await h.envelope('ui_get_tree')).ok).toBe(true);
    const other = await h.envelope('ui_session_open', { device: 'R58M999XYZ' });
    expect(other.error?.code).toBe('EMULATOR_UNAVAILABLE');
    expect(h.automation.sessions).toHaveLength(1);
  });

  it('emulator_get_status answers from the driver (version, model) for the one configured device', async () => {
    const h = remoteHarness();
    const status = await h.envelope('emulator_get_status');
    expect(status.ok).toBe(true);
    const data = status.data as { android_version: string; model: string; udid: string; devices: { serial: string }[] };
    expect(data.android_version).toBe('14');
    expect(data.model).toBe('Pixel 8');
    expect(data.devices.map((d) => d.serial)).toEqual([REMOTE_DEFAULT_DEVICE]);
  });

  it('the key appears in no log line and no envelope, even when a driver error quotes it', async () => {
    const h = remoteHarness();
    h.automation.failWith.pageSource = new HarnessError(
      'INTERNAL_ERROR',
      'The automation driver failed during the page source; the server log has the details.',
      {
        cause: new Error(`POST https://${USER}:${KEY}@hub.example.com/wd/hub failed`),
      },
    );
    h.container.deps.logger.warn(`driver said https://${USER}:${KEY}@hub.example.com`, {
      cause: `Basic ${Buffer.from(`${USER}:${KEY}`).toString('base64')}`,
    });
    const tree = await h.envelope('ui_get_tree');
    expect(tree.ok).toBe(false);
    expect(JSON.stringify(tree)).not.toContain(KEY);
    await h.container.shutdown();
    expect(JSON.stringify(h.logger.entries)).not.toContain(KEY);
    expect(
      [...h.store.files.keys(), ...[...h.store.files.values()].map((b) => b.toString('latin1'))].join('\n'),
    ).not.toContain(KEY);
  });
});

describe('virtual device: resolve-activity with a bare package (AOSP Intent.parseCommandArgs)', () => {
  it('resolves the launcher activity of `cmd package resolve-activity --brief <pkg>`, as appium-adb asks before activateApp', async () => {
    const d = VirtualDevice.withDefaultScenario();
    const bare = await sh(d, 'cmd package resolve-activity --brief com.android.settings');
    expect(bare.stdout.trim().split('\n').pop()).toBe('com.android.settings/.Settings');
    const explicit = await sh(
      d,
      'cmd package resolve-activity --brief -a android.intent.action.MAIN -c android.intent.category.LAUNCHER com.android.settings',
    );
    expect(explicit.stdout).toBe(bare.stdout);
    expect((await sh(d, 'cmd package resolve-activity --brief com.example.absent')).stdout).toBe('No activity found\n');
  });
});

describe('remote mode: the WebDriver gateway over https with credentials', () => {
  const basic = `Basic ${Buffer.from(`${USER}:${KEY}`).toString('base64')}`;
  const unused = (): Promise<never> => Promise.reject(new Error('not used here'));
  const driver = (): DriverLike & { scripts: { script: string; args: unknown[] }[] } => {
    const scripts: { script: string; args: unknown[] }[] = [];
    return {
      sessionId: 'remote-1',
      scripts,
      findElement: unused,
      findElements: unused,
      getElementText: unused,
      getElementAttribute: unused,
      elementClick: unused,
      executeScript: (script, args) => {
        scripts.push({ script, args });
        return Promise.resolve('com.android.settings');
      },
      elementClear: unused,
      elementSendKeys: unused,
      performActions: unused,
      releaseActions: unused,
      getWindowRect: unused,
      back: unused,
      setOrientation: unused,
      getPageSource: unused,
      takeScreenshot: unused,
      deleteSession: () => Promise.resolve(null),
    };
  };

  it('opens the session over https on 443 with the Authorization header and without appium:udid; mobile: commands are W3C execute', async () => {
    let seen: Record<string, unknown> = {};
    const fake = driver();
    const gateway = new WebdriverAutomationGateway({
      url: 'https://hub.example.com/wd/hub',
      udid: null,
      authorization: new Secret(basic),
      connectTimeoutMs: 2_000,
      logger: new RecordingLogger(),
      remote: (options) => {
        seen = options;
        return Promise.resolve(fake);
      },
    });
    const session = await gateway.openSession({ idleTimeoutMs: 30_000 });
    expect(seen).toMatchObject({
      protocol: 'https',
      hostname: 'hub.example.com',
      port: 443,
      path: '/wd/hub',
      headers: { Authorization: basic },
    });
    expect(seen.capabilities).not.toHaveProperty('appium:udid');
    expect(await session.execute('mobile: getCurrentPackage', {})).toBe('com.android.settings');
    expect(fake.scripts).toEqual([{ script: 'mobile: getCurrentPackage', args: [{}] }]);
    // A command outside the closed list never leaves, whatever a caller casts.
    await expect(session.execute('mobile: shell' as 'mobile: isLocked', {})).rejects.toThrow(/closed list/);
    expect(fake.scripts).toHaveLength(1);
  });

  it('/status carries the header; a 401 says to check the credentials, without showing them', async () => {
    const seenHeaders: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      seenHeaders.push(req.headers.authorization);
      const good = req.headers.authorization === basic;
      res.writeHead(good ? 200 : 401, { 'content-type': 'application/json' });
      res.end(good ? JSON.stringify({ value: { ready: true, build: { version: '3.8.0' } } }) : '{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const at = (authorization: Secret) =>
        new WebdriverAutomationGateway({
          url,
          udid: null,
          authorization,
          connectTimeoutMs: 2_000,
          logger: new RecordingLogger(),
        });
      expect(await at(new Secret(basic)).status()).toEqual({ kind: 'appium', version: '3.8.0', ready: true });
      const refused = await at(new Secret('Basic d3Jvbmc6d3Jvbmc='))
        .status()
        .catch((error: unknown) => error as HarnessError);
      expect(refused).toBeInstanceOf(HarnessError);
      expect((refused as HarnessError).code).toBe('APPIUM_UNAVAILABLE');
      expect((refused as HarnessError).message).toMatch(/refused the credentials \(HTTP 401\)/);
      expect((refused as HarnessError).message).not.toContain('d3Jvbmc6d3Jvbmc=');
      expect(seenHeaders).toEqual([basic, 'Basic d3Jvbmc6d3Jvbmc=']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

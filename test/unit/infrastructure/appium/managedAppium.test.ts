import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../../../src/domain/errors.js';
import type { AutomationGateway, SessionOptions } from '../../../../src/domain/ports.js';
import {
  findInstalledPackage,
  findPackageRoot,
  locateAppiumInstall,
} from '../../../../src/infrastructure/appium/appiumInstall.js';
import { EndpointAutomationGateway } from '../../../../src/infrastructure/appium/EndpointAutomationGateway.js';
import {
  FixedAppiumEndpoint,
  ManagedAppium,
  androidSdkRootFor,
  type AppiumEndpoint,
} from '../../../../src/infrastructure/appium/ManagedAppium.js';
import { silentLogger } from '../../../support/fakes/silentLogger.js';

const scratch: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'amh-unit-'));
  scratch.push(dir);
  return dir;
}
function writePackage(dir: string, name: string, version: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version }));
}
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('locating the harness and its Appium', () => {
  it('finds the package root from a file deep inside it', () => {
    const root = findPackageRoot(fileURLToPath(import.meta.url));
    expect(existsSync(path.join(root, 'package.json'))).toBe(true);
    expect(fileURLToPath(import.meta.url).startsWith(root)).toBe(true);
  });

  it('finds the real Appium and UiAutomator2 driver of this checkout, with APPIUM_HOME at the root', () => {
    const root = findPackageRoot(fileURLToPath(import.meta.url));
    const install = locateAppiumInstall(root);
    if ('missing' in install) throw new Error(`expected an install, missing ${install.missing}`);
    expect(install.appiumVersion).toMatch(/^3\./);
    expect(install.driverVersion).toMatch(/^\d+\./);
    expect(install.appiumHome).toBe(root);
    expect(install.appiumMain).toBe(path.join(root, 'node_modules', 'appium', 'index.js'));
  });

  it('follows npm hoisting: APPIUM_HOME is the folder whose node_modules holds the driver', () => {
    const prefix = tempDir();
    const harness = path.join(prefix, 'node_modules', 'android-mcp-harness');
    writePackage(harness, 'android-mcp-harness', '0.1.0');
    writePackage(path.join(prefix, 'node_modules', 'appium'), 'appium', '3.8.0');
    writeFileSync(path.join(prefix, 'node_modules', 'appium', 'index.js'), '');
    writePackage(
      path.join(prefix, 'node_modules', 'appium-uiautomator2-driver'),
      'appium-uiautomator2-driver',
      '8.7.0',
    );
    const install = locateAppiumInstall(harness);
    expect(install).toEqual({
      appiumVersion: '3.8.0',
      driverVersion: '8.7.0',
      appiumMain: path.join(prefix, 'node_modules', 'appium', 'index.js'),
      appiumHome: prefix,
    });
  });

  it('names the missing package: Appium first, then the driver', () => {
    const root = tempDir();
    writePackage(root, 'android-mcp-harness', '0.1.0');
    expect(locateAppiumInstall(root)).toEqual({ missing: 'appium' });
    writePackage(path.join(root, 'node_modules', 'appium'), 'appium', '3.8.0');
    writeFileSync(path.join(root, 'node_modules', 'appium', 'index.js'), '');
    expect(locateAppiumInstall(root)).toEqual({ missing: 'appium-uiautomator2-driver' });
  });

  it('ignores a folder whose package.json names another package', () => {
    const root = tempDir();
    writePackage(path.join(root, 'node_modules', 'appium'), 'not-appium', '1.0.0');
    expect(findInstalledPackage('appium', root)).toBeNull();
  });
});

describe('androidSdkRootFor', () => {
  it('uses the SDK root of an adb that lives in platform-tools', () => {
    const sdk = tempDir();
    writePackage(path.join(sdk, 'platform-tools'), 'x', '1');
    writeFileSync(path.join(sdk, 'platform-tools', 'adb'), '', { mode: 0o755 });
    const { root } = androidSdkRootFor(path.join(sdk, 'platform-tools', 'adb'));
    expect(root).toBe(sdk);
  });

  it('follows a symlinked adb (Debian: /usr/bin/adb → …/android-sdk/platform-tools/adb)', () => {
    const dir = tempDir();
    const sdk = path.join(dir, 'android-sdk');
    mkdirSync(path.join(sdk, 'platform-tools'), { recursive: true });
    writeFileSync(path.join(sdk, 'platform-tools', 'adb'), '', { mode: 0o755 });
    mkdirSync(path.join(dir, 'bin'));
    const link = path.join(dir, 'bin', 'adb');
    symlinkSync(path.join(sdk, 'platform-tools', 'adb'), link);
    expect(androidSdkRootFor(link).root).toBe(sdk);
  });

  it('builds a private root holding platform-tools/adb for any other adb, and removes it on cleanup', () => {
    const dir = tempDir();
    const adb = path.join(dir, 'adb');
    writeFileSync(adb, '', { mode: 0o755 });
    const { root, cleanup } = androidSdkRootFor(adb);
    expect(root).not.toBe(dir);
    const shim = path.join(root, 'platform-tools', 'adb');
    expect(lstatSync(shim).isSymbolicLink()).toBe(true);
    expect(readlinkSync(shim)).toBe(adb);
    cleanup();
    expect(existsSync(root)).toBe(false);
  });
});

describe('endpoints', () => {
  it('a fixed endpoint returns the configured URL and owns nothing', async () => {
    const endpoint = new FixedAppiumEndpoint('http://127.0.0.1:4723');
    expect(endpoint.managed).toBe(false);
    await expect(endpoint.url()).resolves.toBe('http://127.0.0.1:4723');
    await expect(endpoint.stop()).resolves.toBeUndefined();
  });

  it('a managed endpoint with no Appium installed fails with APPIUM_UNAVAILABLE and a remedy, spawning nothing', async () => {
    const root = tempDir();
    writePackage(root, 'android-mcp-harness', '0.1.0');
    const progress: string[] = [];
    const managed = new ManagedAppium({ packageRoot: root, logger: silentLogger, onProgress: (m) => progress.push(m) });
    const failure = await managed.url().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(HarnessError);
    expect((failure as HarnessError).code).toBe('APPIUM_UNAVAILABLE');
    expect((failure as HarnessError).message).toContain("'appium'");
    expect((failure as HarnessError).message).toContain('APPIUM_URL');
    expect((failure as HarnessError).message).not.toContain(root);
    expect(managed.pid).toBeNull();
    expect(progress).toEqual([]);
  });

  it('a stopped managed endpoint refuses to start again', async () => {
    const managed = new ManagedAppium({ packageRoot: tempDir(), logger: silentLogger });
    await managed.stop();
    await expect(managed.url()).rejects.toMatchObject({ code: 'APPIUM_UNAVAILABLE' });
  });
});

describe('EndpointAutomationGateway', () => {
  function fakeEndpoint(urls: string[]): AppiumEndpoint & { calls: number } {
    return {
      managed: true,
      calls: 0,
      url() {
        this.calls += 1;
        return Promise.resolve(urls[Math.min(this.calls - 1, urls.length - 1)] ?? '');
      },
      stop: () => Promise.resolve(),
      killNow: () => {},
    };
  }
  function recordingGateway(url: string, built: string[]): AutomationGateway {
    built.push(url);
    return {
      status: () => Promise.resolve({ kind: 'appium', version: url, ready: true }),
      openSession: () => Promise.reject(new Error('not in this test')),
      listSessionIds: () => Promise.resolve([url]),
    };
  }

  it('resolves the endpoint only when a call needs it, then reuses the delegate for the same URL', async () => {
    const endpoint = fakeEndpoint(['http://127.0.0.1:1111']);
    const built: string[] = [];
    const gateway = new EndpointAutomationGateway(endpoint, (url) => recordingGateway(url, built));
    expect(endpoint.calls).toBe(0);
    expect(built).toEqual([]);
    await expect(gateway.status()).resolves.toMatchObject({ version: 'http://127.0.0.1:1111' });
    await expect(gateway.listSessionIds()).resolves.toEqual(['http://127.0.0.1:1111']);
    expect(endpoint.calls).toBe(2);
    expect(built).toEqual(['http://127.0.0.1:1111']);
  });

  it('builds a new delegate when a restarted Appium answers on another port', async () => {
    const endpoint = fakeEndpoint(['http://127.0.0.1:1111', 'http://127.0.0.1:2222']);
    const built: string[] = [];
    const gateway = new EndpointAutomationGateway(endpoint, (url) => recordingGateway(url, built));
    await gateway.status();
    await expect(gateway.status()).resolves.toMatchObject({ version: 'http://127.0.0.1:2222' });
    expect(built).toEqual(['http://127.0.0.1:1111', 'http://127.0.0.1:2222']);
  });

  it('hands the session options to the delegate unchanged', async () => {
    const asked: SessionOptions[] = [];
    const gateway = new EndpointAutomationGateway(fakeEndpoint(['http://127.0.0.1:1111']), () => ({
      status: () => Promise.resolve({ kind: 'appium', version: '3.8.0', ready: true }),
      openSession: (options) => {
        asked.push(options);
        return Promise.reject(new Error('no session in this test'));
      },
      listSessionIds: () => Promise.resolve([]),
    }));
    await expect(gateway.openSession({ idleTimeoutMs: 330_000 })).rejects.toThrow('no session in this test');
    expect(asked).toEqual([{ idleTimeoutMs: 330_000 }]);
  });

  it('passes the endpoint failure through untouched', async () => {
    const failing: AppiumEndpoint = {
      managed: true,
      url: () => Promise.reject(new HarnessError('APPIUM_UNAVAILABLE', 'cannot start')),
      stop: () => Promise.resolve(),
      killNow: () => {},
    };
    const gateway = new EndpointAutomationGateway(failing, () => {
      throw new Error('must not build a delegate');
    });
    await expect(gateway.openSession({ idleTimeoutMs: 120_000 })).rejects.toMatchObject({
      code: 'APPIUM_UNAVAILABLE',
      message: 'cannot start',
    });
  });
});

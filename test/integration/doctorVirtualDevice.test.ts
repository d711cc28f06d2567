/**
 * `android-mcp-harness doctor` against the virtual device through the real adb and Appium:
 * everything present passes; a missing app, an unknown serial and a refused serial each block.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAdbServer, describeWithAdb, type PrivateAdbServer } from '../support/adbServer.js';
import { connectDevice, disconnectDevice } from '../support/adbDevices.js';
import { startVirtualDeviceProcess, type VirtualDeviceProcess } from '../support/virtualDeviceProcess.js';
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repoRoot, 'dist', 'index.js');

interface DoctorRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** name → the marker of its line, e.g. { adb: '[MISS]' }. */
  readonly marks: Record<string, string>;
}

function runDoctor(env: NodeJS.ProcessEnv, args: readonly string[] = []): Promise<DoctorRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, 'doctor', ...args], { env, cwd: scratch, timeout: 90_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      const marks: Record<string, string> = {};
      for (const line of String(stdout).split('\n')) {
        const match = /^(\[(?:ok {2}|MISS|-- {2})\]) (\S+)/.exec(line);
        if (match?.[1] && match[2]) marks[match[2]] = match[1];
      }
      resolve({ code, stdout: String(stdout), stderr: String(stderr), marks });
    });
  });
}

let scratch: string;

/** The caller's environment minus everything that points at adb, Appium or a device. */
function baseEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (['ANDROID_HOME', 'ANDROID_SDK_ROOT', 'ANDROID_ADB_SERVER_PORT', 'ANDROID_UDID', 'ANDROID_MCP_ALLOW_SERIALS', 'APPIUM_URL', 'JAVA_HOME'].includes(key)) continue;
    env[key] = value;
  }
  env.ANDROID_MCP_ARTIFACTS_DIR = path.join(scratch, 'artifacts');
  return { ...env, ...extra };
}

beforeAll(() => {
  if (!existsSync(bin)) {
    execFileSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: repoRoot, stdio: 'inherit' });
  }
  scratch = mkdtempSync(path.join(os.tmpdir(), 'amh-doctor-it-'));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describeWithAdb('doctor against the virtual device through the real adb and Appium', () => {
  let adb: PrivateAdbServer;
  let device: VirtualDeviceProcess;
  let serial: string;

  beforeAll(async () => {
    adb = await startAdbServer();
    device = await startVirtualDeviceProcess();
    serial = await connectDevice(adb, device.port);
  });

  afterAll(async () => {
    if (adb && serial) await disconnectDevice(adb, serial);
    await device?.stop();
    await adb?.stop();
  });

  const deviceEnv = (extra: NodeJS.ProcessEnv = {}) =>
    baseEnv({ ANDROID_ADB_SERVER_PORT: String(adb.port), ANDROID_UDID: serial, ANDROID_MCP_ALLOW_SERIALS: serial, ...extra });

  it('everything present (managed Appium, target app): exit 0, every line ok', async () => {
    const run = await runDoctor(deviceEnv(), ['--package', 'com.example.notes']);
    expect(run.stdout).toContain('Everything a real run needs is in place.');
    expect(run.code).toBe(0);
    for (const name of ['node', 'dependencies', 'config', 'evidence', 'adb', 'serial', 'device', 'android', 'app', 'appium']) {
      expect(run.marks[name], `${name} in\n${run.stdout}`).toBe('[ok  ]');
    }
    expect(run.stdout).toMatch(/android +Android \d+ \(API \d+\), boot completed/);
    expect(run.stdout).toMatch(/app +com\.example\.notes is installed and launchable/);
    expect(run.stdout).toMatch(/managed mode: Appium 3\.\d+\.\d+ with uiautomator2/);
  });

  it('an app that is not installed blocks, the device is still ok', async () => {
    const run = await runDoctor(deviceEnv(), ['--package', 'com.example.absent']);
    expect(run.code).toBe(1);
    expect(run.marks).toMatchObject({ device: '[ok  ]', android: '[ok  ]', app: '[MISS]' });
  });

  it('device absent (a serial adb does not know): device blocks, android skipped', async () => {
    const run = await runDoctor(deviceEnv({ ANDROID_UDID: 'emulator-5998' }));
    expect(run.code).toBe(1);
    expect(run.marks).toMatchObject({ adb: '[ok  ]', serial: '[ok  ]', device: '[MISS]', android: '[--  ]' });
    expect(run.stdout).toMatch(/^ {2}device: .*emulator-5998/m);
  });

  it('a serial the guard refuses blocks before adb is asked anything', async () => {
    const run = await runDoctor(deviceEnv({ ANDROID_MCP_ALLOW_SERIALS: '' }));
    expect(run.code).toBe(1);
    expect(run.marks).toMatchObject({ serial: '[MISS]', device: '[--  ]' });
  });
});

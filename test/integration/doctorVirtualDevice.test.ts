/**
 * `android-mcp-harness doctor` against the virtual device through the real adb and Appium:
 * everything present passes; a missing app, an unknown serial and a refused serial each block.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startAdbServer, describeWithAdb, type PrivateAdbServer } from '../support/adbServer.js';
import { connectDevice, disconnectDevice } from '../support/adbDevices.js';
import { doctorScratch, type DoctorScratch } from '../support/doctorRun.js';
import { startVirtualDeviceProcess, type VirtualDeviceProcess } from '../support/virtualDeviceProcess.js';

let doctor: DoctorScratch;
/** The remedy when no device is online and ANDROID_UDID is unset: it used to leave out the built-in virtual device. */
const DOCTOR_NO_DEVICE_REMEDY =
  '  serial: Start an emulator (its serial is emulator-<port>), or the built-in virtual device (`npx -y android-mcp-virtual-device`, which adb lists as emulator-5554), ' +
  'or set ANDROID_UDID, and list a non-emulator serial in ANDROID_MCP_ALLOW_SERIALS.';

beforeAll(() => {
  doctor = doctorScratch();
});

afterAll(() => {
  doctor?.remove();
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
    doctor.baseEnv({
      ANDROID_ADB_SERVER_PORT: String(adb.port),
      ANDROID_UDID: serial,
      ANDROID_MCP_ALLOW_SERIALS: serial,
      ...extra,
    });

  it('everything present (managed Appium, target app): exit 0, every line ok', async () => {
    const run = await doctor.run(deviceEnv(), ['--package', 'com.example.notes']);
    expect(run.stdout).toContain('Everything a real run needs is in place.');
    expect(run.code).toBe(0);
    for (const name of [
      'node',
      'dependencies',
      'config',
      'evidence',
      'adb',
      'serial',
      'device',
      'android',
      'app',
      'appium',
    ]) {
      expect(run.marks[name], `${name} in\n${run.stdout}`).toBe('[ok  ]');
    }
    expect(run.stdout).toMatch(/android +Android \d+ \(API \d+\), boot completed/);
    expect(run.stdout).toMatch(/app +com\.example\.notes is installed and launchable/);
    expect(run.stdout).toMatch(/managed mode: Appium 3\.\d+\.\d+ with uiautomator2/);
  });

  it('APPIUM_URL written without a scheme: reported as written, with the URL to write, word for word', async () => {
    const run = await doctor.run(deviceEnv({ APPIUM_URL: 'localhost:4723' }));
    expect(run.stdout).toMatch(/^\[ok {2}\] config +.*APPIUM_URL=localhost:4723/m);
    expect(run.stdout).not.toContain('null4723');
    expect(run.marks.appium).toBe('[MISS]');
    expect(run.stdout).toContain(
      "  appium: APPIUM_URL 'localhost:4723' has no scheme. Write it as http://localhost:4723 (or unset it to let the harness start its own Appium).",
    );
  });

  it('no ANDROID_UDID and no device on adb: no default device claimed, and the remedy offers the built-in virtual device', async () => {
    const empty = await startAdbServer();
    try {
      const env = doctor.baseEnv({ ANDROID_ADB_SERVER_PORT: String(empty.port) });
      delete env.ANDROID_UDID;
      const run = await doctor.run(env);
      expect(run.stdout).not.toMatch(/config +device emulator-5554/);
      expect(run.stdout).toMatch(/^\[ok {2}\] config +device: ANDROID_UDID unset \(found through adb, below\)/m);
      expect(run.stdout).toContain(
        '[MISS] serial        ANDROID_UDID is unset and no allowed device is online: adb lists no device',
      );
      expect(run.stdout).toContain(`1 blocking problem:\n${DOCTOR_NO_DEVICE_REMEDY}\n`);
    } finally {
      await empty.stop();
    }
  });

  it('an app that is not installed blocks, the device is still ok', async () => {
    const run = await doctor.run(deviceEnv(), ['--package', 'com.example.absent']);
    expect(run.code).toBe(1);
    expect(run.marks).toMatchObject({ device: '[ok  ]', android: '[ok  ]', app: '[MISS]' });
  });

  it('device absent (a serial adb does not know): device blocks, android skipped', async () => {
    const run = await doctor.run(deviceEnv({ ANDROID_UDID: 'emulator-5998' }));
    expect(run.code).toBe(1);
    expect(run.marks).toMatchObject({ adb: '[ok  ]', serial: '[ok  ]', device: '[MISS]', android: '[--  ]' });
    expect(run.stdout).toMatch(/^ {2}device: .*emulator-5998/m);
  });

  it('a serial the guard refuses blocks before adb is asked anything', async () => {
    const run = await doctor.run(deviceEnv({ ANDROID_MCP_ALLOW_SERIALS: '' }));
    expect(run.code).toBe(1);
    expect(run.marks).toMatchObject({ serial: '[MISS]', device: '[--  ]' });
  });
});

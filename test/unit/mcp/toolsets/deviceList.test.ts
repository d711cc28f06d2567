import { describe, expect, it } from 'vitest';
import type { DeviceDirectory, DeviceHolder, ListedDevice } from '../../../../src/domain/ports.js';
import { serialIdentity, type DeviceFacts } from '../../../../src/domain/devices/identity.js';
import { isPlainSerial, parseDevicesList } from '../../../../src/infrastructure/adb/AdbDeviceDirectory.js';
import { buildHarness } from '../../../support/fakes/harness.js';
import { createContainer } from '../../../../src/container.js';
import { testConfig } from '../../../support/fakes/harness.js';
import { FakeClock } from '../../../support/FakeClock.js';
import { FakeAutomation } from '../../../support/fakes/FakeAutomation.js';
import { FakeDevice } from '../../../support/fakes/FakeDevice.js';
import { MemoryEvidenceStore } from '../../../support/fakes/MemoryEvidenceStore.js';
import { RecordingLogger } from '../../../support/fakes/RecordingLogger.js';
import { SeededRandom } from '../../../support/fakes/SeededRandom.js';
import { PngImageTools } from '../../../../src/infrastructure/png/PngImageTools.js';

// Written from adb's own output format (`adb devices -l`), not copied from a capture.
const LISTING = [
  'List of devices attached',
  'emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa transport_id:1',
  '127.0.0.1:5555         offline transport_id:3',
  '0123456789ABCDEF       no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html] transport_id:4',
  'R58M123ABC             unauthorized usb:1-1 transport_id:5',
  '-evil                  device model:x',
  '$(reboot)              device',
  '',
].join('\n');

describe('parseDevicesList (adb devices -l)', () => {
  it('reads serial, state (spaces included) and model, and drops serials that are not plain', () => {
    expect(parseDevicesList(LISTING)).toEqual([
      { serial: 'emulator-5554', state: 'device', model: 'sdk_gphone64_x86_64' },
      { serial: '127.0.0.1:5555', state: 'offline', model: null },
      { serial: '0123456789ABCDEF', state: 'no permissions', model: null },
      { serial: 'R58M123ABC', state: 'unauthorized', model: null },
    ]);
    expect(parseDevicesList('List of devices attached\n\n')).toEqual([]);
    expect(isPlainSerial('-s')).toBe(false);
    expect(isPlainSerial('a b')).toBe(false);
  });
});

class FakeDirectory implements DeviceDirectory {
  readonly asked: string[] = [];
  constructor(private readonly devices: ListedDevice[]) {}
  list(): Promise<readonly ListedDevice[]> {
    return Promise.resolve(this.devices);
  }
  facts(serial: string): Promise<DeviceFacts> {
    this.asked.push(serial);
    return Promise.resolve({
      identity:
        serial === 'emulator-5556' ? { key: 'avd:Pixel_8', avdName: 'Pixel_8', source: 'avd' } : serialIdentity(serial),
      androidVersion: '14',
      // ro.product.model as the device says it; adb's listing writes its spaces as `_`.
      model: serial === 'emulator-5554' ? 'sdk gphone64 x86_64' : null,
    });
  }
  holderOf(identityKey: string): DeviceHolder | null {
    // Keyed by the device's identity, not its serial.
    return identityKey === 'avd:Pixel_8'
      ? { pid: 4242, tool: 'ui_tap', kind: 'operation', since: '2026-12-01T20:00:00.000Z', until: null }
      : null;
  }
}

describe('device_list (toolset device)', () => {
  it("lists every device with state, guard verdict, version and model (from the device when it is asked; adb's listing otherwise) and holder", async () => {
    const directory = new FakeDirectory([
      { serial: 'emulator-5554', state: 'device', model: 'sdk_gphone64' },
      { serial: 'emulator-5556', state: 'device', model: null },
      { serial: '127.0.0.1:5555', state: 'device', model: 'Pixel_7' },
      { serial: 'emulator-5558', state: 'offline', model: null },
    ]);
    const container = createContainer(testConfig({ toolsets: ['core', 'device'], allowSerials: [] }), {
      clock: new FakeClock(),
      random: new SeededRandom(1),
      logger: new RecordingLogger(),
      device: new FakeDevice(),
      automation: new FakeAutomation(),
      evidenceStore: new MemoryEvidenceStore(),
      imageTools: new PngImageTools(),
      env: {},
      directory,
    });
    const result = await container.server.callTool('device_list', {});
    const env = result.structuredContent as { ok: boolean; data: { devices: unknown[]; count: number } };
    expect(env.ok).toBe(true);
    expect(env.data).toEqual({
      count: 4,
      devices: [
        {
          serial: 'emulator-5554',
          state: 'device',
          allowed: true,
          configured: true,
          avd_name: null,
          android_version: '14',
          model: 'sdk gphone64 x86_64',
          held_by: null,
        },
        {
          serial: 'emulator-5556',
          state: 'device',
          allowed: true,
          configured: false,
          avd_name: 'Pixel_8',
          android_version: '14',
          model: null,
          held_by: { pid: 4242, tool: 'ui_tap', kind: 'operation', since: '2026-12-01T20:00:00.000Z', until: null },
        },
        {
          serial: '127.0.0.1:5555',
          state: 'device',
          allowed: false,
          configured: false,
          avd_name: null,
          android_version: null,
          model: 'Pixel_7',
          held_by: null,
        },
        {
          serial: 'emulator-5558',
          state: 'offline',
          allowed: true,
          configured: false,
          avd_name: null,
          android_version: null,
          model: null,
          held_by: null,
        },
      ],
    });
    // A device the guard refuses, or one not online, is never contacted.
    expect(directory.asked.sort()).toEqual(['emulator-5554', 'emulator-5556']);
  });

  it('is off by default', async () => {
    await expect(buildHarness().call('device_list')).rejects.toThrow(/Unknown tool/);
  });
});

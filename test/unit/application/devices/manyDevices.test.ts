import { describe, expect, it } from 'vitest';
import { createContainer } from '../../../../src/container.js';
import { identityFromProps, serialIdentity, type DeviceFacts } from '../../../../src/domain/devices/identity.js';
import type { DeviceDirectory, ListedDevice } from '../../../../src/domain/ports.js';
import { parsePropertyListing } from '../../../../src/infrastructure/adb/parsers.js';
import { PngImageTools } from '../../../../src/infrastructure/png/PngImageTools.js';
import { FakeClock } from '../../../support/FakeClock.js';
import { FakeAutomation } from '../../../support/fakes/FakeAutomation.js';
import { FakeDevice } from '../../../support/fakes/FakeDevice.js';
import { drive, envelopeOf, testConfig } from '../../../support/fakes/harness.js';
import { MemoryEvidenceStore } from '../../../support/fakes/MemoryEvidenceStore.js';
import { RecordingLogger } from '../../../support/fakes/RecordingLogger.js';
import { SeededRandom } from '../../../support/fakes/SeededRandom.js';
import type { HarnessConfig } from '../../../../src/config.js';
import type { Envelope } from '../../../../src/domain/envelope.js';
import { buildLocator } from '../../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../../src/domain/validation.js';

const locatorOf = (selector: Record<string, unknown>): string => buildLocator(parseSelector(selector)).value;

describe('device identity', () => {
  const props = (entries: Record<string, string>) => new Map(Object.entries(entries));

  it('an emulator is its AVD name, never its ro.serialno (every emulator of a build shares it)', () => {
    const a = identityFromProps(
      'emulator-5554',
      props({ 'ro.boot.qemu': '1', 'ro.boot.qemu.avd_name': 'Pixel_7_API_34', 'ro.serialno': 'EMULATOR35X6X3X0' }),
    );
    const b = identityFromProps(
      'emulator-5556',
      props({ 'ro.kernel.qemu': '1', 'ro.kernel.qemu.avd_name': 'Pixel_5_API_30', 'ro.serialno': 'EMULATOR35X6X3X0' }),
    );
    expect(a).toEqual({ key: 'avd:Pixel_7_API_34', avdName: 'Pixel_7_API_34', source: 'avd' });
    expect(b.key).toBe('avd:Pixel_5_API_30');
    // The same emulator under its other serial: the same key.
    expect(
      identityFromProps('127.0.0.1:5555', props({ 'ro.boot.qemu': '1', 'ro.boot.qemu.avd_name': 'Pixel_7_API_34' }))
        .key,
    ).toBe(a.key);
  });

  it('another device is its ro.serialno; a device that names nothing usable falls back to its adb serial', () => {
    expect(identityFromProps('192.168.1.5:5555', props({ 'ro.serialno': 'R58M123ABC' })).key).toBe(
      'serialno:R58M123ABC',
    );
    expect(identityFromProps('x', props({ 'ro.boot.serialno': 'R58M123ABC' })).key).toBe('serialno:R58M123ABC');
    expect(identityFromProps('x', props({ 'ro.serialno': 'unknown' }))).toEqual(serialIdentity('x'));
    expect(identityFromProps('x', props({ 'ro.serialno': 'a b/../c' }))).toEqual(serialIdentity('x'));
    expect(
      identityFromProps('emulator-5554', props({ 'ro.kernel.qemu': '1', 'ro.serialno': 'EMULATOR35X6X3X0' })),
    ).toEqual(serialIdentity('emulator-5554'));
  });

  it('reads `getprop` as Android prints it, CRLF included', () => {
    const listing =
      '[ro.boot.qemu]: [1]\r\n[ro.boot.qemu.avd_name]: [Pixel_7]\r\n[ro.build.version.release]: [14]\r\nnot a property\r\n';
    expect(Object.fromEntries(parsePropertyListing(listing))).toEqual({
      'ro.boot.qemu': '1',
      'ro.boot.qemu.avd_name': 'Pixel_7',
      'ro.build.version.release': '14',
    });
  });
});

/** adb's view: listed devices, each with its facts; records which serials were asked. */
class FakeDirectory implements DeviceDirectory {
  readonly asked: string[] = [];
  constructor(
    public devices: ListedDevice[],
    private readonly avd: Record<string, string>,
  ) {}
  list(): Promise<readonly ListedDevice[]> {
    return Promise.resolve(this.devices);
  }
  facts(serial: string): Promise<DeviceFacts> {
    this.asked.push(serial);
    const avdName = this.avd[serial];
    return Promise.resolve({
      identity: avdName ? { key: `avd:${avdName}`, avdName, source: 'avd' } : serialIdentity(serial),
      androidVersion: '14',
      model: 'm',
    });
  }
  holderOf(): null {
    return null;
  }
}

interface World {
  call(tool: string, args?: Record<string, unknown>): Promise<Envelope>;
  /** A call as the REST mirror makes it under `/devices/{device}/…`. */
  callOn(device: string, tool: string, args?: Record<string, unknown>): Promise<Envelope>;
  devices: Map<string, { device: FakeDevice; automation: FakeAutomation }>;
  directory: FakeDirectory;
}

function world(config: Partial<HarnessConfig>, listed: ListedDevice[], avd: Record<string, string>): World {
  const clock = new FakeClock();
  const directory = new FakeDirectory(listed, avd);
  const devices = new Map<string, { device: FakeDevice; automation: FakeAutomation }>();
  const ports = (serial: string) => {
    let entry = devices.get(serial);
    if (!entry) {
      entry = { device: new FakeDevice(), automation: new FakeAutomation() };
      devices.set(serial, entry);
    }
    return entry;
  };
  const container = createContainer(testConfig({ udidExplicit: false, ...config }), {
    clock,
    random: new SeededRandom(3),
    logger: new RecordingLogger(),
    automation: new FakeAutomation(),
    evidenceStore: new MemoryEvidenceStore(),
    imageTools: new PngImageTools(),
    env: {},
    directory,
    deviceLock: null,
    forDevice: ports,
  });
  const call = async (tool: string, args: Record<string, unknown> = {}) =>
    envelopeOf(await drive(clock, container.server.callTool(tool, args)));
  return {
    call,
    callOn: (device, tool, args) => container.router.onDevice(device, () => call(tool, args)),
    devices,
    directory,
  };
}

const online = (serial: string): ListedDevice => ({ serial, state: 'device', model: null });

describe('discovery with ANDROID_UDID unset', () => {
  it('one allowed device online: every call goes to it, whatever its serial', async () => {
    const w = world(
      {},
      [online('emulator-5556'), online('R58M123ABC'), { serial: 'emulator-5558', state: 'offline', model: null }],
      {},
    );
    const tree = await w.call('ui_get_tree');
    expect(tree.ok, JSON.stringify(tree.error)).toBe(true);
    expect([...w.devices.keys()]).toEqual(['emulator-5556']);
    // The refused serial (not emulator-N, not allowed) is never contacted, not even for its properties.
    expect(w.directory.asked).not.toContain('R58M123ABC');
  });

  it('several: a call that names none is refused with DEVICE_AMBIGUOUS listing them, and nothing reaches a device', async () => {
    const w = world({}, [online('emulator-5554'), online('emulator-5556')], {
      'emulator-5554': 'Pixel_7',
      'emulator-5556': 'Pixel_5',
    });
    for (const tool of ['ui_get_tree', 'ui_session_open', 'screen_capture', 'app_list_installed']) {
      const answer = await w.call(tool);
      expect(answer.error?.code, tool).toBe('DEVICE_AMBIGUOUS');
      expect(answer.error?.message).toContain('emulator-5554 (AVD Pixel_7)');
      expect(answer.error?.message).toContain('emulator-5556 (AVD Pixel_5)');
    }
    expect(w.devices.size).toBe(0);
    // emulator_get_status still answers: no udid, every allowed device listed.
    const status = await w.call('emulator_get_status');
    expect(status.ok).toBe(true);
    expect(status.data).toMatchObject({
      udid: null,
      devices: [
        {
          serial: 'emulator-5554',
          state: 'device',
          avd_name: 'Pixel_7',
          android_version: '14',
          model: 'm',
          held_by: null,
        },
        {
          serial: 'emulator-5556',
          state: 'device',
          avd_name: 'Pixel_5',
          android_version: '14',
          model: 'm',
          held_by: null,
        },
      ],
    });
  });

  it('two serials of one device are no choice: that device, one binding', async () => {
    const w = world({ allowSerials: ['127.0.0.1:5555'] }, [online('emulator-5554'), online('127.0.0.1:5555')], {
      'emulator-5554': 'Pixel_7',
      '127.0.0.1:5555': 'Pixel_7',
    });
    expect((await w.call('ui_get_tree')).ok).toBe(true);
    expect([...w.devices.keys()]).toEqual(['emulator-5554']);
  });

  it('a non-loopback Appium refuses acting calls before any device is asked, even for its identity (INV-SAFE-1)', async () => {
    const w = world(
      { udid: 'emulator-5554', udidExplicit: true, appiumUrl: 'http://192.0.2.10:4723' },
      [online('emulator-5554')],
      { 'emulator-5554': 'Pixel_7' },
    );
    for (const tool of ['ui_tap', 'ui_session_open', 'emulator_get_status']) {
      const args = tool === 'ui_tap' ? { selector: { text: 'Apps' } } : {};
      expect((await w.call(tool, args)).error?.code, tool).toBe('APPIUM_UNAVAILABLE');
    }
    expect(w.directory.asked).toEqual([]);
    expect(w.devices.size).toBe(0);
    // An adb-only observer still reads the device (the Appium guard is not its concern).
    expect((await w.call('ui_get_tree')).ok).toBe(true);
    expect(w.directory.asked).toEqual(['emulator-5554']);
  });

  it('no allowed device online: EMULATOR_UNAVAILABLE saying what adb sees', async () => {
    const w = world({}, [{ serial: 'emulator-5554', state: 'offline', model: null }, online('R58M123ABC')], {});
    const answer = await w.call('ui_get_tree');
    expect(answer.error?.code).toBe('EMULATOR_UNAVAILABLE');
    expect(answer.error?.message).toMatch(/emulator-5554 \(offline\).*R58M123ABC \(refused/);
  });
});

describe('one flow per device, several at once', () => {
  const twoEmulators = () =>
    world({}, [online('emulator-5554'), online('emulator-5556')], {
      'emulator-5554': 'Pixel_7',
      'emulator-5556': 'Pixel_5',
    });

  it('a device by serial or AVD name; each session_id acts on its own device only', async () => {
    const w = twoEmulators();
    const a = await w.call('ui_session_open', { device: 'emulator-5554' });
    const b = await w.call('ui_session_open', { device: 'Pixel_5' });
    expect(a.data).toMatchObject({ device: 'emulator-5554', avd_name: 'Pixel_7' });
    expect(b.data).toMatchObject({ device: 'emulator-5556', avd_name: 'Pixel_5' });
    const idA = (a.data as { session_id: string }).session_id;
    const idB = (b.data as { session_id: string }).session_id;
    const A = w.devices.get('emulator-5554')!;
    const B = w.devices.get('emulator-5556')!;
    A.automation.elements.set(locatorOf({ text: 'Calendar' }), 'Calendar');
    B.automation.elements.set(locatorOf({ text: 'Clock' }), 'Clock');
    // Both at once: two gates, two sessions, no EMULATOR_BUSY.
    const [tapA, tapB] = await Promise.all([
      w.call('ui_tap', { selector: { text: 'Calendar' }, session_id: idA }),
      w.call('ui_tap', { selector: { text: 'Clock' }, session_id: idB }),
    ]);
    expect(tapA.ok, JSON.stringify(tapA.error)).toBe(true);
    expect(tapB.ok, JSON.stringify(tapB.error)).toBe(true);
    expect(A.automation.log.filter((l) => l.endsWith(':click'))).toHaveLength(1);
    expect(B.automation.log.filter((l) => l.endsWith(':click'))).toHaveLength(1);
    // Observers without a session_id of their own today take the flow's: its device only.
    const callsOnB = B.device.calls.length;
    expect((await w.call('screen_capture', { session_id: idA })).ok).toBe(true);
    expect((await w.call('app_list_installed', { session_id: idA })).ok).toBe(true);
    expect(A.device.calls).toContain('screencap');
    expect(A.device.calls).toContain('listPackages');
    expect(B.device.calls.length).toBe(callsOnB);
    // Closing one leaves the other open.
    expect((await w.call('ui_session_close', { session_id: idA })).ok).toBe(true);
    expect((await w.call('ui_get_tree', { session_id: idB })).ok).toBe(true);
    expect((await w.call('ui_get_tree', { session_id: idA })).error?.code).toBe('INVALID_UI_SESSION');
  });

  it("app_open with a session_id launches on the flow's device and polls its page source, never a dump under the flow", async () => {
    const w = twoEmulators();
    const open = await w.call('ui_session_open', { device: 'emulator-5556' });
    const id = (open.data as { session_id: string }).session_id;
    const B = w.devices.get('emulator-5556')!;
    B.automation.source = B.device.dump.replace(/package="com\.android\.settings"/g, 'package="com.example.app"');
    const answer = await w.call('app_open', { package_name: 'com.example.app', session_id: id });
    expect(answer.ok, JSON.stringify(answer.error)).toBe(true);
    expect(B.device.calls).toContain('startActivity');
    expect(B.device.calls).not.toContain('dumpUi');
    expect(B.automation.log.some((l) => l.endsWith(':pageSource'))).toBe(true);
  });

  it('a device name that is neither a listed serial nor an AVD name is refused, and so is one the guard refuses', async () => {
    const w = world({}, [online('emulator-5554'), online('R58M123ABC')], { 'emulator-5554': 'Pixel_7' });
    expect((await w.call('ui_session_open', { device: 'Pixel_9' })).error).toMatchObject({
      code: 'EMULATOR_UNAVAILABLE',
      message: expect.stringContaining("named 'Pixel_9'"),
    });
    expect((await w.call('ui_session_open', { device: 'R58M123ABC' })).error?.code).toBe('EMULATOR_UNAVAILABLE');
    expect((await w.call('ui_session_open', { device: '$(reboot)' })).error?.code).toBe('INVALID_ARGUMENT');
    expect(w.directory.asked).not.toContain('R58M123ABC');
    expect(w.devices.size).toBe(0);
  });
});

describe('one binding per device, not per serial', () => {
  it('a flow opened through one serial owns the device for the other serial too', async () => {
    const w = world({ allowSerials: ['127.0.0.1:5555'] }, [online('emulator-5554'), online('127.0.0.1:5555')], {
      'emulator-5554': 'Pixel_7',
      '127.0.0.1:5555': 'Pixel_7',
    });
    expect((await w.call('ui_session_open', { device: 'emulator-5554' })).ok).toBe(true);
    const other = await w.call('ui_session_open', { device: '127.0.0.1:5555' });
    expect(other.error?.code).toBe('EMULATOR_BUSY');
    // Driven through the serial it was first named by.
    expect([...w.devices.keys()]).toEqual(['emulator-5554']);
  });
});

describe("a call scoped to a named device (the REST mirror's {id}, DeviceRouter.onDevice)", () => {
  const listed = [online('emulator-5554'), online('emulator-5556')];
  const avd = { 'emulator-5554': 'Pixel_7', 'emulator-5556': 'Pixel_5' };

  it('runs on that device without session_id, by serial or AVD name, even with ANDROID_UDID naming the other', async () => {
    const w = world({ udid: 'emulator-5554', udidExplicit: true }, listed, avd);
    expect((await w.callOn('emulator-5556', 'ui_get_tree')).ok).toBe(true);
    expect([...w.devices.keys()]).toEqual(['emulator-5556']);
    expect((await w.callOn('Pixel_7', 'screen_capture')).ok).toBe(true);
    expect([...w.devices.keys()].sort()).toEqual(['emulator-5554', 'emulator-5556']);
    // Unscoped calls still go to the default.
    const before = w.devices.get('emulator-5556')!.device.calls.length;
    expect((await w.call('ui_get_tree')).ok).toBe(true);
    expect(w.devices.get('emulator-5556')!.device.calls.length).toBe(before);
  });

  it("with a flow's session_id: its own device acts in it; another device's scope refuses it with INVALID_UI_SESSION, nothing done", async () => {
    const w = world({}, listed, avd);
    w.devices.set('emulator-5556', { device: new FakeDevice(), automation: new FakeAutomation() });
    const b = w.devices.get('emulator-5556')!;
    b.automation.elements.set(locatorOf({ text: 'Calendar' }), 'Calendar');
    const opened = await w.call('ui_session_open', { device: 'Pixel_5' });
    const sessionId = String(opened.data.session_id);
    expect(
      (await w.callOn('emulator-5556', 'ui_tap', { selector: { text: 'Calendar' }, session_id: sessionId })).ok,
    ).toBe(true);
    const wrong = await w.callOn('emulator-5554', 'ui_tap', { selector: { text: 'Calendar' }, session_id: sessionId });
    expect(wrong.error?.code).toBe('INVALID_UI_SESSION');
    expect(wrong.error?.message).toContain('a UI session on emulator-5556, not on emulator-5554');
    expect(w.devices.get('emulator-5554')?.automation.sessions.length ?? 0).toBe(0);
    expect(b.automation.log.filter((line) => line.endsWith(':click')).length).toBe(1);
    // An id no flow knows, scoped: the scoped device answers it (as the default device would unscoped).
    expect(
      (
        await w.callOn('emulator-5554', 'ui_tap', {
          selector: { text: 'Calendar' },
          session_id: 'a-session-id-nobody-has-0001',
        })
      ).error?.code,
    ).toBe('INVALID_UI_SESSION');
  });
});

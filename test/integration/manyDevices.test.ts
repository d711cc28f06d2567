/**
 * On the real stack: one private adb server, two virtual devices, one real
 * Appium 3, and the built harness over stdio with ANDROID_UDID unset.
 *
 * - Device A answers as an emulator of AVD `Pixel_7_API_34` and is on adb under TWO serials
 *   (two transports of one device, as `emulator-5554` and `127.0.0.1:5555` are one emulator);
 *   device B is another device with its own ro.serialno.
 * - With two devices online a call that names none is refused with DEVICE_AMBIGUOUS, and
 *   emulator_get_status lists every allowed device.
 * - Two flows, one per device (A named by its AVD name, B by serial), run at the same time in one
 *   process; each device's own log shows only its own flow's actions.
 * - A's two serials share one lock: the same process refuses a flow through the other serial, and
 *   a second harness process configured with the other serial gets EMULATOR_BUSY.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { lockFileName } from '../../src/infrastructure/lock/FileDeviceLock.js';
import { startHarness, type HarnessProcess, type WireEnvelope } from '../e2e/support/harnessClient.js';
import { describeWithAdb, type PrivateAdbServer } from '../support/adbServer.js';
import type { RunningAppium } from '../support/appium.js';
import { activitySince } from '../support/manyDevices.js';
import { startManyDevicesStack, type ManyDevicesStack } from '../support/manyDevicesStack.js';
import { ensureBuilt } from '../support/rawServer.js';

const AVD = 'Pixel_7_API_34';

function data(envelope: WireEnvelope): Record<string, unknown> {
  expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
  return envelope.data;
}

describeWithAdb('many devices in one harness process', () => {
  let many: ManyDevicesStack;
  let adb: PrivateAdbServer;
  let appium: RunningAppium;
  let harness: HarnessProcess;
  const deviceA = VirtualDevice.withDefaultScenario({ avdName: AVD });
  const deviceB = VirtualDevice.withDefaultScenario({ serialNumber: 'R58M0B0B0B' });
  let a1: string;
  let a2: string;
  let b: string;
  let scratch: string;

  const envFor = (extra: Record<string, string>): Record<string, string> => many.harnessEnv(extra);

  beforeAll(async () => {
    ensureBuilt();
    // Device A twice: two serials of one device.
    many = await startManyDevicesStack({ label: 'many', devices: [deviceA, deviceA, deviceB] });
    ({ adb, appium, scratch } = many);
    [a1, a2, b] = many.serials as [string, string, string];
    harness = await startHarness(envFor({}));
  }, 180_000);

  afterAll(async () => {
    await harness?.close();
    await many?.stop();
  }, 60_000);

  it("the virtual device answers getprop as the harness reads it: one identity for both of A's serials", async () => {
    for (const serial of [a1, a2]) {
      const props = (await adb.adb(['-s', serial, 'shell', 'getprop'])).stdout.toString('utf8');
      expect(props).toContain(`[ro.boot.qemu.avd_name]: [${AVD}]`);
      expect(props).toContain('[ro.boot.qemu]: [1]');
    }
    expect((await adb.adb(['-s', b, 'shell', 'getprop', 'ro.serialno'])).stdout.toString('utf8').trim()).toBe(
      'R58M0B0B0B',
    );
  });

  it('with two devices online, a call that names none is DEVICE_AMBIGUOUS; emulator_get_status lists every allowed device', async () => {
    const tree = (await harness.call('ui_get_tree')).envelope;
    expect(tree.error?.code).toBe('DEVICE_AMBIGUOUS');
    expect(tree.error?.message).toContain(`(AVD ${AVD})`);
    expect(tree.error?.message).toContain(b);
    const status = data((await harness.call('emulator_get_status')).envelope);
    expect(status.udid).toBeNull();
    const devices = status.devices as {
      serial: string;
      avd_name: string | null;
      android_version: string | null;
      model: string | null;
    }[];
    expect(devices.map((d) => d.serial).sort()).toEqual([a1, a2, b].sort());
    expect(devices.find((d) => d.serial === b)).toMatchObject({
      avd_name: null,
      android_version: '14',
      model: 'Virtual Pixel 7',
    });
    expect(
      devices
        .filter((d) => d.avd_name === AVD)
        .map((d) => d.serial)
        .sort(),
    ).toEqual([a1, a2].sort());
  });

  it('two flows on two devices at once; each device sees only its own flow (read from its own log)', async () => {
    const startA = deviceA.logEntries().length;
    const startB = deviceB.logEntries().length;
    const [openA, openB] = await Promise.all([
      harness.call('ui_session_open', { device: AVD }),
      harness.call('ui_session_open', { device: b }),
    ]);
    const flowA = data(openA.envelope);
    const flowB = data(openB.envelope);
    expect(flowA).toMatchObject({ avd_name: AVD });
    expect([a1, a2]).toContain(flowA.device);
    expect(flowB.device).toBe(b);
    const idA = String(flowA.session_id);
    const idB = String(flowB.session_id);
    // A gets one tap, B two, at the same time: counts tell the devices' logs apart.
    const tap = (id: string) => harness.call('ui_tap', { selector: { text: 'Settings' }, session_id: id });
    const readA = data((await harness.call('ui_get_tree', { session_id: idA })).envelope);
    expect(JSON.stringify(readA)).toContain('Settings');
    const onB = async () => {
      const first = await tap(idB);
      const back = await harness.call('device_back', { session_id: idB });
      return [first, back, await tap(idB)];
    };
    const [onA, sequenceB] = await Promise.all([tap(idA), onB()]);
    for (const answer of [onA, ...sequenceB]) data(answer.envelope);
    // Observers with a session_id read the flow's device.
    data((await harness.call('screen_capture', { session_id: idB })).envelope);
    // Clicks; evidence of each action taken on its own device (1 tap on A; 2 taps, a back and a
    // capture on B); exactly one UiAutomator2 server each (its own flow's).
    expect(activitySince(deviceA, startA)).toEqual({ clicks: 1, screencaps: 1, instruments: 1 });
    expect(activitySince(deviceB, startB)).toEqual({ clicks: 2, screencaps: 4, instruments: 1 });

    // One lock per device, keyed by identity: the lock directory holds A's and B's, nothing per serial.
    expect(
      readdirSync(join(scratch, 'locks'))
        .filter((name) => name.endsWith('.lock'))
        .sort(),
    ).toEqual([lockFileName(`avd:${AVD}`), lockFileName('serialno:R58M0B0B0B')].sort());
    // A's other serial is the same device: this process refuses a second flow on it...
    const other = flowA.device === a1 ? a2 : a1;
    expect((await harness.call('ui_session_open', { device: other })).envelope.error?.code).toBe('EMULATOR_BUSY');
    // ...and so does another harness process configured with that serial.
    const second = await startHarness(envFor({ ANDROID_UDID: other }));
    try {
      const busy = (await second.call('ui_get_tree')).envelope;
      expect(busy.error?.code).toBe('EMULATOR_BUSY');
      expect(busy.error?.message).toContain(`pid ${harness.pid}`);
    } finally {
      await second.close();
    }
    data((await harness.call('ui_session_close', { session_id: idA })).envelope);
    data((await harness.call('ui_session_close', { session_id: idB })).envelope);
    expect(await appium.sessionIds()).toEqual([]);
  }, 240_000);
});

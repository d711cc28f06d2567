import { describe, expect, it } from 'vitest';
import { buildHarness } from '../../../support/fakes/harness.js';

describe('observers: emulator_get_status', () => {
  it('emulator_get_status reports the device and Appium', async () => {
    const h = buildHarness();
    const envelope = await h.envelope('emulator_get_status');
    expect(envelope.data).toEqual({
      udid: 'emulator-5554',
      android_version: '14',
      model: 'sdk_gphone64_x86_64',
      screen: { awake: true, locked: false },
      appium_version: '3.8.0',
      appium_endpoint: { kind: 'appium', ready: true },
      // Without a device list (the fakes) the device at hand is the list.
      devices: [
        {
          serial: 'emulator-5554',
          state: 'device',
          avd_name: null,
          android_version: '14',
          model: 'sdk_gphone64_x86_64',
          held_by: null,
        },
      ],
    });
    expect(h.automation.log).toEqual(['status']);
  });

  it('emulator_get_status behind a Selenium Grid: ok, appium_version null, the Grid’s readiness and nodes', async () => {
    const h = buildHarness();
    h.automation.grid = {
      kind: 'selenium-grid',
      version: null,
      ready: false,
      message: 'Selenium Grid not ready.',
      gridVersion: null,
      nodes: { total: 0, up: 0, available: 0 },
      sessions: 0,
    };
    const envelope = await h.envelope('emulator_get_status');
    expect(envelope.ok).toBe(true);
    expect(envelope.data).toEqual({
      udid: 'emulator-5554',
      android_version: '14',
      model: 'sdk_gphone64_x86_64',
      screen: { awake: true, locked: false },
      appium_version: null,
      appium_endpoint: {
        kind: 'selenium-grid',
        ready: false,
        message: 'Selenium Grid not ready.',
        grid_version: null,
        nodes: { total: 0, up: 0, available: 0 },
        sessions: 0,
      },
      devices: [
        {
          serial: 'emulator-5554',
          state: 'device',
          avd_name: null,
          android_version: '14',
          model: 'sdk_gphone64_x86_64',
          held_by: null,
        },
      ],
    });
  });
});

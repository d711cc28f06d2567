/**
 * Two harness processes on one device, through the real adb, a real Appium 3 and the virtual device
 * as its own process (so it can be killed and started again under the same serial):
 *
 * - while one process holds the device (an open UI session), the other's emulator_get_status answers,
 *   with `held_by` naming the holder's pid, `kind` and `until`; its ui_get_tree (a dump: the holder's
 *   UiAutomator2 server has UiAutomation) is EMULATOR_BUSY, saying how long the hold lasts;
 * - the device killed between two calls of the UI session: the next call answers that the device went
 *   away (no advice to open a UI session while it is gone), the one after says the session ended
 *   because of it and how to start again; the lock is given back at once, and once the device is started
 *   again on the same port (the same serial), the other process opens a UI session at once; no Appium
 *   session is left.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type HarnessProcess } from '../e2e/support/harnessClient.js';
import { connectDevice, listDevices } from '../support/adbDevices.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { startAppium, type RunningAppium } from '../support/appium.js';
import { ensureBuilt } from '../support/rawServer.js';
import { settledValue } from '../support/settle.js';
import { startVirtualDeviceProcess, type VirtualDeviceProcess } from '../support/virtualDeviceProcess.js';

interface Holder {
  readonly pid: number;
  readonly tool: string;
  readonly kind: string;
  readonly since: string;
  readonly until: string | null;
}

describeWithAdb('two processes on one device: status beside the owner, a device that vanishes', () => {
  let scratch: string;
  let adb: PrivateAdbServer;
  let device: VirtualDeviceProcess;
  let appium: RunningAppium;
  let serial: string;
  let first: HarnessProcess;
  let second: HarnessProcess;

  function env(tag: string): Record<string, string> {
    const base: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) if (value !== undefined) base[key] = value;
    return {
      ...base,
      ANDROID_ADB_SERVER_PORT: String(adb.port),
      ANDROID_UDID: serial,
      ANDROID_MCP_ALLOW_SERIALS: serial,
      APPIUM_URL: appium.url,
      ANDROID_MCP_LOCK_DIR: join(scratch, 'locks'),
      ANDROID_MCP_ARTIFACTS_DIR: join(scratch, `artifacts-${tag}`),
      ANDROID_MCP_LOG_LEVEL: 'info',
      ANDROID_MCP_ACTION_TIMEOUT: '20',
      ANDROID_MCP_CONNECT_TIMEOUT: '60',
    };
  }

  beforeAll(async () => {
    ensureBuilt();
    scratch = mkdtempSync(join(tmpdir(), 'amh-owners-'));
    adb = await startAdbServer();
    device = await startVirtualDeviceProcess();
    serial = await connectDevice(adb, device.port);
    appium = await startAppium({ adbPort: adb.port });
    first = await startHarness(env('first'));
    second = await startHarness(env('second'));
  }, 180_000);

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await appium?.stop();
    await device?.stop();
    await adb?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }, 60_000);

  const lockFiles = (): string[] =>
    existsSync(join(scratch, 'locks'))
      ? readdirSync(join(scratch, 'locks')).filter((name) => name.endsWith('.lock'))
      : [];

  it('status answers beside another process’s UI session, with held_by; a dump is EMULATOR_BUSY saying how long', async () => {
    const opened = await first.call('ui_session_open', {}, 120_000);
    expect(opened.envelope.error, JSON.stringify(opened.envelope.error)).toBeNull();
    const sessionId = String(opened.envelope.data.session_id);
    try {
      const status = await second.call('emulator_get_status');
      expect(status.envelope.error, JSON.stringify(status.envelope.error)).toBeNull();
      expect(status.envelope.data.udid).toBe(serial);
      const devices = status.envelope.data.devices as { serial: string; held_by: Holder | null }[];
      const held = devices.find((entry) => entry.serial === serial)?.held_by;
      expect(held?.pid).toBe(first.pid);
      expect(held?.kind).toBe('session');
      expect(held?.until).not.toBeNull();
      // The UI session's lease (300 s by default) counts from its last use.
      expect(Date.parse(held!.until!)).toBeGreaterThan(Date.parse(held!.since));
      const dump = await second.call('ui_get_tree');
      expect(dump.envelope.error?.code).toBe('EMULATOR_BUSY');
      expect(dump.envelope.error?.message).toContain(`pid ${first.pid}`);
      expect(dump.envelope.error?.message).toMatch(/It lasts \d+ s more unless that client uses it again/);
    } finally {
      await first.call('ui_session_close', { session_id: sessionId });
    }
    const free = await second.call('emulator_get_status');
    const after = (free.envelope.data.devices as { serial: string; held_by: Holder | null }[]).find(
      (entry) => entry.serial === serial,
    );
    expect(after?.held_by).toBeNull();
  }, 240_000);

  it('the session kept after a single action is given up when the other process asks: seconds, not the lease', async () => {
    // No ANDROID_MCP_WARM_SESSION_TIMEOUT: the default 30 s lease.
    expect((await first.call('device_back', {}, 120_000)).envelope.error).toBeNull();
    const status = await second.call('emulator_get_status');
    const held = (status.envelope.data.devices as { serial: string; held_by: Holder | null }[]).find(
      (entry) => entry.serial === serial,
    )?.held_by;
    expect(held?.pid).toBe(first.pid);
    expect(held?.kind).toBe('session');
    // Real clock: the default lease ends 30 s after the action; over 10 s leaves 20 s for a loaded runner.
    expect(Date.parse(held!.until!) - Date.now()).toBeGreaterThan(10_000);
    const refused = await second.call('device_back');
    expect(refused.envelope.error?.code).toBe('EMULATOR_BUSY');
    expect(refused.envelope.error?.message).toMatch(/has just been asked to give the device up/);
    // Given up long before its lease's end (until, above, is more than 10 s away).
    const freed = await settledValue(
      async () =>
        (
          (await second.call('emulator_get_status')).envelope.data.devices as {
            serial: string;
            held_by: Holder | null;
          }[]
        ).find((entry) => entry.serial === serial)?.held_by ?? null,
      (holder) => holder === null,
      Date.parse(held!.until!) - Date.now() - 2_000,
      200,
    );
    expect(freed).toBeNull();
    expect((await second.call('device_back', {}, 120_000)).envelope.error).toBeNull();
    // And the other way round, so that the next test starts with no session kept.
    expect((await first.call('device_back')).envelope.error?.code).toBe('EMULATOR_BUSY');
    expect(
      await settledValue(
        async () => lockFiles(),
        (names) => names.length === 0,
        20_000,
      ),
    ).toEqual([]);
  }, 240_000);

  it('the device killed mid-session: the session ends with it, the lock is given back, a restarted device is taken at once', async () => {
    const opened = await first.call('ui_session_open', {}, 120_000);
    expect(opened.envelope.error, JSON.stringify(opened.envelope.error)).toBeNull();
    const sessionId = String(opened.envelope.data.session_id);
    expect((await first.call('ui_get_tree', { session_id: sessionId })).envelope.error).toBeNull();
    expect(lockFiles()).toHaveLength(1);

    const port = device.port;
    process.kill(device.pid, 'SIGKILL');
    await settledValue(
      async () => (await listDevices(adb)).get(serial),
      (state) => state !== 'device',
      20_000,
    );

    const during = await first.call('ui_get_tree', { session_id: sessionId }, 120_000);
    expect(during.envelope.error?.code, JSON.stringify(during.envelope.error)).toBe('EMULATOR_UNAVAILABLE');
    expect(during.envelope.error?.message).toMatch(/went away during ui_get_tree/);
    expect(during.envelope.error?.message).toMatch(/Once the device is back .* open a new UI session/);
    // The lock was given back with the session, not at the lease's end.
    expect(
      await settledValue(
        async () => lockFiles(),
        (names) => names.length === 0,
        5_000,
      ),
    ).toEqual([]);

    const next = await first.call('ui_get_tree', { session_id: sessionId });
    expect(next.envelope.error?.code).toBe('INVALID_UI_SESSION');
    expect(next.envelope.error?.message).toMatch(/ended because its device went away/);
    expect(next.envelope.error?.message).toMatch(/open a new UI session with ui_session_open/);

    // The same device again, on the same port: the same serial.
    device = await startVirtualDeviceProcess({ port });
    expect(await connectDevice(adb, port)).toBe(serial);
    const taken = await second.call('ui_session_open', {}, 120_000);
    expect(taken.envelope.error, JSON.stringify(taken.envelope.error)).toBeNull();
    expect(
      (await second.call('ui_get_tree', { session_id: String(taken.envelope.data.session_id) })).envelope.error,
    ).toBeNull();
    const refused = await first.call('ui_session_open');
    expect(refused.envelope.error?.code).toBe('EMULATOR_BUSY');
    expect(refused.envelope.error?.message).toContain(`pid ${second.pid}`);
    await second.call('ui_session_close', { session_id: String(taken.envelope.data.session_id) });
    expect(
      await settledValue(
        () => appium.sessionIds(),
        (ids) => ids.length === 0,
        30_000,
      ),
    ).toEqual([]);
    expect(
      await settledValue(
        async () => lockFiles(),
        (names) => names.length === 0,
        20_000,
      ),
    ).toEqual([]);
  }, 300_000);
});

/**
 * Two devices behind one real Selenium Grid 4 (selenium-server 4.48.0 on Java).
 * One private adb server, two virtual devices (A an emulator of an AVD, B another device), two
 * real Appium 3 servers, a hub and two relay nodes (node A → Appium A, stereotype `appium:udid` A;
 * node B → Appium B, udid B), and the built harness over stdio with APPIUM_URL = the hub.
 *
 * Harness processes that stand for different machines sharing the Grid get their own lock
 * directories: only the Grid stands between them, which is what the queue cases need.
 *
 * - Two harness processes, one per device, drive both at once through the one hub URL; each
 *   device's own log shows only its own harness's actions, and each node holds its own device's session.
 * - Two flows in one harness process (ui_session_open {device}), the same checks.
 * - A request for a device whose node is busy queues in the Grid (GraphQL sessionQueueRequests):
 *   the Grid's session-request-timeout shorter than the harness's connect budget → EMULATOR_BUSY;
 *   the harness's budget shorter → OPERATION_TIMEOUT, and the request leaves the queue at once.
 * - A node killed (SIGKILL) mid-flow → APPIUM_UNAVAILABLE, and the flow is voided.
 * - After every case the Grid holds no session (GraphQL `{ grid { sessionCount } }`).
 * One Grid for the whole file, short Grid timeouts, the processes reused across cases.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { VirtualDevice } from '../../packages/virtual-device/src/device/index.js';
import { startHarness, type HarnessProcess, type WireEnvelope } from '../e2e/support/harnessClient.js';
import { startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { startAppium, type RunningAppium } from '../support/appium.js';
import { attachDeviceToAdb, type AttachedDevice } from '../support/deviceOnAdb.js';
import { describeWithGrid, startGrid, type RunningGrid } from '../support/grid.js';
import { activitySince, appiumDevicesUsed, manyDevicesHarnessEnv } from '../support/manyDevices.js';
import { settledValue } from '../support/settle.js';
import { ensureBuilt } from '../support/rawServer.js';

const AVD = 'Pixel_7_API_34';
/** The hub's --session-request-timeout: longer than SHORT_BUDGET_S, far shorter than the default 300. */
const GRID_QUEUE_S = 6;
/** The connect budget of the harness that gives up before the Grid does. */
const SHORT_BUDGET_S = 2;

function data(envelope: WireEnvelope): Record<string, unknown> {
  expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
  return envelope.data;
}

describeWithGrid('two devices behind one Selenium Grid 4 hub', () => {
  let adb: PrivateAdbServer;
  let appiums: RunningAppium[] = [];
  let grid: RunningGrid;
  let scratch: string;
  let a: string;
  let b: string;
  /** ANDROID_UDID = A, its own locks: one machine. */
  let harnessA: HarnessProcess;
  /** ANDROID_UDID = B, its own locks: another machine. */
  let harnessB: HarnessProcess;
  const extraHarnesses: HarnessProcess[] = [];
  const deviceA = VirtualDevice.withDefaultScenario({ avdName: AVD });
  const deviceB = VirtualDevice.withDefaultScenario({ serialNumber: 'R58M0B0B0B' });
  const attached: AttachedDevice[] = [];

  const envFor = (lockDirName: string, extra: Record<string, string>): Record<string, string> =>
    manyDevicesHarnessEnv({
      adbPort: adb.port,
      serials: [a, b],
      appiumUrl: grid.url,
      scratch,
      lockDirName,
      extra: { ANDROID_MCP_CONNECT_TIMEOUT: '60', ...extra },
    });

  beforeAll(async () => {
    ensureBuilt();
    scratch = mkdtempSync(join(tmpdir(), 'amh-grid-many-'));
    adb = await startAdbServer();
    for (const device of [deviceA, deviceB]) attached.push(await attachDeviceToAdb(device, adb));
    [a, b] = attached.map((entry) => entry.serial) as [string, string];
    appiums = await Promise.all(
      ['appium-a', 'appium-b'].map((dir) => startAppium({ adbPort: adb.port, logDir: join(scratch, dir) })),
    );
    grid = await startGrid({
      relays: [
        { appiumUrl: appiums[0]!.url, udid: a },
        { appiumUrl: appiums[1]!.url, udid: b },
      ],
      workDir: join(scratch, 'grid'),
      sessionRequestTimeoutSeconds: GRID_QUEUE_S,
      // A killed node sends no heartbeat: DOWN after 2 periods, dropped with its sessions after 4
      // more, at the next purge (LocalGridModel.purgeDeadNodes): about 13 s here. Not 1 s: a live
      // node whose JVM stalls 2 s on a loaded machine would be marked DOWN.
      heartbeatPeriodSeconds: 2,
      purgeNodesIntervalSeconds: 1,
    });
    process.stderr.write(`[grid-many] hub + 2 relay nodes listed UP after ${grid.startMs} ms\n`);
    [harnessA, harnessB] = await Promise.all([
      startHarness(envFor('locks-a', { ANDROID_UDID: a })),
      startHarness(envFor('locks-b', { ANDROID_UDID: b })),
    ]);
  }, 240_000);

  afterEach(async () => {
    // Every case ends with the Grid holding nothing (a killed node's session goes with the node).
    expect(
      await settledValue(
        () => grid.sessionCount(),
        (count) => count === 0,
      ),
    ).toBe(0);
    expect(await grid.queuedRequests()).toEqual([]);
  }, 40_000);

  afterAll(async () => {
    for (const harness of [harnessA, harnessB, ...extraHarnesses]) await harness?.close();
    await grid?.stop();
    for (const appium of appiums) await appium.stop();
    for (const entry of attached) await entry.stop().catch(() => undefined);
    await adb?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }, 90_000);

  /** The serial each node's busy slot holds a session for, by node index (null: the slot is free). */
  async function sessionUdidPerNode(): Promise<(string | null)[]> {
    const nodes = (await grid.status()).value.nodes ?? [];
    return grid.nodes.map((node) => {
      const listed = nodes.find((entry) => entry.uri.endsWith(`:${node.port}`));
      const session = listed?.slots[0]?.session as { capabilities?: Record<string, unknown> } | null | undefined;
      const udid = session?.capabilities?.['appium:udid'];
      return typeof udid === 'string' ? udid : null;
    });
  }

  /** One tap on A's flow and two (with a back between) on B's, at the same time. */
  async function tapBoth(onA: HarnessProcess, idA: string, onB: HarnessProcess, idB: string): Promise<void> {
    const tap = (harness: HarnessProcess, id: string) =>
      harness.call('ui_tap', { selector: { text: 'Settings' }, session_id: id });
    const sequenceB = async () => [
      await tap(onB, idB),
      await onB.call('device_back', { session_id: idB }),
      await tap(onB, idB),
    ];
    const [first, rest] = await Promise.all([tap(onA, idA), sequenceB()]);
    for (const answer of [first, ...rest]) data(answer.envelope);
  }

  it('two harness processes drive both devices through the one hub at once; each device sees only its own harness', async () => {
    const [markA, markB] = [deviceA.logEntries().length, deviceB.logEntries().length];
    const [openA, openB] = await Promise.all([harnessA.call('ui_session_open'), harnessB.call('ui_session_open')]);
    const idA = String(data(openA.envelope).session_id);
    const idB = String(data(openB.envelope).session_id);
    try {
      // The Grid put each session on the node of its device (node A relays to Appium A only).
      expect(await sessionUdidPerNode()).toEqual([a, b]);
      expect(await grid.sessionCount()).toBe(2);
      await tapBoth(harnessA, idA, harnessB, idB);
    } finally {
      data((await harnessA.call('ui_session_close', { session_id: idA })).envelope);
      data((await harnessB.call('ui_session_close', { session_id: idB })).envelope);
    }
    // A: one tap and its evidence; B: two taps, a back, each with evidence; one UiAutomator2 server each.
    expect(activitySince(deviceA, markA)).toEqual({ clicks: 1, screencaps: 1, instruments: 1 });
    expect(activitySince(deviceB, markB)).toEqual({ clicks: 2, screencaps: 3, instruments: 1 });
    // Each Appium, reached only through its node, created sessions on its own device and no other.
    expect([appiumDevicesUsed(appiums[0]!.logFile), appiumDevicesUsed(appiums[1]!.logFile)]).toEqual([[a], [b]]);
  }, 180_000);

  it('two flows in one harness process, one per device, at once; each device sees only its own flow', async () => {
    const [markA, markB] = [deviceA.logEntries().length, deviceB.logEntries().length];
    const [openA, openB] = await Promise.all([
      harnessA.call('ui_session_open', { device: AVD }),
      harnessA.call('ui_session_open', { device: b }),
    ]);
    const flowA = data(openA.envelope);
    const flowB = data(openB.envelope);
    expect(flowA).toMatchObject({ device: a, avd_name: AVD });
    expect(flowB.device).toBe(b);
    const idA = String(flowA.session_id);
    const idB = String(flowB.session_id);
    try {
      expect(await sessionUdidPerNode()).toEqual([a, b]);
      await tapBoth(harnessA, idA, harnessA, idB);
    } finally {
      data((await harnessA.call('ui_session_close', { session_id: idA })).envelope);
      data((await harnessA.call('ui_session_close', { session_id: idB })).envelope);
    }
    expect(activitySince(deviceA, markA)).toEqual({ clicks: 1, screencaps: 1, instruments: 1 });
    expect(activitySince(deviceB, markB)).toEqual({ clicks: 2, screencaps: 3, instruments: 1 });
    expect([appiumDevicesUsed(appiums[0]!.logFile), appiumDevicesUsed(appiums[1]!.logFile)]).toEqual([[a], [b]]);
  }, 180_000);

  it('a request for a taken device queues in the Grid: EMULATOR_BUSY when the Grid gives up first, OPERATION_TIMEOUT (and out of the queue) when the harness does', async () => {
    // A's node is busy with harness A's flow; the other "machines" share no lock with it.
    const held = String(data((await harnessA.call('ui_session_open')).envelope).session_id);
    const short = await startHarness(
      envFor('locks-c', { ANDROID_UDID: a, ANDROID_MCP_CONNECT_TIMEOUT: String(SHORT_BUDGET_S) }),
    );
    extraHarnesses.push(short);
    try {
      expect(await sessionUdidPerNode()).toEqual([a, null]);
      const queuedForA = async () => (await grid.queuedRequests()).filter((caps) => caps['appium:udid'] === a).length;

      // The Grid's queue timeout (6 s) is shorter than harness B's connect budget (60 s).
      const started = Date.now();
      const pending = harnessB.call('ui_session_open', { device: a });
      expect(await settledValue(queuedForA, (count) => count === 1, 5_000, 200)).toBe(1);
      const busy = (await pending).envelope;
      const waitedMs = Date.now() - started;
      expect(busy.error?.code, JSON.stringify(busy.error)).toBe('EMULATOR_BUSY');
      expect(busy.error?.message).toContain(a);
      expect(busy.error?.message).toMatch(/Selenium Grid had no free node for it/);
      expect(waitedMs).toBeGreaterThanOrEqual(GRID_QUEUE_S * 1000 - 500);
      expect(await queuedForA()).toBe(0);

      // The harness's budget (2 s) is shorter than the Grid's queue timeout (6 s).
      const shortStarted = Date.now();
      const pendingShort = short.call('ui_session_open');
      expect(await settledValue(queuedForA, (count) => count === 1, SHORT_BUDGET_S * 1000, 200)).toBe(1);
      const timedOut = (await pendingShort).envelope;
      expect(timedOut.error?.code, JSON.stringify(timedOut.error)).toBe('OPERATION_TIMEOUT');
      // The abandoned request left the queue when the harness hung up, long before the Grid's own timeout.
      expect(await settledValue(queuedForA, (count) => count === 0, 2_000, 200)).toBe(0);
      // Real clock (harness and Grid are processes): the harness's 2 s budget ended the wait, not the Grid's 6 s queue.
      expect(Date.now() - shortStarted).toBeLessThan(GRID_QUEUE_S * 1000);
      // The Grid still holds exactly harness A's session: nothing arrived late for the abandoned request.
      expect(await grid.sessionCount()).toBe(1);
    } finally {
      data((await harnessA.call('ui_session_close', { session_id: held })).envelope);
    }
  }, 180_000);

  // Last: the node stays dead for the rest of the file.
  it('a node killed mid-flow: APPIUM_UNAVAILABLE naming the device, and the flow is voided', async () => {
    const flow = String(data((await harnessB.call('ui_session_open')).envelope).session_id);
    data((await harnessB.call('ui_tap', { selector: { text: 'Settings' }, session_id: flow })).envelope);
    expect(await sessionUdidPerNode()).toEqual([null, b]);
    await grid.nodes[1]!.kill();
    const killedAt = Date.now();
    const { envelope: lost, elapsedMs: lostMs } = await harnessB.call('ui_tap', {
      selector: { text: 'Settings' },
      session_id: flow,
    });
    expect(lost.error?.code, JSON.stringify(lost.error)).toBe('APPIUM_UNAVAILABLE');
    expect(lost.error?.message).toContain(b);
    expect(lost.error?.message).toMatch(/Selenium Grid could not reach the node/);
    // The flow is gone: its session_id is refused, as for any lost driver (contract §7).
    const after = (await harnessB.call('ui_tap', { selector: { text: 'Settings' }, session_id: flow })).envelope;
    expect(after.error?.code, JSON.stringify(after.error)).toBe('INVALID_UI_SESSION');
    expect(after.error?.message).toMatch(/its Appium session ended/);
    // The hub drops the dead node, and the session it held, after its failed health checks.
    expect(
      await settledValue(
        () => grid.sessionCount(),
        (count) => count === 0,
      ),
    ).toBe(0);
    process.stderr.write(
      `[grid-many] node killed: the next call answered in ${lostMs} ms; the hub held no session ${Date.now() - killedAt} ms after the kill\n`,
    );
  }, 120_000);
});

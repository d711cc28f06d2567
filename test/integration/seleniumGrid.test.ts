/**
 * APPIUM_URL naming a real Selenium Grid 4 hub (selenium-server 4.48.0 from the
 * devDependency, on Java) whose one relay node forwards to a real Appium 3 bound to the virtual
 * device. The built harness over stdio: emulator_get_status answers ok with what the hub's
 * /status says (not APPIUM_UNAVAILABLE), doctor names the Grid, a ui_tap goes through the hub
 * and lands on the device, a flow's session shows as the Grid's one busy slot, every Grid port
 * is on 127.0.0.1, and stopping the Grid leaves no JVM.
 * One Grid for the whole file; its start time is printed on stderr.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type HarnessProcess, type WireEnvelope } from '../e2e/support/harnessClient.js';
import { describeWithGrid, listeningAddresses, startGrid, stillAlive, type RunningGrid } from '../support/grid.js';
import { sleep } from '../support/processes.js';
import { doctorScratch } from '../support/doctorRun.js';
import { ensureBuilt } from '../support/rawServer.js';
import { startReliabilityStack, type ReliabilityStack } from '../support/reliabilityStack.js';

function expectOk(envelope: WireEnvelope): Record<string, unknown> {
  expect(envelope.ok, JSON.stringify(envelope.error)).toBe(true);
  return envelope.data;
}

describeWithGrid('through a Selenium Grid 4 hub that relays to Appium', () => {
  let stack: ReliabilityStack;
  let grid: RunningGrid;
  let harness: HarnessProcess;
  let appiumVersion: string;

  beforeAll(async () => {
    ensureBuilt();
    stack = await startReliabilityStack({ appium: true });
    const appiumStatus = (await (await fetch(`${stack.appium!.url}/status`)).json()) as {
      value: { build: { version: string } };
    };
    appiumVersion = appiumStatus.value.build.version;
    grid = await startGrid({
      // The relay's stereotype declares the Appium version it fronts (the only way a Grid can tell).
      relays: [
        { appiumUrl: stack.appium!.url, udid: stack.serial, stereotype: { 'appium:appiumVersion': appiumVersion } },
      ],
    });
    process.stderr.write(`[grid] hub + 1 relay node listed UP after ${grid.startMs} ms\n`);
    harness = await startHarness(stack.harnessEnv('grid', { APPIUM_URL: grid.url, ANDROID_MCP_CONNECT_TIMEOUT: '60' }));
  }, 180_000);

  afterAll(async () => {
    await harness?.close();
    await grid?.stop();
    await stack?.stop();
  }, 60_000);

  async function gridSessionsSettleAt(count: number, withinMs = 20_000): Promise<number> {
    const deadline = Date.now() + withinMs;
    let held = await grid.sessionCount();
    while (held !== count && Date.now() < deadline) {
      await sleep(250);
      held = await grid.sessionCount();
    }
    return held;
  }

  it('the hub URL passes the Appium guard, and emulator_get_status answers ok with the Grid’s readiness and nodes', async () => {
    const raw = await grid.status();
    expect(raw.value.ready).toBe(true);
    const data = expectOk((await harness.call('emulator_get_status')).envelope);
    expect(data).toMatchObject({ udid: stack.serial, android_version: '14', model: 'Virtual Pixel 7' });
    expect(data.appium_version).toBe(appiumVersion);
    expect(data.appium_endpoint).toEqual({
      kind: 'selenium-grid',
      ready: true,
      message: raw.value.message,
      grid_version: '4.48.0',
      nodes: { total: 1, up: 1, available: 1 },
      sessions: 0,
    });
  });

  it('doctor with APPIUM_URL = the hub: the appium line is ok and names the Grid', async () => {
    const scratch = doctorScratch();
    try {
      const env = stack.harnessEnv('doctor', { APPIUM_URL: grid.url });
      const run = await scratch.run(scratch.baseEnv({ ...env, PATH: process.env.PATH ?? '' }));
      expect(run.marks.appium, run.stdout).toBe('[ok  ]');
      expect(run.stdout).toContain(
        `Selenium Grid 4.48.0 at ${grid.url}: ready, 1 node(s), 1 up, 1 available; Appium behind it ${appiumVersion}`,
      );
    } finally {
      scratch.remove();
    }
  });

  it('one ui_tap goes through the hub to Appium and lands on the device', async () => {
    stack.device.setScreen('settings_home');
    stack.device.clearLog();
    const slotBefore = (await grid.status()).value.nodes?.[0]?.slots[0] as { lastStarted?: string } | undefined;
    const tap = expectOk((await harness.call('ui_tap', { selector: { text: 'Apps' } })).envelope);
    expect(tap.element_label).toBe('Apps');
    const clicks = stack.device.clicks();
    expect(clicks).toHaveLength(1);
    expect(clicks[0]?.source).toBe('uia2-click');
    expect(clicks[0]?.screenId).toBe('settings_home');
    // The Grid itself started that session: its slot's lastStarted moved off the epoch.
    const slotAfter = (await grid.status()).value.nodes?.[0]?.slots[0] as { lastStarted?: string } | undefined;
    expect(slotBefore?.lastStarted).toBe('1970-01-01T00:00:00Z');
    expect(Date.parse(slotAfter?.lastStarted ?? '')).toBeGreaterThan(0);
    // The warm session is closed again: the Grid holds none.
    expect(await gridSessionsSettleAt(0)).toBe(0);
  });

  it('a flow’s session is the Grid’s one busy slot; closing the flow frees it', async () => {
    const opened = expectOk((await harness.call('ui_session_open')).envelope);
    const sessionId = String(opened.session_id);
    try {
      expect(await gridSessionsSettleAt(1)).toBe(1);
      const data = expectOk((await harness.call('emulator_get_status')).envelope);
      expect(data.appium_endpoint).toMatchObject({
        kind: 'selenium-grid',
        ready: false,
        message: 'Selenium Grid not ready.',
        nodes: { total: 1, up: 1, available: 0 },
        sessions: 1,
      });
    } finally {
      expectOk((await harness.call('ui_session_close', { session_id: sessionId })).envelope);
    }
    expect(await gridSessionsSettleAt(0)).toBe(0);
  });

  it('every port the hub and the node listen on is on 127.0.0.1', () => {
    const byPid = grid.pids().map((pid) => listeningAddresses(pid));
    // The hub: HTTP and the event bus's two sockets; the node: HTTP.
    expect(byPid[0]).toHaveLength(3);
    expect(byPid[0]).toContain(`127.0.0.1:${grid.port}`);
    expect(byPid[1]).toEqual([`127.0.0.1:${grid.nodes[0]?.port}`]);
    expect(byPid.flat().filter((address) => !address.startsWith('127.0.0.1:'))).toEqual([]);
  });

  it('stopping the Grid ends every JVM it started', async () => {
    const pids = grid.pids();
    expect(pids).toHaveLength(2);
    await grid.stop();
    expect(stillAlive(pids)).toEqual([]);
  });
});

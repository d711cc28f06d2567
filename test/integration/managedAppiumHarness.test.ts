/**
 * Both Appium modes through the built server on the virtual device (real adb, real Appium):
 * - managed (APPIUM_URL unset): the first call that needs Appium starts it, the client sees
 *   notifications/message while it boots, it drives the device, and no Appium process outlives
 *   the harness, neither when stdin closes nor when the harness is SIGKILLed;
 * - fixed (APPIUM_URL set): that server is used and the harness starts none, even when it is down.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { connectDevice, disconnectDevice } from '../support/adbDevices.js';
import { startAppium, type RunningAppium } from '../support/appium.js';
import { startVirtualDeviceProcess, type VirtualDeviceProcess } from '../support/virtualDeviceProcess.js';
import { appiumChildren, isAlive } from '../support/processes.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(repoRoot, 'dist', 'index.js');

async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Harness {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  logs: string[];
  call(
    name: string,
    args?: Record<string, unknown>,
  ): Promise<{ ok: boolean; data: Record<string, unknown>; error: { code: string; message: string } | null }>;
}

async function startHarness(env: Record<string, string>): Promise<Harness> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin],
    env,
    cwd: repoRoot,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'managed-appium-test', version: '1.0.0' });
  const logs: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(`${n.params.logger ?? ''}: ${String(n.params.data)}`);
  });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error('no server pid');
  return {
    client,
    transport,
    pid,
    logs,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 180_000,
      })) as CallToolResult;
      return result.structuredContent as never;
    },
  };
}

describeWithAdb('managed and fixed Appium through the harness on the virtual device', () => {
  let adb: PrivateAdbServer;
  let device: VirtualDeviceProcess;
  let serial: string;
  const leftovers: number[] = [];

  beforeAll(async () => {
    adb = await startAdbServer();
    device = await startVirtualDeviceProcess();
    serial = await connectDevice(adb, device.port);
  });

  afterAll(async () => {
    for (const pid of leftovers) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    if (adb && serial) await disconnectDevice(adb, serial);
    await device?.stop();
    await adb?.stop();
  });

  function env(extra: Record<string, string> = {}): Record<string, string> {
    const base: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && key !== 'APPIUM_URL') base[key] = value;
    }
    return {
      ...base,
      ANDROID_ADB_SERVER_PORT: String(adb.port),
      ANDROID_UDID: serial,
      ANDROID_MCP_ALLOW_SERIALS: serial,
      ANDROID_MCP_LOG_LEVEL: 'info',
      ...extra,
    };
  }

  it('managed: starts Appium at the first call that needs it, with progress notifications, drives the device, and stops it when stdin closes', async () => {
    const harness = await startHarness(env());
    try {
      // tools/list and a read-only adb tool need no Appium: none is started.
      await harness.client.listTools();
      const packages = await harness.call('app_list_installed');
      expect(packages.ok).toBe(true);
      expect(appiumChildren(harness.pid)).toEqual([]);

      const status = await harness.call('emulator_get_status');
      expect(status.error).toBeNull();
      expect(String(status.data.appium_version)).toMatch(/^3\./);
      const children = appiumChildren(harness.pid);
      expect(children).toHaveLength(1);
      leftovers.push(...children);
      expect(harness.logs.some((l) => /^appium: Starting the harness's own Appium/.test(l))).toBe(true);
      expect(harness.logs.some((l) => /^appium: Appium is ready at http:\/\/127\.0\.0\.1:\d+/.test(l))).toBe(true);

      // The managed server really drives the device, and is reused (still one child).
      const opened = await harness.call('app_open', { package_name: 'com.example.notes' });
      expect(opened.error).toBeNull();
      const typed = await harness.call('ui_type_text', { selector: { input_hint: 'Title' }, text: 'Managed' });
      expect(typed.error).toBeNull();
      expect(typed.data.characters_sent).toBe(7);
      expect(appiumChildren(harness.pid)).toEqual(children);

      await harness.client.close();
      await waitUntil(() => !isAlive(harness.pid), 10_000, 'the harness to exit');
      await waitUntil(() => children.every((pid) => !isAlive(pid)), 10_000, 'Appium to stop with the harness');
    } finally {
      await harness.client.close().catch(() => undefined);
    }
  });

  it('managed: a SIGKILLed harness leaves no Appium behind', async () => {
    const harness = await startHarness(env());
    const status = await harness.call('emulator_get_status');
    expect(status.error).toBeNull();
    const children = appiumChildren(harness.pid);
    expect(children).toHaveLength(1);
    leftovers.push(...children);
    process.kill(harness.pid, 'SIGKILL');
    await waitUntil(() => children.every((pid) => !isAlive(pid)), 10_000, 'Appium to notice its parent died');
    await harness.client.close().catch(() => undefined);
  });

  it('fixed: APPIUM_URL is used as given and the harness starts no Appium of its own', async () => {
    const appium: RunningAppium = await startAppium({ adbPort: adb.port });
    try {
      const harness = await startHarness(env({ APPIUM_URL: appium.url }));
      try {
        const status = await harness.call('emulator_get_status');
        expect(status.error).toBeNull();
        const opened = await harness.call('app_open', { package_name: 'com.example.notes' });
        expect(opened.error).toBeNull();
        const tapped = await harness.call('ui_tap', { selector: { content_desc: 'Save note' } });
        expect(tapped.error).toBeNull();
        expect(appiumChildren(harness.pid)).toEqual([]);
        expect(harness.logs.filter((l) => l.startsWith('appium:'))).toEqual([]);
        // The tap's session is kept for the next action (ANDROID_MCP_WARM_SESSION_TIMEOUT)...
        expect(await appium.sessionIds()).toHaveLength(1);
      } finally {
        await harness.client.close();
      }
      // ...and closed by the harness when it exits (stdin closed), not left to Appium.
      const deadline = Date.now() + 6_000;
      while ((await appium.sessionIds()).length > 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expect(await appium.sessionIds()).toEqual([]);
    } finally {
      await appium.stop();
    }
  });

  it('fixed: an APPIUM_URL nobody answers gives APPIUM_UNAVAILABLE, and nothing is started in its place', async () => {
    const harness = await startHarness(env({ APPIUM_URL: 'http://127.0.0.1:9' }));
    try {
      const status = await harness.call('emulator_get_status');
      expect(status.ok).toBe(false);
      expect(status.error?.code).toBe('APPIUM_UNAVAILABLE');
      const tap = await harness.call('ui_tap', { selector: { text: 'Notes' } });
      expect(tap.error?.code).toBe('APPIUM_UNAVAILABLE');
      expect(appiumChildren(harness.pid)).toEqual([]);
    } finally {
      await harness.client.close();
    }
  });
});

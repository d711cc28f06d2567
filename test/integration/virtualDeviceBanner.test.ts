/**
 * `android-mcp-harness virtual-device` tells its user how to point a client at it. The test
 * starts the CLI on a custom port under a private adb server (ANDROID_ADB_SERVER_PORT set, as a
 * user with their own adb server would), reads the banner, and follows it: `adb connect`, then
 * the harness started with exactly the printed command and "env" block reads the device's
 * screen. With the serial alone (all the banner used to give) the harness refuses the device.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectDevice, disconnectDevice } from '../support/adbDevices.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { REPO_ROOT } from '../support/appium.js';
import { doctorScratch, type DoctorScratch } from '../support/doctorRun.js';
import { sleep } from '../support/processes.js';
import { startVirtualDeviceProcess, type VirtualDeviceProcess } from '../support/virtualDeviceProcess.js';

/** The banner's last line: everything above it has been printed once it is there. */
const BANNER_END = '  stop:   Ctrl-C';

async function bannerOf(device: VirtualDeviceProcess): Promise<string[]> {
  const deadline = Date.now() + 15_000;
  while (!device.output().includes(BANNER_END) && Date.now() < deadline) await sleep(50);
  const output = device.output();
  if (!output.includes(BANNER_END)) throw new Error(`the virtual device printed no complete banner:\n${output}`);
  return output.split('\n');
}

/** Calls ui_get_tree once through a server started as `command` with `env` on top of the scratch environment. */
async function treeThrough(
  command: readonly string[],
  env: Record<string, string>,
  scratch: DoctorScratch,
): Promise<Record<string, unknown>> {
  const [executable, ...args] = command;
  if (executable === undefined) throw new Error('empty server command');
  const transport = new StdioClientTransport({
    // `node` as the banner prints it is the node running this test.
    command: executable === 'node' ? process.execPath : executable,
    args,
    env: scratch.baseEnv(env) as Record<string, string>,
    cwd: scratch.dir,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', () => undefined);
  const client = new Client({ name: 'banner-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    const result = (await client.callTool({ name: 'ui_get_tree', arguments: {} })) as CallToolResult;
    return result.structuredContent as Record<string, unknown>;
  } finally {
    await client.close();
  }
}

describeWithAdb('the virtual device banner points a client at the device', () => {
  let adb: PrivateAdbServer;
  let device: VirtualDeviceProcess;
  let serial: string | undefined;
  let scratch: DoctorScratch;

  beforeAll(async () => {
    scratch = doctorScratch();
    adb = await startAdbServer();
    device = await startVirtualDeviceProcess({ env: { ANDROID_ADB_SERVER_PORT: String(adb.port) } });
  });

  afterAll(async () => {
    if (adb && serial) await disconnectDevice(adb, serial);
    await device?.stop();
    await adb?.stop();
    scratch?.remove();
  });

  it('prints the env block and the claude line for its port and adb server; following them, the harness reads the screen', async () => {
    const banner = await bannerOf(device);
    const expectedSerial = `127.0.0.1:${device.port}`;

    const envLine = banner.find((line) => line.trimStart().startsWith('"env": '));
    expect(envLine, banner.join('\n')).toBeDefined();
    const env = JSON.parse((envLine ?? '').trim().slice('"env": '.length)) as Record<string, string>;
    expect(env).toEqual({
      ANDROID_UDID: expectedSerial,
      ANDROID_MCP_ALLOW_SERIALS: expectedSerial,
      ANDROID_ADB_SERVER_PORT: String(adb.port),
    });

    const claudeLine = banner.find((line) => line.trimStart().startsWith('claude mcp add '));
    expect(claudeLine, banner.join('\n')).toBeDefined();
    const words = (claudeLine ?? '').trim().split(' ');
    const separator = words.indexOf('--');
    // The server's name comes before the variadic --env options (Claude Code parses them greedily).
    expect(words.slice(0, 4)).toEqual(['claude', 'mcp', 'add', 'android']);
    const claudeEnv: Record<string, string> = {};
    for (let i = 4; i < separator; i += 2) {
      expect(words[i]).toBe('--env');
      const [key, ...value] = (words[i + 1] ?? '').split('=');
      claudeEnv[key ?? ''] = value.join('=');
    }
    expect(claudeEnv).toEqual(env);
    const serverCommand = words.slice(separator + 1);
    expect(serverCommand).toEqual(['node', path.join(REPO_ROOT, 'dist', 'index.js')]);

    expect(banner).toContain(`  connect: adb connect ${expectedSerial}`);
    serial = await connectDevice(adb, device.port);
    expect(serial).toBe(env.ANDROID_UDID);

    const tree = await treeThrough(serverCommand, env, scratch);
    expect(tree, JSON.stringify(tree)).toMatchObject({
      ok: true,
      tool: 'ui_get_tree',
      data: { foreground_package: expect.any(String) },
    });

    // The serial alone is not enough: the guard refuses a serial that is not emulator-N.
    const refused = await treeThrough(
      serverCommand,
      { ANDROID_UDID: expectedSerial, ANDROID_ADB_SERVER_PORT: String(adb.port) },
      scratch,
    );
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'EMULATOR_UNAVAILABLE', message: expect.stringContaining('ANDROID_MCP_ALLOW_SERIALS') },
    });
  });
});

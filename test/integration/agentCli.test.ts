/**
 * `android-mcp-harness cli` as an agent in a shell uses it, on the virtual device through the real
 * adb and Appium: the example flow's steps one command at a time, with refs carried from one
 * command's answer to the next, in a UI session the CLI remembers; what MCP refuses is refused
 * here with the matching exit code; `stop` and the idle time leave no server, keeper or state behind.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { connectDevice, disconnectDevice } from '../support/adbDevices.js';
import { startAppium, type RunningAppium } from '../support/appium.js';
import { isAlive, sleep } from '../support/processes.js';
import { BUILT_BIN, ensureBuilt } from '../support/rawServer.js';
import { startVirtualDeviceProcess, type VirtualDeviceProcess } from '../support/virtualDeviceProcess.js';
import type { WireEnvelope as Envelope } from '../support/wireEnvelope.js';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

interface Entry {
  readonly ref: string;
  readonly text?: string;
  readonly id?: string;
}

describeWithAdb('the agents’ command line on the virtual device', () => {
  let adb: PrivateAdbServer;
  let device: VirtualDeviceProcess;
  let serial: string;
  let appium: RunningAppium;
  let workDir: string;

  beforeAll(async () => {
    ensureBuilt();
    adb = await startAdbServer();
    device = await startVirtualDeviceProcess();
    serial = await connectDevice(adb, device.port);
    appium = await startAppium({ adbPort: adb.port });
    workDir = mkdtempSync(path.join(os.tmpdir(), 'amh-cli-'));
  }, 120_000);

  afterAll(async () => {
    // Whatever a failed test left running is stopped through the CLI itself.
    if (workDir) {
      for (const name of readdirSync(workDir)) if (name.startsWith('state-')) await cli(['stop'], name);
    }
    await appium?.stop();
    if (adb && serial) await disconnectDevice(adb, serial);
    await device?.stop();
    await adb?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  function env(state: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return {
      ...process.env,
      ANDROID_ADB_SERVER_PORT: String(adb.port),
      ANDROID_UDID: serial,
      ANDROID_MCP_ALLOW_SERIALS: serial,
      APPIUM_URL: appium.url,
      ANDROID_MCP_ARTIFACTS_DIR: path.join(workDir, 'artifacts'),
      ANDROID_MCP_LOCK_DIR: path.join(workDir, 'locks'),
      ANDROID_MCP_CLI_DIR: path.join(workDir, state),
      ...extra,
    };
  }

  function cli(args: readonly string[], state = 'state-main', extra: NodeJS.ProcessEnv = {}): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [BUILT_BIN, 'cli', ...args],
        { env: env(state, extra), cwd: workDir, timeout: 90_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });
  }

  async function json(args: readonly string[], state?: string): Promise<Envelope> {
    const run = await cli([...args, '--json'], state);
    expect(run.stdout, run.stderr).not.toBe('');
    return JSON.parse(run.stdout) as Envelope;
  }

  function entries(envelope: Envelope): Entry[] {
    const after = envelope.data.after as { actions?: Entry[] } | undefined;
    return after?.actions ?? (envelope.data.actions as Entry[] | undefined) ?? [];
  }

  function refOf(envelope: Envelope, text: string): string {
    const entry = entries(envelope).find((e) => e.text === text);
    if (!entry) throw new Error(`no entry with text ${text} in ${JSON.stringify(envelope.data)}`);
    return entry.ref;
  }

  it('runs the example flow a command at a time, with refs from each answer and one remembered UI session', async () => {
    const opened = await json(['open', 'com.android.settings']);
    expect(opened.ok, JSON.stringify(opened.error)).toBe(true);
    expect((await json(['session', 'open'])).ok).toBe(true);
    expect(existsSync(path.join(workDir, 'state-main', 'session'))).toBe(true);

    const apps = await json(['tap', refOf(opened, 'Apps')]);
    expect(apps.ok, JSON.stringify(apps.error)).toBe(true);
    expect(apps.data.element_label).toBe('Apps');
    const allApps = await json(['tap', 'All apps']);
    expect(allApps.ok, JSON.stringify(allApps.error)).toBe(true);
    const scrolled = await json(['scroll', 'down']);
    expect(scrolled.ok, JSON.stringify(scrolled.error)).toBe(true);
    expect(scrolled.data.moved).toBe(true);
    expect((await json(['back'])).ok).toBe(true);
    const home = await json(['back']);
    expect(home.ok).toBe(true);

    // The compact form names each entry by its ref first: what a shell agent reads and sends back.
    const tree = await cli(['tree']);
    expect(tree.code).toBe(0);
    expect(tree.stdout).toMatch(/^ok$/m);
    expect(tree.stdout).toMatch(/^ {2}e[0-9a-z]+ .*id=search_action_bar/m);
    const search = await json(['tap', 'id=search_action_bar']);
    expect(search.ok, JSON.stringify(search.error)).toBe(true);
    const typed = await json(['type', 'input_hint=Search settings', 'wifi']);
    expect(typed.ok, JSON.stringify(typed.error)).toBe(true);

    expect((await json(['session', 'close'])).ok).toBe(true);
    expect(existsSync(path.join(workDir, 'state-main', 'session'))).toBe(false);
    // Twelve commands, each a new Node process that connects to the server: more than one call's budget.
  }, 300_000);

  it('refuses what MCP refuses, with the exit code of the error', async () => {
    const position = await cli(['tap', '{"x":540,"y":1200}']);
    expect(position.code).toBe(2);
    expect(position.stdout).toMatch(/^error INVALID_SELECTOR: .*coordinates/m);
    const missing = await cli(['tap', 'text=No such row']);
    expect(missing.code).toBe(3);
    expect(missing.stdout).toMatch(/^error UI_ELEMENT_NOT_FOUND/m);
    const usage = await cli(['swipe', 'up'], 'state-usage');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('unknown verb');
    // A usage mistake starts nothing.
    expect(existsSync(path.join(workDir, 'state-usage'))).toBe(false);
  });

  it('stop ends the server and its keeper at once; an idle server stops by itself; nothing is left behind', async () => {
    // The other tests' server keeps the device (its kept session): one owner at a time, so it goes first.
    expect((await cli(['stop'])).code).toBe(0);
    expect((await cli(['status'], 'state-stop')).code).toBe(0);
    const record = JSON.parse(readFileSync(path.join(workDir, 'state-stop', 'server.json'), 'utf8')) as { pid: number };
    expect(isAlive(record.pid)).toBe(true);
    expect((await cli(['stop'], 'state-stop')).code).toBe(0);
    expect(isAlive(record.pid)).toBe(false);
    expect(readdirSync(path.join(workDir, 'state-stop')).sort()).toEqual(['server.log']);

    expect((await cli(['status'], 'state-idle', { ANDROID_MCP_CLI_IDLE: '3' })).code).toBe(0);
    const idle = JSON.parse(readFileSync(path.join(workDir, 'state-idle', 'server.json'), 'utf8')) as { pid: number };
    // Polled, not timed: the keeper checks once a second and the server then closes its sessions.
    for (let i = 0; i < 300 && isAlive(idle.pid); i++) await sleep(100);
    expect(isAlive(idle.pid)).toBe(false);
    expect(readdirSync(path.join(workDir, 'state-idle')).sort()).toEqual(['server.log']);
  }, 180_000);
});

/**
 * The real VirtualDevice driven by the real adb (private server): what the harness and
 * Appium read through adb comes out in the formats a device prints. Plus the CLI that
 * serves it, started as a process and stopped by its pid.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { connectDevice, disconnectDevice, waitForDeviceState } from '../support/adbDevices.js';
import { describeWithAdb } from '../support/adbServer.js';
import { REPO_ROOT } from '../support/appium.js';
import { freePort } from '../support/ports.js';
import { stopChild, trackChild } from '../support/processes.js';
import { startVirtualDeviceForTest, type VirtualDeviceForTest } from '../support/virtualDevice.js';

describeWithAdb('VirtualDevice through the real adb', () => {
  let vd: VirtualDeviceForTest;
  const workDir = mkdtempSync(join(tmpdir(), 'amh-vd-adb-'));

  beforeAll(async () => {
    vd = await startVirtualDeviceForTest();
  });

  afterAll(async () => {
    await vd?.stop();
  });

  beforeEach(() => {
    vd.device.clearFaults();
  });

  const adb = (args: string[]) => vd.adb.adb(['-s', vd.serial, ...args]);

  it('answers getprop ro.build.version.sdk with an API level Appium accepts', async () => {
    const result = await adb(['shell', 'getprop', 'ro.build.version.sdk']);
    expect(result.code).toBe(0);
    expect(result.stdout.toString()).toMatch(/^\d+\n$/);
    expect(Number(result.stdout.toString())).toBeGreaterThanOrEqual(26);
    expect(
      vd.device
        .logEntries()
        .some((entry) => entry.kind === 'shell' && entry.detail.includes('getprop ro.build.version.sdk')),
    ).toBe(true);
  });

  it('prints a uiautomator dump to /dev/tty with the device spelling of the trailer', async () => {
    const result = await adb(['exec-out', 'uiautomator', 'dump', '/dev/tty']);
    const text = result.stdout.toString();
    expect(text).toContain('<hierarchy');
    expect(text).toContain('</hierarchy>');
    expect(text).toContain('UI hierchary dumped to: /dev/tty');
  });

  it('dumps to a file that `cat` reads back', async () => {
    const dump = await adb(['shell', 'uiautomator', 'dump', '/sdcard/window_dump.xml']);
    expect(dump.stdout.toString()).toContain('UI hierchary dumped to: /sdcard/window_dump.xml');
    const cat = await adb(['shell', 'cat', '/sdcard/window_dump.xml']);
    expect(cat.code).toBe(0);
    expect(cat.stdout.toString()).toMatch(/^<\?xml[\s\S]*<hierarchy[\s\S]*<\/hierarchy>\s*$/);
  });

  it('returns a decodable PNG of the screen size from `exec-out screencap -p`', async () => {
    const result = await adb(['exec-out', 'screencap', '-p']);
    expect(result.code).toBe(0);
    expect(result.stdout.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const png = PNG.sync.read(result.stdout);
    expect(png.width).toBeGreaterThan(0);
    expect(png.height).toBeGreaterThan(png.width);
  });

  it('answers an unknown command like Android’s shell: message on stderr, rc 127, logged', async () => {
    const result = await adb(['shell', 'frobnicate', '--now']);
    expect(result.code).toBe(127);
    expect(result.stderr).toBe('/system/bin/sh: frobnicate: inaccessible or not found\n');
    expect(
      vd.device.logEntries().some((entry) => entry.kind === 'unknown-command' && entry.detail.startsWith('frobnicate')),
    ).toBe(true);
  });

  it('keeps exit codes of `false` and `test` through shell_v2', async () => {
    expect((await adb(['shell', 'false'])).code).toBe(1);
    expect((await adb(['shell', 'true'])).code).toBe(0);
    expect((await adb(['shell', "[ -e '/data/local/tmp/nothing-here' ]"])).code).toBe(1);
  });

  it('stores pushed files in the device file system and pulls them back', async () => {
    const payload = randomBytes(256 * 1024);
    const local = join(workDir, 'blob.bin');
    writeFileSync(local, payload);
    const push = await adb(['push', local, '/data/local/tmp/blob.bin']);
    expect(push.code, push.stderr).toBe(0);
    const back = join(workDir, 'back.bin');
    const pull = await adb(['pull', '/data/local/tmp/blob.bin', back]);
    expect(pull.code, pull.stderr).toBe(0);
    expect(readFileSync(back).equals(payload)).toBe(true);
    const exists = await adb(['shell', "[ -e '/data/local/tmp/blob.bin' ] && echo __PASS__"]);
    expect(exists.stdout.toString()).toBe('__PASS__\n');
  });

  it('gives CRLF output on a legacy-PTY device', async () => {
    vd.device.setLegacyPty(true);
    try {
      await disconnectDevice(vd.adb, vd.serial);
      vd.dropConnections();
      await connectDevice(vd.adb, vd.port);
      const result = await adb(['shell', 'getprop', 'ro.build.version.sdk']);
      expect(result.stdout.toString()).toMatch(/^\d+\r\n$/);
    } finally {
      vd.device.setLegacyPty(false);
      await disconnectDevice(vd.adb, vd.serial);
      vd.dropConnections();
      await connectDevice(vd.adb, vd.port);
    }
  });

  it('goes offline under the offline fault and answers again once it is cleared', async () => {
    vd.device.injectFault({ kind: 'offline' });
    expect(['offline', 'absent']).toContain(await waitForDeviceState(vd.adb, vd.serial, ['offline', 'absent']));
    vd.device.clearFaults();
    await disconnectDevice(vd.adb, vd.serial);
    await connectDevice(vd.adb, vd.port);
    expect((await adb(['shell', 'echo', 'back'])).stdout.toString()).toBe('back\n');
  });

  it('serves the device from the CLI until SIGTERM', async () => {
    const port = await freePort();
    const cli = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const { runVirtualDeviceCli } = await import('./packages/virtual-device/src/cli.ts'); process.exitCode = await runVirtualDeviceCli(process.argv.slice(1));",
        '--',
        '--port',
        String(port),
        '--quiet',
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    trackChild(cli);
    let stderr = '';
    let stdout = '';
    cli.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    cli.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 20_000;
      while (!stderr.includes('listening on') && Date.now() < deadline && cli.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(stderr).toContain(`adb connect 127.0.0.1:${port}`);
      const serial = await connectDevice(vd.adb, port);
      const sdk = await vd.adb.adb(['-s', serial, 'shell', 'getprop', 'ro.build.version.sdk']);
      expect(sdk.stdout.toString()).toMatch(/^\d+\n$/);
      await disconnectDevice(vd.adb, serial);
      cli.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stderr).toContain('virtual-device: stopping');
      expect(stdout).toBe('');
    } finally {
      await stopChild(cli);
    }
  });
});

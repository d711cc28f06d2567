/**
 * The ADB transport of the virtual device, driven by the REAL adb client and server
 * (a private server per file) against a small scripted DeviceServices: what each
 * service puts on the wire is checked through what the real adb makes of it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { AdbTransport } from '../../packages/virtual-device/src/adb/index.js';
import type {
  DeviceConnectionState,
  DeviceLogKind,
  DeviceServices,
  ShellIo,
  ShellOrigin,
  VirtualFileStat,
} from '../../packages/virtual-device/src/contracts.js';
import { connectDevice, disconnectDevice, waitForDeviceState } from '../support/adbDevices.js';
import { openDeviceService } from '../support/adbHostClient.js';
import { describeWithAdb, startAdbServer, type PrivateAdbServer } from '../support/adbServer.js';
import { attachDeviceToAdb, type AttachedDevice } from '../support/deviceOnAdb.js';
import { duplexPair } from '../support/duplexPair.js';
import { freePort } from '../support/ports.js';
import { sleep } from '../support/processes.js';

const BLOB = randomBytes(3 * 1024 * 1024);

interface ShellCall {
  readonly commandLine: string;
  readonly origin: ShellOrigin;
  abortedAt: number | null;
}

/** A scripted device: each command line is a fixed scenario the tests below rely on. */
class ScriptedDevice implements DeviceServices {
  online = true;
  legacy = false;
  state: DeviceConnectionState = 'device';
  uia2Listening = true;
  readonly calls: ShellCall[] = [];
  readonly logEntries: Array<{ kind: DeviceLogKind; detail: string }> = [];
  readonly files = new Map<string, { bytes: Buffer; mode: number }>();
  readonly installs: Array<{ args: readonly string[]; apk: Buffer }> = [];
  readonly http: Server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ sessionId: null, value: { ready: true, path: request.url } }));
  });

  bannerProperties(): { name: string; model: string; device: string } {
    return { name: 'sdk_gphone64_x86_64', model: 'Virtual Pixel', device: 'emu64x' };
  }

  isOnline(): boolean {
    return this.online;
  }

  legacyPty(): boolean {
    return this.legacy;
  }

  connectionState(): DeviceConnectionState {
    return this.state;
  }

  async runShell(commandLine: string, io: ShellIo, origin: ShellOrigin): Promise<number> {
    const call: ShellCall = { commandLine, origin, abortedAt: null };
    this.calls.push(call);
    io.aborted.addEventListener('abort', () => {
      call.abortedAt = Date.now();
    });
    const [command, ...args] = commandLine.split(' ');
    switch (command) {
      case 'echo':
        io.stdout(`${args.join(' ')}\n`);
        return 0;
      case 'fail3':
        io.stderr('fail3: something went wrong\n');
        return 3;
      case 'lines':
        io.stdout('one\ntwo\n');
        io.stderr('err\n');
        return 0;
      case 'blob':
        io.stdout(BLOB);
        return 0;
      case 'cat': {
        const chunks: Buffer[] = [];
        io.onStdin((chunk) => chunks.push(chunk));
        await new Promise((resolve) => setTimeout(resolve, 300));
        io.stdout(Buffer.concat(chunks));
        return 0;
      }
      case 'forever':
        await new Promise<void>((resolve) => io.aborted.addEventListener('abort', () => resolve()));
        return 0;
      case 'throws':
        throw new Error('boom');
      case 'cmd':
        io.stdout('Success\n');
        return 0;
      default:
        io.stderr(`/system/bin/sh: ${command}: inaccessible or not found\n`);
        return 127;
    }
  }

  openTcp(port: number): Duplex | null {
    if (port !== 6790 || !this.uia2Listening) return null;
    const [deviceSide, serverSide] = duplexPair();
    this.http.emit('connection', serverSide);
    return deviceSide;
  }

  statFile(path: string): VirtualFileStat | null {
    const file = this.files.get(path);
    return file ? { mode: file.mode, size: file.bytes.length, mtimeSec: 1_700_000_000 } : null;
  }

  readFile(path: string): Buffer | null {
    return this.files.get(path)?.bytes ?? null;
  }

  writeFile(path: string, bytes: Buffer, mode: number): void {
    this.files.set(path, { bytes, mode });
  }

  installPackage(args: readonly string[], apk: Buffer): string {
    this.installs.push({ args, apk });
    return 'Success\n';
  }

  runAbb(args: readonly string[]): string {
    return args[1] === 'uninstall' ? 'Success\n' : `Unknown command: ${args.join(' ')}\n`;
  }

  log(kind: DeviceLogKind, detail: string): void {
    this.logEntries.push({ kind, detail });
  }
}

async function httpGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    request.setTimeout(5000, () => request.destroy(new Error('timeout')));
    request.on('error', reject);
  });
}

describeWithAdb('virtual device ADB transport with the real adb', () => {
  let server: PrivateAdbServer;
  let device: ScriptedDevice;
  let transport: AdbTransport;
  let serial: string;
  let attached: AttachedDevice;
  const workDir = mkdtempSync(join(tmpdir(), 'amh-transport-'));

  beforeAll(async () => {
    server = await startAdbServer();
    device = new ScriptedDevice();
    attached = await attachDeviceToAdb(device, server);
    transport = attached.transport;
    serial = attached.serial;
  });

  afterAll(async () => {
    await attached?.stop();
    await server?.stop();
    device?.http.close();
  });

  beforeEach(async () => {
    device.online = true;
    device.legacy = false;
    device.uia2Listening = true;
    await waitForDeviceState(server, serial, ['device']);
  });

  const shell = (args: string[], options?: Parameters<PrivateAdbServer['adb']>[1]) =>
    server.adb(['-s', serial, 'shell', ...args], options);

  it('answers `adb shell echo hi` through shell_v2, advertised in the banner', async () => {
    const result = await shell(['echo', 'hi']);
    expect(result.stdout.toString()).toBe('hi\n');
    expect(result.code).toBe(0);
    expect(device.calls.at(-1)).toMatchObject({ commandLine: 'echo hi', origin: 'shell_v2' });
    const features = await server.adb(['-s', serial, 'features']);
    expect(features.stdout.toString().split('\n').filter(Boolean).sort()).toEqual(
      ['abb_exec', 'cmd', 'fixed_push_mkdir', 'ls_v2', 'shell_v2', 'stat_v2'].sort(),
    );
  });

  it('carries the exit code and keeps stderr apart with shell_v2', async () => {
    const result = await shell(['fail3']);
    expect(result.code).toBe(3);
    expect(result.stdout.toString()).toBe('');
    expect(result.stderr).toBe('fail3: something went wrong\n');
    const missing = await shell(['frobnicate']);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain('/system/bin/sh: frobnicate: inaccessible or not found');
  });

  it('turns a command that throws inside the device into stderr and rc 1', async () => {
    const result = await shell(['throws']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('boom');
  });

  it('passes stdin to the command (shell_v2 stdin frames)', async () => {
    const result = await shell(['cat'], { input: 'typed on the host\n' });
    expect(result.stdout.toString()).toBe('typed on the host\n');
  });

  it('round-trips 3 MB of binary through `adb exec-out` byte for byte (flow control, chunking)', async () => {
    const started = Date.now();
    const result = await server.adb(['-s', serial, 'exec-out', 'blob']);
    const elapsed = Date.now() - started;
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBe(BLOB.length);
    expect(result.stdout.equals(BLOB)).toBe(true);
    expect(device.calls.at(-1)).toMatchObject({ commandLine: 'blob', origin: 'exec' });
    process.stderr.write(`[timing] exec-out of 3 MB: ${elapsed} ms\n`);
  });

  it('quotes exec-out arguments the way adb 29 does', async () => {
    await server.adb(['-s', serial, 'exec-out', 'echo', '-p']);
    expect(device.calls.at(-1)?.commandLine).toBe("echo '-p'");
  });

  it('pushes and pulls a 1 MB file intact through sync:', async () => {
    const payload = randomBytes(1024 * 1024);
    const local = join(workDir, 'payload.bin');
    writeFileSync(local, payload);
    const push = await server.adb(['-s', serial, 'push', local, '/data/local/tmp/payload.bin']);
    expect(push.code, push.stderr).toBe(0);
    const stored = device.files.get('/data/local/tmp/payload.bin');
    expect(stored?.bytes.equals(payload)).toBe(true);
    expect((stored?.mode ?? 0) & 0o777).toBe(0o644);

    const back = join(workDir, 'back.bin');
    const pull = await server.adb(['-s', serial, 'pull', '/data/local/tmp/payload.bin', back]);
    expect(pull.code, pull.stderr).toBe(0);
    expect(readFileSync(back).equals(payload)).toBe(true);

    const missing = await server.adb(['-s', serial, 'pull', '/data/local/tmp/nothing.bin', join(workDir, 'x')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stdout.toString() + missing.stderr, JSON.stringify(missing)).toMatch(/No such file or directory/);
  });

  it('aborts a long-lived command when the client is killed', async () => {
    const client = new AbortController();
    const running = shell(['forever'], { signal: client.signal });
    const deadline = Date.now() + 5000;
    while (!device.calls.some((call) => call.commandLine === 'forever') && Date.now() < deadline) await sleep(20);
    const call = device.calls.find((candidate) => candidate.commandLine === 'forever');
    expect(call, 'the long-lived command never started').toBeDefined();
    expect(call?.abortedAt).toBeNull();
    client.abort();
    await running;
    while (call?.abortedAt === null && Date.now() < deadline + 5000) await sleep(20);
    expect(call?.abortedAt).not.toBeNull();
  });

  it('bridges `adb forward tcp:X tcp:6790` into the device HTTP server, and refuses when nothing listens', async () => {
    const local = await freePort();
    const forward = await server.adb(['-s', serial, 'forward', `tcp:${local}`, 'tcp:6790']);
    expect(forward.code, forward.stderr).toBe(0);
    try {
      const reply = await httpGet(local, '/status');
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toEqual({ sessionId: null, value: { ready: true, path: '/status' } });
      const again = await httpGet(local, '/session/abc');
      expect(JSON.parse(again.body).value.path).toBe('/session/abc');

      device.uia2Listening = false;
      await expect(httpGet(local, '/status')).rejects.toThrow();
      expect(
        device.logEntries.some((entry) => entry.kind === 'tcp' && entry.detail.startsWith('refused tcp:6790')),
      ).toBe(true);
    } finally {
      await server.adb(['-s', serial, 'forward', '--remove', `tcp:${local}`]);
    }
  });

  it('installs through abb_exec with the streamed APK bytes, and uninstalls', async () => {
    const apk = randomBytes(200 * 1024);
    const file = join(workDir, 'tiny.apk');
    writeFileSync(file, apk);
    const install = await server.adb(['-s', serial, 'install', '-r', '-g', file]);
    expect(install.code, install.stderr).toBe(0);
    expect(install.stdout.toString()).toContain('Success');
    const last = device.installs.at(-1);
    expect(last?.args.slice(0, 2)).toEqual(['package', 'install']);
    expect(last?.args).toContain('-S');
    expect(last?.apk.equals(apk)).toBe(true);

    // adb 29 uninstalls through `cmd package` on the shell, not abb_exec...
    const uninstall = await server.adb(['-s', serial, 'uninstall', 'com.example.tiny']);
    expect(uninstall.stdout.toString()).toContain('Success');
    expect(device.calls.at(-1)?.commandLine).toBe("cmd package 'uninstall' 'com.example.tiny'");
    // ...while other abb_exec commands (no streamed payload) go to runAbb.
    const abb = await openDeviceService(server.port, serial, 'abb_exec:package\0uninstall\0com.example.tiny');
    expect(abb.status).toBe('OKAY');
    expect(abb.data.toString()).toBe('Success\n');
    expect(
      device.logEntries.some((entry) => entry.kind === 'abb' && entry.detail === 'package uninstall com.example.tiny'),
    ).toBe(true);
  });

  it('refuses an unknown service and logs it', async () => {
    const reply = await openDeviceService(server.port, serial, 'frobnicate:now');
    expect(reply.status).not.toBe('OKAY');
    expect(device.logEntries.some((entry) => entry.detail === 'refused unknown service frobnicate:now')).toBe(true);
    // The connection survives a refused stream.
    expect((await shell(['echo', 'still', 'here'])).stdout.toString()).toBe('still here\n');
  });

  it('turns Nagle off on every connection the adb server opens to it (TCP_NODELAY)', async () => {
    // Without it each small shell round trip waits out Nagle plus the peer's delayed ACK (~40-45 ms):
    // the check is on the mechanism; the round trip's time is a figure of the bench (bench/tools/speedFigures.ts).
    const noDelay = vi.spyOn(Socket.prototype, 'setNoDelay');
    try {
      await disconnectDevice(server, serial);
      transport.dropConnections();
      await connectDevice(server, transport.port);
      expect((await shell(['echo', 'ping'])).stdout.toString()).toBe('ping\n');
      const deviceSide = noDelay.mock.contexts
        .map((socket, i) => ({ socket: socket as Socket, args: noDelay.mock.calls[i] ?? [] }))
        .filter(({ socket }) => socket.localPort === transport.port);
      expect(deviceSide.length).toBeGreaterThan(0);
      // setNoDelay() with no argument means true as well.
      for (const { args } of deviceSide) expect(args[0] ?? true).toBe(true);
    } finally {
      noDelay.mockRestore();
    }
  });

  it('gives a legacy (no shell_v2) device a PTY: \\r\\n line endings, merged stderr, no exit code', async () => {
    device.legacy = true;
    await disconnectDevice(server, serial);
    transport.dropConnections();
    await connectDevice(server, transport.port);
    try {
      const features = await server.adb(['-s', serial, 'features']);
      expect(features.stdout.toString()).not.toContain('shell_v2');
      const lines = await shell(['lines']);
      expect(lines.stdout.toString()).toBe('one\r\ntwo\r\nerr\r\n');
      expect(device.calls.at(-1)?.origin).toBe('shell');
      const failing = await shell(['fail3']);
      expect(failing.code).toBe(0);
      // exec-out stays raw on such a device.
      const raw = await server.adb(['-s', serial, 'exec-out', 'lines']);
      expect(raw.stdout.toString()).toBe('one\ntwo\nerr\n');
    } finally {
      device.legacy = false;
      await disconnectDevice(server, serial);
      transport.dropConnections();
      await connectDevice(server, transport.port);
    }
  });

  it('shows an unauthorized device as `unauthorized`', async () => {
    device.state = 'unauthorized';
    await disconnectDevice(server, serial);
    transport.dropConnections();
    try {
      await server.adb(['connect', serial]);
      expect(await waitForDeviceState(server, serial, ['unauthorized'])).toBe('unauthorized');
      const denied = await shell(['echo', 'hi']);
      expect(denied.code).not.toBe(0);
      expect(denied.stderr).toMatch(/unauthorized/);
    } finally {
      device.state = 'device';
      await disconnectDevice(server, serial);
      transport.dropConnections();
      await connectDevice(server, transport.port);
    }
  });

  it('shows a device in recovery as `recovery`', async () => {
    device.state = 'recovery';
    await disconnectDevice(server, serial);
    transport.dropConnections();
    try {
      await server.adb(['connect', serial]);
      expect(await waitForDeviceState(server, serial, ['recovery'])).toBe('recovery');
    } finally {
      device.state = 'device';
      await disconnectDevice(server, serial);
      transport.dropConnections();
      await connectDevice(server, transport.port);
    }
  });

  it('drops and refuses connections while offline, and comes back', async () => {
    device.online = false;
    const seen = await waitForDeviceState(server, serial, ['offline', 'absent']);
    expect(['offline', 'absent']).toContain(seen);
    const denied = await shell(['echo', 'hi'], { timeoutMs: 5000 });
    expect(denied.code).not.toBe(0);

    device.online = true;
    await disconnectDevice(server, serial);
    await connectDevice(server, transport.port);
    expect((await shell(['echo', 'back'])).stdout.toString()).toBe('back\n');
  });
});

import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdbRunner, classifyAdbFailure } from '../../../src/infrastructure/adb/AdbRunner.js';
import { harnessError } from '../../support/harnessError.js';
import { silentLogger } from '../../support/fakes/silentLogger.js';

/**
 * A fake adb: records its argv (one JSON line per call) and answers according to FAKE_ADB_MODE.
 * It is a real executable started by execFile, so argv handling and timeouts are the real ones.
 */
const FAKE_ADB = `#!${process.execPath}
const fs = require('node:fs');
const env = process.env;
fs.appendFileSync(env.FAKE_ADB_LOG, JSON.stringify({ argv: process.argv.slice(2), port: env.ANDROID_ADB_SERVER_PORT ?? null }) + '\\n');
const mode = env.FAKE_ADB_MODE;
if (mode === 'hang') { setInterval(() => {}, 1000); }
else if (mode === 'mismatch-once') {
  const state = env.FAKE_ADB_LOG + '.state';
  if (!fs.existsSync(state)) {
    fs.writeFileSync(state, '1');
    process.stderr.write("adb server version (41) doesn't match this client (39); killing...\\n* failed to start daemon\\nerror: cannot connect to daemon\\n");
    process.exit(1);
  }
  process.stdout.write('device\\n');
}
else if (mode === 'mismatch-always') {
  process.stderr.write("adb server version (41) doesn't match this client (39); killing...\\nerror: cannot connect to daemon\\n");
  process.exit(1);
}
else if (mode === 'big') { process.stdout.write(Buffer.alloc(5 * 1024 * 1024, 7)); }
else {
  process.stdout.write(Buffer.from(env.FAKE_ADB_STDOUT ?? '', 'base64'));
  process.stderr.write(env.FAKE_ADB_STDERR ?? '');
  process.exit(Number(env.FAKE_ADB_EXIT ?? 0));
}
`;

let dir: string;
let adbPath: string;
let counter = 0;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'fake-adb-'));
  adbPath = path.join(dir, 'adb');
  writeFileSync(adbPath, FAKE_ADB);
  chmodSync(adbPath, 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function setup(env: Record<string, string>, defaultTimeoutMs = 10_000) {
  const log = path.join(dir, `calls-${++counter}.jsonl`);
  const runner = new AdbRunner({
    adbPath,
    serial: 'emulator-5554',
    defaultTimeoutMs,
    env: { PATH: process.env.PATH ?? '', FAKE_ADB_LOG: log, ...env },
    logger: silentLogger,
  });
  const calls = (): { argv: string[]; port: string | null }[] =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { argv: string[]; port: string | null })
      : [];
  return { runner, calls };
}

describe('AdbRunner against a fake adb executable', () => {
  it('passes exactly -s <serial> and the args, each as its own argv entry, with binary stdout', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 13, 10]);
    const { runner, calls } = setup({ FAKE_ADB_STDOUT: png.toString('base64') });
    const result = await runner.run(['exec-out', 'screencap', '-p']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout.equals(png)).toBe(true);
    expect(calls().map((c) => c.argv)).toEqual([['-s', 'emulator-5554', 'exec-out', 'screencap', '-p']]);
  });

  it('never lets a local shell parse anything: metacharacters arrive verbatim', async () => {
    const { runner, calls } = setup({});
    await runner.run(['shell', 'echo', '$(id); `whoami` && ls | cat > /tmp/x']);
    expect(calls()[0]?.argv).toEqual(['-s', 'emulator-5554', 'shell', 'echo', '$(id); `whoami` && ls | cat > /tmp/x']);
  });

  it('passes ANDROID_ADB_SERVER_PORT through the environment', async () => {
    const { runner, calls } = setup({ ANDROID_ADB_SERVER_PORT: '15037' });
    await runner.run(['get-state']);
    expect(calls()[0]?.port).toBe('15037');
  });

  it('returns a non-zero exit of the device command to the caller', async () => {
    const { runner } = setup({
      FAKE_ADB_STDOUT: Buffer.from('nope\n').toString('base64'),
      FAKE_ADB_EXIT: '2',
      FAKE_ADB_STDERR: 'sh: x: not found\n',
    });
    const result = await runner.run(['shell', 'getprop', 'x']);
    expect(result.exitCode).toBe(2);
    expect(result.stdout.toString()).toBe('nope\n');
    expect(result.stderr).toContain('not found');
  });

  it('handles large output (5 MB) within maxBuffer', async () => {
    const { runner } = setup({ FAKE_ADB_MODE: 'big' });
    const result = await runner.run(['exec-out', 'screencap', '-p']);
    expect(result.stdout.length).toBe(5 * 1024 * 1024);
  });

  it('kills a hung adb at the timeout and says so', async () => {
    const { runner } = setup({ FAKE_ADB_MODE: 'hang' });
    const started = Date.now();
    const error = await harnessError(runner.run(['get-state'], { timeoutMs: 300 }));
    // Real clock: the timeout is the child process's own (no clock port). The fake adb hangs for ever, so any
    // answer at all shows the kill; 5 s only leaves a loaded 2-core runner room to spawn and kill the child.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.code).toBe('EMULATOR_UNAVAILABLE');
    expect(error.message).toMatch(/did not answer within/);
  });

  it('retries exactly once after a server version mismatch', async () => {
    const { runner, calls } = setup({ FAKE_ADB_MODE: 'mismatch-once' });
    const result = await runner.run(['get-state']);
    expect(result.stdout.toString().trim()).toBe('device');
    expect(calls()).toHaveLength(2);
  });

  it('gives up after the one retry when the mismatch persists', async () => {
    const { runner, calls } = setup({ FAKE_ADB_MODE: 'mismatch-always' });
    const error = await harnessError(runner.run(['get-state']));
    expect(error.code).toBe('EMULATOR_UNAVAILABLE');
    expect(calls()).toHaveLength(2);
  });

  it.each([
    ['error: device offline\n', /offline.*adb kill-server && adb start-server/],
    [
      "error: device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\nTry 'adb kill-server' if that seems wrong.\nOtherwise check for a confirmation dialog on your device.\n",
      /USB debugging/,
    ],
    ['error: insufficient permissions for device: user in plugdev group; are your udev rules wrong?\n', /udev/],
    ["error: device 'emulator-5554' not found\n", /No device emulator-5554.*adb devices/],
    ['error: no devices/emulators found\n', /No device emulator-5554/],
    [
      "* daemon not running; starting now at tcp:5037\nADB server didn't ACK\n* failed to start daemon\nerror: cannot connect to daemon\n",
      /adb server could not be reached/,
    ],
  ])('maps adb failure %j to EMULATOR_UNAVAILABLE with its remedy', async (stderr, remedy) => {
    const { runner } = setup({ FAKE_ADB_STDERR: stderr, FAKE_ADB_EXIT: '1' });
    const error = await harnessError(runner.run(['shell', 'getprop', 'ro.product.model']));
    expect(error.code).toBe('EMULATOR_UNAVAILABLE');
    expect(error.message).toMatch(remedy);
  });

  it('reports a missing adb with the install remedy, both when not located and when the path is gone', async () => {
    const notLocated = new AdbRunner({
      adbPath: null,
      serial: 'emulator-5554',
      defaultTimeoutMs: 1000,
      logger: silentLogger,
    });
    const e1 = await harnessError(notLocated.run(['get-state']));
    expect(e1.code).toBe('EMULATOR_UNAVAILABLE');
    expect(e1.message).toMatch(/Install Android platform-tools or set ANDROID_HOME/);
    const gone = new AdbRunner({
      adbPath: path.join(dir, 'no-such-adb'),
      serial: 'emulator-5554',
      defaultTimeoutMs: 1000,
      logger: silentLogger,
    });
    const e2 = await harnessError(gone.run(['get-state']));
    expect(e2.message).toMatch(/Install Android platform-tools/);
    expect(e2.message).not.toContain(dir);
  });

  it('keeps adb path and serial immutable', () => {
    const { runner } = setup({});
    expect(() => {
      (runner as unknown as { serial: string }).serial = 'other';
    }).toThrow();
    expect(() => {
      (runner as unknown as { adbPath: string }).adbPath = '/bin/sh';
    }).toThrow();
    expect(runner.serial).toBe('emulator-5554');
    expect(runner.adbPath).toBe(adbPath);
  });
});

describe('classifyAdbFailure', () => {
  it('ignores what a device command prints on stderr', () => {
    expect(classifyAdbFailure('/system/bin/sh: recovery: inaccessible or not found\n', 's')).toBeNull();
    expect(classifyAdbFailure('', 's')).toBeNull();
  });
  it('recognises recovery and closed connections', () => {
    expect(classifyAdbFailure("error: device 'x' is in recovery mode\n", 'x')).toMatch(/recovery/);
    expect(classifyAdbFailure('error: closed\n', 'x')).toMatch(/closed unexpectedly/);
  });
});

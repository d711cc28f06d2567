/**
 * `npm run verify:real` cannot reach a real emulator here; what it must do without one is
 * checked: stop at once (exit 2), say what to do, build and write nothing. The preflight's
 * answers per adb state, then the real command with a fake adb on PATH.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { preflight, type AdbCall, type RunAdb } from '../../../scripts/verifyReal/preflight.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A directory holding an executable `adb` running `script` (sh), for PATH. */
function fakeAdbDir(script: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'verify-real-adb-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'adb'), `#!/bin/sh\n${script}\n`);
  chmodSync(join(dir, 'adb'), 0o755);
  return dir;
}

const ok = (stdout: string): AdbCall => ({ stdout, stderr: '', exitCode: 0, timedOut: false });

/** Answers `devices -l` with `listing` and each getprop from `props`; records every argv. */
function scripted(listing: string, props: Record<string, string> = {}): { run: RunAdb; calls: string[][] } {
  const calls: string[][] = [];
  const run: RunAdb = async (_adb, args) => {
    calls.push([...args]);
    if (args[0] === 'devices') return ok(listing);
    const name = args[args.length - 1] ?? '';
    return ok(`${props[name] ?? ''}\n`);
  };
  return { run, calls };
}

const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ PATH: fakeAdbDir('exit 0'), ...extra });
const HEADER = 'List of devices attached\n';

describe('verify:real preflight', () => {
  it('without adb anywhere: no-adb, naming where it looked and what to install', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'verify-real-empty-'));
    dirs.push(empty);
    const { run, calls } = scripted(HEADER);
    const answer = await preflight({ PATH: empty }, run);
    expect(answer).toMatchObject({ ok: false, reason: 'no-adb' });
    if (!answer.ok) expect(answer.message).toMatch(/ANDROID_HOME.*platform-tools/);
    expect(calls).toEqual([]);
  });

  it('adb lists no device: no-device, telling the user to start an AVD', async () => {
    const { run, calls } = scripted(`${HEADER}\n`);
    const answer = await preflight(env(), run);
    expect(answer).toMatchObject({ ok: false, reason: 'no-device' });
    if (!answer.ok)
      expect(answer.message).toMatch(
        /^No real Android device emulator-5554: adb lists no device at all\. Start an Android Virtual Device/,
      );
    expect(calls).toEqual([['devices', '-l']]);
  });

  it('another device only: names what adb lists and ANDROID_UDID', async () => {
    const { run } = scripted(
      `${HEADER}emulator-5556          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64\n`,
    );
    const answer = await preflight(env(), run);
    expect(answer).toMatchObject({ ok: false, reason: 'no-device' });
    if (!answer.ok) expect(answer.message).toContain('adb lists only emulator-5556 (device)');
    if (!answer.ok) expect(answer.message).toContain('ANDROID_UDID');
  });

  it('offline or unauthorized: not-ready with the remedy for that state', async () => {
    const offline = await preflight(env(), scripted(`${HEADER}emulator-5554\toffline\n`).run);
    expect(offline).toMatchObject({ ok: false, reason: 'not-ready' });
    if (!offline.ok) expect(offline.message).toMatch(/"offline".*wait until it has booted/);
    const unauthorized = await preflight(
      env({ ANDROID_UDID: 'R58M123' }),
      scripted(`${HEADER}R58M123\tunauthorized\n`).run,
    );
    if (!unauthorized.ok) expect(unauthorized.message).toMatch(/accept the USB debugging prompt/);
    expect(unauthorized.ok).toBe(false);
  });

  it('listed but still booting: not-ready, quoting sys.boot_completed', async () => {
    const answer = await preflight(
      env(),
      scripted(`${HEADER}emulator-5554\tdevice\n`, { 'sys.boot_completed': '' }).run,
    );
    expect(answer).toMatchObject({ ok: false, reason: 'not-ready' });
    if (!answer.ok) expect(answer.message).toContain('sys.boot_completed is ""');
  });

  it("this project's virtual device is refused: its report would pass for a real device's", async () => {
    const answer = await preflight(
      env({ ANDROID_UDID: '127.0.0.1:40123' }),
      scripted(`${HEADER}127.0.0.1:40123\tdevice\n`, {
        'sys.boot_completed': '1',
        'ro.product.model': 'Virtual Pixel 7',
      }).run,
    );
    expect(answer).toMatchObject({ ok: false, reason: 'virtual-device' });
  });

  it('a booted emulator passes with its release, API level and model', async () => {
    const { run, calls } = scripted(`${HEADER}emulator-5554\tdevice product:sdk model:sdk_gphone64\n`, {
      'sys.boot_completed': '1',
      'ro.product.model': 'sdk_gphone64_x86_64',
      'ro.build.version.release': '14',
      'ro.build.version.sdk': '34',
    });
    const answer = await preflight(env(), run);
    expect(answer).toMatchObject({
      ok: true,
      serial: 'emulator-5554',
      androidRelease: '14',
      sdk: '34',
      model: 'sdk_gphone64_x86_64',
    });
    expect(
      calls.slice(1).every((c) => c[0] === '-s' && c[1] === 'emulator-5554' && c[2] === 'shell' && c[3] === 'getprop'),
    ).toBe(true);
  });

  it('adb that fails: adb-failed with its message and how to restart the server', async () => {
    const run: RunAdb = async () => ({
      stdout: '',
      stderr: 'error: cannot connect to daemon\n',
      exitCode: 1,
      timedOut: false,
    });
    const answer = await preflight(env(), run);
    expect(answer).toMatchObject({ ok: false, reason: 'adb-failed' });
    if (!answer.ok)
      expect(answer.message).toMatch(/exited with 1: error: cannot connect to daemon\. Restart the adb server/);
  });
});

describe('npm run verify:real without a device', () => {
  it('exits 2 within seconds with the reason on stderr, builds and writes nothing', async () => {
    const adbDir = fakeAdbDir(
      'if [ "$1" = devices ]; then printf "List of devices attached\\n\\n"; exit 0; fi; exit 1',
    );
    const outDir = join(mkdtempSync(join(tmpdir(), 'verify-real-out-')), 'report');
    dirs.push(dirname(outDir));
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${adbDir}:${dirname(process.execPath)}`,
      ANDROID_MCP_VERIFY_DIR: outDir,
    };
    delete childEnv.ANDROID_HOME;
    delete childEnv.ANDROID_SDK_ROOT;
    delete childEnv.ANDROID_UDID;
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', 'scripts/verify-real.ts'],
        { cwd: ROOT, env: childEnv, timeout: 30_000 },
        (error, stdout, stderr) => {
          done({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
        },
      );
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('verify:real: No real Android device emulator-5554: adb lists no device at all.');
    expect(result.stderr).toContain('nothing was built or run');
    expect(result.stdout).toBe('');
    expect(existsSync(outDir)).toBe(false);
  });
});

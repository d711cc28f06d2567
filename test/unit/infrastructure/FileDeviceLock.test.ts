import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeviceGate } from '../../../src/application/ownership/DeviceGate.js';
import { HarnessError } from '../../../src/domain/errors.js';
import {
  defaultLockDirectory,
  FileDeviceLock,
  lockDirectoriesToTidy,
  lockFileName,
  systemProcessProbe,
  type FileDeviceLockOptions,
  type ProcessProbe,
} from '../../../src/infrastructure/lock/FileDeviceLock.js';
import { FakeClock } from '../../support/FakeClock.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const dirs: string[] = [];

function lockDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'amh-lock-'));
  dirs.push(dir);
  return join(dir, 'locks');
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A probe under the test's control: which pids are alive and when they started. */
function probe(alive: Record<number, string | null>): ProcessProbe {
  return {
    isAlive: (pid) => Object.hasOwn(alive, pid),
    startTime: (pid) => alive[pid] ?? null,
  };
}

function lockOptions(pid: number, directory: string): FileDeviceLockOptions {
  return {
    directory,
    serial: '127.0.0.1:5555',
    logger: new RecordingLogger(),
    pid,
    hostname: 'testhost',
    probe: probe({ 1001: 's1001', 1002: 's1002', 1003: 's1003' }),
  };
}

function lockAs(pid: number, directory: string, options: Partial<FileDeviceLockOptions> = {}): FileDeviceLock {
  return new FileDeviceLock({ ...lockOptions(pid, directory), ...options });
}

function busyError(run: () => unknown): HarnessError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    return error as HarnessError;
  }
  throw new Error('expected EMULATOR_BUSY');
}

describe('FileDeviceLock', () => {
  it('refuses a second process with EMULATOR_BUSY naming the holder pid, its tool and operation', () => {
    const dir = lockDir();
    const first = lockAs(1001, dir);
    const second = lockAs(1002, dir);
    const release = first.hold({ tool: 'ui_tap', operationId: 'op-123', kind: 'operation' });
    const error = busyError(() => second.hold({ tool: 'ui_get_tree', operationId: 'op-9', kind: 'operation' }));
    expect(error.code).toBe('EMULATOR_BUSY');
    expect(error.message).toContain('pid 1001');
    expect(error.message).toContain('testhost');
    expect(error.message).toContain('ui_tap');
    expect(error.message).toContain('op-123');
    expect(error.message).toMatch(/no queue: retry/);
    expect(error.message).not.toContain(dir);
    release();
    expect(existsSync(first.path)).toBe(false);
    const again = second.hold({ tool: 'ui_get_tree', operationId: 'op-10', kind: 'operation' });
    expect(second.peek()?.pid).toBe(1002);
    again();
  });

  it('is re-entrant within a process: the file stays until the last hold is released, and tells what runs', () => {
    const dir = lockDir();
    const lock = lockAs(1001, dir);
    const other = lockAs(1002, dir);
    const operation = lock.hold({ tool: 'ui_session_open', operationId: 'op-1', kind: 'operation' });
    const session = lock.hold({ tool: 'an Appium session', operationId: 'opening', kind: 'session' });
    expect(lock.peek()?.activity).toMatchObject({ tool: 'ui_session_open', kind: 'operation' });
    operation();
    // The flow's session keeps the device between calls.
    expect(lock.peek()?.activity.kind).toBe('session');
    const error = busyError(() => other.hold({ tool: 'ui_tap', operationId: 'op-2', kind: 'operation' }));
    expect(error.message).toMatch(/keeps an Appium session open/);
    expect(error.message).toMatch(/ui_session_close/);
    const tap = lock.hold({ tool: 'ui_tap', operationId: 'op-3', kind: 'operation' });
    expect(lock.peek()?.activity).toMatchObject({ tool: 'ui_tap', operation_id: 'op-3' });
    tap();
    session();
    expect(existsSync(lock.path)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a session hold's record says until when its lease lasts, counted from the last change", () => {
    const dir = lockDir();
    let now = Date.parse('2026-12-07T10:00:00.000Z');
    const a = lockAs(1001, dir, { now: () => now });
    const op = a.hold({ tool: 'ui_session_open', operationId: 'op-1', kind: 'operation' });
    a.hold({ tool: 'an Appium session', operationId: 'opening', kind: 'session', leaseMs: 60_000 });
    expect(a.peek()?.activity.until).toBeNull();
    now += 5_000;
    op();
    expect(a.peek()?.activity).toMatchObject({ kind: 'session', until: '2026-12-07T10:01:05.000Z', yields: false });
    expect(
      busyError(() =>
        lockAs(1002, dir, { now: () => now }).hold({ tool: 'ui_tap', operationId: 'x', kind: 'operation' }),
      ).message,
    ).toMatch(/It lasts 60 s more unless that client uses it again/);
  });

  it('a kept session gives the device up when another process asks: the asker is told, the holder called back', async () => {
    const dir = lockDir();
    const a = lockAs(1001, dir);
    const asked: string[] = [];
    const op = a.hold({ tool: 'ui_tap', operationId: 'op-1', kind: 'operation' });
    const kept = a.hold({
      tool: 'an Appium session',
      operationId: 'opening',
      kind: 'session',
      leaseMs: 30_000,
      onAsked: () => asked.push('asked'),
    });
    // While a call runs, nothing yields: the ordinary refusal, no ask left.
    const during = busyError(() => lockAs(1002, dir).hold({ tool: 'ui_tap', operationId: 'x', kind: 'operation' }));
    expect(during.message).not.toMatch(/asked to give the device up/);
    expect(existsSync(`${a.path}.ask`)).toBe(false);
    op();
    expect(a.peek()?.activity.yields).toBe(true);
    const refused = busyError(() => lockAs(1002, dir).hold({ tool: 'ui_tap', operationId: 'y', kind: 'operation' }));
    expect(refused.message).toMatch(/has just been asked to give the device up/);
    expect(existsSync(`${a.path}.ask`)).toBe(true);
    await vi.waitFor(() => expect(asked).toEqual(['asked']), { timeout: 5_000 });
    expect(existsSync(`${a.path}.ask`)).toBe(false);
    // The kept session closes (WarmSession), its hold goes, and the asker takes the device.
    kept();
    const b = lockAs(1002, dir);
    const release = b.hold({ tool: 'ui_tap', operationId: 'z', kind: 'operation' });
    expect(b.peek()?.pid).toBe(1002);
    release();
  });

  it('release functions are idempotent: a late second call cannot free a later hold', () => {
    const dir = lockDir();
    const lock = lockAs(1001, dir);
    const first = lock.hold({ tool: 'a', operationId: '1', kind: 'operation' });
    first();
    const second = lock.hold({ tool: 'b', operationId: '2', kind: 'operation' });
    first();
    expect(lock.peek()?.activity.tool).toBe('b');
    second();
    expect(lock.peek()).toBeNull();
  });

  it('takes over a lock whose holder died', () => {
    const dir = lockDir();
    const dead = lockAs(1003, dir);
    dead.hold({ tool: 'ui_tap', operationId: 'op-dead', kind: 'operation' });
    const logger = new RecordingLogger();
    // 1003 is not alive for the newcomer.
    const newcomer = lockAs(1002, dir, { probe: probe({ 1002: 's1002' }), logger });
    const release = newcomer.hold({ tool: 'ui_get_tree', operationId: 'op-new', kind: 'operation' });
    expect(newcomer.peek()?.pid).toBe(1002);
    expect(logger.entries.some((e) => e.level === 'warn' && /stale/.test(e.message))).toBe(true);
    release();
  });

  it('takes over when the holder pid now belongs to a younger process (pid reuse)', () => {
    const dir = lockDir();
    lockAs(1001, dir).hold({ tool: 'ui_tap', operationId: 'op-old', kind: 'operation' });
    const newcomer = lockAs(1002, dir, { probe: probe({ 1001: 'a-later-start', 1002: 's1002' }) });
    const release = newcomer.hold({ tool: 'x', operationId: 'y', kind: 'operation' });
    expect(newcomer.peek()?.pid).toBe(1002);
    release();
  });

  it('treats a record of its own pid that it did not write as left by an earlier process', () => {
    const dir = lockDir();
    lockAs(1001, dir).hold({ tool: 'ui_tap', operationId: 'before-restart', kind: 'operation' });
    const restarted = lockAs(1001, dir);
    const release = restarted.hold({ tool: 'ui_tap', operationId: 'after-restart', kind: 'operation' });
    expect(restarted.peek()?.activity.operation_id).toBe('after-restart');
    release();
  });

  it('does not judge a holder on another host (shared lock directory): busy', () => {
    const dir = lockDir();
    lockAs(1003, dir, { hostname: 'elsewhere' }).hold({ tool: 'ui_tap', operationId: 'remote', kind: 'operation' });
    const local = lockAs(1002, dir, { probe: probe({ 1002: 's' }) });
    const error = busyError(() => local.hold({ tool: 't', operationId: 'o', kind: 'operation' }));
    expect(error.message).toContain('elsewhere');
  });

  it('an unreadable lock file is busy while fresh and garbage once old', () => {
    const dir = lockDir();
    const lock = lockAs(1002, dir);
    lock.hold({ tool: 't', operationId: 'o', kind: 'operation' })();
    writeFileSync(lock.path, '{"pid": 10');
    expect(busyError(() => lock.hold({ tool: 't', operationId: 'o', kind: 'operation' })).code).toBe('EMULATOR_BUSY');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock.path, old, old);
    const release = lock.hold({ tool: 't', operationId: 'o2', kind: 'operation' });
    expect(lock.peek()?.pid).toBe(1002);
    release();
  });

  it('a takeover mutex left by a process that died inside it does not block forever', () => {
    const dir = lockDir();
    lockAs(1003, dir).hold({ tool: 'ui_tap', operationId: 'dead', kind: 'operation' });
    const newcomer = lockAs(1002, dir, { probe: probe({ 1002: 's' }) });
    writeFileSync(`${newcomer.path}.takeover`, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${newcomer.path}.takeover`, old, old);
    const release = newcomer.hold({ tool: 't', operationId: 'o', kind: 'operation' });
    expect(newcomer.peek()?.pid).toBe(1002);
    release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('sanitises the serial into a file name and keeps look-alike serials apart', () => {
    expect(lockFileName('127.0.0.1:5555')).toMatch(/^127\.0\.0\.1_5555-[0-9a-f]{8}\.lock$/);
    expect(lockFileName('../../etc/passwd')).not.toContain('/');
    expect(lockFileName('a:b')).not.toBe(lockFileName('a_b'));
  });

  it('lives under ANDROID_MCP_LOCK_DIR, else XDG_RUNTIME_DIR, else a per-user tmp directory', () => {
    expect(defaultLockDirectory({ ANDROID_MCP_LOCK_DIR: '/x/locks' })).toBe('/x/locks');
    expect(defaultLockDirectory({ XDG_RUNTIME_DIR: '/run/user/1000' })).toBe(
      '/run/user/1000/android-mcp-harness/locks',
    );
    expect(defaultLockDirectory({})).toMatch(/android-mcp-harness-[^/]+\/locks$/);
  });

  it('at exit the last process removes the lock directories it made up, never one the user named or one still in use', () => {
    expect(lockDirectoriesToTidy({ ANDROID_MCP_LOCK_DIR: '/x/locks' })).toEqual([]);
    expect(lockDirectoriesToTidy({ XDG_RUNTIME_DIR: '/run/user/1000' })).toEqual([
      '/run/user/1000/android-mcp-harness/locks',
      '/run/user/1000/android-mcp-harness',
    ]);
    const locks = lockDir();
    const parent = dirname(locks);
    const tidy = [locks, parent];
    const first = lockAs(1001, locks, { removeWhenEmpty: tidy });
    const second = new FileDeviceLock({ ...lockOptions(1002, locks), serial: 'emulator-5556', removeWhenEmpty: tidy });
    first.hold({ tool: 'ui_tap', operationId: 'op-1', kind: 'operation' });
    second.hold({ tool: 'ui_tap', operationId: 'op-2', kind: 'operation' });
    // Another device's lock is still there: the directory stays.
    first.releaseAll();
    expect(readdirSync(locks)).toEqual([lockFileName('emulator-5556')]);
    second.releaseAll();
    expect(existsSync(parent)).toBe(false);
    // A process that still runs makes the directory again on its next hold.
    const release = first.hold({ tool: 'ui_tap', operationId: 'op-3', kind: 'operation' });
    expect(readdirSync(locks)).toEqual([lockFileName('127.0.0.1:5555')]);
    release();
  });

  it('an unusable lock directory is a typed error without the host path', () => {
    if (process.getuid?.() === 0) {
      // root ignores permissions; a file where the directory should be fails for everyone.
      const parent = lockDir();
      writeFileSync(dirname(parent) + '/locks', 'not a directory');
    } else {
      const parent = dirname(lockDir());
      chmodSync(parent, 0o500);
    }
    const dir = join(dirs[dirs.length - 1] as string, 'locks');
    const lock = lockAs(1001, dir);
    const error = busyError(() => lock.hold({ tool: 't', operationId: 'o', kind: 'operation' }));
    expect(error.code).toBe('EMULATOR_UNAVAILABLE');
    expect(error.message).toMatch(/ANDROID_MCP_LOCK_DIR/);
    expect(error.message).not.toContain(dir);
    chmodSync(dirname(dir), 0o700);
  });

  it('the DeviceGate takes the cross-process lock after its own gate and gives both back', async () => {
    const dir = lockDir();
    const mine = lockAs(1001, dir);
    const theirs = lockAs(1002, dir);
    const gate = new DeviceGate(new FakeClock(), mine);
    let inside = false;
    await gate.run('ui_tap', 'op-1', async () => {
      inside = true;
      expect(busyError(() => theirs.hold({ tool: 'x', operationId: 'y', kind: 'operation' })).message).toContain(
        'ui_tap',
      );
    });
    expect(inside).toBe(true);
    expect(mine.peek()).toBeNull();
    // Busy elsewhere: the gate refuses and is not left held.
    const release = theirs.hold({ tool: 'ui_scroll', operationId: 'op-2', kind: 'operation' });
    expect(busyError(() => gate.acquire('ui_get_tree', 'op-3')).message).toContain('pid 1002');
    expect(gate.isHeld).toBe(false);
    release();
    gate.acquire('ui_get_tree', 'op-4')();
  });

  it('the real probe: this process is alive, a reaped child is not', () => {
    expect(systemProcessProbe.isAlive(process.pid)).toBe(true);
    const child = spawnSync(process.execPath, ['-e', '0']);
    expect(systemProcessProbe.isAlive(child.pid as number)).toBe(false);
    if (existsSync('/proc/self/stat')) expect(systemProcessProbe.startTime(process.pid)).toMatch(/^\d+$/);
  });

  it('real processes: 6 contenders × 150 rounds, two of them SIGKILLed while holding, never two inside', async () => {
    const dir = lockDir();
    const occupancy = join(dirname(dir), 'occupied');
    const contender = join(REPO, 'test', 'support', 'lockContender.ts');
    const startAt = Date.now() + 2_500;
    const runs = Array.from(
      { length: 6 },
      (_, index) =>
        new Promise<{ code: number | null; signal: string | null; out: string; err: string }>((done) => {
          const child = spawn(
            process.execPath,
            [
              '--import',
              'tsx',
              contender,
              dir,
              '127.0.0.1:5555',
              '150',
              occupancy,
              index < 2 ? String(20 + index * 15) : '-1',
              String(startAt),
            ],
            { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
          );
          let out = '';
          let err = '';
          child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
          child.on('close', (code, signal) => done({ code, signal, out, err }));
        }),
    );
    const results = await Promise.all(runs);
    const killed = results.filter((r) => r.signal === 'SIGKILL');
    const finished = results
      .filter((r) => r.code === 0)
      .map((r) => JSON.parse(r.out) as { held: number; busy: number; violations: number; takeovers: number });
    expect(killed.length, results.map((r) => r.err).join('\n')).toBe(2);
    expect(finished).toHaveLength(4);
    expect(finished.reduce((n, r) => n + r.violations, 0)).toBe(0);
    expect(finished.reduce((n, r) => n + r.held, 0)).toBeGreaterThan(50);
    expect(finished.reduce((n, r) => n + r.busy, 0)).toBeGreaterThan(0);
    // The locks the killed contenders left were recovered by someone.
    expect(finished.reduce((n, r) => n + r.takeovers, 0)).toBeGreaterThanOrEqual(1);
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);
});

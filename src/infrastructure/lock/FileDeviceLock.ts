/**
 * The cross-process device lock as a file: `<dir>/<identity>.lock`, holding one JSON record
 * {pid, hostname, nonce, process_start, acquired_at, activity}. Every harness process on the
 * machine that drives the same device meets at the same file, whichever of its serials it uses:
 * the name is the device's identity (src/domain/devices/identity.ts), not the serial.
 *
 * - Taking it is atomic and never shows a half-written record: the record is written to a
 *   private temporary file first, then hard-linked to the lock name (`link` fails with EEXIST
 *   when the lock exists; it is the classic exclusive create that also works on NFS).
 * - A holder that died (SIGKILL, crash, power loss) leaves its file behind; staleLock.ts says when
 *   a lock is stale and takes it over so that two processes that both see it cannot both win.
 * - Released by the last hold of the process, and at process exit (synchronously).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, rmdirSync, writeFileSync } from 'node:fs';
import { hostname as osHostname } from 'node:os';
import { join } from 'node:path';
import type { DeviceLock, DeviceLockActivity, Logger } from '../../domain/ports.js';
import { LockFile } from './lockFile.js';
import { lockFileName } from './lockLocation.js';
import { busy, type LockRecord } from './lockRecord.js';
import { systemProcessProbe, type ProcessProbe } from './processProbe.js';
import { staleness, takeOver } from './staleLock.js';

// The lock's public face: the container, the adb adapter and the tests import from here.
export { defaultLockDirectory, lockDirectoriesToTidy, lockFileName } from './lockLocation.js';
export type { LockRecord } from './lockRecord.js';
export { systemProcessProbe, type ProcessProbe } from './processProbe.js';

export interface FileDeviceLockOptions {
  /** Directory shared by every harness process of this user (see defaultLockDirectory). */
  readonly directory: string;
  /**
   * The device's identity key (`avd:Pixel_7`, `serialno:R58M…`, `serial:emulator-5554`). Named `serial` because the
   * lock was keyed by the serial before one device could be reached under several serials.
   */
  readonly serial: string;
  readonly logger: Logger;
  /** Defaults to this process. */
  readonly pid?: number;
  readonly hostname?: string;
  readonly probe?: ProcessProbe;
  /** Wall-clock time (ms since epoch); defaults to Date.now. Only used for records and staleness of corrupt files. */
  readonly now?: () => number;
  /** Remove the lock when the process exits (the server sets it; tests with many instances do not). */
  readonly releaseOnExit?: boolean;
  /**
   * Directories this process may remove at exit when they are empty, innermost first (the default
   * lock directory and its parent, never one the user named): nothing of ours stays in the temp
   * directory after the last process ends. See lockDirectoriesToTidy.
   */
  readonly removeWhenEmpty?: readonly string[];
}

const ACQUIRE_ATTEMPTS = 4;
/** How often a holder whose only hold is a kept session looks for another process's ask. */
const ASK_POLL_MS = 500;

interface Hold {
  readonly activity: DeviceLockActivity;
  readonly sinceMs: number;
}

export class FileDeviceLock implements DeviceLock {
  readonly path: string;
  private readonly file: LockFile;
  private readonly pid: number;
  private readonly hostname: string;
  private readonly probe: ProcessProbe;
  private readonly now: () => number;
  private readonly holds = new Map<symbol, Hold>();
  /** The record this process wrote, while it owns the lock. */
  private owned: LockRecord | null = null;
  /** `<lock>.ask`: another process wants the device; a holder that yields (the kept session) gives it up. */
  private readonly askPath: string;
  private askPoll: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly options: FileDeviceLockOptions) {
    this.path = join(options.directory, lockFileName(options.serial));
    this.askPath = `${this.path}.ask`;
    this.pid = options.pid ?? process.pid;
    this.hostname = options.hostname ?? osHostname();
    this.probe = options.probe ?? systemProcessProbe;
    this.now = options.now ?? Date.now;
    this.file = new LockFile(this.path, options.directory, this.pid, this.now, options.logger);
    if (options.releaseOnExit) process.once('exit', () => this.releaseAll());
  }

  /** True while this process owns the lock file. */
  get isOwned(): boolean {
    return this.owned !== null;
  }

  hold(activity: DeviceLockActivity): () => void {
    const token = Symbol(activity.tool);
    const hold: Hold = { activity, sinceMs: this.now() };
    // For a fresh acquisition: the wall-clock ms right after the lock file appeared (the window's true start).
    let atMs = hold.sinceMs;
    if (this.owned && this.stillOurs()) {
      this.holds.set(token, hold);
      this.rewrite();
    } else {
      this.owned = null;
      atMs = this.acquire(hold);
      this.holds.set(token, hold);
    }
    this.options.logger.debug('device lock held', {
      pid: this.pid,
      tool: activity.tool,
      operation_id: activity.operationId,
      kind: activity.kind,
      at_ms: atMs,
      holds: this.holds.size,
    });
    this.watchForAsks();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(token);
      this.watchForAsks();
    };
  }

  /** Polls for an ask while this process owns the lock with a hold that yields; stops otherwise. */
  private watchForAsks(): void {
    const wanted = this.owned !== null && [...this.holds.values()].some((hold) => hold.activity.onAsked);
    if (wanted && this.askPoll === null) {
      this.askPoll = setInterval(() => this.answerAsk(), ASK_POLL_MS);
      this.askPoll.unref();
    } else if (!wanted && this.askPoll !== null) {
      clearInterval(this.askPoll);
      this.askPoll = null;
    }
  }

  /** Another process asked: the holds that yield give the device up, unless a call runs now (it asks again). */
  private answerAsk(): void {
    if (!existsSync(this.askPath)) return;
    this.file.unlinkQuietly(this.askPath);
    if (!this.yields()) return;
    this.options.logger.info('another process asked for the device; giving up the kept session', { pid: this.pid });
    for (const hold of [...this.holds.values()]) hold.activity.onAsked?.();
  }

  /** True when every hold gives way on request (only a kept session, no call running). */
  private yields(): boolean {
    const all = [...this.holds.values()];
    return all.length > 0 && all.every((hold) => hold.activity.onAsked !== undefined);
  }

  /** Leaves the ask for the holder (exclusive create: many askers, one file). */
  private ask(): void {
    try {
      writeFileSync(this.askPath, String(this.pid), { flag: 'wx', mode: 0o600 });
    } catch {
      // Already asked, or the directory refused it: the holder's lease still ends it.
    }
  }

  /** Gives the lock back whatever holds remain (process exit). */
  releaseAll(): void {
    this.holds.clear();
    this.watchForAsks();
    this.removeIfOurs();
    for (const directory of this.options.removeWhenEmpty ?? []) {
      try {
        // rmdir only removes an empty directory: another process's lock keeps it (and its parent).
        rmdirSync(directory);
      } catch {
        break;
      }
    }
  }

  /** The record in the lock file now, if any (for tests and diagnostics). */
  peek(): LockRecord | null {
    const reading = this.file.read();
    return reading.kind === 'record' ? reading.record : null;
  }

  private release(token: symbol): void {
    const hold = this.holds.get(token);
    if (!hold) return;
    this.holds.delete(token);
    // For the last hold: the wall-clock ms right before the lock file goes (the window's true end).
    let atMs = this.now();
    if (this.holds.size === 0) atMs = this.removeIfOurs() ?? atMs;
    else if (this.owned) this.rewrite();
    this.options.logger.debug('device lock released', {
      pid: this.pid,
      tool: hold.activity.tool,
      operation_id: hold.activity.operationId,
      kind: hold.activity.kind,
      at_ms: atMs,
      holds: this.holds.size,
    });
  }

  /** Takes the lock file or throws EMULATOR_BUSY; returns the wall-clock ms right after it was taken. */
  private acquire(first: Hold): number {
    this.file.ensureDirectory();
    for (let attempt = 0; attempt < ACQUIRE_ATTEMPTS; attempt += 1) {
      const record = this.recordFor(first, this.now());
      if (this.file.createExclusive(record)) {
        this.owned = record;
        // An ask left for the previous holder is not meant for us.
        this.file.unlinkQuietly(this.askPath);
        return this.now();
      }
      const reading = this.file.read();
      if (reading.kind === 'absent') continue; // released between our attempt and the read: try again
      const stale = staleness(
        reading,
        { pid: this.pid, hostname: this.hostname, ownedNonce: this.owned?.nonce },
        this.probe,
      );
      if (stale === null) {
        if (reading.kind === 'record' && reading.record.activity.yields === true) this.ask();
        throw busy(reading.kind === 'record' ? reading.record : null, this.now());
      }
      this.options.logger.warn('taking over a stale device lock', {
        reason: stale,
        holder_pid: reading.kind === 'record' ? reading.record.pid : null,
      });
      takeOver(this.file, reading);
    }
    const last = this.file.read();
    throw busy(last.kind === 'record' ? last.record : null, this.now());
  }

  /** Replaces our own record with one describing the current holds (atomic rename over it). */
  private rewrite(): void {
    const owned = this.owned;
    const current = this.describedHold();
    if (!owned || !current) return;
    const record: LockRecord = { ...owned, activity: this.activityOf(current, this.now()) };
    if (this.file.replace(record)) this.owned = record;
  }

  /** The hold the record shows: the latest running operation, else the latest session. */
  private describedHold(): Hold | undefined {
    const all = [...this.holds.values()];
    return all.reverse().find((hold) => hold.activity.kind === 'operation') ?? all[0];
  }

  private stillOurs(): boolean {
    const reading = this.file.read();
    return reading.kind === 'record' && reading.record.nonce === this.owned?.nonce;
  }

  /** Removes our lock file; returns the wall-clock ms right before it went (null when it was not ours). */
  private removeIfOurs(): number | null {
    const owned = this.owned;
    this.owned = null;
    if (!owned) return null;
    const reading = this.file.read();
    if (reading.kind !== 'record' || reading.record.nonce !== owned.nonce) return null;
    const atMs = this.now();
    this.file.unlinkQuietly(this.path);
    return atMs;
  }

  private recordFor(hold: Hold, nowMs: number): LockRecord {
    return {
      version: 1,
      pid: this.pid,
      hostname: this.hostname,
      nonce: randomBytes(12).toString('hex'),
      process_start: this.probe.startTime(this.pid),
      acquired_at: new Date(nowMs).toISOString(),
      activity: this.activityOf(hold, nowMs),
    };
  }

  /** The record's account of a hold; a session's `until` counts its lease from now, the last change. */
  private activityOf(hold: Hold, nowMs: number): LockRecord['activity'] {
    const { leaseMs } = hold.activity;
    return {
      tool: hold.activity.tool,
      operation_id: hold.activity.operationId,
      kind: hold.activity.kind,
      since: new Date(hold.sinceMs).toISOString(),
      until: hold.activity.kind === 'session' && leaseMs !== undefined ? new Date(nowMs + leaseMs).toISOString() : null,
      yields: this.yields() || (this.holds.size === 0 && hold.activity.onAsked !== undefined),
    };
  }
}

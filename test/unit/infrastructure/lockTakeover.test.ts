/**
 * The takeover of a stale lock, on a real lock file in a temp directory: what a second taker can change
 * between the read that found the lock stale and the re-read under the takeover mutex. The unit tests of
 * FileDeviceLock run one taker at a time, so only these tell "removed only if still that stale record"
 * from "removed" (mutation testing found them unwatched: docs/internals/verification.md, "Mutation testing").
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockFile } from '../../../src/infrastructure/lock/lockFile.js';
import type { LockRecord, Reading } from '../../../src/infrastructure/lock/lockRecord.js';
import { takeOver } from '../../../src/infrastructure/lock/staleLock.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';

/** The takeover mutex's staleness bound (staleLock.ts): a mutex this old or younger is another taker's. */
const MUTEX_STALE_MS = 5_000;
/** A whole second, so the file system's mtime holds it exactly. */
const NOW_S = 1_800_000_000;

let dir: string;
let now: number;
let file: LockFile;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'amh-takeover-'));
  now = NOW_S * 1000;
  file = new LockFile(join(dir, 'device.lock'), dir, 100, () => now, new RecordingLogger());
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function record(nonce: string): LockRecord {
  return {
    version: 1,
    pid: 200,
    hostname: 'build-1',
    nonce,
    process_start: '4242',
    acquired_at: '2026-12-07T10:00:00.000Z',
    activity: { tool: 'ui_tap', operation_id: 'op', kind: 'operation', since: '2026-12-07T10:00:00.000Z' },
  };
}

const seenRecord = (nonce: string): Reading => ({ kind: 'record', record: record(nonce) });
const seenCorrupt: Reading = { kind: 'corrupt', ageMs: 10_000 };
const writeRecord = (nonce: string): void => writeFileSync(file.path, `${JSON.stringify(record(nonce))}\n`);
const writeCorrupt = (): void => writeFileSync(file.path, '{"pid": 20');
const mutex = (): string => `${file.path}.takeover`;

describe('takeOver: removed only if it is still the stale record that was seen', () => {
  it('the same record: removed, and the mutex with it', () => {
    writeRecord('stale');
    takeOver(file, seenRecord('stale'));
    expect(existsSync(file.path)).toBe(false);
    expect(existsSync(mutex())).toBe(false);
  });

  it('another taker already replaced it with its own record: kept', () => {
    writeRecord('new-owner');
    takeOver(file, seenRecord('stale'));
    expect(JSON.parse(readFileSync(file.path, 'utf8'))).toMatchObject({ nonce: 'new-owner' });
    expect(existsSync(mutex())).toBe(false);
  });

  it('a corrupt file still corrupt: removed; a corrupt file now a record, or a record now corrupt: kept', () => {
    writeCorrupt();
    takeOver(file, seenCorrupt);
    expect(existsSync(file.path)).toBe(false);

    writeRecord('new-owner');
    takeOver(file, seenCorrupt);
    expect(existsSync(file.path)).toBe(true);

    writeCorrupt();
    takeOver(file, seenRecord('stale'));
    expect(readFileSync(file.path, 'utf8')).toBe('{"pid": 20');
  });

  it('gone already (released or taken over by another): nothing to remove, nothing thrown', () => {
    takeOver(file, seenRecord('stale'));
    expect(existsSync(file.path)).toBe(false);
    expect(existsSync(mutex())).toBe(false);
  });
});

describe('takeOver: the mutex', () => {
  it('held by another taker (up to exactly 5 s old): the lock is left to it, and so is its mutex', () => {
    writeRecord('stale');
    writeFileSync(mutex(), '');
    utimesSync(mutex(), NOW_S, NOW_S);
    now = NOW_S * 1000 + MUTEX_STALE_MS;
    takeOver(file, seenRecord('stale'));
    expect(existsSync(file.path)).toBe(true);
    expect(existsSync(mutex())).toBe(true);
  });

  it('older than 5 s (its taker died holding it): removed, then the takeover goes on', () => {
    writeRecord('stale');
    writeFileSync(mutex(), '');
    utimesSync(mutex(), NOW_S, NOW_S);
    now = NOW_S * 1000 + MUTEX_STALE_MS + 1;
    takeOver(file, seenRecord('stale'));
    expect(existsSync(file.path)).toBe(false);
    expect(existsSync(mutex())).toBe(false);
  });

  it('a mutex that cannot be made for another reason than EEXIST: the lock is unusable, said with what to do', () => {
    const gone = new LockFile(
      join(dir, 'missing', 'device.lock'),
      join(dir, 'missing'),
      100,
      () => now,
      new RecordingLogger(),
    );
    expect(() => takeOver(gone, seenRecord('stale'))).toThrow(
      /^The cross-process device lock could not be used \(ENOENT\)\. Make the lock directory writable/,
    );
  });
});

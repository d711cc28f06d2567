/**
 * A holder that died (SIGKILL, crash, power loss) leaves its lock file behind. It is stale when its
 * pid is gone, is a zombie, or now belongs to a younger process (Linux: the start time in
 * /proc/<pid>/stat no longer matches the one recorded). A stale lock is taken over under a
 * short-lived takeover mutex, so two processes that both see the same stale lock cannot both win:
 * inside the mutex the lock is re-read and removed only if it is still that stale record.
 */
import type { LockFile } from './lockFile.js';
import type { Reading } from './lockRecord.js';
import type { ProcessProbe } from './processProbe.js';

/** A lock file that cannot be parsed is garbage once it is this old (a record is never written in place). */
const CORRUPT_GRACE_MS = 2_000;
/** A takeover mutex older than this was left by a process that died inside the few microseconds it is held. */
const TAKEOVER_MUTEX_STALE_MS = 5_000;

/** The process asking, as the lock sees it. */
export interface Asker {
  readonly pid: number;
  readonly hostname: string;
  /** The nonce of the record it wrote, while it owns the lock. */
  readonly ownedNonce: string | undefined;
}

/** Why the lock in `reading` is stale, or null when its holder may still be alive. */
export function staleness(reading: Reading, asker: Asker, probe: ProcessProbe): string | null {
  if (reading.kind === 'absent') return null;
  if (reading.kind === 'corrupt') return reading.ageMs > CORRUPT_GRACE_MS ? 'unreadable record' : null;
  const record = reading.record;
  // A pid on another host (a lock directory on a shared file system) cannot be checked: assume alive.
  if (record.hostname !== asker.hostname) return null;
  if (record.pid === asker.pid)
    return asker.ownedNonce === record.nonce ? null : 'left by an earlier process with this pid';
  if (!probe.isAlive(record.pid)) return 'holder process is gone';
  if (record.process_start !== null) {
    const start = probe.startTime(record.pid);
    if (start !== null && start !== record.process_start) return 'holder pid now belongs to another process';
  }
  return null;
}

/** Removes the stale lock `seen`, but only if it is still exactly that record (under the takeover mutex). */
export function takeOver(file: LockFile, seen: Reading): void {
  const mutex = `${file.path}.takeover`;
  // Not created: another process is taking over right now; the next attempt sees its result.
  if (!file.createMutex(mutex, TAKEOVER_MUTEX_STALE_MS)) return;
  try {
    const current = file.read();
    const same =
      (seen.kind === 'record' && current.kind === 'record' && current.record.nonce === seen.record.nonce) ||
      (seen.kind === 'corrupt' && current.kind === 'corrupt');
    if (same) file.unlinkQuietly(file.path);
  } finally {
    file.unlinkQuietly(mutex);
  }
}

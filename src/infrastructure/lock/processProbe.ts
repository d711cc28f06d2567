/** How the lock sees other processes on this machine: alive or not, and when they started (to notice a reused pid). */
import { readFileSync } from 'node:fs';
import { systemErrorCode } from '../../domain/errors.js';

/** How the adapter sees other processes; replaceable in tests. */
export interface ProcessProbe {
  /** False when no process has this pid, or it is a zombie. */
  isAlive(pid: number): boolean;
  /** Start time of the process (Linux /proc), or null when unknown. */
  startTime(pid: number): string | null;
}

/** The real probe: signal 0 for existence, /proc for zombies and start times (Linux). */
export const systemProcessProbe: ProcessProbe = {
  isAlive(pid: number): boolean {
    if (!Number.isInteger(pid) || pid <= 0) return false;
    try {
      process.kill(pid, 0);
    } catch (error) {
      // EPERM: it exists but belongs to someone else; only ESRCH means gone.
      if (systemErrorCode(error) !== 'EPERM') return false;
    }
    const stat = readProcStat(pid);
    return stat === null || stat.state !== 'Z';
  },
  startTime(pid: number): string | null {
    return readProcStat(pid)?.startTime ?? null;
  },
};

function readProcStat(pid: number): { state: string; startTime: string } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // `pid (comm) state ppid …`: comm may contain spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : null;
}

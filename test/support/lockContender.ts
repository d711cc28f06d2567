/**
 * A process that competes for the file device lock (run with `node --import tsx`):
 *   lockContender.ts <lockDir> <serial> <rounds> <occupancyFile> <suicideRound|-1> <startAtEpochMs>
 * Each round it tries to hold the lock; when it gets it, it proves it is alone in the
 * critical section by creating <occupancyFile> exclusively (EEXIST while the writer is alive
 * is a mutual-exclusion violation), stays a moment, removes it, and releases. At the first
 * round from <suicideRound> on in which it holds the lock, it SIGKILLs itself while holding,
 * leaving a stale lock for the others. All contenders start at <startAtEpochMs> together.
 * Prints one JSON line: {pid, held, busy, violations, takeovers}.
 */
import { openSync, closeSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { HarnessError } from '../../src/domain/errors.js';
import { FileDeviceLock, systemProcessProbe } from '../../src/infrastructure/lock/FileDeviceLock.js';

const [directory, serial, roundsText, occupancy, suicideText, startAtText] = process.argv.slice(2);
const rounds = Number(roundsText);
const suicideRound = Number(suicideText);
let takeovers = 0;
const logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => {
    if (message.includes('stale')) takeovers += 1;
  },
  error: () => undefined,
};
const lock = new FileDeviceLock({ directory: directory as string, serial: serial as string, logger });
const busyWait = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // Spin: the lock is synchronous, so is this critical section.
  }
};

busyWait(Math.max(0, Number(startAtText) - Date.now()));
let held = 0;
let busy = 0;
let violations = 0;
for (let round = 0; round < rounds; round += 1) {
  let release: (() => void) | null;
  try {
    release = lock.hold({ tool: 'contender', operationId: `${process.pid}-${round}`, kind: 'operation' });
  } catch (error) {
    if (error instanceof HarnessError && error.code === 'EMULATOR_BUSY') {
      busy += 1;
      busyWait(Math.random() * 2);
      continue;
    }
    throw error;
  }
  held += 1;
  let fd: number;
  try {
    fd = openSync(occupancy as string, 'wx');
  } catch {
    // Left by a contender that died inside: fine only if that writer is gone (an empty file
    // means its writer is between create and write, so inside the section right now).
    const writer = Number(readFileSync(occupancy as string, 'utf8') || '0');
    if (!writer || systemProcessProbe.isAlive(writer)) violations += 1;
    unlinkSync(occupancy as string);
    fd = openSync(occupancy as string, 'wx');
  }
  writeSync(fd, String(process.pid));
  closeSync(fd);
  if (suicideRound >= 0 && round >= suicideRound) process.kill(process.pid, 'SIGKILL');
  busyWait(Math.random() * 3);
  try {
    unlinkSync(occupancy as string);
  } catch {
    // Someone else removed our marker: they were inside too.
    violations += 1;
  }
  release();
  busyWait(Math.random() * 2);
}
process.stdout.write(`${JSON.stringify({ pid: process.pid, held, busy, violations, takeovers })}\n`);

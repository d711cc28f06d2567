/**
 * `node --import tsx bench/tools/evidenceRetention.ts [--files=N] [--writes=N]`: what the evidence
 * retention bound costs an action, on this machine's file system (a temp directory), with the real
 * adapters. The directory is filled to the bound (default 500 files of 150 KB), then each write
 * removes the oldest. Prints, in ms (median and p90, nearest rank): one write's bound pass from the
 * index (`admitted`: a removal, no listing), the full listing it avoids (`list`, readdir + lstat of
 * every file), and a call's hold-board traffic (claim before the write, publish after the answer).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EvidenceHolds } from '../../src/application/evidence/EvidenceHolds.js';
import { EvidenceRetention } from '../../src/application/evidence/EvidenceRetention.js';
import { formatEvidenceName } from '../../src/domain/evidenceName.js';
import type { Logger } from '../../src/domain/ports.js';
import { SystemClock } from '../../src/infrastructure/clock/SystemClock.js';
import { FileEvidenceHoldBoard } from '../../src/infrastructure/fs/FileEvidenceHoldBoard.js';
import { FileEvidenceStore } from '../../src/infrastructure/fs/FileEvidenceStore.js';
import { median, p90, round } from '../lib/stats.js';

const numberFlag = (name: string, fallback: number): number => {
  const hit = process.argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? Number(hit.slice(name.length + 3)) : fallback;
};
const FILES = numberFlag('files', 500);
const WRITES = numberFlag('writes', 200);
const BYTES = 150 * 1024;

const quiet: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (m) => process.stderr.write(`${m}\n`),
  error: (m) => process.stderr.write(`${m}\n`),
};
const dir = mkdtempSync(join(tmpdir(), 'amh-bench-retention-'));
try {
  const store = new FileEvidenceStore(dir);
  const board = new FileEvidenceHoldBoard(dir);
  const clock = new SystemClock();
  const holds = new EvidenceHolds(() => false, board, quiet);
  const retention = new EvidenceRetention(store, holds, board, { maxFiles: FILES, maxBytes: null }, clock, quiet);
  const png = Buffer.alloc(BYTES, 7);
  let stamp = clock.epochMicros();
  const nextName = (): string => formatEvidenceName((stamp += 1), 'screen');
  for (let i = 0; i < FILES; i += 1) await store.createExclusive(nextName(), png);

  const pass: number[] = [];
  const listing: number[] = [];
  const boardTraffic: number[] = [];
  for (let i = 0; i < WRITES; i += 1) {
    const name = nextName();
    let claimMs = 0;
    let answeredAt = 0;
    await holds.during(undefined, async () => {
      const claimed = performance.now();
      await retention.claim(name);
      claimMs = performance.now() - claimed;
      await store.createExclusive(name, png);
      const admitted = performance.now();
      await retention.admitted(name, png.length);
      answeredAt = performance.now();
      pass.push(answeredAt - admitted);
    });
    // The claim's board write before the file, and the one after the answer (nothing held any more).
    boardTraffic.push(claimMs + (performance.now() - answeredAt));
    const listed = performance.now();
    await store.list();
    listing.push(performance.now() - listed);
  }
  const files = (await store.list()).length;
  const show = (label: string, samples: number[]): string =>
    `${label}: median ${round(median(samples), 3)} ms, p90 ${round(p90(samples), 3)} ms`;
  process.stdout.write(
    // stdout-ok
    [
      `evidence retention, ${FILES} files of ${BYTES / 1024} KB, ${WRITES} writes (each removes the oldest); ${files} files at the end`,
      show('bound pass from the index (admitted)', pass),
      show('a full listing (list: readdir + lstat)', listing),
      show('the hold board per call (claim + publish after the answer)', boardTraffic),
      '',
    ].join('\n'),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

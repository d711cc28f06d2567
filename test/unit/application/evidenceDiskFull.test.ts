/**
 * At the adapter level, for machines where no small file system can be mounted:
 * the real FileEvidenceStore over a directory whose writes fail with ENOSPC or EROFS (a
 * scripted fs handle), through the EvidenceWriter: EVIDENCE_WRITE_FAILED with the remedy,
 * no partial file left behind.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EvidenceWriter } from '../../../src/application/evidence/EvidenceWriter.js';
import { HarnessError } from '../../../src/domain/errors.js';
import { FileEvidenceStore } from '../../../src/infrastructure/fs/FileEvidenceStore.js';
import { PngImageTools } from '../../../src/infrastructure/png/PngImageTools.js';
import { FakeClock } from '../../support/FakeClock.js';
import { makePng } from '../../support/fakes/images.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('evidence when the disk fills or turns read-only mid-write', () => {
  for (const [code, remedy] of [
    ['ENOSPC', /disk is full/],
    ['EROFS', /not writable/],
  ] as const) {
    it(`${code}: EVIDENCE_WRITE_FAILED with the remedy, and the half-written file is removed`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'amh-full-'));
      dirs.push(dir);
      const realOpen = fs.open.bind(fs);
      vi.spyOn(fs, 'open').mockImplementation(async (...args: Parameters<typeof fs.open>) => {
        const handle = await realOpen(...args);
        // The file exists (created exclusively); the write then fails as a full disk makes it.
        vi.spyOn(handle, 'writeFile').mockRejectedValue(Object.assign(new Error(`${code}: write failed`), { code }));
        return handle;
      });
      const writer = new EvidenceWriter(
        new FileEvidenceStore(dir),
        new PngImageTools(),
        new FakeClock(),
        new RecordingLogger(),
      );
      const error = await writer.write('screen', makePng(40, 80)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HarnessError);
      expect((error as HarnessError).code).toBe('EVIDENCE_WRITE_FAILED');
      expect((error as HarnessError).message).toMatch(remedy);
      expect((error as HarnessError).message).not.toContain(dir);
      expect(readdirSync(dir)).toEqual([]);
    });
  }
});

describe('evidence when a file stands where the directory should be', () => {
  for (const [where, sub] of [
    ['the directory itself is a file (mkdir: EEXIST)', ''],
    ['a parent of the directory is a file (mkdir: ENOTDIR)', 'inside'],
  ] as const) {
    it(`${where}: EVIDENCE_WRITE_FAILED naming the cause and the fix at once, not a thousand name retries`, async () => {
      const scratch = mkdtempSync(join(tmpdir(), 'amh-blocked-'));
      dirs.push(scratch);
      const file = join(scratch, 'artifacts');
      await fs.writeFile(file, 'not a directory');
      const open = vi.spyOn(fs, 'open');
      const writer = new EvidenceWriter(
        new FileEvidenceStore(sub === '' ? file : join(file, sub)),
        new PngImageTools(),
        new FakeClock(),
        new RecordingLogger(),
      );
      const error = await writer.write('screen', makePng(40, 80)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HarnessError);
      expect((error as HarnessError).code).toBe('EVIDENCE_WRITE_FAILED');
      expect((error as HarnessError).message).toMatch(/\(ENOTDIR\)/);
      expect((error as HarnessError).message).toMatch(/EEXIST or ENOTDIR/);
      expect((error as HarnessError).message).toMatch(
        /move that file away, or point ANDROID_MCP_ARTIFACTS_DIR at a directory/,
      );
      expect((error as HarnessError).message).not.toMatch(/many attempts/);
      expect((error as HarnessError).message).not.toContain(scratch);
      // Nothing was opened: the directory failed first, and no second name was tried.
      expect(open).not.toHaveBeenCalled();
    });
  }
});

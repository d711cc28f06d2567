import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileEvidenceHoldBoard, HOLD_BOARD_FOLDER } from '../../../src/infrastructure/fs/FileEvidenceHoldBoard.js';
import { FileEvidenceStore } from '../../../src/infrastructure/fs/FileEvidenceStore.js';
import type { ProcessProbe } from '../../../src/infrastructure/lock/FileDeviceLock.js';

let root: string;
let dir: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'evidence-holds-'));
  dir = path.join(root, 'artifacts');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const A = '20261130-171203-000001-screen.png';
const B = '20261130-171203-000002-ui-tap.png';
const C = '20261130-171203-000003-failure-ui-tap.png';

/** Processes as a test says they are: alive or not, and with which start time. */
class ScriptedProbe implements ProcessProbe {
  readonly dead = new Set<number>();
  readonly starts = new Map<number, string>();
  isAlive(pid: number): boolean {
    return !this.dead.has(pid);
  }
  startTime(pid: number): string | null {
    return this.starts.get(pid) ?? null;
  }
}

const entries = (): string[] => readdirSync(path.join(dir, HOLD_BOARD_FOLDER)).sort();

describe('FileEvidenceHoldBoard', () => {
  it('shows each board what the others hold, never its own; an empty publish removes the entry', async () => {
    const probe = new ScriptedProbe();
    const mine = new FileEvidenceHoldBoard(dir, 101, probe);
    const theirs = new FileEvidenceHoldBoard(dir, 202, probe);
    expect(await mine.heldByOthers()).toEqual(new Set());
    await mine.publish([A]);
    await theirs.publish([B, C]);
    expect(await mine.heldByOthers()).toEqual(new Set([B, C]));
    expect(await theirs.heldByOthers()).toEqual(new Set([A]));
    expect(entries()).toHaveLength(2);
    await theirs.publish([]);
    expect(await mine.heldByOthers()).toEqual(new Set());
    expect(entries()).toHaveLength(1);
  });

  it('two boards of one process (two servers in it) are two entries', async () => {
    const probe = new ScriptedProbe();
    const first = new FileEvidenceHoldBoard(dir, 7, probe);
    const second = new FileEvidenceHoldBoard(dir, 7, probe);
    await first.publish([A]);
    expect(await second.heldByOthers()).toEqual(new Set([A]));
  });

  it('forgets and removes the entry of a process that is gone, or whose pid now is another process', async () => {
    const probe = new ScriptedProbe();
    probe.starts.set(303, 'start-1').set(404, 'start-1');
    const reader = new FileEvidenceHoldBoard(dir, 101, probe);
    await new FileEvidenceHoldBoard(dir, 303, probe).publish([A]);
    await new FileEvidenceHoldBoard(dir, 404, probe).publish([B]);
    expect(await reader.heldByOthers()).toEqual(new Set([A, B]));
    probe.dead.add(303);
    probe.starts.set(404, 'start-2');
    expect(await reader.heldByOthers()).toEqual(new Set());
    expect(entries()).toEqual([]);
  });

  it('ignores what is not an entry, and ids that are not evidence ids inside one', async () => {
    const probe = new ScriptedProbe();
    const reader = new FileEvidenceHoldBoard(dir, 101, probe);
    const folder = path.join(dir, HOLD_BOARD_FOLDER);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'notes.txt'), 'hello');
    writeFileSync(path.join(folder, '505-abcdefghij.json'), '{not json');
    writeFileSync(
      path.join(folder, '606-abcdefghij.json'),
      JSON.stringify({ pid: 606, start: null, held: ['../../etc/passwd', A] }),
    );
    writeFileSync(path.join(folder, '707-abcdefghij.json.tmp'), JSON.stringify({ pid: 707, start: null, held: [B] }));
    expect(await reader.heldByOthers()).toEqual(new Set([A]));
  });

  it('a real process: its entry counts while it lives and is tidied once it has exited', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const pid = child.pid as number;
      await new FileEvidenceHoldBoard(dir, pid).publish([C]);
      const reader = new FileEvidenceHoldBoard(dir);
      expect(await reader.heldByOthers()).toEqual(new Set([C]));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      expect(await reader.heldByOthers()).toEqual(new Set());
      expect(entries()).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('FileEvidenceStore as the evidence directory', () => {
  it('lists only regular files named as evidence ids, with their sizes; [] before the directory exists', async () => {
    const store = new FileEvidenceStore(dir);
    expect(await store.list()).toEqual([]);
    await store.createExclusive(A, Buffer.alloc(10));
    await store.createExclusive(B, Buffer.alloc(25));
    writeFileSync(path.join(dir, 'notes.png'), 'x');
    writeFileSync(path.join(root, 'outside.png'), 'x');
    symlinkSync(path.join(root, 'outside.png'), path.join(dir, C));
    mkdirSync(path.join(dir, HOLD_BOARD_FOLDER));
    mkdirSync(path.join(dir, '20261130-171203-000009-screen.png'));
    expect((await store.list()).sort((x, y) => x.name.localeCompare(y.name))).toEqual([
      { name: A, bytes: 10 },
      { name: B, bytes: 25 },
    ]);
  });

  it('removes an evidence file, says false when it was gone, and refuses any other name', async () => {
    const store = new FileEvidenceStore(dir);
    await store.createExclusive(A, Buffer.alloc(1));
    expect(await store.remove(A)).toBe(true);
    expect(await store.remove(A)).toBe(false);
    for (const name of ['notes.png', '../outside.png', `../artifacts/${A}`, HOLD_BOARD_FOLDER]) {
      await expect(store.remove(name)).rejects.toMatchObject({ code: 'EINVAL' });
    }
  });
});

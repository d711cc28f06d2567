import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileEvidenceStore } from '../../../src/infrastructure/fs/FileEvidenceStore.js';

let root: string;
let dir: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'evidence-'));
  dir = path.join(root, 'artifacts');
  writeFileSync(path.join(root, 'CANARY.txt'), 'secret outside artifacts');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const NAME = '20261130-171203-482911-screen.png';

describe('FileEvidenceStore', () => {
  it('creates the directory lazily and writes the bytes', async () => {
    const store = new FileEvidenceStore(dir);
    await store.createExclusive(NAME, Buffer.from('png bytes'));
    expect(readFileSync(path.join(dir, NAME), 'utf8')).toBe('png bytes');
    expect(await store.read(NAME)).toEqual(Buffer.from('png bytes'));
  });

  it('never overwrites: a second create of the same name fails with EEXIST', async () => {
    const store = new FileEvidenceStore(dir);
    await store.createExclusive(NAME, Buffer.from('first'));
    const error = await store.createExclusive(NAME, Buffer.from('second')).catch((e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).toBe('EEXIST');
    expect(readFileSync(path.join(dir, NAME), 'utf8')).toBe('first');
  });

  it('of many concurrent creates of one name exactly one wins', async () => {
    const store = new FileEvidenceStore(dir);
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => store.createExclusive(NAME, Buffer.from(`w${i}`))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  });

  it('reads null for an absent file', async () => {
    expect(await new FileEvidenceStore(dir).read(NAME)).toBeNull();
  });

  it.each([
    '../CANARY.txt',
    '../../etc/passwd',
    '/etc/passwd',
    path.join(root ?? '/tmp', 'CANARY.txt'),
    'x.png/../../CANARY.txt',
    '..\\CANARY.txt',
    'sub/x.png',
    '..',
    '.',
    '',
    'a\0.png',
    'C:CANARY.txt',
  ])('refuses to read %j', async (name) => {
    const store = new FileEvidenceStore(dir);
    await store.createExclusive(NAME, Buffer.from('ok'));
    expect(await store.read(name)).toBeNull();
  });

  it('refuses to create outside the directory', async () => {
    const store = new FileEvidenceStore(dir);
    for (const name of ['../escape.png', '/tmp/escape.png', 'a/b.png', 'a\0b.png']) {
      await expect(store.createExclusive(name, Buffer.from('x'))).rejects.toThrow();
    }
    expect(() => readFileSync(path.join(root, 'escape.png'))).toThrow();
  });

  it('does not follow a symlink that points outside the directory', async () => {
    mkdirSync(dir, { recursive: true });
    symlinkSync(path.join(root, 'CANARY.txt'), path.join(dir, 'link.png'));
    expect(await new FileEvidenceStore(dir).read('link.png')).toBeNull();
  });

  it('does not read a directory as a file', async () => {
    mkdirSync(path.join(dir, 'folder.png'), { recursive: true });
    expect(await new FileEvidenceStore(dir).read('folder.png')).toBeNull();
  });

  it('a symlink at creation is not followed either (wx fails on an existing link)', async () => {
    mkdirSync(dir, { recursive: true });
    symlinkSync(path.join(root, 'CANARY.txt'), path.join(dir, NAME));
    const error = await new FileEvidenceStore(dir).createExclusive(NAME, Buffer.from('x')).catch((e: unknown) => e);
    expect((error as NodeJS.ErrnoException).code).toBe('EEXIST');
    expect(readFileSync(path.join(root, 'CANARY.txt'), 'utf8')).toBe('secret outside artifacts');
  });
});

/**
 * The HTTP token file's edges that httpGuards.test.ts does not reach: where the file lives without
 * XDG_CONFIG_HOME, a folder that does not exist yet, a second server creating the file between the
 * read and the exclusive create, and each refusal's words (what to do next is in them). The file
 * system is the real one; node:fs is wrapped only where a test must make another process act at an
 * exact moment (the race) or fail as this machine cannot (another owner, a create refused).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultTokenPath, resolveHttpToken } from '../../../src/transports/http/httpToken.js';

/** What the wrapped node:fs does before its real call; null: nothing. */
const hooks = vi.hoisted(() => ({
  beforeOpen: null as ((file: string) => void) | null,
  uidOffset: 0,
  opened: [] as number[],
  closed: [] as number[],
}));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    openSync: (file: string, flags: string, mode?: number) => {
      hooks.beforeOpen?.(file);
      const fd = real.openSync(file, flags, mode);
      hooks.opened.push(fd);
      return fd;
    },
    closeSync: (fd: number) => {
      hooks.closed.push(fd);
      real.closeSync(fd);
    },
    lstatSync: (file: string) => {
      const stat = real.lstatSync(file);
      if (hooks.uidOffset !== 0) Object.defineProperty(stat, 'uid', { value: stat.uid + hooks.uidOffset });
      return stat;
    },
  };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'amh-token-file-'));
});
afterEach(() => {
  hooks.beforeOpen = null;
  hooks.uidOffset = 0;
  hooks.opened.length = 0;
  hooks.closed.length = 0;
  rmSync(dir, { recursive: true, force: true });
});

const tokenFile = (): string => path.join(dir, 'android-mcp-harness', 'http-token');

describe('where the token file lives', () => {
  it('under an absolute XDG_CONFIG_HOME, else ~/.config (a relative XDG_CONFIG_HOME is ignored, as the spec says)', () => {
    expect(defaultTokenPath({ XDG_CONFIG_HOME: dir })).toBe(tokenFile());
    const home = path.join(os.homedir(), '.config', 'android-mcp-harness', 'http-token');
    expect(defaultTokenPath({})).toBe(home);
    expect(defaultTokenPath({ XDG_CONFIG_HOME: '' })).toBe(home);
    expect(defaultTokenPath({ XDG_CONFIG_HOME: 'relative/config' })).toBe(home);
  });

  it('creates the folders that do not exist yet, the last one for the user only', () => {
    const deep = path.join(dir, 'not', 'yet');
    const created = resolveHttpToken({ XDG_CONFIG_HOME: deep });
    const file = path.join(deep, 'android-mcp-harness', 'http-token');
    expect(created.source).toEqual({ kind: 'file', path: file, created: true });
    expect(readFileSync(file, 'utf8')).toBe(`${created.token}\n`);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    // The descriptor it wrote through is closed: a server runs for days.
    expect(hooks.opened).toHaveLength(1);
    expect(hooks.closed).toEqual(hooks.opened);
  });
});

describe('two servers starting at once', () => {
  it('the second finds the file created between its read and its create: it reads the first one’s token', () => {
    const theirs = 'the-other-servers-token-0123456789';
    hooks.beforeOpen = (file) => {
      hooks.beforeOpen = null;
      writeFileSync(file, `${theirs}\n`, { mode: 0o600 });
    };
    expect(resolveHttpToken({ XDG_CONFIG_HOME: dir })).toEqual({
      token: theirs,
      source: { kind: 'file', path: tokenFile(), created: false },
    });
    expect(readFileSync(tokenFile(), 'utf8')).toBe(`${theirs}\n`);
  });

  it('a create refused for another reason than the file being there is refused, even if a file appeared meanwhile', () => {
    hooks.beforeOpen = (file) => {
      writeFileSync(file, 'the-other-servers-token-0123456789\n', { mode: 0o600 });
      throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
    };
    expect(() => resolveHttpToken({ XDG_CONFIG_HOME: dir })).toThrow(
      `could not create the HTTP token file ${tokenFile()}: EIO`,
    );
  });

  it('a create refused for another reason says which file and what to do instead', () => {
    hooks.beforeOpen = () => {
      throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    };
    expect(() => resolveHttpToken({ XDG_CONFIG_HOME: dir })).toThrow(
      `could not create the HTTP token file ${tokenFile()}: EACCES: permission denied. Set ANDROID_MCP_HTTP_TOKEN instead.`,
    );
  });
});

describe('a token file that cannot be used: each refusal says what to do', () => {
  it('not a regular file', () => {
    mkdirSync(tokenFile(), { recursive: true });
    expect(() => resolveHttpToken({ XDG_CONFIG_HOME: dir })).toThrow(
      `the HTTP token file ${tokenFile()} is not a regular file; remove it and start again.`,
    );
  });

  it('a path that cannot be read (a file where a folder should be)', () => {
    writeFileSync(path.join(dir, 'android-mcp-harness'), 'a file, not a folder');
    expect(() => resolveHttpToken({ XDG_CONFIG_HOME: dir })).toThrow(
      new RegExp(`^could not read the HTTP token file ${tokenFile()}: ENOTDIR`),
    );
  });

  it('another user’s file', () => {
    resolveHttpToken({ XDG_CONFIG_HOME: dir });
    hooks.uidOffset = 1;
    expect(() => resolveHttpToken({ XDG_CONFIG_HOME: dir })).toThrow(
      `the HTTP token file ${tokenFile()} belongs to another user; remove it and start again.`,
    );
  });

  it('readable or writable by the group or others, whichever bit', () => {
    const { token } = resolveHttpToken({ XDG_CONFIG_HOME: dir });
    for (const mode of [0o640, 0o620, 0o610, 0o604, 0o602, 0o601]) {
      chmodSync(tokenFile(), mode);
      expect(() => resolveHttpToken({ XDG_CONFIG_HOME: dir }), mode.toString(8)).toThrow(
        `the HTTP token file ${tokenFile()} is readable by others: run \`chmod 600 ${tokenFile()}\` (or remove it for a new token).`,
      );
    }
    chmodSync(tokenFile(), 0o400);
    expect(resolveHttpToken({ XDG_CONFIG_HOME: dir }).token).toBe(token);
  });

  it('a token with a space inside, in the file or the environment, names where it came from', () => {
    mkdirSync(path.dirname(tokenFile()), { recursive: true });
    writeFileSync(tokenFile(), 'twenty characters of token\n', { mode: 0o600 });
    expect(() => resolveHttpToken({ XDG_CONFIG_HOME: dir })).toThrow(
      `the token in ${tokenFile()} must be at least 16 characters without spaces (e.g. \`openssl rand -hex 24\`).`,
    );
    expect(() =>
      resolveHttpToken({ XDG_CONFIG_HOME: dir, ANDROID_MCP_HTTP_TOKEN: 'twenty characters of token' }),
    ).toThrow('ANDROID_MCP_HTTP_TOKEN must be at least 16 characters without spaces');
  });
});

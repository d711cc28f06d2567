/**
 * Where the agents' command line keeps what lives between two of its calls: the local server's
 * address and pid, its bearer token, the UI session it opened, and when it was last used. One
 * folder readable only by its user (0700, files 0600): the token is a capability.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, renameSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function cliStateDir(env: NodeJS.ProcessEnv): string {
  if (env.ANDROID_MCP_CLI_DIR && path.isAbsolute(env.ANDROID_MCP_CLI_DIR)) return env.ANDROID_MCP_CLI_DIR;
  if (env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR))
    return path.join(env.XDG_RUNTIME_DIR, 'android-mcp-harness-cli');
  return path.join(os.homedir(), '.cache', 'android-mcp-harness', 'cli');
}

/** The local server as its keeper wrote it once it answered. */
export interface ServerRecord {
  /** The keeper's pid: it owns the server process and ends it. */
  readonly pid: number;
  readonly url: string;
}

/** The files of the state folder. */
export type StateFile = 'server.json' | 'token' | 'session' | 'last-used' | 'starting' | 'server.log';

export class CliState {
  constructor(readonly dir: string) {}

  ensure(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // An existing folder keeps the mode it was made with: make it the user's alone.
    chmodSync(this.dir, 0o700);
  }

  file(name: StateFile): string {
    return path.join(this.dir, name);
  }

  read(name: StateFile): string | null {
    try {
      return readFileSync(this.file(name), 'utf8');
    } catch {
      return null;
    }
  }

  /** Written whole or not at all (a reader never sees half a record). */
  write(name: Exclude<StateFile, 'server.log' | 'last-used'>, content: string): void {
    const temp = `${this.file(name)}.${process.pid}.tmp`;
    writeFileSync(temp, content, { mode: 0o600 });
    renameSync(temp, this.file(name));
  }

  remove(name: Exclude<StateFile, 'server.log'>): void {
    rmSync(this.file(name), { force: true });
  }

  server(): ServerRecord | null {
    const raw = this.read('server.json');
    if (raw === null) return null;
    try {
      const parsed = JSON.parse(raw) as Partial<ServerRecord>;
      if (typeof parsed.pid !== 'number' || typeof parsed.url !== 'string') return null;
      return { pid: parsed.pid, url: parsed.url };
    } catch {
      return null;
    }
  }

  touch(): void {
    const file = this.file('last-used');
    const now = new Date();
    try {
      utimesSync(file, now, now);
    } catch {
      writeFileSync(file, '', { mode: 0o600 });
    }
  }

  /** Milliseconds since a call last used the server (Infinity when none did). */
  idleMs(nowMs: number): number {
    try {
      return nowMs - statSync(this.file('last-used')).mtimeMs;
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  }
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

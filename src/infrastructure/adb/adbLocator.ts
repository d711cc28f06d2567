import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export type AdbSource = 'ANDROID_HOME' | 'ANDROID_SDK_ROOT' | 'PATH';
export interface LocatedAdb {
  readonly path: string;
  readonly source: AdbSource;
}

/** An executable regular file (on Windows, existence is all we can check cheaply). */
export function isExecutableFile(candidate: string): boolean {
  try {
    if (!statSync(candidate).isFile()) return false;
    if (process.platform !== 'win32') accessSync(candidate, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds adb the way the SDK tools do: the SDK's platform-tools first (ANDROID_HOME, then the
 * older ANDROID_SDK_ROOT), then PATH. Claude Desktop and other GUI clients often start servers
 * with a minimal PATH, which is why the SDK variables come first.
 */
export function locateAdb(
  env: NodeJS.ProcessEnv,
  exists: (p: string) => boolean = isExecutableFile,
  platform: NodeJS.Platform = process.platform,
): LocatedAdb | null {
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  const names = platform === 'win32' ? ['adb.exe', 'adb'] : ['adb'];
  for (const source of ['ANDROID_HOME', 'ANDROID_SDK_ROOT'] as const) {
    const root = env[source]?.trim();
    if (!root) continue;
    for (const name of names) {
      const candidate = pathApi.join(root, 'platform-tools', name);
      if (exists(candidate)) return { path: candidate, source };
    }
  }
  // Windows spells it Path; Node's env lookup is case-insensitive there, but a plain object is not.
  const searchPath = env.PATH ?? env.Path ?? '';
  const separator = platform === 'win32' ? ';' : ':';
  for (const dir of searchPath.split(separator)) {
    const trimmed = dir.trim().replace(/^"(.*)"$/, '$1');
    // An empty or relative PATH entry means "the current directory": never trust it for adb.
    if (!trimmed || !pathApi.isAbsolute(trimmed)) continue;
    for (const name of names) {
      const candidate = pathApi.join(trimmed, name);
      if (exists(candidate)) return { path: candidate, source: 'PATH' };
    }
  }
  return null;
}

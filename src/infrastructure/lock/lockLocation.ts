/** Where the lock files live: the shared directory, the file name a device gets, and what the last process may tidy. */
import { createHash } from 'node:crypto';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';

/** `$ANDROID_MCP_LOCK_DIR`, else `$XDG_RUNTIME_DIR/android-mcp-harness/locks`, else `<tmp>/android-mcp-harness-<uid>/locks`. */
export function defaultLockDirectory(env: NodeJS.ProcessEnv): string {
  const explicit = env.ANDROID_MCP_LOCK_DIR?.trim();
  if (explicit) return explicit;
  const runtime = env.XDG_RUNTIME_DIR?.trim();
  if (runtime) return join(runtime, 'android-mcp-harness', 'locks');
  return join(tmpdir(), `android-mcp-harness-${currentUid()}`, 'locks');
}

/**
 * `127.0.0.1:5555` → `127.0.0.1_5555-<8 hex>`: safe as a file name on every OS, and the hash of
 * the exact serial keeps two serials that sanitise alike (`a:b`, `a_b`) apart.
 */
export function lockFileName(serial: string): string {
  const safe = serial.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
  const hash = createHash('sha256').update(serial).digest('hex').slice(0, 8);
  return `${safe}-${hash}.lock`;
}

/**
 * The directories defaultLockDirectory made up (innermost first), which the last process may remove
 * when they are empty; none when the user named the directory (ANDROID_MCP_LOCK_DIR is theirs).
 */
export function lockDirectoriesToTidy(env: NodeJS.ProcessEnv): readonly string[] {
  if (env.ANDROID_MCP_LOCK_DIR?.trim()) return [];
  const locks = defaultLockDirectory(env);
  return [locks, dirname(locks)];
}

function currentUid(): string {
  try {
    return String(userInfo().uid);
  } catch {
    return 'user';
  }
}

/**
 * The harness's version, as its package.json says: read from disk once, at the first ask, and the
 * same answer after (the server's info, the traces, the REST mirror and `--version` all say it).
 */
import { readFileSync } from 'node:fs';

let version: string | undefined;

export function packageVersion(): string {
  version ??= readVersion();
  return version;
}

function readVersion(): string {
  try {
    // From src/wiring/ (dist/wiring/ once built) up to the package root.
    const raw = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const read = (JSON.parse(raw) as { version?: unknown }).version;
    return typeof read === 'string' ? read : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

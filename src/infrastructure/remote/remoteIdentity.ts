import { createHash } from 'node:crypto';
import type { DeviceIdentity } from '../../domain/devices/identity.js';

/**
 * The device's identity in remote mode: there is no local adb to read properties
 * from, and the endpoint decides which device a session gets, so the lock is keyed by what the
 * session request says: the endpoint's host (and port), the udid asked for (or none), and a short
 * hash of the extra capabilities (a farm's device choice lives there: `bstack:options.deviceName`,
 * `appium:platformVersion`). Two harness processes on this machine asking one endpoint for the same
 * device share a lock; the hash never lets a capability value (an access key) be read back.
 */
export function remoteIdentity(
  endpointUrl: string,
  udid: string | null,
  capabilities: Readonly<Record<string, unknown>>,
): DeviceIdentity {
  const url = new URL(endpointUrl);
  const hash = createHash('sha256').update(canonicalJson(capabilities)).digest('hex').slice(0, 8);
  return { key: `remote:${url.host}/${udid ?? '-'}/${hash}`, avdName: null, source: 'remote' };
}

/** JSON with object keys sorted: the same capabilities in another order give the same key. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

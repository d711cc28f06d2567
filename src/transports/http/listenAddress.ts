import { isIP } from 'node:net';

/** Where `serve --http` listens unless the user names another address. */
export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 8765;

/** The names a loopback request's Host header may carry (URL hostnames: IPv6 in brackets). */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * True for an address only this machine can reach: `localhost`, 127.0.0.0/8, ::1.
 * Anything else (0.0.0.0, ::, a LAN address, a name) opens the port to other machines.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  if (isIP(bare) === 4) return bare.split('.')[0] === '127';
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
  return false;
}

/** The host as a URL writes it (IPv6 in brackets). */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

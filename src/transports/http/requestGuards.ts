/**
 * The checks every HTTP request passes before anything reads its body:
 * the Host header (DNS rebinding: a page on evil.example that re-resolves to 127.0.0.1 still
 * sends `Host: evil.example`), a browser's Origin, and the bearer token, compared in constant time.
 * Each returns null when the request may go on, else the refusal to send.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { LOOPBACK_HOSTNAMES, isLoopbackHost } from './listenAddress.js';

/**
 * The typed code of a refusal that is not a tool's, as REST clients read it (`{ok: false, error: {code, message}}`;
 * the MCP route answers a JSON-RPC error instead). A body too large is the request's fault, like the REST
 * routes' own refusals (INVALID_ARGUMENT); a path no route serves is NOT_FOUND.
 */
export type HttpRefusalCode =
  'UNAUTHORIZED' | 'FORBIDDEN' | 'NOT_FOUND' | 'INVALID_ARGUMENT' | 'SERVER_BUSY' | 'INTERNAL_ERROR';

export interface Refusal {
  readonly status: number;
  readonly code: HttpRefusalCode;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface GuardPolicy {
  /** Lowercase hostnames (URL form) a Host header may name; loopback names always may. */
  readonly allowedHostnames: readonly string[];
  /** Exact origins (`scheme://host[:port]`) a browser may call from, besides loopback pages. */
  readonly allowedOrigins: readonly string[];
  readonly token: string;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Host must be present and name this server (a loopback name or an allowed one). */
export function checkHost(headers: IncomingHttpHeaders, policy: GuardPolicy): Refusal | null {
  const host = single(headers.host);
  let hostname: string | null = null;
  if (host) {
    try {
      hostname = new URL(`http://${host}`).hostname.toLowerCase();
    } catch {
      hostname = null;
    }
  }
  if (hostname && (LOOPBACK_HOSTNAMES.includes(hostname) || policy.allowedHostnames.includes(hostname))) return null;
  return {
    status: 403,
    code: 'FORBIDDEN',
    message:
      'Forbidden: the Host header does not name this server (DNS-rebinding protection). Connect to http://127.0.0.1:<port>/mcp, ' +
      'or list the name in ANDROID_MCP_HTTP_ALLOWED_HOSTS.',
  };
}

/** No Origin (not a browser) passes; a browser page must be on loopback or an allowed origin. */
export function checkOrigin(headers: IncomingHttpHeaders, policy: GuardPolicy): Refusal | null {
  const origin = single(headers.origin);
  if (origin === undefined) return null;
  if (policy.allowedOrigins.includes(origin)) return null;
  try {
    const url = new URL(origin);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname)) return null;
  } catch {
    // "null" (sandboxed frames, file://) and other unparsable origins are refused below.
  }
  return {
    status: 403,
    code: 'FORBIDDEN',
    message: `Forbidden: requests from the browser origin ${JSON.stringify(origin.slice(0, 100))} are not allowed. Add it to ANDROID_MCP_HTTP_ALLOWED_ORIGINS to allow it.`,
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * `Authorization: Bearer <token>`. Both sides are hashed first so that timingSafeEqual
 * compares equal lengths and the time says nothing about the token, not even its length.
 */
export function checkBearer(headers: IncomingHttpHeaders, policy: GuardPolicy): Refusal | null {
  const header = single(headers.authorization) ?? '';
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  const presented = match?.[1] ?? '';
  const equal = timingSafeEqual(digest(presented), digest(policy.token));
  if (match && equal) return null;
  return {
    status: 401,
    code: 'UNAUTHORIZED',
    message: match
      ? 'Unauthorized: the bearer token is wrong. Use the one in ANDROID_MCP_HTTP_TOKEN or in the token file the server named at start.'
      : 'Unauthorized: send `Authorization: Bearer <token>` (ANDROID_MCP_HTTP_TOKEN, or the token file the server named at start).',
    headers: { 'www-authenticate': 'Bearer realm="android-mcp-harness"' },
  };
}

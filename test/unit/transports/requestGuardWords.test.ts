/**
 * The request guards' edges that httpGuards.test.ts leaves open (mutation testing found them unwatched:
 * docs/internals/verification.md, "Mutation testing"): each refusal's exact words, which say what to do
 * next; the bearer header's exact grammar at its ends; an https loopback page; a Host that is no host.
 */
import { describe, expect, it } from 'vitest';
import { checkBearer, checkHost, checkOrigin, type GuardPolicy } from '../../../src/transports/http/requestGuards.js';

const TOKEN = 'a-token-of-24-characters';
const policy: GuardPolicy = { token: TOKEN, allowedHostnames: ['harness.lan'], allowedOrigins: [] };

const HOST_REFUSED =
  'Forbidden: the Host header does not name this server (DNS-rebinding protection). Connect to http://127.0.0.1:<port>/mcp, ' +
  'or list the name in ANDROID_MCP_HTTP_ALLOWED_HOSTS.';
const WRONG_TOKEN =
  'Unauthorized: the bearer token is wrong. Use the one in ANDROID_MCP_HTTP_TOKEN or in the token file the server named at start.';
const NO_BEARER =
  'Unauthorized: send `Authorization: Bearer <token>` (ANDROID_MCP_HTTP_TOKEN, or the token file the server named at start).';

describe('Host', () => {
  it('a refusal says how to connect or what to allow', () => {
    expect(checkHost({ host: 'evil.example' }, policy)).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message: HOST_REFUSED,
    });
  });

  it('a Host that does not parse as a host is refused, not thrown', () => {
    for (const host of ['exa mple', '[::1', 'a/b@c', 'x:port'])
      expect(checkHost({ host }, policy)?.message, host).toBe(HOST_REFUSED);
  });

  it('no Host at all is refused even when an allowed name is spelled like a missing value', () => {
    const odd: GuardPolicy = { ...policy, allowedHostnames: ['undefined', 'null'] };
    expect(checkHost({}, odd)?.status).toBe(403);
    expect(checkHost({ host: 'undefined' }, odd)).toBeNull();
  });
});

describe('Origin', () => {
  it('a loopback page over https passes as over http; another scheme on loopback does not', () => {
    for (const origin of ['https://localhost:8443', 'https://127.0.0.1', 'https://[::1]:3000'])
      expect(checkOrigin({ origin }, policy), origin).toBeNull();
    for (const origin of ['ws://localhost:3000', 'ftp://127.0.0.1'])
      expect(checkOrigin({ origin }, policy)?.status, origin).toBe(403);
  });

  it('a refusal quotes the origin, cut to 100 characters, and says which variable allows it', () => {
    expect(checkOrigin({ origin: 'https://evil.example' }, policy)).toEqual({
      status: 403,
      code: 'FORBIDDEN',
      message:
        'Forbidden: requests from the browser origin "https://evil.example" are not allowed. Add it to ANDROID_MCP_HTTP_ALLOWED_ORIGINS to allow it.',
    });
    const long = `https://${'a'.repeat(200)}.example`;
    expect(checkOrigin({ origin: long }, policy)?.message).toContain(
      `origin ${JSON.stringify(long.slice(0, 100))} are`,
    );
  });
});

describe('Authorization: Bearer', () => {
  it('spaces after the word and whitespace after the token are the header’s, not the token’s', () => {
    for (const header of [`Bearer  ${TOKEN}`, `Bearer ${TOKEN} `, `Bearer ${TOKEN}\t`])
      expect(checkBearer({ authorization: header }, policy), JSON.stringify(header)).toBeNull();
  });

  it('anything before the word or after the token is refused', () => {
    for (const header of [`XBearer ${TOKEN}`, ` Bearer ${TOKEN}`, `Bearer ${TOKEN} extra`, `Bearer ${TOKEN},x`]) {
      expect(checkBearer({ authorization: header }, policy)?.status, JSON.stringify(header)).toBe(401);
    }
  });

  it('a wrong token and a missing bearer are told apart, each saying where the token is', () => {
    expect(checkBearer({ authorization: 'Bearer not-the-token-at-all' }, policy)).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      message: WRONG_TOKEN,
      headers: { 'www-authenticate': 'Bearer realm="android-mcp-harness"' },
    });
    expect(checkBearer({}, policy)?.message).toBe(NO_BEARER);
    expect(checkBearer({ authorization: `Basic ${TOKEN}` }, policy)?.message).toBe(NO_BEARER);
  });
});

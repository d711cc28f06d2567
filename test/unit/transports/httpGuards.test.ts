/**
 * The HTTP transport's own checks, without MCP behind them: the bearer token (constant-time,
 * exact), Host and Origin (DNS rebinding), the token file (0600, reused, refused when others can
 * read it), and the server's bounds (a body over the limit by Content-Length, requests in flight).
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessHttpServer } from '../../../src/transports/http/HttpServer.js';
import { resolveHttpToken } from '../../../src/transports/http/httpToken.js';
import { isLoopbackHost } from '../../../src/transports/http/listenAddress.js';
import { checkBearer, checkHost, checkOrigin, type GuardPolicy } from '../../../src/transports/http/requestGuards.js';
import { silentLogger } from '../../support/fakes/silentLogger.js';

const policy: GuardPolicy = {
  token: 'a-token-of-24-characters',
  allowedHostnames: ['harness.lan'],
  allowedOrigins: ['https://dash.example'],
};

describe('request guards', () => {
  it('accepts exactly `Bearer <token>` and nothing near it', () => {
    expect(checkBearer({ authorization: 'Bearer a-token-of-24-characters' }, policy)).toBeNull();
    expect(checkBearer({ authorization: 'bearer a-token-of-24-characters' }, policy)).toBeNull();
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer a-token-of-24-characterz',
      'Bearer a-token-of-24-characters2',
      'Basic a-token-of-24-characters',
      'a-token-of-24-characters',
      'Bearer a-token-of-24 characters',
    ]) {
      const refusal = checkBearer(header === undefined ? {} : { authorization: header }, policy);
      expect(refusal?.status, String(header)).toBe(401);
      expect(refusal?.headers?.['www-authenticate']).toMatch(/^Bearer/);
    }
  });

  it('Host must name loopback or an allowed name (DNS rebinding sends the attacker’s)', () => {
    for (const host of ['127.0.0.1:8765', 'localhost:8765', 'LOCALHOST', '[::1]:8765', 'harness.lan:8765'])
      expect(checkHost({ host }, policy), host).toBeNull();
    for (const host of [
      undefined,
      '',
      'evil.example',
      'evil.example:8765',
      '127.0.0.1.evil.example',
      'localhost.evil.example',
    ]) {
      expect(checkHost(host === undefined ? {} : { host }, policy)?.status, String(host)).toBe(403);
    }
  });

  it('no Origin (not a browser), a loopback page or an allowed origin pass; any other page is refused', () => {
    for (const origin of [undefined, 'http://localhost:6274', 'http://127.0.0.1:3000', 'https://dash.example']) {
      expect(checkOrigin(origin === undefined ? {} : { origin }, policy), String(origin)).toBeNull();
    }
    for (const origin of [
      'https://evil.example',
      'null',
      'http://localhost.evil.example',
      'file://',
      'https://dash.example:444',
      'chrome-extension://localhost',
    ]) {
      expect(checkOrigin({ origin }, policy)?.status, origin).toBe(403);
    }
  });

  it('loopback addresses are 127.0.0.0/8, ::1 and localhost only', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com', '128.0.0.1', '::ffff:127.0.0.1x'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('token file', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is generated once, readable by the user only, and reused', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'amh-token-'));
    const env = { XDG_CONFIG_HOME: dir };
    const first = resolveHttpToken(env);
    expect(first.source).toEqual({
      kind: 'file',
      path: path.join(dir, 'android-mcp-harness', 'http-token'),
      created: true,
    });
    expect(first.token.length).toBeGreaterThanOrEqual(40);
    const file = path.join(dir, 'android-mcp-harness', 'http-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.token);
    const second = resolveHttpToken(env);
    expect(second).toEqual({ token: first.token, source: { kind: 'file', path: file, created: false } });
  });

  it('refuses a file others can read, and a short token from the environment; the environment wins', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'amh-token-'));
    const file = path.join(dir, 'android-mcp-harness', 'http-token');
    resolveHttpToken({ XDG_CONFIG_HOME: dir });
    chmodSync(file, 0o644);
    expect(() => resolveHttpToken({ XDG_CONFIG_HOME: dir })).toThrow(/readable by others: run `chmod 600/);
    expect(() => resolveHttpToken({ XDG_CONFIG_HOME: dir, ANDROID_MCP_HTTP_TOKEN: 'short' })).toThrow(
      /at least 16 characters/,
    );
    expect(resolveHttpToken({ XDG_CONFIG_HOME: dir, ANDROID_MCP_HTTP_TOKEN: 'sixteen-or-more-chars' })).toEqual({
      token: 'sixteen-or-more-chars',
      source: { kind: 'env' },
    });
    writeFileSync(file, 'short\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    expect(() => resolveHttpToken({ XDG_CONFIG_HOME: dir })).toThrow(/at least 16 characters/);
  });

  it('from the environment: 16 characters are enough, 15 are not; the name is said; a newline is trimmed; empty means the file', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'amh-token-'));
    const env = (token: string) => ({ XDG_CONFIG_HOME: dir, ANDROID_MCP_HTTP_TOKEN: token });
    expect(resolveHttpToken(env('a'.repeat(16))).token).toBe('a'.repeat(16));
    expect(() => resolveHttpToken(env('a'.repeat(15)))).toThrow(
      'ANDROID_MCP_HTTP_TOKEN must be at least 16 characters without spaces (e.g. `openssl rand -hex 24`).',
    );
    // As `export ANDROID_MCP_HTTP_TOKEN=$(cat file)` or an env file may leave it.
    expect(resolveHttpToken(env(`${'b'.repeat(20)}\n`))).toEqual({ token: 'b'.repeat(20), source: { kind: 'env' } });
    expect(resolveHttpToken(env('')).source).toEqual({
      kind: 'file',
      path: path.join(dir, 'android-mcp-harness', 'http-token'),
      created: true,
    });
  });
});

describe('HarnessHttpServer bounds', () => {
  let server: HarnessHttpServer | null = null;
  afterEach(async () => {
    await server?.close(0);
    server = null;
  });

  it('answers 503 beyond maxInFlight and 413 for a declared body over the limit, without calling the route', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    server = new HarnessHttpServer({
      host: '127.0.0.1',
      port: 0,
      policy,
      logger: silentLogger,
      maxInFlight: 2,
      maxBodyBytes: 1000,
      routes: [
        {
          matches: (pathname) => pathname === '/mcp',
          handle: async (_req, res) => {
            calls += 1;
            await gate;
            res.end('{}');
          },
        },
      ],
    });
    const port = await server.listen();
    const post = (body: string): Promise<number> =>
      fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${policy.token}` },
        body,
      }).then((r) => r.status);
    const held = [post('{}'), post('{}')];
    while (calls < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await post('{}')).toBe(503);
    expect(await post('x'.repeat(1001))).toBe(413);
    release();
    expect(await Promise.all(held)).toEqual([200, 200]);
    expect(await post('{}')).toBe(200);
    expect(calls).toBe(3);
    expect(server.counters).toEqual({ accepted: 3, refused: { 503: 1, 413: 1 } });
  });
});

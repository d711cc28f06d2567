/**
 * MCP over Streamable HTTP at /mcp, both protocol revisions, over real HTTP
 * on loopback. The built server (`serve --http`, stopped by pid), the real adb, a real Appium 3
 * and the virtual device. Clients: the v1 SDK's StreamableHTTPClientTransport (2025-11-25), the
 * v2 SDK's Client (negotiates 2026-07-28 through server/discover), and raw fetch for both.
 * Refusals (no token, wrong token, foreign Origin, foreign Host, oversized bodies, a flood) and a
 * client that disconnects mid-call: each refused or survived, no Appium session, no lock file left.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';
import { runHttpHarnessToExit, type HttpHarness } from '../support/httpHarness.js';
import { startHttpStack, type HttpStack } from '../support/httpStack.js';
import { REPO_ROOT } from '../support/appium.js';
import { freePort } from '../support/ports.js';
import { ensureBuilt } from '../support/rawServer.js';
import { sleepMs, type ReliabilityStack } from '../support/reliabilityStack.js';
import { settledValue } from '../support/settle.js';
import type { WireEnvelope as Envelope } from '../support/wireEnvelope.js';

const TOKEN = 'http-test-token-0123456789abcdef';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const TWELVE = 12;

interface RawAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The JSON-RPC message (a JSON body, or the last SSE `data:` event). */
  readonly message: {
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
    id?: unknown;
  };
}

const figures = { refused: {} as Record<string, number>, accepted: 0, busy: 0, survivedDisconnects: 0 };
function refusedOnce(kind: string): void {
  figures.refused[kind] = (figures.refused[kind] ?? 0) + 1;
}

describeWithAdb('MCP over Streamable HTTP at /mcp', () => {
  let http: HttpStack;
  let stack: ReliabilityStack;
  let server: HttpHarness;

  beforeAll(async () => {
    ensureBuilt();
    http = await startHttpStack({
      tag: 'http',
      token: TOKEN,
      env: { ANDROID_MCP_ACTION_TIMEOUT: '15', ANDROID_MCP_CONNECT_TIMEOUT: '30' },
    });
    ({ stack, server } = http);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    if (http) {
      const sessions = stack.appium ? await stack.appium.sessionIds() : [];
      // The lock directory is tidied away when empty (no device call ran, e.g. one test alone).
      const locks = existsSync(stack.lockDir) ? readdirSync(stack.lockDir) : [];
      const refused = Object.values(figures.refused).reduce((sum, n) => sum + n, 0);
      process.stderr.write(
        `[reliability] http: ${refused} refused ${JSON.stringify(figures)}; sessions left ${sessions.length}; lock files left ${locks.length}\n`,
      );
      await http.stop();
    }
  }, 60_000);

  async function raw(
    body: string | object,
    headers: Record<string, string> = {},
    init: RequestInit = {},
  ): Promise<RawAnswer> {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
    });
    const text = await response.text();
    const events = text.split('\n').filter((line) => line.startsWith('data:'));
    const json = response.headers.get('content-type')?.includes('text/event-stream')
      ? (events.at(-1) ?? 'data: {}').slice(5)
      : text;
    return {
      status: response.status,
      headers: response.headers,
      message: JSON.parse(json || '{}') as RawAnswer['message'],
    };
  }

  /** A 2026-07-28 request: no handshake, the version and capabilities in `_meta`, the method in headers. */
  function modern(
    id: number,
    method: string,
    params: Record<string, unknown> = {},
    init: RequestInit = {},
  ): Promise<RawAnswer> {
    const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
    if (method === 'tools/call') headers['mcp-name'] = String(params.name);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    return raw({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }, headers, init);
  }

  function envelopeOf(answer: RawAnswer): Envelope {
    return (answer.message.result as { structuredContent: Envelope }).structuredContent;
  }

  async function noSessionsLeft(withinMs = 20_000): Promise<void> {
    expect(
      await settledValue(
        () => stack.appium!.sessionIds(),
        (ids) => ids.length === 0,
        withinMs,
      ),
    ).toEqual([]);
  }

  async function noLockFileLeft(withinMs = 20_000): Promise<void> {
    expect(
      await settledValue(
        async () => readdirSync(stack.lockDir),
        (names) => names.length === 0,
        withinMs,
      ),
    ).toEqual([]);
  }

  it('the v1 SDK client (2025-11-25) sees the twelve tools and the device', async () => {
    const transport = new TransportV1(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    const client = new ClientV1({ name: 'http-test-v1', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(transport.protocolVersion).toBe(LEGACY);
      expect(client.getServerVersion()?.name).toBe('android-mcp-harness');
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(TWELVE);
      const status = (await client.callTool({ name: 'emulator_get_status', arguments: {} }))
        .structuredContent as unknown as Envelope;
      expect(status.ok, JSON.stringify(status.error)).toBe(true);
      expect(status.data.udid).toBe(stack.serial);
      figures.accepted += 1;
    } finally {
      await client.close();
    }
  }, 60_000);

  it('the v2 SDK client negotiates 2026-07-28 (server/discover, no initialize) and sees the same', async () => {
    const transport = new TransportV2(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
    });
    // 'auto': probe with server/discover, fall back to initialize only if the server is 2025-only.
    const client = new ClientV2({ name: 'http-test-v2', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(transport);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('ui_tap');
      expect(tools).toHaveLength(TWELVE);
      const status = (await client.callTool({ name: 'emulator_get_status', arguments: {} }))
        .structuredContent as unknown as Envelope;
      expect(status.ok, JSON.stringify(status.error)).toBe(true);
      expect(status.data.udid).toBe(stack.serial);
      figures.accepted += 1;
    } finally {
      await client.close();
    }
  }, 60_000);

  it('a raw client speaks 2025-11-25: initialize, then stateless POSTs with the version header', async () => {
    const init = await raw({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.status).toBe(200);
    expect(init.message.result?.protocolVersion).toBe(LEGACY);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    const list = await raw({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-protocol-version': LEGACY });
    expect((list.message.result?.tools as unknown[]).length).toBe(TWELVE);
    const call = await raw(
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ui_get_tree', arguments: {} } },
      { 'mcp-protocol-version': LEGACY },
    );
    expect(envelopeOf(call).ok, JSON.stringify(envelopeOf(call).error)).toBe(true);
    const unknown = await raw(
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
      { 'mcp-protocol-version': LEGACY },
    );
    expect(unknown.message.error?.code).toBe(-32602);
    expect(unknown.message.error?.message).toMatch(/^Unknown tool "no_such_tool"\. The tools are: emulator_get_status/);
    figures.accepted += 4;
  }, 60_000);

  it('a raw client speaks 2026-07-28: server/discover and calls without any handshake', async () => {
    const discover = await modern(1, 'server/discover');
    expect(discover.status).toBe(200);
    expect(discover.message.result?.supportedVersions).toContain(MODERN);
    expect(discover.message.result?.capabilities).toMatchObject({ tools: {}, resources: {} });
    expect(String(discover.message.result?.instructions)).toMatch(/never by coordinates/);
    const list = await modern(2, 'tools/list');
    expect(list.message.result?.resultType).toBe('complete');
    expect((list.message.result?.tools as unknown[]).length).toBe(TWELVE);
    const call = await modern(3, 'tools/call', { name: 'ui_get_tree', arguments: {} });
    expect(call.message.result?.resultType).toBe('complete');
    expect(envelopeOf(call).ok, JSON.stringify(envelopeOf(call).error)).toBe(true);
    // A malformed selector is the domain's typed error in the envelope, as over stdio.
    const invalid = await modern(4, 'tools/call', { name: 'ui_tap', arguments: { selector: { text: '' } } });
    expect(envelopeOf(invalid).error?.code).toBe('INVALID_SELECTOR');
    const templates = await modern(5, 'resources/templates/list');
    expect(JSON.stringify(templates.message.result)).toContain('artifact://');
    figures.accepted += 5;
  }, 60_000);

  it('refuses no token, a wrong token, a foreign Origin or Host, an oversized body, before reading anything', async () => {
    const traceBefore = stack.trace().length;
    const logBefore = stack.device.log().length;
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const expectRefused = async (kind: string, status: number, answer: Promise<RawAnswer>): Promise<RawAnswer> => {
      const got = await answer;
      expect(got.status, kind).toBe(status);
      expect(got.message.result, kind).toBeUndefined();
      refusedOnce(kind);
      return got;
    };
    const none = await expectRefused('no token', 401, raw(list, { authorization: '' }));
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(none.message.error?.message).toMatch(/Authorization: Bearer/);
    await expectRefused(
      'wrong token, same length',
      401,
      raw(list, { authorization: `Bearer ${TOKEN.replace(/.$/, 'X')}` }),
    );
    await expectRefused('wrong token, shorter', 401, raw(list, { authorization: 'Bearer abc' }));
    await expectRefused('wrong scheme', 401, raw(list, { authorization: `Basic ${TOKEN}` }));
    await expectRefused('token as a prefix', 401, raw(list, { authorization: `Bearer ${TOKEN}extra` }));
    const origin = await expectRefused('foreign Origin', 403, raw(list, { origin: 'https://evil.example' }));
    expect(origin.message.error?.message).toMatch(/ANDROID_MCP_HTTP_ALLOWED_ORIGINS/);
    await expectRefused('Origin null', 403, raw(list, { origin: 'null' }));
    await expectRefused('loopback-looking foreign Origin', 403, raw(list, { origin: 'http://127.0.0.1.evil.example' }));
    // Node's fetch refuses to set Host itself: a DNS-rebinding request carries the attacker's name.
    await expectRefused('foreign Host', 403, rawHost('evil.example'));
    const big = 'x'.repeat(2 * 1024 * 1024);
    const declared = await expectRefused(
      'oversized (Content-Length)',
      413,
      raw(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"${big}"}}`),
    );
    expect(declared.message.error?.message).toMatch(/1048576 bytes/);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"'));
        for (let i = 0; i < 32; i += 1) controller.enqueue(chunk);
        controller.enqueue(new TextEncoder().encode('"}}'));
        controller.close();
      },
    });
    await expectRefused('oversized (chunked)', 413, raw('', {}, { body: streamed, duplex: 'half' } as RequestInit));
    const elsewhere = await fetch(new URL('/admin', server.url), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(elsewhere.status).toBe(404);
    refusedOnce('unknown path');
    const elsewhereAnonymous = await fetch(new URL('/admin', server.url));
    expect(elsewhereAnonymous.status, 'an unauthenticated client learns nothing about routes').toBe(401);
    refusedOnce('unknown path, no token');
    // A loopback page (the MCP Inspector's UI) with the token is served.
    const inspector = await raw(list, { origin: 'http://localhost:6274', 'mcp-protocol-version': LEGACY });
    expect(inspector.status).toBe(200);
    // Nothing reached adb or the device.
    expect(stack.trace().length).toBe(traceBefore);
    expect(stack.device.log().length).toBe(logBefore);
  }, 60_000);

  /** A request with its own Host header, through node:http (fetch forbids setting Host). */
  async function rawHost(host: string): Promise<RawAnswer> {
    const { request } = await import('node:http');
    const url = new URL(server.url);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { host, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: new Headers(),
              message: JSON.parse(text || '{}') as RawAnswer['message'],
            }),
          );
        },
      );
      req.on('error', reject);
      req.end('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    });
  }

  it('a bounded flood (300 requests, 100 at once) is answered request by request, and the server still serves', async () => {
    const statuses: Record<number, number> = {};
    for (let wave = 0; wave < 3; wave += 1) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => {
          // A third unauthenticated, the rest real work: tools/list and an observing call.
          if (i % 3 === 0)
            return raw({ jsonrpc: '2.0', id: i, method: 'tools/list' }, { authorization: 'Bearer nope' });
          return i % 3 === 1
            ? modern(i, 'tools/list')
            : modern(i, 'tools/call', { name: 'emulator_get_status', arguments: {} });
        }),
      );
      for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      for (const answer of answers.filter((a) => a.status === 200 && a.message.result?.structuredContent)) {
        const code = envelopeOf(answer).error?.code;
        expect(code === undefined || code === 'EMULATOR_BUSY', String(code)).toBe(true);
        if (code === 'EMULATOR_BUSY') figures.busy += 1;
      }
    }
    expect(Object.keys(statuses).map(Number).sort()).toEqual(expect.arrayContaining([200, 401]));
    for (const status of Object.keys(statuses).map(Number)) expect([200, 401, 503]).toContain(status);
    expect(statuses[401]).toBe(102);
    figures.accepted += statuses[200] ?? 0;
    figures.refused['flood: no token'] = statuses[401] ?? 0;
    figures.refused['flood: 503 over 32 in flight'] = statuses[503] ?? 0;
    const after = await modern(1, 'tools/call', { name: 'emulator_get_status', arguments: {} });
    expect(envelopeOf(after).ok).toBe(true);
  }, 120_000);

  it('two clients at once: one owner, the other told EMULATOR_BUSY at once, as between processes', async () => {
    stack.device.injectFault({ kind: 'slow', target: 'uia2', match: '/click', delayMs: 3_000 });
    try {
      const clicksBefore = stack.device.clicks().length;
      const first = modern(1, 'tools/call', { name: 'ui_tap', arguments: { selector: { text: 'Apps' } } });
      await waitForClickPending(clicksBefore);
      const startedAt = Date.now();
      const second = await modern(2, 'tools/call', { name: 'ui_tap', arguments: { selector: { text: 'Apps' } } });
      expect(envelopeOf(second).error?.code).toBe('EMULATOR_BUSY');
      // Real clock (the server is its own process): the lock's refusal, where a queued call would wait out the
      // first click's 3 s delay; 2 s is under it, with room for a loaded runner (1 s in-process took 1.1 s here).
      expect(Date.now() - startedAt).toBeLessThan(2_000);
      const observer = await modern(3, 'tools/call', { name: 'ui_get_tree', arguments: {} });
      expect(envelopeOf(observer).error?.code).toBe('EMULATOR_BUSY');
      figures.busy += 2;
      const done = envelopeOf(await first);
      expect(done.ok, JSON.stringify(done.error)).toBe(true);
    } finally {
      stack.device.clearFaults();
    }
    stack.device.setScreen('settings_home' as never);
    await noSessionsLeft();
    await noLockFileLeft();
  }, 90_000);

  /** Until the tap's click request is on its way (the element was found; the click sits in its delay). */
  async function waitForClickPending(clicksBefore: number): Promise<void> {
    const since = stack.device.log().length;
    const deadline = Date.now() + 30_000;
    while (
      !stack.device
        .log()
        .slice(since)
        .some((e) => e.kind === 'uia2' && /\/element/.test(e.detail)) &&
      Date.now() < deadline
    )
      await sleepMs(20);
    await sleepMs(600);
    expect(stack.device.clicks().length, 'the click must still be pending').toBe(clicksBefore);
  }

  it('a client that disconnects mid-call: the call finishes, the device is free, nothing leaks', async () => {
    stack.device.injectFault({ kind: 'slow', target: 'uia2', match: '/click', delayMs: 3_000 });
    const clicksBefore = stack.device.clicks().length;
    try {
      const abort = new AbortController();
      const abandoned = modern(
        1,
        'tools/call',
        { name: 'ui_tap', arguments: { selector: { text: 'Apps' } } },
        { signal: abort.signal },
      );
      await waitForClickPending(clicksBefore);
      abort.abort();
      await expect(abandoned).rejects.toThrow();
      // The call runs on: the device stays owned until it ends (no second owner under it).
      const during = await modern(2, 'tools/call', { name: 'ui_get_tree', arguments: {} });
      expect(envelopeOf(during).error?.code).toBe('EMULATOR_BUSY');
      const deadline = Date.now() + 20_000;
      let next = await modern(3, 'tools/call', { name: 'ui_get_tree', arguments: {} });
      while (envelopeOf(next).error?.code === 'EMULATOR_BUSY' && Date.now() < deadline) {
        await sleepMs(200);
        next = await modern(3, 'tools/call', { name: 'ui_get_tree', arguments: {} });
      }
      expect(envelopeOf(next).ok, JSON.stringify(envelopeOf(next).error)).toBe(true);
      expect(stack.device.clicks().length, 'the abandoned tap finished its click').toBe(clicksBefore + 1);
    } finally {
      stack.device.clearFaults();
    }
    figures.survivedDisconnects += 1;
    await noSessionsLeft();
    await noLockFileLeft();
    stack.device.setScreen('settings_home' as never);
  }, 90_000);

  it('the MCP Inspector CLI lists the tools and calls one over /mcp; with a wrong token it gets nothing', async () => {
    const inspector = join(REPO_ROOT, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
    const env = {
      ...process.env,
      HOME: stack.scratch,
      MCP_CATALOG_PATH: join(stack.scratch, 'inspector-catalog.json'),
    };
    const run = (token: string, ...args: string[]): Promise<{ stdout: string; stderr: string }> =>
      promisify(execFile)(
        process.execPath,
        [inspector, '--cli', server.url, '--header', `Authorization: Bearer ${token}`, ...args],
        { env, timeout: 60_000 },
      );
    const listed = JSON.parse((await run(TOKEN, '--method', 'tools/list')).stdout) as { tools: { name: string }[] };
    expect(listed.tools).toHaveLength(TWELVE);
    const called = JSON.parse(
      (await run(TOKEN, '--method', 'tools/call', '--tool-name', 'emulator_get_status')).stdout,
    ) as { structuredContent: Envelope };
    expect(called.structuredContent.ok, JSON.stringify(called.structuredContent.error)).toBe(true);
    figures.accepted += 2;
    const refused = await run(`${TOKEN}-wrong`, '--method', 'tools/list').catch(
      (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
    );
    expect(refused.stdout + refused.stderr).not.toContain('emulator_get_status');
    refusedOnce('Inspector CLI, wrong token');
  }, 120_000);

  it('will not listen beyond loopback without a token of the user’s own, nor on a port in use', async () => {
    const env = stack.harnessEnv('http-refused', { XDG_CONFIG_HOME: `${stack.scratch}/config` });
    const wide = await runHttpHarnessToExit(env, ['--host', '0.0.0.0', '--port', String(await freePort())]);
    expect(wide.code).toBe(2);
    expect(wide.stderr).toMatch(/--host 0\.0\.0\.0 opens the port to other machines: set ANDROID_MCP_HTTP_TOKEN/);
    const taken = new URL(server.url).port;
    const inUse = await runHttpHarnessToExit({ ...env, ANDROID_MCP_HTTP_TOKEN: TOKEN }, ['--port', taken]);
    expect(inUse.code).toBe(2);
    expect(inUse.stderr).toMatch(new RegExp(`port ${taken} on 127\\.0\\.0\\.1 is already in use`));
    const usage = await runHttpHarnessToExit(env, ['--port', 'eighty']);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--port takes a number/);
  }, 60_000);
});

/**
 * The REST mirror over real HTTP on loopback. The built server (`serve --http`,
 * stopped by pid), the real adb, one real Appium 3 for the file and the virtual device. Every
 * route once; REST and MCP (/mcp, 2026-07-28) give the same envelope for the same capability on
 * the same screen; refusals (no token, coordinates, a foreign device id, traversal ids) with the
 * documented status; curl runs the README's example.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithAdb } from '../support/adbServer.js';
import { expectEvidence } from '../support/evidenceShape.js';
import type { HttpHarness } from '../support/httpHarness.js';
import { startHttpStack, type HttpStack } from '../support/httpStack.js';
import { modernToolCallText } from '../support/modernToolCall.js';
import { ensureBuilt } from '../support/rawServer.js';
import { sleepMs, type ReliabilityStack } from '../support/reliabilityStack.js';
import type { WireEnvelope as Envelope } from '../support/wireEnvelope.js';

const TOKEN = 'rest-test-token-0123456789abcdef';
const MODERN = '2026-07-28';
/** What ui_tap {text: 'Navigate up'} answers on the virtual device's Settings search screen, whose up button has only a content-desc. */
/** What used to read '(see <path>)'. */
const MESSAGE_NOT_JSON =
  "Invalid request body: it is not JSON. Send a JSON object of the tool's arguments (see /openapi.json).";
/** What used to say "The screen changed since ui_get_tree" for a ref never given. */
const MESSAGE_UNKNOWN_REF =
  'Ref e999 was never given by this server process: refs, like session ids, live only as long as the server that gave them ' +
  '(a client that starts a new server for each call cannot reuse them). Call ui_get_tree and send a ref from its answer. Nothing was tapped or typed.';
/** What used to say only `Unknown tool "app_install"`. */
const MESSAGE_TOOLSET_OFF =
  'Unknown tool "app_install": it belongs to the toolset \'apps\', which is off. Start the server with --toolsets apps (or ANDROID_MCP_TOOLSETS=apps), ' +
  'then reconnect to see it. The tools now are: emulator_get_status, ui_get_tree, screen_capture, app_list_installed, app_open, ui_session_open, ' +
  'ui_session_close, ui_tap, ui_type_text, ui_scroll, device_back, settings_open_apps.';
const NAVIGATE_UP_MISS =
  "No visible element matched text 'Navigate up' before timeout. 'Navigate up' is its content_desc here, not its text: send " +
  '{"content_desc":"Navigate up"} (or its ref from ui_get_tree). The screen offers: \'Navigate up\' (button), \'Search settings\' (input).';

interface RestAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly envelope: Envelope;
}

describeWithAdb('the REST mirror beside /mcp', () => {
  let http: HttpStack;
  let stack: ReliabilityStack;
  let server: HttpHarness;
  let base: string;

  beforeAll(async () => {
    ensureBuilt();
    http = await startHttpStack({
      tag: 'rest',
      token: TOKEN,
      env: {
        ANDROID_MCP_ACTION_TIMEOUT: '15',
        ANDROID_MCP_CONNECT_TIMEOUT: '30',
        // Each action closes its session, so the next observation is a plain dump, REST or MCP alike.
        ANDROID_MCP_WARM_SESSION_TIMEOUT: '0',
      },
    });
    ({ stack, server, base } = http);
  }, 180_000);

  afterAll(async () => {
    await http?.stop();
  }, 60_000);

  async function rest(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
  ): Promise<RestAnswer> {
    const init: RequestInit = {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    };
    if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
    const response = await fetch(`${base}${path}`, init);
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, envelope: JSON.parse(text || '{}') as Envelope };
  }

  /** tools/call over /mcp (2026-07-28, no handshake): the envelope's text block, exactly as sent. */
  const mcpText = (name: string, args: Record<string, unknown>): Promise<string> =>
    modernToolCallText(server.url, TOKEN, name, args);

  /**
   * The bytes of an envelope with its operation id and times blanked (what two calls never share:
   * `held_by.since` is the call's own start).
   */
  // Each call has its own operation id, and each screen read its own read id (r1, r2, …).
  const sameBut = (text: string): string =>
    text
      .replace(/"operation_id":"[^"]+"/, '"operation_id":"-"')
      .replace(/"since":"[^"]+"/g, '"since":"-"')
      .replace(/"read":"r[0-9a-z]+"/g, '"read":"-"');

  function expectOk(answer: RestAnswer): Envelope {
    expect(answer.status, answer.text.slice(0, 400)).toBe(200);
    expect(answer.envelope.ok).toBe(true);
    return answer.envelope;
  }

  it('GET /devices and GET /devices/{id}: the same envelopes as device_list and emulator_get_status', async () => {
    const listed = await rest('GET', '/devices');
    const devices = expectOk(listed);
    expect(devices.tool).toBe('device_list');
    expect(
      (devices.data.devices as { serial: string; configured: boolean }[]).find((d) => d.serial === stack.serial)
        ?.configured,
    ).toBe(true);
    const status = await rest('GET', `/devices/${stack.serial}`);
    expect(expectOk(status).data.udid).toBe(stack.serial);
    // One name for the device: the model as the status reads it (adb's listing writes "Virtual_Pixel_7").
    expect(
      (devices.data.devices as { serial: string; model: string | null }[]).find((d) => d.serial === stack.serial)
        ?.model,
    ).toBe(status.envelope.data.model);
    expect(status.envelope.data.model).toBe('Virtual Pixel 7');
    expect(sameBut(status.text)).toBe(sameBut(await mcpText('emulator_get_status', {})));
    // device_list is not in the default MCP catalogue (toolset device): the REST mirror has it all the same.
    expect(listed.text).toBe(JSON.stringify(devices));
  }, 60_000);

  it('GET /devices/{id}/tree: byte for byte ui_get_tree’s envelope on the same screen (refs included)', async () => {
    stack.device.setScreen('settings_home' as never);
    const tree = await rest('GET', `/devices/${stack.serial}/tree`);
    expect(expectOk(tree).tool).toBe('ui_get_tree');
    expect(JSON.stringify(tree.envelope.data)).toContain('"text":"Apps"');
    expect(sameBut(tree.text)).toBe(sameBut(await mcpText('ui_get_tree', {})));
    // The query string is checked by the tool's own validation: "yes" is not a boolean.
    const invalid = await rest('GET', `/devices/${stack.serial}/tree?include_raw=yes`);
    expect(invalid.status).toBe(400);
    expect(invalid.envelope.error?.code).toBe('INVALID_ARGUMENT');
    expect(sameBut(invalid.text)).toBe(sameBut(await mcpText('ui_get_tree', { include_raw: 'yes' })));
    const raw = expectOk(await rest('GET', `/devices/${stack.serial}/tree?include_raw=true`));
    expect(String(raw.data.ui_tree)).toContain('<hierarchy');
  }, 60_000);

  it('POST tap (selector, then a ref from the tree), back, scroll, type, launch: each acts on the device once', async () => {
    stack.device.setScreen('settings_home' as never);
    const clicks = stack.device.clicks().length;
    const tap = expectOk(await rest('POST', `/devices/${stack.serial}/tap`, { selector: { text: 'Apps' } }));
    expect(tap.tool).toBe('ui_tap');
    expectEvidence(tap.evidence, 'ui-tap', (id) => existsSync(join(stack.artifactsDir, id)));
    expect(stack.device.clicks().length).toBe(clicks + 1);
    expect(stack.device.currentScreen().screenId).toBe('settings_apps');

    const back = expectOk(await rest('POST', `/devices/${stack.serial}/back`));
    expect(back.tool).toBe('device_back');
    expect(stack.device.currentScreen().screenId).toBe('settings_home');

    const tree = expectOk(await rest('GET', `/devices/${stack.serial}/tree`));
    // Flat entries: the selector keys beside the ref; no bounds unless asked for.
    const apps = (tree.data.actions as { ref?: string; text?: string; bounds?: unknown }[]).find(
      (entry) => entry.text === 'Apps',
    );
    expect(apps?.bounds).toBeUndefined();
    const audited = expectOk(await rest('GET', `/devices/${stack.serial}/tree?include_bounds=true`));
    expect((audited.data.actions as { bounds?: unknown }[]).every((entry) => Array.isArray(entry.bounds))).toBe(true);
    expect(apps?.ref).toMatch(/^e[0-9a-z]+$/);
    expectOk(await rest('POST', `/devices/${stack.serial}/tap`, { selector: { ref: apps!.ref } }));
    expect(stack.device.currentScreen().screenId).toBe('settings_apps');
    expectOk(await rest('POST', `/devices/${stack.serial}/back`, {}));

    const scroll = expectOk(await rest('POST', `/devices/${stack.serial}/scroll`, { direction: 'down' }));
    expect(scroll.tool).toBe('ui_scroll');
    expect(scroll.data.direction).toBe('down');

    stack.device.setScreen('notes_main' as never);
    const typed = expectOk(
      await rest('POST', `/devices/${stack.serial}/type`, { selector: { input_hint: 'Title' }, text: 'Milk' }),
    );
    expect(typed.data).toMatchObject({ characters_sent: 4, foreground_package: 'com.example.notes' });
    expect(stack.device.nodes().find((n) => n.hint === 'Title')?.editableText).toBe('Milk');

    const launch = expectOk(
      await rest('POST', `/devices/${stack.serial}/launch`, { package_name: 'com.android.settings' }),
    );
    expect(launch.data).toMatchObject({
      opened_package: 'com.android.settings',
      foreground_package: 'com.android.settings',
    });
    const missing = await rest('POST', `/devices/${stack.serial}/launch`, { package_name: 'com.example.absent' });
    expect(missing.status).toBe(404);
    expect(missing.envelope.error?.code).toBe('APP_NOT_FOUND');
  }, 120_000);

  it('POST screenshot, then GET /artifacts/{id}: the PNG the harness wrote, byte for byte', async () => {
    const shot = expectOk(await rest('POST', `/devices/${stack.serial}/screenshot`));
    expect(shot.tool).toBe('screen_capture');
    // The id alone names the file: the same name in the evidence directory and under /artifacts/.
    const id = expectEvidence(shot.evidence, 'screen', (name) => existsSync(join(stack.artifactsDir, name)));
    const response = await fetch(`${base}/artifacts/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(bytes.equals(readFileSync(join(stack.artifactsDir, id)))).toBe(true);
  }, 60_000);

  it('refuses: no token 401; coordinates 400 INVALID_SELECTOR in a selector, INVALID_ARGUMENT at the top (nothing tapped); a foreign device id 404; unknown keys 400', async () => {
    const anonymous = await rest('GET', '/devices', undefined, {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    // A REST client gets the REST refusal with a typed code, not a JSON-RPC error (that is /mcp's shape).
    expect(JSON.parse(anonymous.text)).toEqual({
      ok: false,
      error: {
        code: 'UNAUTHORIZED',
        message:
          'Unauthorized: send `Authorization: Bearer <token>` (ANDROID_MCP_HTTP_TOKEN, or the token file the server named at start).',
      },
    });
    const wrong = await rest(
      'POST',
      `/devices/${stack.serial}/tap`,
      { selector: { text: 'Apps' } },
      { authorization: 'Bearer wrong-token-0123456789' },
    );
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.text)).toEqual({
      ok: false,
      error: {
        code: 'UNAUTHORIZED',
        message:
          'Unauthorized: the bearer token is wrong. Use the one in ANDROID_MCP_HTTP_TOKEN or in the token file the server named at start.',
      },
    });
    // The shape says nothing about which paths exist: an unknown path is refused alike; /mcp answers JSON-RPC.
    expect((await rest('GET', '/no-such-path', undefined, {})).text).toBe(anonymous.text);
    const mcp = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(mcp.status).toBe(401);
    expect(await mcp.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });

    stack.device.setScreen('settings_home' as never);
    const clicks = stack.device.clicks().length;
    const logBefore = stack.device.log().length;
    // include_bounds is an observing tool's output flag: an acting tool refuses it as a position.
    // A position inside a selector is the selector's refusal; one at the top is an argument the tool does not take.
    for (const [body, code] of [
      [{ selector: { x: 540, y: 1200 } }, 'INVALID_SELECTOR'],
      [{ selector: { text: 'Apps' }, x: 540, y: 1200 }, 'INVALID_ARGUMENT'],
      [{ x: 540, y: 1200 }, 'INVALID_ARGUMENT'],
      [{ selector: { text: 'Apps', bounds: [0, 0, 10, 10] } }, 'INVALID_SELECTOR'],
      [{ selector: { text: 'Apps' }, include_bounds: true }, 'INVALID_ARGUMENT'],
    ] as const) {
      const answer = await rest('POST', `/devices/${stack.serial}/tap`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.envelope.error?.code, JSON.stringify(body)).toBe(code);
      expect(answer.envelope.tool).toBe('ui_tap');
    }
    // The same refusal, byte for byte, as the tool's over MCP.
    const coordinate = await rest('POST', `/devices/${stack.serial}/tap`, { selector: { x: 540, y: 1200 } });
    expect(sameBut(coordinate.text)).toBe(sameBut(await mcpText('ui_tap', { selector: { x: 540, y: 1200 } })));
    const unknownKey = await rest('POST', `/devices/${stack.serial}/tap`, { selector: { text: 'Apps' }, force: true });
    expect(unknownKey.status).toBe(400);
    expect(unknownKey.envelope.error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: "Invalid argument 'force': ui_tap takes only selector, long_press, observe, session_id.",
    });
    // Over MCP the same key is refused the same way (it used to be ignored there).
    expect(sameBut(unknownKey.text)).toBe(
      sameBut(await mcpText('ui_tap', { selector: { text: 'Apps' }, force: true })),
    );
    expect((await rest('POST', `/devices/${stack.serial}/tap`, '{not json')).envelope.error?.code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(stack.device.clicks().length, 'nothing was tapped').toBe(clicks);
    expect(stack.device.log().length, 'nothing reached the device').toBe(logBefore);

    const foreign = await rest('POST', '/devices/emulator-5556/tap', { selector: { text: 'Apps' } });
    expect(foreign.status).toBe(404);
    expect(foreign.envelope.error?.code).toBe('EMULATOR_UNAVAILABLE');
    expect(foreign.envelope.error?.message).toContain("No allowed online device is named 'emulator-5556'");
    expect((await rest('GET', '/devices/emulator-5556/tree')).status).toBe(404);
    expect(stack.device.clicks().length).toBe(clicks);
    expect((await rest('DELETE', `/devices/${stack.serial}/tap`)).status).toBe(405);
    // A path no route serves, with the token: a typed NOT_FOUND naming the routes there are.
    for (const unknown of ['/devices/x/unknown', '/no-such-path']) {
      const answer = await rest('GET', unknown);
      expect(answer.status, unknown).toBe(404);
      expect(JSON.parse(answer.text), unknown).toMatchObject({
        ok: false,
        error: { code: 'NOT_FOUND', message: expect.stringContaining('/openapi.json') as unknown },
      });
    }
  }, 60_000);

  it('a miss by text on what the screen offers as content_desc says which key to send, word for word, over REST and MCP alike', async () => {
    stack.device.setScreen('settings_search' as never);
    const clicks = stack.device.clicks().length;
    const miss = await rest('POST', `/devices/${stack.serial}/tap`, { selector: { text: 'Navigate up' } });
    expect(miss.status).toBe(404);
    expect(miss.envelope.error).toEqual({ code: 'UI_ELEMENT_NOT_FOUND', message: NAVIGATE_UP_MISS });
    // Over MCP the same error (each miss writes its own failure screenshot).
    expect((JSON.parse(await mcpText('ui_tap', { selector: { text: 'Navigate up' } })) as Envelope).error).toEqual(
      miss.envelope.error,
    );
    expect(stack.device.clicks().length, 'nothing was tapped').toBe(clicks);
    expect(stack.device.currentScreen().screenId).toBe('settings_search');
    // The selector it names works as sent.
    expectOk(await rest('POST', `/devices/${stack.serial}/tap`, { selector: { content_desc: 'Navigate up' } }));
    expect(stack.device.currentScreen().screenId).not.toBe('settings_search');
  }, 90_000);

  it('messages that used to mislead, word for word: a body that is not JSON, a ref this server never gave, a tool of a toolset that is off', async () => {
    const clicks = stack.device.clicks().length;
    const notJson = await rest('POST', `/devices/${stack.serial}/tap`, '{not json');
    expect(notJson.status).toBe(400);
    expect(notJson.envelope.error?.message).toBe(MESSAGE_NOT_JSON);
    const started = Date.now();
    const unknownRef = await rest('POST', `/devices/${stack.serial}/tap`, { selector: { ref: 'e999' } });
    expect(unknownRef.envelope.error).toEqual({ code: 'STALE_REF', message: MESSAGE_UNKNOWN_REF });
    // Refused before Appium, the lock screen read or a failure screenshot.
    expect(unknownRef.envelope.evidence).toBeNull();
    // Real clock (the server is its own process): no Appium session or device read before the refusal, each of
    // which takes seconds here; 5 s is room for a loaded runner, the evidence check above is the sharp one.
    expect(Date.now() - started).toBeLessThan(5_000);
    const off = await fetch(server.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'app_install',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'app_install',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    const answer = (await off.json()) as { error?: { message: string } };
    expect(answer.error?.message).toBe(MESSAGE_TOOLSET_OFF);
    expect(stack.device.clicks().length).toBe(clicks);
  }, 60_000);

  it('refuses traversal ids on /artifacts (400, never read) and an unknown well-shaped id (404)', async () => {
    const statusOf = async (path: string): Promise<number> =>
      (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).status;
    for (const id of [
      '..%2F..%2Fpackage.json',
      '%2e%2e%2fREADME.md',
      '20260101-000000-000001-screen.png%2F..%2F..%2FLICENSE',
      '%2Fetc%2Fpasswd',
      'README.md',
      '20260101-000000-000001-screen.png%00',
    ]) {
      const response = await fetch(`${base}/artifacts/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status, id).toBe(400);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message, id).toMatch(/refused to read that uri, it is not an artifact id/);
      expect(body.error.message).not.toContain('passwd');
    }
    // fetch normalises dot segments itself: the request is for /etc/passwd, which is no route.
    expect(await statusOf('/artifacts/../../etc/passwd')).toBe(404);
    expect(await statusOf('/artifacts/20200101-000000-000001-screen.png')).toBe(404);
  }, 30_000);

  it('two REST clients at once: one owner, the other 409 EMULATOR_BUSY at once', async () => {
    stack.device.setScreen('settings_home' as never);
    stack.device.injectFault({ kind: 'slow', target: 'uia2', match: '/click', delayMs: 3_000 });
    try {
      const first = rest('POST', `/devices/${stack.serial}/tap`, { selector: { text: 'Apps' } });
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
      const second = await rest('POST', `/devices/${stack.serial}/tap`, { selector: { text: 'Apps' } });
      expect(second.status).toBe(409);
      expect(second.envelope.error?.code).toBe('EMULATOR_BUSY');
      expectOk(await first);
    } finally {
      stack.device.clearFaults();
    }
  }, 90_000);

  it('leaves nothing behind: no Appium session, no lock file, once the calls have answered', async () => {
    const deadline = Date.now() + 20_000;
    let sessions = await stack.appium!.sessionIds();
    let locks = readdirSync(stack.lockDir);
    while ((sessions.length > 0 || locks.length > 0) && Date.now() < deadline) {
      await sleepMs(250);
      sessions = await stack.appium!.sessionIds();
      locks = readdirSync(stack.lockDir);
    }
    expect(sessions).toEqual([]);
    expect(locks).toEqual([]);
  }, 30_000);

  it('the README’s curl example works', async () => {
    stack.device.setScreen('settings_home' as never);
    const run = promisify(execFile);
    const status = await run(
      'curl',
      ['-sS', '-H', `Authorization: Bearer ${TOKEN}`, `${base}/devices/${stack.serial}`],
      { timeout: 30_000 },
    );
    expect((JSON.parse(status.stdout) as Envelope).data.udid).toBe(stack.serial);
    const tap = await run(
      'curl',
      [
        '-sS',
        '-w',
        '\\n%{http_code}',
        '-H',
        `Authorization: Bearer ${TOKEN}`,
        '-H',
        'Content-Type: application/json',
        '-d',
        '{"selector": {"text": "Apps"}}',
        `${base}/devices/${stack.serial}/tap`,
      ],
      { timeout: 30_000 },
    );
    const [json, code] = tap.stdout.split('\n');
    expect(code).toBe('200');
    expect((JSON.parse(json!) as Envelope).data.target).toEqual({ text: 'Apps' });
    expect(stack.device.currentScreen().screenId).toBe('settings_apps');
  }, 60_000);
});

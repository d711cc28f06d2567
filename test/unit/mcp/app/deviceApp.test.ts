import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { appsNegotiated } from '../../../../src/mcp/app/appExtension.js';
import { APP_DATA_KEY, DEVICE_APP_URI, type DeviceAppData } from '../../../../src/mcp/app/DeviceApp.js';
import { TRACE_VIEWER_URI } from '../../../../src/mcp/app/deviceView.js';
import { buildHarness, drive, type TestHarness } from '../../../support/fakes/harness.js';

const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

async function connected(capabilities: Record<string, unknown>, h: TestHarness = buildHarness()) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await h.container.server.connect(serverSide);
  const client = new Client({ name: 'unit-test', version: '1.0.0' }, { capabilities });
  await client.connect(clientSide);
  cleanup = async () => {
    await client.close();
    await h.container.server.close();
  };
  return { client, h };
}

async function call(client: Client, h: TestHarness, name: string, args: Record<string, unknown> = {}) {
  return (await drive(h.clock, client.callTool({ name, arguments: args }))) as CallToolResult;
}

function appData(result: CallToolResult): DeviceAppData {
  const data = (result._meta as Record<string, unknown> | undefined)?.[APP_DATA_KEY];
  if (!data) throw new Error(`no app data in ${JSON.stringify(Object.keys(result))}`);
  return data as DeviceAppData;
}

describe('MCP Apps: the negotiation', () => {
  it('is on only for the extension with the HTML profile', () => {
    expect(appsNegotiated(APPS)).toBe(true);
    expect(appsNegotiated({})).toBe(false);
    expect(appsNegotiated(undefined)).toBe(false);
    expect(appsNegotiated({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html'] } } })).toBe(false);
    expect(appsNegotiated({ extensions: { 'io.modelcontextprotocol/ui': {} } })).toBe(false);
  });
});

describe('MCP Apps: the device app', () => {
  it('leaves a client without the extension exactly the answers it had', async () => {
    const { client, h } = await connected({});
    const { tools } = await client.listTools();
    expect(tools.some((tool) => '_meta' in tool)).toBe(false);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).not.toContain(DEVICE_APP_URI);
    const result = await call(client, h, 'ui_tap', { selector: { text: 'Calendar' } });
    expect(result._meta).toBeUndefined();
  });

  it('links the screen tools to one ui:// app, served as the MCP Apps HTML with no outside origin', async () => {
    const { client } = await connected(APPS);
    const { tools } = await client.listTools();
    const linked = tools.filter((tool) => tool._meta !== undefined).map((tool) => tool.name);
    expect(linked).toEqual([
      'ui_get_tree',
      'screen_capture',
      'app_open',
      'ui_tap',
      'ui_type_text',
      'ui_scroll',
      'device_back',
      'settings_open_apps',
    ]);
    for (const tool of tools.filter((t) => t._meta))
      expect(tool._meta).toEqual({ ui: { resourceUri: DEVICE_APP_URI }, 'ui/resourceUri': DEVICE_APP_URI });
    const { resources } = await client.listResources();
    expect(resources[0]).toMatchObject({ uri: DEVICE_APP_URI, mimeType: 'text/html;profile=mcp-app' });
    const read = await client.readResource({ uri: DEVICE_APP_URI });
    const page = read.contents[0] as { text: string; mimeType: string; _meta: unknown };
    expect(page.mimeType).toBe('text/html;profile=mcp-app');
    expect(page._meta).toEqual({ ui: { csp: {}, prefersBorder: true } });
    expect(page.text.startsWith('<!DOCTYPE html>')).toBe(true);
    // Nothing fetched from anywhere: no src or href that is not data: or a fragment.
    expect(page.text).not.toMatch(/\b(src|href)\s*=\s*["'](?!data:|#)/);
    expect(page.text).not.toMatch(/https?:\/\//);
  });

  it('carries the screen in _meta, never in what the model reads', async () => {
    const { client, h } = await connected(APPS);
    const result = await call(client, h, 'device_back');
    const data = appData(result);
    expect(data.step).toMatchObject({ step: 1, tool: 'device_back', ok: true });
    expect(data.screen?.step).toBe(1);
    expect(Buffer.from(data.screen!.png, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const text = result.content.find((c) => c.type === 'text');
    expect(text && 'text' in text ? text.text : '').toBe(JSON.stringify(result.structuredContent));
    expect(JSON.stringify(result.content)).not.toContain(data.screen!.png.slice(0, 40));
    expect(JSON.stringify(result.structuredContent)).not.toContain(data.screen!.png.slice(0, 40));
  });

  it('never carries typed text, and shows a refusal as a failed step', async () => {
    const { client, h } = await connected(APPS);
    const typed = appData(
      await call(client, h, 'ui_type_text', { selector: { text: 'Calendar' }, text: 'secret-words' }),
    );
    expect(JSON.stringify(typed)).not.toContain('secret-words');
    expect(typed.step.target).toContain('12 characters');
    const refused = appData(await call(client, h, 'ui_tap', { selector: { ref: 'e999' } }));
    expect(refused.step.ok).toBe(false);
    expect(refused.step.code).toMatch(/^[A-Z_]+$/);
  });

  it('answers the trace viewer page when the run keeps a trace, and says what to do when it does not', async () => {
    const { client } = await connected(APPS);
    await expect(client.readResource({ uri: TRACE_VIEWER_URI })).rejects.toThrow(
      /no trace of this run.*ANDROID_MCP_TRACE/,
    );
  });
});

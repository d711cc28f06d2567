import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { buildLocator } from '../../../src/domain/selectors/locator.js';
import { parseSelector } from '../../../src/domain/validation.js';
import { SERVER_NAME } from '../../../src/mcp/HarnessMcpServer.js';
import { TOOL_NAMES } from '../../../src/mcp/tools/index.js';
import { buildHarness, drive, type TestHarness } from '../../support/fakes/harness.js';
import { launcherDump, settingsAppsDump } from '../../support/fakes/screens.js';

const NAME_RULE = /^[a-zA-Z0-9_-]{1,64}$/;
const OBSERVERS = ['emulator_get_status', 'ui_get_tree', 'screen_capture', 'app_list_installed'];
const ENVELOPE_KEYS = ['data', 'error', 'evidence', 'ok', 'operation_id', 'tool'];

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

async function connected(h: TestHarness = buildHarness()): Promise<{ client: Client; h: TestHarness }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await h.container.server.connect(serverSide);
  const client = new Client({ name: 'unit-test', version: '1.0.0' });
  await client.connect(clientSide);
  cleanup = async () => {
    await client.close();
    await h.container.server.close();
  };
  return { client, h };
}

function envelope(result: CallToolResult): Record<string, unknown> {
  return result.structuredContent as Record<string, unknown>;
}

describe('MCP server', () => {
  it('introduces itself with its name, version and instructions that teach the loop', async () => {
    const { client } = await connected();
    expect(client.getServerVersion()).toMatchObject({
      name: SERVER_NAME,
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain('ui_get_tree');
    expect(instructions).toContain('selector');
    // What moved: false means; how to name a container and what bounds are for: in the schemas.
    expect(instructions).toMatch(/`scrollables`.*moved: false/);
    expect(instructions).toContain('ui_session_open');
    const { tools } = await client.listTools();
    const property = (tool: string, name: string) =>
      (tools.find((t) => t.name === tool)?.inputSchema.properties as Record<string, { description?: string }>)[name]
        ?.description;
    expect(property('ui_scroll', 'selector')).toMatch(/scrollables/);
    expect(property('ui_get_tree', 'include_bounds')).toMatch(/bounds.*audit/);
  });

  it('lists exactly the twelve tools, in contract order, each fully described', async () => {
    const { client } = await connected();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    for (const tool of tools) {
      expect(tool.name).toMatch(NAME_RULE);
      expect(tool.title, tool.name).toBeTruthy();
      expect((tool.description ?? '').length, tool.name).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.outputSchema?.required).toEqual(expect.arrayContaining(ENVELOPE_KEYS));
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(OBSERVERS.includes(tool.name));
      expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
    }
    const tap = tools.find((t) => t.name === 'ui_tap');
    expect(tap?.inputSchema.required).toEqual(['selector']);
    expect(Object.keys(tap?.inputSchema.properties ?? {})).toEqual(['selector', 'long_press', 'observe', 'session_id']);
    // Four directions and an optional container, named like ui_tap's target.
    const scroll = tools.find((t) => t.name === 'ui_scroll');
    expect(scroll?.inputSchema.required).toEqual(['direction']);
    expect(Object.keys(scroll?.inputSchema.properties ?? {})).toEqual([
      'direction',
      'selector',
      'observe',
      'session_id',
    ]);
    expect((scroll?.inputSchema.properties as Record<string, { enum?: unknown }>).direction?.enum).toEqual([
      'up',
      'down',
      'left',
      'right',
    ]);
    // Published as a bare object (schemas.ts says why); the domain validates it as ui_tap's selector.
    expect((scroll?.inputSchema.properties as Record<string, unknown>).selector).toEqual({
      type: 'object',
      description: expect.any(String),
    });
  });

  it('every tool answers the one envelope, as structuredContent and as compact JSON text', async () => {
    const h = buildHarness();
    h.automation.elements.set(buildLocator(parseSelector({ text: 'Calendar' })).value, 'Calendar');
    h.device.onStart = (component) => {
      const pkg = component.split('/')[0] ?? null;
      h.device.foreground = pkg;
      h.device.dump = pkg === 'com.example.app' ? launcherDump(pkg) : settingsAppsDump();
    };
    const { client } = await connected(h);
    const calls: [string, Record<string, unknown>][] = [
      ['emulator_get_status', {}],
      ['ui_get_tree', {}],
      ['screen_capture', {}],
      ['app_list_installed', {}],
      ['app_open', { package_name: 'com.example.app' }],
      ['settings_open_apps', {}],
      ['ui_tap', { selector: { text: 'Calendar' } }],
      ['ui_type_text', { selector: { text: 'Calendar' }, text: 'abc' }],
      ['ui_scroll', { direction: 'down' }],
      ['device_back', {}],
      ['ui_session_open', {}],
    ];
    const seen = new Set<string>();
    const ids = new Set<string>();
    let sessionId = '';
    for (const [name, args] of calls) {
      // device_back reads the foreground until it settles, which takes (fake) time.
      const result = (await drive(h.clock, client.callTool({ name, arguments: args }))) as CallToolResult;
      const env = envelope(result);
      expect(Object.keys(env).sort(), name).toEqual(ENVELOPE_KEYS);
      expect(env.ok, `${name}: ${JSON.stringify(env.error)}`).toBe(true);
      expect(env.tool).toBe(name);
      expect(env.error).toBeNull();
      expect(result.isError).toBeFalsy();
      const text = result.content.find((c) => c.type === 'text');
      expect(text && 'text' in text ? text.text : '').toBe(JSON.stringify(env));
      ids.add(String(env.operation_id));
      seen.add(name);
      if (name === 'ui_session_open') sessionId = String((env.data as { session_id: string }).session_id);
    }
    const close = (await client.callTool({
      name: 'ui_session_close',
      arguments: { session_id: sessionId },
    })) as CallToolResult;
    expect(envelope(close)).toMatchObject({ ok: true, data: { closed: true } });
    seen.add('ui_session_close');
    ids.add(String(envelope(close).operation_id));
    expect([...seen].sort()).toEqual([...TOOL_NAMES].sort());
    expect(ids.size).toBe(TOOL_NAMES.length);
  });

  it('a failure is isError with data {} and a typed error, never the SDK validation error', async () => {
    const { client } = await connected();
    const result = (await client.callTool({
      name: 'ui_tap',
      arguments: { selector: { text: 'a', content_desc: 'b' } },
    })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(envelope(result)).toMatchObject({
      ok: false,
      tool: 'ui_tap',
      data: {},
      evidence: null,
      error: { code: 'INVALID_SELECTOR' },
    });
    const wrongType = (await client.callTool({ name: 'ui_scroll', arguments: { direction: 3 } })) as CallToolResult;
    expect(envelope(wrongType)).toMatchObject({ error: { code: 'INVALID_SCROLL_DIRECTION' } });
  });

  it('an unknown tool is a JSON-RPC error listing the real ones', async () => {
    const { client } = await connected();
    await expect(client.callTool({ name: 'ui.tap', arguments: {} })).rejects.toThrow(/Unknown tool.*ui_tap/);
  });

  it('its own JSON-RPC errors reach the client with the "MCP error <code>:" prefix once, not twice', async () => {
    const { client } = await connected();
    type Caught = Error & { code?: number };
    const caught = (promise: Promise<unknown>): Promise<Caught> =>
      promise.then(
        () => new Error('no error') as Caught,
        (error: unknown) => error as Caught,
      );
    const unknownTool = await caught(client.callTool({ name: 'ui.tap', arguments: {} }));
    expect(unknownTool.code).toBe(-32602);
    expect(unknownTool.message).toMatch(/^MCP error -32602: Unknown tool "ui\.tap"\. The tools are: /);
    const refused = await caught(client.readResource({ uri: 'artifact://../../etc/passwd' }));
    expect(refused.message).toMatch(/^MCP error -32602: INVALID_ARGUMENT: refused to read that uri, it is not/);
    const unknown = await caught(client.readResource({ uri: 'artifact://20261130-171203-000000-screen.png' }));
    expect(unknown.message).toMatch(
      /^MCP error -32002: ARTIFACT_NOT_FOUND: There is no evidence file artifact:\/\/20261130-171203-000000-screen\.png /,
    );
  });

  it('screen_capture adds an image block', async () => {
    const { client } = await connected();
    const result = (await client.callTool({ name: 'screen_capture', arguments: {} })) as CallToolResult;
    expect(result.content.map((c) => c.type)).toEqual(['text', 'image']);
    expect(result.content[1]).toMatchObject({ mimeType: 'image/png' });
  });

  it('publishes the artifact template and lists the artifacts it wrote', async () => {
    const { client } = await connected();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'artifact://{artifact_id}', mimeType: 'image/png' }),
    ]);
    const captured = envelope((await client.callTool({ name: 'screen_capture', arguments: {} })) as CallToolResult);
    // The answer names the file by its id alone; the resource is artifact://<that id>.
    expect(captured.evidence).toEqual({ artifact_id: expect.stringMatching(/-screen\.png$/) });
    const uri = `artifact://${(captured.evidence as { artifact_id: string }).artifact_id}`;
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([uri]);
    const read = await client.readResource({ uri });
    expect(read.contents[0]).toMatchObject({ uri, mimeType: 'image/png' });
  });
});

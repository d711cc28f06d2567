import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { SERVER_INSTRUCTIONS, serverInstructions } from '../../../src/mcp/instructions.js';
import { allTools, createTools, TOOL_NAMES } from '../../../src/mcp/tools/index.js';
import { parseToolsets, TOOLSET_NAMES, ToolsetsError } from '../../../src/domain/toolsets.js';
import { buildHarness } from '../../support/fakes/harness.js';

describe('parseToolsets', () => {
  it('is core alone when unset or blank', () => {
    expect(parseToolsets(undefined, 'X')).toEqual(['core']);
    expect(parseToolsets('  ', 'X')).toEqual(['core']);
  });

  it('always adds core, ignores case, spaces and repeats, and follows the canonical order', () => {
    expect(parseToolsets(' Wait , device,wait', 'X')).toEqual(['core', 'device', 'wait']);
    expect(parseToolsets('core', 'X')).toEqual(['core']);
  });

  it('expands all to every toolset', () => {
    expect(parseToolsets('all', 'X')).toEqual([...TOOLSET_NAMES]);
    expect(parseToolsets('apps,all', 'X')).toEqual([...TOOLSET_NAMES]);
  });

  it('refuses an unknown name, naming it, where it came from, and the valid choices', () => {
    expect(() => parseToolsets('device,devices', 'ANDROID_MCP_TOOLSETS')).toThrow(ToolsetsError);
    expect(() => parseToolsets('device,devices', 'ANDROID_MCP_TOOLSETS')).toThrow(
      /^ANDROID_MCP_TOOLSETS: unknown toolset "devices"\. The toolsets are: core, apps, device, wait, diagnostics, all/,
    );
    expect(() => parseToolsets('$(reboot)', '--toolsets')).toThrow(/--toolsets: unknown toolset "\$\(reboot\)"/);
  });

  it('is read from ANDROID_MCP_TOOLSETS by loadConfig, which throws only for it', () => {
    expect(loadConfig({ ANDROID_MCP_TOOLSETS: 'wait' }, () => undefined).toolsets).toEqual(['core', 'wait']);
    expect(() => loadConfig({ ANDROID_MCP_TOOLSETS: 'nope' }, () => undefined)).toThrow(ToolsetsError);
  });
});

describe('the catalogue per toolset', () => {
  const services = buildHarness().container.services;

  it('every tool declares a known toolset; core is exactly the twelve, in contract order', () => {
    const tools = allTools(services);
    for (const tool of tools) expect(TOOLSET_NAMES, tool.name).toContain(tool.toolset);
    expect(tools.filter((t) => t.toolset === 'core').map((t) => t.name)).toEqual([...TOOL_NAMES]);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  });

  it('offers the twelve by default and, per toolset, the twelve plus exactly that set', () => {
    expect(createTools(services).map((t) => t.name)).toEqual([...TOOL_NAMES]);
    for (const name of TOOLSET_NAMES) {
      const on = createTools(services, parseToolsets(name, 'X'));
      expect(on.map((t) => t.name)).toEqual(
        allTools(services)
          .filter((t) => t.toolset === 'core' || t.toolset === name)
          .map((t) => t.name),
      );
    }
    expect(createTools(services, parseToolsets('all', 'X'))).toHaveLength(allTools(services).length);
  });

  it('the instructions are the core ones alone by default and name only tools that are on', () => {
    expect(serverInstructions(['core'])).toBe(SERVER_INSTRUCTIONS);
    const everything = allTools(services).map((t) => t.name);
    for (const name of TOOLSET_NAMES) {
      const toolsets = parseToolsets(name, 'X');
      const on = new Set(createTools(services, toolsets).map((t) => t.name));
      const text = serverInstructions(toolsets);
      for (const tool of everything)
        if (!on.has(tool)) expect(text, `${name} mentions ${tool}`).not.toMatch(new RegExp(`\\b${tool}\\b`));
    }
  });
});

describe('the server with toolsets', () => {
  it('lists only the tools that are on and refuses the others as unknown', async () => {
    const h = buildHarness({ toolsets: ['core'] });
    await expect(h.call('device_list')).rejects.toThrow(/Unknown tool "device_list"/);
  });

  it('a tool of a toolset that is off: the answer names the toolset and how to turn it on', async () => {
    const h = buildHarness({ toolsets: ['core'] });
    await expect(h.call('app_install')).rejects.toThrow(
      'Unknown tool "app_install": it belongs to the toolset \'apps\', which is off. Start the server with --toolsets apps (or ANDROID_MCP_TOOLSETS=apps), then reconnect to see it. The tools now are: emulator_get_status,',
    );
    await expect(h.call('no_such_tool')).rejects.toThrow(
      /^(MCP error -32602: )?Unknown tool "no_such_tool"\. The tools are: /,
    );
  });
});

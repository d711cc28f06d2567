import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { publishTool } from '../../../src/mcp/HarnessMcpServer.js';
import { allTools } from '../../../src/mcp/tools/index.js';
import { buildHarness } from '../../support/fakes/harness.js';

/**
 * The published shape of every tool of every toolset (names, types, required keys, annotations,
 * output schema), with the parameters' descriptions left out: declaring the tools differently, or
 * describing a parameter, must not change what a client validates against. The golden file was
 * written before the tools were declared with defineTool; UPDATE_GOLDEN=1 rewrites it, only for a
 * deliberate change of the contract.
 */
const GOLDEN = new URL('./golden/all-tools-shape.json', import.meta.url);

/** `description` keys inside an input schema, at any depth (a property named "description" is kept). */
function withoutDescriptions(node: unknown, inProperties = false): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutDescriptions(item));
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => inProperties || key !== 'description')
      .map(([key, value]) => [key, withoutDescriptions(value, key === 'properties' && !inProperties)]),
  );
}

describe('the shape of every tool', () => {
  it('is what it was, descriptions of parameters aside', () => {
    const tools = allTools(buildHarness().container.services).map(publishTool);
    const shape = tools.map(({ description: _description, inputSchema, ...rest }) => ({
      ...rest,
      inputSchema: withoutDescriptions(inputSchema),
    }));
    const text = `${JSON.stringify(shape, null, 1)}\n`;
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text);
    expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
  });
});

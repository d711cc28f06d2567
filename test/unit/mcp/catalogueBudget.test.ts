/**
 * What the catalogue costs a model, in what it pays (o200k tokens of the tools/list answer as
 * JSON): the default catalogue at most 2,000, every toolset on at most 4,500; the instructions at
 * most 2 KB (what Claude Code shows of them). Every parameter carries a description, since a client
 * may show the model nothing but tools/list. These replace the older budgets in characters (6,500
 * and 13,500), which could not hold once every parameter was described.
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { parseToolsets, TOOLSET_NAMES } from '../../../src/domain/toolsets.js';
import { publishTool } from '../../../src/mcp/HarnessMcpServer.js';
import { serverInstructions } from '../../../src/mcp/instructions.js';
import { createTools } from '../../../src/mcp/tools/index.js';
import { buildHarness } from '../../support/fakes/harness.js';

export const DEFAULT_CATALOGUE_MAX_TOKENS = 2_000;
export const ALL_CATALOGUE_MAX_TOKENS = 4_500;
export const INSTRUCTIONS_MAX_BYTES = 2_048;

const services = buildHarness().container.services;
const published = (toolsets: string) => createTools(services, parseToolsets(toolsets, 'X')).map(publishTool);

describe('catalogue budget', () => {
  it(`the default tools/list is at most ${DEFAULT_CATALOGUE_MAX_TOKENS} tokens, every toolset at most ${ALL_CATALOGUE_MAX_TOKENS}`, () => {
    const tokens = (toolsets: string) => encode(JSON.stringify({ tools: published(toolsets) })).length;
    const [core, all] = [tokens(''), tokens('all')];
    // eslint-disable-next-line no-console -- the figures are part of the report
    console.log(`catalogue: ${core} o200k tokens by default, ${all} with every toolset`);
    expect(core).toBeLessThanOrEqual(DEFAULT_CATALOGUE_MAX_TOKENS);
    expect(all).toBeLessThanOrEqual(ALL_CATALOGUE_MAX_TOKENS);
  });

  it(`the instructions are at most ${INSTRUCTIONS_MAX_BYTES} bytes with any toolsets on`, () => {
    for (const toolsets of ['', ...TOOLSET_NAMES, 'all']) {
      expect(Buffer.byteLength(serverInstructions(parseToolsets(toolsets, 'X'))), toolsets).toBeLessThanOrEqual(
        INSTRUCTIONS_MAX_BYTES,
      );
    }
  });

  it.each(published('all').map((tool) => [tool.name, tool] as const))('%s describes every parameter', (_name, tool) => {
    const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: unknown }>;
    for (const [name, schema] of Object.entries(properties)) {
      expect(typeof schema.description, name).toBe('string');
      expect((schema.description as string).length, name).toBeGreaterThan(0);
    }
  });

  it('ui_tap and ui_type_text publish the ref form', () => {
    for (const name of ['ui_tap', 'ui_type_text']) {
      const tool = published('').find((t) => t.name === name);
      const selector = (tool?.inputSchema.properties as Record<string, { properties?: Record<string, unknown> }>)
        .selector;
      expect(Object.keys(selector?.properties ?? {}), name).toContain('ref');
    }
  });
});

import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { HarnessServices } from '../../../src/application/HarnessServices.js';
import { HarnessError } from '../../../src/domain/errors.js';
import { argument, sessionIdArgument } from '../../../src/mcp/arguments.js';
import { defineTool } from '../../../src/mcp/defineTool.js';
import { OBSERVER } from '../../../src/mcp/ToolDefinition.js';

/** An argument that accepts one word and refuses anything else, naming itself. */
const word = (name: string, accepted: string) =>
  argument(z.string().describe(name), (raw) => {
    if (raw === accepted) return raw.toUpperCase();
    throw new HarnessError('INVALID_ARGUMENT', `Invalid ${name}`);
  });

function probe() {
  const handled: unknown[] = [];
  const tool = defineTool({
    name: 'probe',
    toolset: 'core',
    title: 'Probe',
    description: 'A tool for this test.',
    annotations: OBSERVER,
    answer: '`{}`',
    arguments: { first: word('first', 'a'), second: word('second', 'b'), session_id: sessionIdArgument },
    handle: (_services, input, _context) => {
      handled.push(input);
      return Promise.resolve({ data: { first: input.first, second: input.second } });
    },
  });
  return { tool, handled };
}

const NO_SERVICES = {} as HarnessServices;
const CONTEXT = { operationId: 'op', tool: 'probe' };
const SESSION = 'abcdefghijklmnopqrstuvwxyz';

describe('defineTool', () => {
  it('publishes the arguments’ own schemas, in declaration order', () => {
    expect(Object.keys(probe().tool.inputSchema.shape)).toEqual(['first', 'second', 'session_id']);
    expect(probe().tool.inputSchema.shape.first?.description).toBe('first');
  });

  it('hands the handler what the parses made, with the UI session the call names', async () => {
    const { tool, handled } = probe();
    const call = tool.bind(NO_SERVICES).prepare({ first: 'a', second: 'b', session_id: SESSION });
    expect(call.sessionId).toBe(SESSION);
    await expect(call.run(CONTEXT)).resolves.toEqual({ data: { first: 'A', second: 'B' } });
    expect(handled).toEqual([{ first: 'A', second: 'B', session_id: SESSION }]);
    expect(tool.bind(NO_SERVICES).prepare({ first: 'a', second: 'b' }).sessionId).toBeUndefined();
  });

  it('refuses before the handler, with the first declared argument that is wrong', () => {
    const { tool, handled } = probe();
    expect(() => tool.bind(NO_SERVICES).prepare({ second: 'x', first: 'x' })).toThrow('Invalid first');
    expect(() => tool.check({ first: 'a', second: 'x' })).toThrow('Invalid second');
    expect(() => tool.check({ first: 'a', second: 'b', session_id: 'short' })).toThrow(/session_id/);
    expect(() => tool.check({ first: 'a', second: 'b' })).not.toThrow();
    expect(handled).toEqual([]);
  });
});

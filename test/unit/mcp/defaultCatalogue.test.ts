import { readFileSync, writeFileSync } from 'node:fs';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { buildHarness } from '../../support/fakes/harness.js';

/**
 * With no toolset switched on, `tools/list` and the instructions are byte for byte
 * what they were before toolsets existed. The golden files were written from main before the
 * change (UPDATE_GOLDEN=1 rewrites them: only for a deliberate change of the contract).
 */
const GOLDEN = new URL('./golden/', import.meta.url);

async function rawAnswers(): Promise<{ instructions: string; toolsList: string }> {
  const h = buildHarness();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const answers = new Map<number, JSONRPCMessage>();
  clientSide.onmessage = (message) => {
    if ('id' in message && typeof message.id === 'number') answers.set(message.id, message);
  };
  await h.container.server.connect(serverSide);
  await clientSide.start();
  await clientSide.send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'golden', version: '1' } },
  });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  await clientSide.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  for (let i = 0; i < 50 && answers.size < 2; i += 1) await new Promise((resolve) => setImmediate(resolve));
  await h.container.server.close();
  const init = answers.get(1) as unknown as { result: { instructions: string } };
  const list = answers.get(2) as unknown as { result: unknown };
  return { instructions: init.result.instructions, toolsList: JSON.stringify(list.result) };
}

describe('the default catalogue (no toolsets)', () => {
  it('is byte for byte the catalogue of the twelve before toolsets, and so are the instructions', async () => {
    const { instructions, toolsList } = await rawAnswers();
    if (process.env.UPDATE_GOLDEN === '1') {
      writeFileSync(new URL('default-tools-list.json', GOLDEN), `${toolsList}\n`);
      writeFileSync(new URL('default-instructions.txt', GOLDEN), instructions);
    }
    expect(toolsList).toBe(readFileSync(new URL('default-tools-list.json', GOLDEN), 'utf8').trimEnd());
    expect(instructions).toBe(readFileSync(new URL('default-instructions.txt', GOLDEN), 'utf8'));
    expect(toolsList.length).toBeLessThan(6_500);
  });
});

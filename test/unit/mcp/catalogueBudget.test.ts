/**
 * The catalogue (the tools/list answer, as the bench's part 3 measures it: its JSON)
 * stays under 6,500 characters while the tools' parameters grow (refs, long press, scrolling).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { buildHarness } from '../../support/fakes/harness.js';

export const CATALOGUE_MAX_CHARS = 6_500;

describe('catalogue budget', () => {
  it(`tools/list stays under ${CATALOGUE_MAX_CHARS} characters, and ui_tap / ui_type_text publish the ref form`, async () => {
    const h = buildHarness();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await h.container.server.connect(serverSide);
    const client = new Client({ name: 'budget', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const result = await client.listTools();
      const chars = JSON.stringify(result).length;
      // eslint-disable-next-line no-console -- the figure is part of the report
      console.log(`catalogue: ${chars} characters`);
      expect(chars).toBeLessThan(CATALOGUE_MAX_CHARS);
      for (const name of ['ui_tap', 'ui_type_text']) {
        const tool = result.tools.find((t) => t.name === name);
        const selector = (tool?.inputSchema.properties as Record<string, { properties?: Record<string, unknown> }>)
          .selector;
        expect(Object.keys(selector?.properties ?? {}), name).toContain('ref');
      }
    } finally {
      await client.close();
      await h.container.server.close();
    }
  });
});

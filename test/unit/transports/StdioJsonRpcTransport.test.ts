import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { StdioJsonRpcTransport } from '../../../src/transports/stdio/StdioJsonRpcTransport.js';

async function harness(maxLineBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StdioJsonRpcTransport({ input, output, ...(maxLineBytes ? { maxLineBytes } : {}) });
  const messages: JSONRPCMessage[] = [];
  const errors: Error[] = [];
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(e);
  let written = '';
  output.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
  await transport.start();
  const replies = () =>
    written
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number } });
  const feed = async (...chunks: (string | Buffer)[]) => {
    for (const chunk of chunks) input.write(chunk);
    await new Promise((r) => setImmediate(r));
  };
  return { transport, messages, errors, replies, feed, output };
}

describe('StdioJsonRpcTransport', () => {
  it('delivers valid messages, also when a line arrives in pieces and ends in CRLF', async () => {
    const h = await harness();
    await h.feed(
      '{"jsonrpc":"2.0","id":1,',
      '"method":"ping"}\r\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
    );
    expect(h.messages).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(h.replies()).toEqual([]);
  });

  it('answers a line that is not JSON with -32700 and no id, and keeps reading', async () => {
    const h = await harness();
    await h.feed('{"jsonrpc":"2.0","id":1,"method"\n', '\n   \n', '{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(h.replies()).toEqual([
      { jsonrpc: '2.0', error: { code: -32700, message: expect.stringMatching(/not valid JSON/) } },
    ]);
    expect(h.messages).toHaveLength(1);
  });

  it('answers JSON that is not JSON-RPC with -32600, by id when one can be read', async () => {
    const h = await harness();
    await h.feed(
      '{"jsonrpc":"1.0","id":"a","method":"ping"}\n',
      '{"id":7,"method":"ping"}\n',
      '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}\n',
      '{"jsonrpc":"2.0","id":1.5,"method":"ping"}\n',
      '42\n',
      '[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","method":"x"},{"jsonrpc":"2.0","id":"b2","method":"ping"}]\n',
      '[]\n',
      // A malformed response is never answered.
      '{"jsonrpc":"2.0","id":9,"result":42}\n',
    );
    expect(h.replies().map((r) => [r.id, r.error?.code])).toEqual([
      ['a', -32600],
      [7, -32600],
      [undefined, -32600],
      [undefined, -32600],
      [undefined, -32600],
      ['b1', -32600],
      ['b2', -32600],
      [undefined, -32600],
    ]);
    expect(h.messages).toEqual([]);
    expect(h.errors).toHaveLength(1);
  });

  it('skips a line over the limit whatever its chunking, answers -32700, and serves the next line', async () => {
    const h = await harness(64);
    await h.feed(
      '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"',
      'a'.repeat(50),
      'a'.repeat(50),
      '"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
    );
    await h.feed(`${'b'.repeat(100)}\n`);
    expect(h.replies().map((r) => [r.id, r.error?.code])).toEqual([
      [undefined, -32700],
      [undefined, -32700],
    ]);
    expect(h.messages).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('send writes one JSON line; close stops reading', async () => {
    const h = await harness();
    let closed = false;
    h.transport.onclose = () => (closed = true);
    await h.transport.send({ jsonrpc: '2.0', id: 3, result: {} });
    await h.transport.close();
    await h.feed('{"jsonrpc":"2.0","id":4,"method":"ping"}\n');
    expect(h.replies()).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]);
    expect(h.messages).toEqual([]);
    expect(closed).toBe(true);
  });
});

describe('StdioJsonRpcTransport outgoing errors', () => {
  it('sends an SDK McpError without the "MCP error <code>:" prefix the client adds again', async () => {
    const h = await harness();
    await h.transport.send({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'MCP error -32602: Invalid tools/call request: name missing' },
    });
    // Only the prefix of the error's own code is the SDK's; any other text is the message itself.
    await h.transport.send({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'MCP error -32602: quoted' } });
    expect(h.replies()).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'Invalid tools/call request: name missing' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'MCP error -32602: quoted' } },
    ]);
  });

  it("turns the SDK's params validation failure (-32603 with a zod dump) into -32602 with one line", async () => {
    const h = await harness();
    const zodDump = JSON.stringify(
      [
        {
          expected: 'string',
          code: 'invalid_type',
          path: ['params', 'uri'],
          message: 'Invalid input: expected string, received number',
        },
      ],
      null,
      2,
    );
    await h.transport.send({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: zodDump } });
    await h.transport.send({ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'something else broke' } });
    expect(h.replies()).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32602, message: 'Invalid params: params.uri: Invalid input: expected string, received number' },
      },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'something else broke' } },
    ]);
  });
});

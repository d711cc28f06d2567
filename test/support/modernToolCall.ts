/**
 * One tools/call over the HTTP server's /mcp at protocol 2026-07-28, as such a client sends it: no
 * handshake, the version and capabilities in `_meta`, the method and tool name in headers, the
 * bearer token. Resolves with the envelope's text block exactly as the server sent it.
 */
export const MODERN_PROTOCOL = '2026-07-28';

export async function modernToolCallText(
  url: string,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_PROTOCOL,
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, _meta: meta },
    }),
  });
  const message = (await response.json()) as { result: { content: { type: string; text: string }[] } };
  return message.result.content[0]!.text;
}

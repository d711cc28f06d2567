/**
 * The v2 SDK's server over the harness catalogue: what answers a 2026-07-28 request (HTTP and
 * stdio) and a 2025-era request over HTTP. It holds nothing: one is made per HTTP request (or per
 * modern stdio connection), and every handler is a HarnessMcpServer method, the same ones the
 * v1 stdio server calls, so no revision or transport can answer differently.
 */
import { CLIENT_CAPABILITIES_META_KEY, Server, type ListToolsResult } from '@modelcontextprotocol/server';
import type { HarnessMcpServer } from '../mcp/HarnessMcpServer.js';
import { appsNegotiated } from '../mcp/app/appExtension.js';

/**
 * Whether the request's client renders MCP Apps: a 2026-07-28 request carries its capabilities in
 * its envelope. A 2025-era request over HTTP is served by a fresh instance with no handshake of its
 * own (stateless), so it has none to read and gets the plain answers.
 */
function appsOf(ctx: { readonly mcpReq: { readonly envelope?: object } }): boolean {
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  return appsNegotiated(envelope?.[CLIENT_CAPABILITIES_META_KEY]);
}

export function sdkServerFor(harness: HarnessMcpServer): Server {
  const server = new Server(harness.serverInfo, {
    capabilities: { tools: {}, resources: {} },
    instructions: harness.instructions,
  });
  // The same objects; v1 types a schema's properties as `object`, v2 as JSON values (which they are: toInputJsonSchema).
  server.setRequestHandler(
    'tools/list',
    (_request, ctx) => harness.listTools(appsOf(ctx)) as unknown as ListToolsResult,
  );
  server.setRequestHandler('tools/call', (request, ctx) =>
    harness.callTool(request.params.name, request.params.arguments ?? {}, appsOf(ctx)),
  );
  server.setRequestHandler('resources/templates/list', () => harness.listResourceTemplates());
  server.setRequestHandler('resources/list', (_request, ctx) => harness.listResources(appsOf(ctx)));
  server.setRequestHandler('resources/read', (request) => harness.readResource(request.params.uri));
  return server;
}

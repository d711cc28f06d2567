/**
 * `/mcp`: Streamable HTTP for both protocol revisions, through the v2 SDK's entry
 * (`createMcpHandler`). A request carrying the 2026-07-28 `_meta` envelope is served
 * statelessly by the modern path (`server/discover`, no handshake); anything else is 2025-era
 * traffic, answered by a fresh instance per request (initialize, then tools/list … on their own
 * POSTs, no Mcp-Session-Id). Every instance is sdkServerFor(harness) (docs/protocol.md).
 */
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Logger } from '../../domain/ports.js';
import type { HarnessMcpServer } from '../../mcp/HarnessMcpServer.js';
import { sdkServerFor } from '../sdkServer.js';
import type { HttpRoute } from './HttpServer.js';

export const MCP_PATH = '/mcp';

export interface McpRoute extends HttpRoute {
  close(): Promise<void>;
}

export function mcpRoute(harness: HarnessMcpServer, logger: Logger, maxBodyBytes: number): McpRoute {
  const onerror = (error: Error): void =>
    logger.debug('MCP over HTTP: request answered with an error', { cause: error.message });
  // 'auto': a modern answer is one JSON body (the harness sends nothing before its result over
  // HTTP); 2025-era answers come as the SDK's stateless transport writes them (an SSE event).
  const handler: McpHttpHandler = createMcpHandler(() => sdkServerFor(harness), {
    legacy: 'stateless',
    responseMode: 'auto',
    maxRequestBodySize: maxBodyBytes,
    onerror,
  });
  const node = toNodeHandler(handler, { maxRequestBodySize: maxBodyBytes, onerror });
  return {
    matches: (pathname) => pathname === MCP_PATH,
    speaksJsonRpc: true,
    handle: (req, res) => node(req, res),
    close: () => handler.close(),
  };
}

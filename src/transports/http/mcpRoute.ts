/**
 * `/mcp`: Streamable HTTP for both protocol revisions, through the v2 SDK's entry
 * (`createMcpHandler`). A request carrying the 2026-07-28 `_meta` envelope is served
 * statelessly by the modern path (`server/discover`, no handshake); anything else is 2025-era
 * traffic, answered by a fresh instance per request (initialize, then tools/list … on their own
 * POSTs, no Mcp-Session-Id). Every instance is sdkServerFor(harness) (docs/internals/protocol.md).
 */
import type { ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Logger } from '../../domain/ports.js';
import type { HarnessMcpServer } from '../../mcp/HarnessMcpServer.js';
import { sdkServerFor } from '../sdkServer.js';
import type { HttpRoute } from './HttpServer.js';
import { depthRefusal, type DepthRefusal } from '../jsonRpcDepth.js';
import { readBody } from './readBody.js';

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
    handle: async (req, res) => {
      if (req.method !== 'POST') return node(req, res);
      // Read here, within the bound, rather than by the SDK: the SDK stops an oversized chunked body
      // by leaving its read early, which destroys the socket under a client still sending (EPIPE
      // instead of the 413). BodyTooLarge goes up to HttpServer, which answers and drains.
      const text = (await readBody(req, maxBodyBytes)).toString('utf8');
      if (text.trim() === '') return node(req, res);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return notJson(res);
      }
      // Before the SDK, which re-serialises the parsed body: past the depth bound that overflows the stack.
      const deep = depthRefusal(parsed);
      if (deep) return tooDeep(res, deep);
      return node(req, res, parsed);
    },
    close: () => handler.close(),
  };
}

/** The SDK's own answer to a body that is not JSON (the body is parsed here, so it is said here). */
function notJson(res: ServerResponse): void {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: null,
    error: { code: -32700, message: 'Parse error: the request body is not valid JSON' },
  });
  res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** A message past the depth bound: 400 with the JSON-RPC refusal, by id when one could be read. */
function tooDeep(res: ServerResponse, refusal: DepthRefusal): void {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    ...(refusal.id === undefined ? {} : { id: refusal.id }),
    error: { code: refusal.code, message: refusal.message },
  });
  res.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

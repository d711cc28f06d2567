import { McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * A JSON-RPC error of the server's own (unknown tool, refused artifact uri). The SDK's McpError
 * writes `MCP error <code>: ` in front of its message, the SDK's server sends that message as it
 * is, and the client's McpError adds the prefix again: users read "MCP error -32602: MCP error
 * -32602: …". The code already travels in its own field, so the message here is only the text.
 */
export function protocolError(code: number, message: string): McpError {
  const error = new McpError(code, message);
  error.message = message;
  return error;
}

/** The prefix the SDK's McpError puts in front of a message with this code. */
export function sdkErrorPrefix(code: number): string {
  return `MCP error ${code}: `;
}

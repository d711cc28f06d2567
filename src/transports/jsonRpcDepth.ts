/**
 * The depth bound (jsonDepth.ts) as a JSON-RPC refusal, the same over stdio and HTTP `/mcp`:
 * `-32602 Invalid params` when the value past the bound is inside a request's params (a tool's
 * argument, initialize's capabilities: the request is understood, its params are not acceptable),
 * `-32600 Invalid Request` anywhere else. It carries the request's id when one can be read. A tool
 * never runs, so there is no envelope (no operation id) to answer with, as for an unknown tool name.
 */
import { ErrorCode, RequestIdSchema, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { describeJsonPath, pathPastDepth, tooDeepMessage } from './jsonDepth.js';

export interface DepthRefusal {
  /** The request's id, when a string or integer one can be read; absent otherwise (MCP makes it optional). */
  readonly id: RequestId | undefined;
  readonly code: number;
  readonly message: string;
  /** A malformed response (it has `result` or `error`): never answered, so no ping-pong starts. */
  readonly isResponse: boolean;
}

/** The refusal for a parsed message past the depth bound, or null when it is within it. */
export function depthRefusal(value: unknown): DepthRefusal | null {
  const path = pathPastDepth(value);
  if (path === null) return null;
  const id = readableRequestId(value);
  const isResponse = isObject(value) && ('result' in value || 'error' in value);
  if (isObject(value) && typeof value.method === 'string' && path[0] === 'params') {
    return {
      id,
      isResponse,
      code: ErrorCode.InvalidParams,
      message: `Invalid params: ${tooDeepMessage(paramsWhat(value, path))}`,
    };
  }
  return {
    id,
    isResponse,
    code: ErrorCode.InvalidRequest,
    message: `Invalid Request: ${tooDeepMessage(path.length === 0 ? 'The message' : describeJsonPath(path, ''))}`,
  };
}

/** A tool's argument named as such (`the argument "selector" of ui_tap`), anything else by its path. */
function paramsWhat(message: Record<string, unknown>, path: readonly (string | number)[]): string {
  const params = message.params;
  const tool =
    message.method === 'tools/call' && isObject(params) && typeof params.name === 'string' ? params.name : null;
  if (tool !== null && path[1] === 'arguments' && path.length > 2) {
    return `The argument ${JSON.stringify(String(path[2]).slice(0, 64))} of ${JSON.stringify(tool.slice(0, 64))} (${describeJsonPath(path, '')})`;
  }
  return describeJsonPath(path, '');
}

/** The id of a would-be request that is not a response, when it is a string or an integer. */
export function readableRequestId(value: unknown): RequestId | undefined {
  if (!isObject(value) || 'result' in value || 'error' in value) return undefined;
  const parsed = RequestIdSchema.safeParse(value.id);
  return parsed.success ? parsed.data : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * MCP over stdio, one JSON-RPC message per line, hardened against what a broken or hostile
 * client writes. The SDK's StdioServerTransport drops a line it cannot parse without
 * a word, so a request whose id is readable but whose shape is wrong waits forever, and it
 * closes the whole transport when a line grows past its buffer limit. Here:
 *
 * - a line that is not JSON gets a `-32700 Parse error`;
 * - JSON that is not a JSON-RPC message gets `-32600 Invalid Request`, carrying the request's id
 *   when one can be read (a string or an integer; a batch answers each member that has one);
 *   a malformed *response* (it has `result` or `error`) is never answered;
 * - an id that cannot be read is omitted from the error: MCP's JSONRPCErrorResponse makes `id`
 *   optional for exactly this case and refuses JSON-RPC 2.0's `id: null`;
 * - a line longer than `maxLineBytes` is skipped up to its newline, answered with -32700, and
 *   reading goes on: one oversized frame does not end the session;
 * - a message nesting deeper than MAX_JSON_DEPTH (jsonDepth.ts) gets `-32602` (inside params) or
 *   `-32600`, with its id, before the SDK or a tool sees it;
 * - blank lines are ignored.
 * Everything written to stdout is a JSON-RPC message; nothing else ever is.
 */
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { sdkErrorPrefix } from '../../mcp/protocolError.js';
import { depthRefusal, readableRequestId } from '../jsonRpcDepth.js';

/** Far above any legitimate client frame (the largest tool argument is 512 characters of text). */
export const DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

const NEWLINE = 0x0a;

export interface StdioJsonRpcTransportOptions {
  readonly input?: Readable;
  readonly output?: Writable;
  readonly maxLineBytes?: number;
}

const INVALID_REQUEST_MESSAGE =
  'Invalid Request: expected one JSON-RPC 2.0 object per line, e.g. {"jsonrpc":"2.0","id":1,"method":"tools/list"}.';

export class StdioJsonRpcTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly input: Readable;
  private readonly output: Writable;
  private readonly maxLineBytes: number;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** True while skipping the rest of an oversized line. */
  private skipping = false;
  private started = false;

  constructor(options: StdioJsonRpcTransportOptions = {}) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  private readonly onData = (chunk: Buffer | string): void => {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (let index = rest.indexOf(NEWLINE); index !== -1; index = rest.indexOf(NEWLINE)) {
      const tail = rest.subarray(0, index);
      rest = rest.subarray(index + 1);
      if (this.skipping) {
        this.skipping = false;
        this.reply(
          undefined,
          ErrorCode.ParseError,
          `Parse error: the line is longer than ${this.maxLineBytes} bytes and was skipped.`,
        );
        continue;
      }
      const line = this.pending.length === 0 ? tail : Buffer.concat([...this.pending, tail]);
      this.pending = [];
      this.pendingBytes = 0;
      if (line.length > this.maxLineBytes) {
        this.reply(
          undefined,
          ErrorCode.ParseError,
          `Parse error: the line is longer than ${this.maxLineBytes} bytes and was skipped.`,
        );
        continue;
      }
      this.handleLine(line);
    }
    if (this.skipping || rest.length === 0) return;
    if (this.pendingBytes + rest.length > this.maxLineBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      return;
    }
    this.pending.push(Buffer.from(rest));
    this.pendingBytes += rest.length;
  };

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  async start(): Promise<void> {
    if (this.started) throw new Error('StdioJsonRpcTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(withoutSdkPrefix(invalidParamsAsSuch(message)));
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending = [];
    this.pendingBytes = 0;
    this.onclose?.();
  }

  private handleLine(bytes: Buffer): void {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reply(undefined, ErrorCode.ParseError, 'Parse error: the line is not valid JSON.');
      return;
    }
    // Before the schema, the SDK and the tools: past the bound, anything recursive overflows the stack.
    const deep = depthRefusal(value);
    if (deep) {
      if (deep.isResponse) this.onerror?.(new Error('Ignored a JSON-RPC response from the client nested too deep.'));
      else this.reply(deep.id, deep.code, deep.message);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      try {
        this.onmessage?.(parsed.data);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
      return;
    }
    this.refuse(value);
  }

  /** Answers JSON that is not a JSON-RPC message, by id when one can be read. */
  private refuse(value: unknown): void {
    if (Array.isArray(value)) {
      const ids = value.map(readableRequestId).filter((id): id is RequestId => id !== undefined);
      const message =
        'Invalid Request: JSON-RPC batches are not supported (MCP removed batching); send one message per line.';
      if (ids.length === 0) this.reply(undefined, ErrorCode.InvalidRequest, message);
      for (const id of ids) this.reply(id, ErrorCode.InvalidRequest, message);
      return;
    }
    if (isObject(value) && ('result' in value || 'error' in value)) {
      // A malformed response to a request we never sent: answering it would start a ping-pong.
      this.onerror?.(new Error('Ignored a malformed JSON-RPC response from the client.'));
      return;
    }
    this.reply(readableRequestId(value), ErrorCode.InvalidRequest, INVALID_REQUEST_MESSAGE);
  }

  private reply(id: RequestId | undefined, code: number, message: string): void {
    const response =
      id === undefined
        ? { jsonrpc: '2.0' as const, error: { code, message } }
        : { jsonrpc: '2.0' as const, id, error: { code, message } };
    this.write(response as JSONRPCMessage).catch((error: unknown) =>
      this.onerror?.(error instanceof Error ? error : new Error(String(error))),
    );
  }

  private write(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }
}

/**
 * The SDK validates a request's params with zod before our handler runs and reports a failure
 * as `-32603 Internal error` whose message is the pretty-printed issue list. It is the client's
 * mistake, so it goes out as `-32602 Invalid params` with one readable line instead.
 */
function invalidParamsAsSuch(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message) || message.error.code !== ErrorCode.InternalError) return message;
  const text = message.error.message;
  if (!text.trimStart().startsWith('[')) return message;
  let issues: unknown;
  try {
    issues = JSON.parse(text);
  } catch {
    return message;
  }
  if (!Array.isArray(issues) || issues.length === 0) return message;
  const described: string[] = [];
  for (const issue of issues.slice(0, 3)) {
    const { path, message: what } = (issue ?? {}) as { path?: unknown; message?: unknown };
    if (!Array.isArray(path) || path[0] !== 'params' || typeof what !== 'string') return message;
    described.push(`${path.map(String).join('.')}: ${what}`);
  }
  return { ...message, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${described.join('; ')}` } };
}

/**
 * An McpError the SDK raises itself (e.g. "Invalid tools/call request") carries `MCP error <code>: `
 * in its message, and the client's McpError adds it again; the code is in its own field, so the
 * prefix goes. The server's own errors are built without it (protocolError.ts).
 */
function withoutSdkPrefix(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message)) return message;
  const prefix = sdkErrorPrefix(message.error.code);
  if (!message.error.message.startsWith(prefix)) return message;
  return { ...message, error: { ...message.error, message: message.error.message.slice(prefix.length) } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Both protocol revisions over stdio. The wire stays our hardened
 * StdioJsonRpcTransport (every malformed frame answered, docs/internals/reliability.md §2). The first
 * message decides who serves the connection:
 *
 * - a request carrying the 2026-07-28 envelope (`_meta["io.modelcontextprotocol/protocolVersion"]`)
 *   goes to the v2 SDK's `serveStdio` (server/discover, no handshake, `resultType` …), whose
 *   instance answers through the same HarnessMcpServer methods as every other path;
 * - anything else is a 2025-era client, served by the v1 SDK server exactly as before this
 *   router existed (same server object, same transport, same bytes).
 */
import type { StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { HarnessMcpServer } from '../../mcp/HarnessMcpServer.js';

/**
 * The v2 SDK's `PROTOCOL_VERSION_META_KEY`, written out so that start-up does not load the v2 SDK
 * (about a fifth of the modules a 2025-era client's start-up would otherwise load) for clients that
 * never use it; a unit test holds it equal to the SDK's export.
 */
export const MODERN_PROTOCOL_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/** True for a message whose params carry the 2026-07-28 envelope's protocol-version claim. */
export function carriesModernClaim(message: JSONRPCMessage): boolean {
  if (!('method' in message) || !('params' in message)) return false;
  const meta = (message.params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && MODERN_PROTOCOL_META_KEY in meta;
}

/**
 * The transport one server sees: messages come from the router, answers go straight to the wire.
 * Structurally both SDKs' Transport (start, send, close and the three callbacks).
 */
class ForwardingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly wire: Transport) {}

  async start(): Promise<void> {
    // The wire is started by the router before the first message arrives.
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.wire.send(message);
  }

  close(): Promise<void> {
    return this.wire.close();
  }
}

export class StdioRevisions {
  private target: ForwardingTransport | null = null;
  private modern: Promise<StdioServerHandle> | null = null;
  /** Messages that arrive while the v2 SDK loads (only for a modern client's first moments), in order. */
  private pending: JSONRPCMessage[] | null = null;

  constructor(
    private readonly harness: HarnessMcpServer,
    private readonly wire: Transport,
  ) {}

  async start(): Promise<void> {
    this.wire.onmessage = (message) => this.deliver(message);
    this.wire.onerror = (error) => this.target?.onerror?.(error);
    this.wire.onclose = () => this.target?.onclose?.();
    await this.wire.start();
  }

  private deliver(message: JSONRPCMessage): void {
    if (!this.target) {
      const target = new ForwardingTransport(this.wire);
      this.target = target;
      if (carriesModernClaim(message)) {
        // The v2 entry owns the era decision from here (it starts the transport: a no-op). It is
        // loaded now, on the first modern message, not at start-up; what arrives meanwhile waits.
        this.pending = [];
        this.modern = this.startModern(target);
        this.modern.catch((error: unknown) => {
          // Only a broken install lands here (the SDK is a dependency): say so and end the connection.
          process.stderr.write(`the 2026-07-28 protocol could not start: ${String(error)}\n`);
          void this.wire.close();
        });
      } else {
        // connect() only sets the callbacks and starts (a no-op): the message below is not lost.
        void this.harness.connect(target);
      }
    }
    if (this.pending) this.pending.push(message);
    else this.target.onmessage?.(message);
  }

  private async startModern(target: ForwardingTransport): Promise<StdioServerHandle> {
    const [{ serveStdio }, { sdkServerFor }] = await Promise.all([
      import('@modelcontextprotocol/server/stdio'),
      import('../sdkServer.js'),
    ]);
    const handle = serveStdio(() => sdkServerFor(this.harness), { transport: target });
    const waiting = this.pending ?? [];
    this.pending = null;
    for (const message of waiting) target.onmessage?.(message);
    return handle;
  }

  async close(): Promise<void> {
    const modern = await this.modern?.catch(() => null);
    await modern?.close();
  }
}

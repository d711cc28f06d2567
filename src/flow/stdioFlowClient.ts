/**
 * The harness's own server, spawned as a child and spoken to as a real MCP client over stdio
 * (the SDK's Client and StdioClientTransport): what a flow run proves is what a model gets.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FlowClient, FlowEnvelope } from './runFlow.js';

export interface HarnessConnectionOptions {
  /** The server's entry script (default: this build's dist/index.js). */
  readonly serverScript?: string;
  /** The server's whole environment (ANDROID_UDID, APPIUM_URL, …); defaults to process.env. */
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** notifications/message from the server (e.g. "Starting the harness's own Appium …"). */
  readonly onLog?: (level: string, text: string) => void;
  /** Per tools/call; an Appium boot plus a first session on a real emulator can take minutes. */
  readonly callTimeoutMs?: number;
}

export interface HarnessConnection {
  readonly client: FlowClient;
  readonly pid: number | null;
  /** The last lines the server wrote to stderr (its JSON log), for diagnosing a failure. */
  stderrTail(): string[];
  /** Closes stdin; the server then shuts down (its Appium with it). */
  close(): Promise<void>;
}

/** dist/index.js next to this module's build (dist/flow/ → dist/index.js). */
export function defaultServerScript(): string {
  return fileURLToPath(new URL('../index.js', import.meta.url));
}

const STDERR_TAIL = 60;

export async function connectToHarness(options: HarnessConnectionOptions = {}): Promise<HarnessConnection> {
  const env = Object.fromEntries(
    Object.entries(options.env ?? process.env).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [options.serverScript ?? defaultServerScript()],
    env,
    cwd: options.cwd ?? process.cwd(),
    stderr: 'pipe',
  });
  const tail: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      tail.push(line);
      if (tail.length > STDERR_TAIL) tail.shift();
    }
  });
  const client = new Client({ name: 'android-mcp-harness-flow', version: '1.0.0' });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const { level, data } = notification.params;
    options.onLog?.(level, typeof data === 'string' ? data : JSON.stringify(data));
  });
  await client.connect(transport);
  const timeout = options.callTimeoutMs ?? 600_000;

  const flowClient: FlowClient = {
    async callTool(name, args) {
      try {
        const result = await client.callTool({ name, arguments: args }, undefined, { timeout });
        return {
          envelope: envelopeOf(result as { structuredContent?: unknown; content?: unknown }),
          isError: result.isError === true,
        };
      } catch (error) {
        return {
          envelope: {
            ok: false,
            tool: name,
            error: { code: 'PROTOCOL_ERROR', message: error instanceof Error ? error.message : String(error) },
          },
          isError: true,
        };
      }
    },
  };
  return {
    client: flowClient,
    pid: transport.pid,
    stderrTail: () => [...tail],
    close: () => client.close(),
  };
}

/** The envelope is the structuredContent; a server without it still sends the same JSON as text. */
export function envelopeOf(result: { structuredContent?: unknown; content?: unknown }): FlowEnvelope {
  if (isEnvelope(result.structuredContent)) return result.structuredContent;
  const blocks = Array.isArray(result.content) ? (result.content as Array<{ type?: unknown; text?: unknown }>) : [];
  for (const block of blocks) {
    if (block.type !== 'text' || typeof block.text !== 'string') continue;
    try {
      const parsed: unknown = JSON.parse(block.text);
      if (isEnvelope(parsed)) return parsed;
    } catch {
      // Not the envelope block.
    }
  }
  return { ok: false, error: { code: 'PROTOCOL_ERROR', message: 'the result carried no envelope' } };
}

function isEnvelope(value: unknown): value is FlowEnvelope {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

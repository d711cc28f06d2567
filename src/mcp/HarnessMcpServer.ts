import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ListToolsResult,
  type ReadResourceResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { OperationRunner } from '../application/OperationRunner.js';
import type { CallRecorder } from '../application/trace/TraceRecorder.js';
import { ARTIFACT_TEMPLATE, listArtifacts, readArtifact, type ArtifactReader } from './artifactResource.js';
import { SERVER_INSTRUCTIONS } from './instructions.js';
import { protocolError } from './protocolError.js';
import { presentResult } from './presenters.js';
import { runTool } from './runTool.js';
import { ENVELOPE_OUTPUT_SCHEMA, toInputJsonSchema } from './schemas.js';
import type { ToolDefinition } from './ToolDefinition.js';
import { appsNegotiated, LEGACY_RESOURCE_URI_KEY } from './app/appExtension.js';
import { DEVICE_APP_RESOURCE, readAppResource } from './app/appResources.js';
import { APP_DATA_KEY, APP_TOOLS, DEVICE_APP_URI, type DeviceApp } from './app/DeviceApp.js';

export const SERVER_NAME = 'android-mcp-harness';

/**
 * The SDK's low-level server, named and taught, made before anything else: a managed Appium boots at
 * the first call that needs it, and its progress reaches the client through this server
 * (notifications/message), while what the tools are built on (Appium among it) exists only later.
 */
export class ProtocolServer {
  readonly server: Server;

  constructor(
    readonly version: string,
    /** Taught at initialize (2025-11-25) and at server/discover (2026-07-28); serverInstructions() adds the toolsets' lines. */
    readonly instructions: string = SERVER_INSTRUCTIONS,
  ) {
    this.server = new Server(
      { name: SERVER_NAME, version },
      { capabilities: { tools: {}, resources: {}, logging: {} }, instructions },
    );
  }

  /** A line for the client's log, from `logger`; a client that cannot take it now is no reason to fail. */
  notifier(logger: string): (message: string) => void {
    return (message) => {
      this.server.sendLoggingMessage({ level: 'info', logger, data: message }).catch(() => undefined);
    };
  }
}

export interface HarnessMcpServerOptions {
  /** The SDK server this one answers through (its name, version and instructions). */
  readonly protocol: ProtocolServer;
  readonly tools: readonly ToolDefinition[];
  readonly runner: OperationRunner;
  /** The session's trace: every call is a line of it. */
  readonly trace?: CallRecorder;
  readonly artifacts: ArtifactReader;
  /** The tools of toolsets that are off, by name: a call to one says which toolset brings it. */
  readonly offTools?: readonly ToolDefinition[];
  /** The device app (MCP Apps), served to clients that negotiate the extension; absent: none is offered. */
  readonly app?: {
    readonly state: DeviceApp;
    /** The run's trace viewer page; null when there is no trace to show. */
    readonly traceViewer: () => string | null;
  };
}

/** The tool's `_meta` linking the device app, in the extension's form and the flat key older hosts read. */
const APP_TOOL_META = { ui: { resourceUri: DEVICE_APP_URI }, [LEGACY_RESOURCE_URI_KEY]: DEVICE_APP_URI } as const;

/** The MCP form of a tool definition, as tools/list publishes it. */
export function publishTool(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toInputJsonSchema(tool.inputSchema),
    outputSchema: ENVELOPE_OUTPUT_SCHEMA as unknown as Tool['outputSchema'],
    annotations: { ...tool.annotations },
  };
}

/**
 * The MCP server over the low-level SDK `Server`: it publishes the tool schemas for the
 * model but validates nothing itself, so that the domain's typed errors (INVALID_SELECTOR …)
 * reach the model as envelopes instead of the SDK's generic input-validation error.
 * Every call goes through the one error boundary, the OperationRunner.
 */
export class HarnessMcpServer {
  readonly server: Server;
  private readonly byName: ReadonlyMap<string, ToolDefinition>;
  private readonly published: readonly Tool[];
  /** The same tools for a client that renders MCP Apps: the ones that show the screen link the device app. */
  private readonly publishedWithApp: readonly Tool[];

  constructor(private readonly options: HarnessMcpServerOptions) {
    this.byName = new Map(options.tools.map((tool) => [tool.name, tool]));
    this.published = options.tools.map(publishTool);
    this.publishedWithApp = this.published.map((tool) =>
      options.app && APP_TOOLS.has(tool.name) ? { ...tool, _meta: { ...APP_TOOL_META } } : tool,
    );

    this.server = options.protocol.server;
    // A 2025-era client says at initialize whether it renders MCP Apps; the answer holds for its connection.
    const apps = (): boolean => appsNegotiated(this.server.getClientCapabilities());
    this.server.setRequestHandler(ListToolsRequestSchema, () => this.listTools(apps()));
    this.server.setRequestHandler(CallToolRequestSchema, (request) =>
      this.callTool(request.params.name, request.params.arguments ?? {}, apps()),
    );
    this.server.setRequestHandler(ListResourceTemplatesRequestSchema, () => this.listResourceTemplates());
    this.server.setRequestHandler(ListResourcesRequestSchema, () => this.listResources(apps()));
    this.server.setRequestHandler(ReadResourceRequestSchema, (request) => this.readResource(request.params.uri));
  }

  /** Who answers, as initialize and server/discover report it. */
  get serverInfo(): { readonly name: string; readonly version: string } {
    return { name: SERVER_NAME, version: this.options.protocol.version };
  }

  /** Taught at initialize (2025-11-25) and at server/discover (2026-07-28). */
  get instructions(): string {
    return this.options.protocol.instructions;
  }

  // The handlers below are the one answer per method, whatever transport or protocol
  // revision carries the request (stdio here, Streamable HTTP in transports/http/).

  /** `apps`: the client negotiated MCP Apps (appExtension.ts); without it the list is the same bytes as ever. */
  listTools(apps = false): ListToolsResult {
    return { tools: [...(apps ? this.publishedWithApp : this.published)] };
  }

  listResourceTemplates(): ListResourceTemplatesResult {
    return { resourceTemplates: [ARTIFACT_TEMPLATE] };
  }

  listResources(apps = false): ListResourcesResult {
    const artifacts = listArtifacts(this.options.artifacts);
    return { resources: apps && this.options.app ? [DEVICE_APP_RESOURCE, ...artifacts] : artifacts };
  }

  readResource(uri: unknown): Promise<ReadResourceResult> {
    const app = this.options.app ? readAppResource(uri, this.options.app.traceViewer) : null;
    return app ? Promise.resolve(app) : readArtifact(this.options.artifacts, uri);
  }

  /** Unknown names are a protocol error (there is no tool to put in an envelope). */
  async callTool(name: string, args: Record<string, unknown>, apps = false): Promise<CallToolResult> {
    const tool = this.byName.get(name);
    if (!tool) {
      const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
      const off = this.options.offTools?.find((candidate) => candidate.name === name);
      if (off) {
        throw protocolError(
          ErrorCode.InvalidParams,
          `Unknown tool ${JSON.stringify(shown)}: it belongs to the toolset '${off.toolset}', which is off. ` +
            `Start the server with --toolsets ${off.toolset} (or ANDROID_MCP_TOOLSETS=${off.toolset}), then reconnect to see it. ` +
            `The tools now are: ${[...this.byName.keys()].join(', ')}.`,
        );
      }
      throw protocolError(
        ErrorCode.InvalidParams,
        `Unknown tool ${JSON.stringify(shown)}. The tools are: ${[...this.byName.keys()].join(', ')}.`,
      );
    }
    const result = await runTool(this.options.runner, tool, args, this.options.trace);
    const app = this.options.app;
    app?.state.record(name, args, result);
    const presented = presentResult(result);
    if (!apps || !app || !APP_TOOLS.has(name)) return presented;
    // The app's data in `_meta`, which SEP-1865 keeps out of the model's context: content and structuredContent stay as they are.
    const data = await app.state.data();
    return data ? { ...presented, _meta: { [APP_DATA_KEY]: data } } : presented;
  }

  connect(transport: Transport): Promise<void> {
    return this.server.connect(transport);
  }

  close(): Promise<void> {
    return this.server.close();
  }
}

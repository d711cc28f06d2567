import type { DeviceResolver } from '../application/devices/DeviceResolver.js';
import type { DeviceRouter } from '../application/devices/DeviceRouter.js';
import type { OperationRunner } from '../application/OperationRunner.js';
import type { CallRecorder } from '../application/trace/TraceRecorder.js';
import type { ArtifactReader } from '../mcp/artifactResource.js';
import type { ToolDefinition } from '../mcp/ToolDefinition.js';
import { DEFAULT_MAX_BODY_BYTES, type HttpRoute } from '../transports/http/HttpServer.js';
import { resolvedDevice } from './deviceIds.js';
import { restRoute } from './restRoute.js';
import { taskComponents, taskPaths } from './tasks/taskOpenApi.js';
import { taskRoute, type TaskRouteOptions } from './tasks/taskRoute.js';

/** What the mirror calls, handed over by the container: the same objects the MCP server uses. */
export interface RestMirrorParts {
  /** Every tool (allTools), whatever the toolsets the MCP catalogue shows. */
  readonly tools: readonly ToolDefinition[];
  readonly runner: OperationRunner;
  /** The server session's trace: a REST call is a line of it. */
  readonly trace: CallRecorder;
  readonly artifacts: ArtifactReader;
  readonly resolver: DeviceResolver;
  readonly router: DeviceRouter;
  readonly tasks: Omit<TaskRouteOptions, 'maxBodyBytes'>;
  readonly version: string;
}

/**
 * The REST mirror of a server: its tool definitions (all of them, so GET /devices
 * works whatever toolsets the MCP catalogue shows: toolsets size what a model is sent, and a
 * REST client is sent no catalogue), the same runner and evidence as the MCP server.
 */
export function restMirrorFor(parts: RestMirrorParts): HttpRoute {
  const tasks = taskRoute({ ...parts.tasks, maxBodyBytes: DEFAULT_MAX_BODY_BYTES });
  return restRoute({
    tools: parts.tools,
    runner: parts.runner,
    trace: parts.trace,
    artifacts: parts.artifacts,
    devices: resolvedDevice(parts.resolver, parts.router),
    version: parts.version,
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    tasks: { ...tasks, openApi: { paths: taskPaths(), schemas: taskComponents() } },
  });
}

import path from 'node:path';
import type { Container } from '../container.js';
import { TRACES_FOLDER } from '../infrastructure/trace/FileTraceStore.js';
import { packageVersion } from '../container.js';
import { DEFAULT_MAX_BODY_BYTES, type HttpRoute } from '../transports/http/HttpServer.js';
import { allTools } from '../mcp/tools/index.js';
import { resolvedDevice } from './deviceIds.js';
import { restRoute } from './restRoute.js';
import { taskComponents, taskPaths } from './tasks/taskOpenApi.js';
import { taskRoute } from './tasks/taskRoute.js';

/**
 * The REST mirror of a container: its services' tool definitions (all of them, so GET /devices
 * works whatever toolsets the MCP catalogue shows: toolsets size what a model is sent, and a
 * REST client is sent no catalogue), the same runner and evidence as the MCP server.
 */
export function restMirrorFor(container: Pick<Container, 'services' | 'runner' | 'evidence' | 'resolver' | 'router' | 'tasks' | 'deps' | 'traces' | 'config'>): HttpRoute {
  const tasks = taskRoute({
    ...container.tasks,
    clock: container.deps.clock,
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    tracesDir: path.join(container.config.artifactsDir, TRACES_FOLDER),
  });
  return restRoute({
    tools: allTools(container.services),
    runner: container.runner,
    trace: container.traces.session,
    artifacts: container.evidence,
    devices: resolvedDevice(container.resolver, container.router),
    version: packageVersion(),
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    tasks: { ...tasks, openApi: { paths: taskPaths(), schemas: taskComponents() } },
  });
}
